import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEMORY_STATUSES, MEMORY_TYPES, SCOPES, SOURCE_KINDS, SOURCE_LAYERS, type Memory } from './memory.js';
import { normalizeBody, parseMemory, renderMemory } from './memory-format.js';
import { parseMemoryFast } from './memory-fast.js';

/** The contract: undefined, or exactly what the full parser returns, with no diagnostics. */
function agrees(text: string, expectedId?: string): { fast: Memory | undefined } {
  const fast = parseMemoryFast(text, { expectedId });
  if (fast !== undefined) {
    const full = parseMemory(text, { file: 'x.md', expectedId });
    expect(full.diagnostics).toEqual([]);
    expect(fast).toEqual(full.memory);
    // Same key order too, so a re-render is byte-identical.
    expect(renderMemory(fast)).toBe(renderMemory(full.memory as Memory));
  }
  return { fast };
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);
const isoDate = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) })
  .map((ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
/** One UTF-16 unit: mostly printable ASCII, sometimes anything (controls, lone surrogates, U+2028 …). */
const anyChar = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);
/** Any one-line text, including YAML indicators, quotes, escapes, numbers and odd Unicode. */
const wild = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40, unit: anyChar }),
  fc.string({ minLength: 1, maxLength: 20, unit: fc.constantFrom(...'-?:,[]{}#&*!|>\'"%@`~ .\\0123456789eEnulTF\t\u2028é') }),
  fc.constantFrom('true', 'null', '~', '12', '0x1f', '1e3', '.5', '-1', '+3', '.inf', 'a: b', 'a #b', 'it\'s', '"q"', 'x:', '---', '...', ' lead', 'trail '),
);
const text1 = wild.map((s) => s.replace(/[\r\n]/g, ' ')).filter((s) => s.trim() !== '');

const arbitraryMemory: fc.Arbitrary<Memory> = fc.record({
  id: fc.tuple(word, fc.stringMatching(/^[a-z2-7]{6}$/)).map(([w, s]) => `${w}-${s}`),
  type: fc.constantFrom(...MEMORY_TYPES),
  summary: fc.oneof(text1, text1.map((s) => s.trim())),
  scope: fc.constantFrom(...SCOPES),
  priority: fc.integer({ min: 1, max: 10 }),
  confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5, 0.95)),
  pinned: fc.boolean(),
  status: fc.constantFrom(...MEMORY_STATUSES),
  tags: fc.uniqueArray(fc.oneof(word, text1.map((s) => s.trim().toLowerCase().replace(/\s+/g, '-')).filter((s) => s !== '')), { maxLength: 4 }),
  topic: fc.option(fc.oneof(fc.tuple(word, word).map(([a, b]) => `${a}/${b}`), text1), { nil: undefined }),
  created: isoDate,
  updated: isoDate,
  source: fc.record(
    {
      kind: fc.constantFrom(...SOURCE_KINDS),
      layer: fc.constantFrom(...SOURCE_LAYERS),
      session: fc.oneof(fc.stringMatching(/^[0-9a-f]{8}$/), text1),
      branch: fc.oneof(fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8})?$/), text1),
      commit: fc.stringMatching(/^[0-9a-f]{7,12}$/),
      files: fc.array(fc.oneof(fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}\.ts$/), text1), { maxLength: 3 }),
    },
    { requiredKeys: ['kind'] },
  ),
  body: fc.array(fc.string({ maxLength: 60, unit: anyChar }), { maxLength: 5 }).map((l) => normalizeBody(l.join('\n').replace(/\r/g, ''))),
  extra: fc.constant({}),
});

/** Plain, everyday memories: these must take the fast path. */
const plainWord = fc.constantFrom('sqlite', 'hooks', 'wal', 'index', 'cache', 'merge', 'ci', 'storage', 'x2', 'api');
const hex = fc.integer({ min: 0, max: 0xfffffff }).map((n) => `${n.toString(16).padStart(7, '0')}a`);
const ordinaryMemory: fc.Arbitrary<Memory> = fc
  .record({
    id: fc.tuple(plainWord, fc.integer({ min: 0, max: 32 ** 6 - 1 })).map(([w, n]) => `${w}-${n.toString(32).padStart(6, 'a').replace(/[0189]/g, 'q')}`),
    type: fc.constantFrom(...MEMORY_TYPES),
    summary: fc.array(plainWord, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
    scope: fc.constantFrom(...SCOPES),
    priority: fc.integer({ min: 1, max: 10 }),
    confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5, 0.95)),
    pinned: fc.boolean(),
    status: fc.constantFrom(...MEMORY_STATUSES),
    tags: fc.uniqueArray(plainWord, { maxLength: 4 }),
    topic: fc.option(fc.tuple(plainWord, plainWord).map(([a, b]) => `${a}/${b}`), { nil: undefined }),
    created: isoDate,
    updated: isoDate,
    kind: fc.constantFrom(...SOURCE_KINDS),
    session: hex,
    branch: fc.oneof(plainWord, fc.tuple(plainWord, plainWord).map(([a, b]) => `${a}/${b}`)),
    files: fc.array(plainWord.map((w) => `src/${w}.ts`), { maxLength: 3 }),
    body: fc.array(plainWord, { maxLength: 12 }).map((w) => w.join(' ')),
  })
  .map(({ topic, kind, session, branch, files, ...m }) => ({
    ...m,
    ...(topic === undefined ? {} : { topic }),
    source: { kind, layer: 'manual' as const, session, branch, files },
    extra: {},
  }));

