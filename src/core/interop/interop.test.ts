import { describe, expect, it } from 'vitest';
import { claudeProjectDirName, exportClaudeMemory, parseClaudeMemory } from './claude.js';
import { exportMcpMemory, observationsOf, parseMcpMemory } from './mcp-memory.js';
import { exportJsonl, parseJsonl } from './jsonl.js';
import { parseSections, renderSections, spliceBetween, typeOfHeading } from './sections.js';
import { parseBasicMemory } from './basic-memory.js';
import { readHiddenMeta } from './text.js';
import { testMemory } from '../../../test/helpers/arbitrary.js';

describe('typeOfHeading', () => {
  it('reads the kind of knowledge a heading names', () => {
    expect(typeOfHeading('Key Technical Decisions')).toBe('decision');
    expect(typeOfHeading('Known Issues')).toBe('gotcha');
    expect(typeOfHeading('Code style')).toBe('pattern');
    expect(typeOfHeading('Setup commands')).toBeUndefined();
  });
});

describe('parseSections', () => {
  it('makes a record of each list item and paragraph, typed by the nearest heading, body indented under it', () => {
    const recs = parseSections('# T\n\n## Decisions\n- Use SQLite\n  No server.\n\n```sh\nx\n```\n\nA paragraph\nstill it.\n', { defaultType: 'context' });
    expect(recs.map((r) => [r.type, r.summary, r.body])).toEqual([
      ['decision', 'Use SQLite', 'No server.\n\n```sh\nx\n```'],
      ['decision', 'A paragraph', 'still it.'],
    ]);
  });
  it('skips the Cortex briefing and comment lines', () => {
    expect(parseSections('<!-- note -->\n<!-- CORTEX_MEMORY_START -->\n- x\n<!-- CORTEX_MEMORY_END -->\n- y\n', { defaultType: 'context' }).map((r) => r.summary)).toEqual(['y']);
  });
  it('reads back what renderSections writes', () => {
    const ms = [
      { type: 'gotcha' as const, summary: 'CI has no GPU', body: 'Skip CUDA.\n\n- a\n- b', tags: ['ci'] },
      { type: 'decision' as const, summary: 'Use WAL', body: '', tags: [] },
    ];
    const back = parseSections(renderSections(ms), { defaultType: 'context' }).map((r) => ({ type: r.hidden?.type, summary: r.summary, body: r.body, tags: r.hidden?.tags ?? [] }));
    expect(back).toEqual([
      { type: 'decision', summary: 'Use WAL', body: '', tags: [] },
      { type: 'gotcha', summary: 'CI has no GPU', body: 'Skip CUDA.\n\n- a\n- b', tags: ['ci'] },
    ]);
  });
});

describe('readHiddenMeta', () => {
  it('strips and reads the export comment', () => {
    expect(readHiddenMeta('Use WAL <!-- cortex type=decision tags=a,b -->')).toEqual({ text: 'Use WAL', type: 'decision', tags: ['a', 'b'] });
  });
});

describe('spliceBetween', () => {
  const markers = { start: '<!-- S -->', end: '<!-- E -->' };
  it('appends, then replaces only between the markers', () => {
    const once = spliceBetween('# A\n', 'one\n', markers);
    expect(once).toEqual({ ok: true, text: '# A\n\n<!-- S -->\none\n<!-- E -->\n' });
    expect(spliceBetween(`${(once as { text: string }).text}tail\n`, 'two\n', markers)).toEqual({ ok: true, text: '# A\n\n<!-- S -->\ntwo\n<!-- E -->\ntail\n' });
  });
  it('refuses a lone marker', () => {
    expect(spliceBetween('<!-- S -->\n', 'x', markers).ok).toBe(false);
  });
});

