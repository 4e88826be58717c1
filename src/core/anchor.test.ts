import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorMatches, normalizeRepoPath, parseAnchor, renderAnchor, repoRelative, symbolNameMatches } from './anchor.js';
import { findSymbol, grammarOf, normalizeSymbolText, symbolsTouching, type CodeSymbol } from './code-symbols.js';
import { renderFileMemories, selectFileMemories, type FileAnchored } from './file-recall.js';

describe('parseAnchor', () => {
  it('reads a path, a symbol or a line range', () => {
    expect(parseAnchor('src/db.ts')).toEqual({ path: 'src/db.ts' });
    expect(parseAnchor('./src/db.ts#Pool.acquire')).toEqual({ path: 'src/db.ts', symbol: 'Pool.acquire' });
    expect(parseAnchor('src\\db.ts#L3-L9')).toEqual({ path: 'src/db.ts', lines: [3, 9] });
    expect(parseAnchor('a.go#L7')).toEqual({ path: 'a.go', lines: [7, 7] });
    expect(parseAnchor('a.go#12-20')).toEqual({ path: 'a.go', lines: [12, 20] });
    // A backwards range is not a range: kept as written, as a symbol name.
    expect(parseAnchor('a.go#L9-L3')).toEqual({ path: 'a.go', symbol: 'L9-L3' });
    expect(parseAnchor('a.go#')).toEqual({ path: 'a.go' });
  });
  it('round-trips through renderAnchor', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(segment, { nil: undefined }), (parts, symbol) => {
        const path = `${parts.join('/')}.ts`;
        const anchor = symbol === undefined ? { path } : { path, symbol };
        expect(parseAnchor(renderAnchor(anchor))).toEqual(anchor);
      }),
    );
  });
});

describe('repoRelative', () => {
  it('makes paths inside the root relative and refuses the rest', () => {
    expect(repoRelative('/repo', '/repo/src/db.ts')).toBe('src/db.ts');
    expect(repoRelative('/repo/', '/repo/src/db.ts')).toBe('src/db.ts');
    expect(repoRelative('/repo', 'src/../src/db.ts')).toBe('src/db.ts');
    expect(repoRelative('/repo', '/repository/x.ts')).toBeUndefined();
    expect(repoRelative('/repo', '/repo/../etc/passwd')).toBeUndefined();
    expect(repoRelative('/repo', '../x.ts')).toBeUndefined();
    expect(repoRelative('C:\\work\\repo', 'c:\\work\\repo\\src\\a.rs')).toBe('src/a.rs');
    expect(normalizeRepoPath('.//src//a.py/')).toBe('src/a.py');
  });
});

describe('anchorMatches and symbolNameMatches', () => {
  it('matches a qualified name by its last segments, and a file anchor for every symbol', () => {
    expect(symbolNameMatches('Pool.acquire', 'acquire')).toBe(true);
    expect(symbolNameMatches('acquire', 'Pool.acquire')).toBe(true);
    expect(symbolNameMatches('Pool.acquire', 'quire')).toBe(false);
    expect(anchorMatches(parseAnchor('src/db.ts'), 'src/db.ts', 'acquire')).toBe(true);
    expect(anchorMatches(parseAnchor('src/db.ts#release'), 'src/db.ts', 'acquire')).toBe(false);
    expect(anchorMatches(parseAnchor('src/db.ts#release'), 'src/other.ts')).toBe(false);
  });
});

const sym = (qualified: string, kind: CodeSymbol['kind'], startLine: number, endLine: number): CodeSymbol => ({
  name: qualified.slice(qualified.lastIndexOf('.') + 1),
  qualified,
  kind,
  startLine,
  endLine,
  hash: qualified,
});