const BASE_MEMORY: Memory = {
  id: 'base-abcdef',
  type: 'gotcha',
  summary: 'Base',
  scope: 'project',
  priority: 5,
  confidence: 1,
  pinned: false,
  status: 'active',
  tags: [],
  created: '2026-01-01T00:00:00Z',
  updated: '2026-01-01T00:00:00Z',
  source: { kind: 'manual' },
  body: '',
  extra: {},
};

describe('parseMemoryFast', () => {
  it('agrees with parseMemory on every rendered memory (property)', () => {
    fc.assert(
      fc.property(arbitraryMemory, (m) => {
        agrees(renderMemory(m), m.id);
      }),
      { numRuns: 500 },
    );
  });

  it('takes the fast path for ordinary memories (property)', () => {
    fc.assert(
      fc.property(ordinaryMemory, (m) => {
        const { fast } = agrees(renderMemory(m), m.id);
        expect(fast).toEqual(m);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with parseMemory on mutated files: inserted, deleted and edited lines (property)', () => {
    const edit = fc.record({
      at: fc.nat(),
      op: fc.constantFrom('insert', 'delete', 'replace', 'append', 'value', 'value', 'value'),
      value: fc.oneof(
        wild.map((v) => v.replace(/[\r\n]/g, '')),
        fc.constantFrom(
          'x # y', 'x #y', 'a: b', 'a:b', 'x:', '"a\\"b"', '"a\\\\b"', '"a\\tb"', "'a''b'", "'a'b'", '"x" y', '[a, b]', '[a,b]', '[a, b c]',
          '[a, [b]]', '[a, b{c}]', '[a:b]', '[a: b]', '["a, b", c]', "['x']", '[a ,b]', '[ a]', '[a, ]', '[]', '[', 'null', '~', '', 'True',
          'FALSE', 'yes', '0x1A', '0o17', '1_000', '.5', '5.', '1e1', '-0', '+1', '.NaN', '-.inf', '07', '10', '11', '0', '2026-01-01',
          '2026-13-45T00:00:00Z', '2026-01-01T00:00:00+02:00', '!!str 5', '&a x', '*a', '|', '>-', '%x', '@x', '`x', '? x', '- x', 'x\ty',
        ),
      ),
      line: fc.oneof(
        fc.string({ maxLength: 30, unit: anyChar }).map((s) => s.replace(/[\r\n]/g, '')),
        fc.constantFrom(
          '# comment', 'extra: 1', '  layer: llm', '  nested:', '    deep: x', 'tags: a, b', 'tags:', '  - a', 'topic:', 'topic: null',
          'summary: |', '  folded', '---', '----', '...', 'priority: 11', 'priority: "5"', 'confidence: 1e-1', 'pinned: yes',
          'id: other-abcdef', 'created: yesterday', 'source: {kind: manual}', 'status: gone', 'summary: x # y', 'summary:  two',
          'tags: [a,b]', 'tags: [a, [b]]', "tags: ['a''b', \"c\\\\d\"]", 'summary: "a\\tb"', "summary: 'it''s'", 'summary: "\\u00e9"',
        ),
      ),
    });
    fc.assert(
      fc.property(ordinaryMemory, fc.array(edit, { minLength: 1, maxLength: 3 }), fc.boolean(), (m, edits, crlf) => {
        const lines = renderMemory(m).split('\n');
        for (const e of edits) {
          const i = e.at % (lines.length + 1);
          if (e.op === 'insert') lines.splice(i, 0, e.line);
          else if (e.op === 'delete') lines.splice(i, 1);
          else if (e.op === 'replace') lines[i] = e.line;
          else if (e.op === 'append') lines[i] = `${lines[i] ?? ''}${e.line}`;
          else {
            // Hand edits of a value: the commonest way a file leaves the canonical form.
            const key = /^(\s*[a-z]+):/.exec(lines[i] ?? '');
            if (key) lines[i] = `${key[1]}: ${e.value}`;
          }
        }
        const text = lines.join(crlf ? '\r\n' : '\n');
        agrees(text, m.id);
        agrees(text);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with parseMemory on hand-edited flow lists (property)', () => {
    const item = fc.oneof(plainWord, wild, fc.constantFrom('[b]', 'b{c}', '{x}', 'b}c', 'a]', '"q, r"', "'s'", '"t\\"u"', 'x y', ' ', 'a:b', 'a: b', '12', 'true', '#x', 'x #y', '-'));
    const list = fc
      .tuple(fc.array(item, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , ', ',  '), fc.constantFrom(['[', ']'], ['[ ', ' ]'], ['[', ''], ['', ']']))
      .map(([items, sep, [open, close]]) => `${open}${items.join(sep)}${close}`);
    fc.assert(
      fc.property(ordinaryMemory, list, fc.boolean(), (m, value, inSource) => {
        const text = renderMemory({ ...m, source: { ...m.source, files: ['src/a.ts'] } });
        const edited = inSource ? text.replace(/^ {2}files: .*$/m, `  files: ${value}`) : text.replace(/^tags: .*$/m, `tags: ${value}`);
        agrees(edited, m.id);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with parseMemory on every fixture memory in the repository', () => {
    const root = new URL('../../test/fixtures/', import.meta.url).pathname;
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.md') && /[/\\]memories[/\\]/.test(path)) files.push(path);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(20);
    let fast = 0;
    for (const file of files) {
      const id = file.split(/[/\\]/).pop()!.slice(0, -3);
      if (agrees(readFileSync(file, 'utf8'), id).fast) fast++;
    }
    // Hand-written fixtures quote summaries and use `1.0`: most still take the fast path.
    expect(fast).toBeGreaterThan(files.length / 2);
  });

  it('trims a body exactly like normalizeBody, for every white-space character', () => {
    const spaces = [...' \t\v\f\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u180e\u200b\u0085'];
    for (const c of spaces) {
      const m: Memory = { ...BASE_MEMORY, body: `Body${c}` };
      const text = `${renderMemory({ ...m, body: 'Body' }).slice(0, -1)}${c}\n${c}${c}`;
      expect(parseMemoryFast(text)?.body).toBe(parseMemory(text).memory?.body);
      expect(normalizeBody(`\n${c}\nx${c}`)).toBe(parseMemoryFast(`${renderMemory({ ...m, body: '' })}\n${c}\nx${c}`)?.body);
    }
  });

  it('reads quoted values, a BOM and CRLF line ends', () => {
    const text = '\uFEFF---\r\nid: a-abcdef\r\ntype: gotcha\r\nsummary: "Hooks: \\"never\\" block"\r\ntags: [\'it\'\'s\', "a b"]\r\ncreated: 2026-01-01T00:00:00Z\r\nupdated: \'2026-01-02T00:00:00Z\'\r\n---\r\n\r\nBody.\r\n';
    const { fast } = agrees(text, 'a-abcdef');
    expect(fast).toMatchObject({ summary: 'Hooks: "never" block', tags: ["it's", 'a-b'], updated: '2026-01-02T00:00:00Z', body: 'Body.' });
  });

  it('leaves to the full parser what it cannot be sure of', () => {
    const base = ['---', 'id: a-abcdef', 'type: gotcha', 'summary: S', 'created: 2026-01-01T00:00:00Z', 'updated: 2026-01-01T00:00:00Z'];
    const cases = [
      [...base, '# comment', '---', ''],
      [...base, 'extra: kept', '---', ''],
      [...base, 'summary: twice', '---', ''],
      [...base, 'tags: a, b', '---', ''],
      [...base, 'source:', '  kind: manual', '  extra: x', '---', ''],
      [...base, 'source:', '  session: 1234', '---', ''],
      [...base, '---x', ''],
      [...base],
      ['---', 'id: a-abcdef', 'type: gotcha', 'summary: "a\\nb"', 'created: 2026-01-01T00:00:00Z', 'updated: 2026-01-01T00:00:00Z', '---', ''],
      ['---', 'id: a-abcdef', 'type: gotcha', 'summary: 42', 'created: 2026-01-01T00:00:00Z', 'updated: 2026-01-01T00:00:00Z', '---', ''],
      ['---', 'id: a-abcdef', 'type: gotcha', 'summary: S', 'created: 2026-01-01T00:00:00Z', '---', ''],
    ];
    for (const lines of cases) expect(agrees(lines.join('\n'), 'a-abcdef').fast).toBeUndefined();
    expect(parseMemoryFast([...base, '---', 'Body'].join('\n'), { expectedId: 'b-abcdef' })).toBeUndefined();
    expect(parseMemoryFast([...base, '---', 'Body'].join('\n'), { expectedId: 'a-abcdef' })?.body).toBe('Body');
  });
});