describe('claude', () => {
  it('names the project directory as Claude Code does', () => {
    expect(claudeProjectDirName('/Users/me/my_repo.v2')).toBe('-Users-me-my-repo-v2');
  });
  it('maps topic files by their type, user memories private', () => {
    const out = parseClaudeMemory([
      { path: 'user_role.md', text: '---\nname: role\ndescription: Go developer\ntype: user\n---\nBody\n' },
      { path: 'p.md', text: '---\nname: p\ndescription: Freeze\nmetadata:\n  type: project\nmodified: 2026-03-05\n---\n' },
      { path: 'MEMORY.md', text: '- [Role](user_role.md) — who\n## Gotchas\n- CORS is the proxy\n' },
    ]);
    expect(out.records.map((r) => [r.type, r.summary, r.private ?? false, r.updated])).toEqual([
      ['preference', 'Go developer', true, undefined],
      ['context', 'Freeze', false, '2026-03-05T00:00:00Z'],
      ['gotcha', 'CORS is the proxy', false, undefined],
    ]);
  });
  it('exports topic files and its index section, keeping the rest of MEMORY.md', () => {
    const m = testMemory('use-wal-abcdef', { summary: 'Use WAL', body: 'Hooks write.' });
    const out = exportClaudeMemory([m], { existingIndex: '# Mine\n', existingFiles: ['cortex-old-aaaaaa.md', 'notes.md'] });
    expect(out.files[0]!.path).toBe('cortex-use-wal-abcdef.md');
    expect(parseClaudeMemory(out.files).records[0]).toMatchObject({ type: 'decision', summary: 'Use WAL', body: 'Hooks write.' });
    expect(out.index.ok && out.index.text.startsWith('# Mine\n\n<!-- CORTEX_EXPORT_START -->')).toBe(true);
    expect(out.stale).toEqual(['cortex-old-aaaaaa.md']);
  });
});

describe('mcp-memory', () => {
  it('round-trips entities and relations', () => {
    const text = '{"//":"c"}\n{"type":"entity","name":"A","entityType":"person","observations":["x","y"]}\n{"type":"relation","from":"A","to":"B","relationType":"knows"}\n';
    const { source, errors } = parseMcpMemory(text, 'm.jsonl');
    expect(errors).toEqual([]);
    expect(source.records[0]).toMatchObject({ summary: 'A', type: 'context', body: '- x\n- y', tags: ['entity:person'] });
    expect(source.relations[0]).toMatchObject({ from: 'A', to: 'B', relation: 'knows' });
    const m = testMemory('a-aaaaaa', { summary: 'A', type: 'context', body: '- x\n- y', tags: ['entity:person'] });
    expect(exportMcpMemory([m], [])).toBe('{"type":"entity","name":"A","entityType":"person","observations":["x","y"]}\n');
  });
  it('names the malformed line', () => {
    expect(parseMcpMemory('{"type":"entity","name":"A"}\nnot json\n', 'm').errors[0]!.line).toBe(2);
  });
  it('turns a body into observations', () => {
    expect(observationsOf('One.\n\nTwo.')).toEqual(['One.', 'Two.']);
  });
});

describe('jsonl', () => {
  it('parse(export(x)) gives back the memories', () => {
    const m = testMemory('a-aaaaaa', { extra: { x_k: 1 } });
    expect(parseJsonl(exportJsonl([m], []), 'x').source.records[0]!.memory).toEqual(m);
  });
});

describe('parseBasicMemory', () => {
  it('reads title, type, tags and relations', () => {
    const out = parseBasicMemory([{ path: 'a.md', text: '---\ntitle: Search\ntype: note\npermalink: search\n---\n# Search\n- [decision] Use BM25 #ranking\n- implements [[Indexing]]\n' }]);
    expect(out.records[0]).toMatchObject({ key: 'search', summary: 'Search', type: 'decision', tags: ['ranking'], body: '- [decision] Use BM25 #ranking' });
    expect(out.relations[0]).toMatchObject({ from: 'search', to: 'Indexing', relation: 'implements' });
  });
});