describe('findSymbol', () => {
  const symbols = [sym('Pool', 'class', 1, 30), sym('Pool.acquire', 'method', 5, 12), sym('Pool.release', 'method', 14, 20), sym('Queue.acquire', 'method', 40, 44), sym('createPool', 'function', 32, 34)];
  it('finds by qualified name, by a unique name, and refuses an ambiguous one', () => {
    expect(findSymbol(symbols, { path: 'a.ts', symbol: 'Pool.acquire' })?.startLine).toBe(5);
    expect(findSymbol(symbols, { path: 'a.ts', symbol: 'createPool' })?.kind).toBe('function');
    expect(findSymbol(symbols, { path: 'a.ts', symbol: 'release' })?.qualified).toBe('Pool.release');
    expect(findSymbol(symbols, { path: 'a.ts', symbol: 'acquire' })).toBeUndefined();
    expect(findSymbol(symbols, { path: 'a.ts', symbol: 'drain' })).toBeUndefined();
  });
  it('resolves a line range to the smallest symbol around it', () => {
    expect(findSymbol(symbols, { path: 'a.ts', lines: [6, 8] })?.qualified).toBe('Pool.acquire');
    expect(findSymbol(symbols, { path: 'a.ts', lines: [6, 16] })?.qualified).toBe('Pool');
    expect(findSymbol(symbols, { path: 'a.ts', lines: [100, 101] })).toBeUndefined();
  });
  it('lists the symbols a change touches, innermost first', () => {
    expect(symbolsTouching(symbols, [[7, 7]]).map((s) => s.qualified)).toEqual(['Pool.acquire', 'Pool']);
  });
});

describe('normalizeSymbolText and grammarOf', () => {
  it('ignores indentation and blank lines but not tokens', () => {
    expect(normalizeSymbolText('  f() {\n\n    return 1;\n  }\n')).toBe(normalizeSymbolText('f() {\n  return 1;\n}'));
    expect(normalizeSymbolText('f() { return 1; }')).not.toBe(normalizeSymbolText('f() { return 2; }'));
  });
  it('knows the languages index-code parses', () => {
    expect(['a.ts', 'b.tsx', 'c.mjs', 'd.py', 'e.go', 'f.rs', 'g.d.ts'].map(grammarOf)).toEqual(['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'typescript']);
    expect(grammarOf('README.md')).toBeUndefined();
    expect(grammarOf('dir.ts/file')).toBeUndefined();
  });
});

describe('selectFileMemories and renderFileMemories', () => {
  const item = (id: string, entry: string, priority = 5, updated = '2026-11-01T00:00:00Z'): FileAnchored => ({ id, type: 'gotcha', summary: `about ${id}`, preview: `detail of ${id}`, updated, priority, entry });
  const entries = [item('file-wide', 'src/db.ts', 9), item('on-acquire', 'src/db.ts#Pool.acquire'), item('on-release', 'src/db.ts#release'), item('on-acquire', 'src/db.ts#acquire')];
  it('puts symbol anchors first, keeps each memory once and honours exclude and symbol', () => {
    expect(selectFileMemories(entries).map((e) => e.id)).toEqual(['on-acquire', 'on-release', 'file-wide']);
    expect(selectFileMemories(entries, { symbol: 'acquire' }).map((e) => e.id)).toEqual(['on-acquire', 'file-wide']);
    expect(selectFileMemories(entries, { exclude: ['on-acquire'], limit: 1 }).map((e) => e.id)).toEqual(['on-release']);
  });
  it('renders within the budget and reports what it holds', () => {
    const { text, ids } = renderFileMemories('src/db.ts', selectFileMemories(entries), { maxChars: 150 });
    expect(text.length).toBeLessThanOrEqual(150);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(text).toContain(id);
    expect(renderFileMemories('src/db.ts', [])).toEqual({ text: '', ids: [] });
  });
});

describe('capture keeps code anchors the conversation names', () => {
  it('filesIn returns path#symbol as written, and plain paths as before', async () => {
    const { filesIn } = await import('./extract/prose.js');
    expect(filesIn('The retry in `src/jobs/retry.py#run_with_retry` is deliberate; see src/db.ts and Node.js docs.')).toEqual(['src/jobs/retry.py#run_with_retry', 'src/db.ts']);
    expect(filesIn('keep src/db/pool.ts#Pool.acquire allocation-free.')).toEqual(['src/db/pool.ts#Pool.acquire']);
  });
});
