import fc from 'fast-check';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { arbitraryMemory } from '../../test/helpers/arbitrary.js';
import { memoryFrontmatter, renderMemory, renderYaml } from './memory-format.js';
import { fastFrontmatter, renderFastFrontmatter } from './fast-frontmatter.js';

/** The reference: gray-matter split + yaml parse. */
function reference(text: string): { data: unknown; body: string } {
  let data: unknown;
  const parsed = matter(text, { engines: { yaml: (s: string) => ((data = parseYaml(s, { uniqueKeys: true })), {}) } } as never);
  return { data, body: parsed.content };
}

describe('fastFrontmatter', () => {
  it('reads canonical files exactly like gray-matter + yaml (property)', () => {
    fc.assert(
      fc.property(arbitraryMemory, (m) => {
        const text = renderMemory(m);
        const fast = fastFrontmatter(text);
        const ref = reference(text);
        if (fast) {
          expect(fast.data).toEqual(ref.data);
          expect(fast.body).toBe(ref.body);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('takes the fast path for typical files', () => {
    const text = '---\nid: a-abcdef\ntype: decision\nsummary: Chose SQLite\npriority: 7\nconfidence: 0.95\npinned: false\ntags: [storage, sqlite]\ncreated: 2026-11-21T10:00:00Z\nsource:\n  kind: manual\n  commit: "1234567"\n---\nBody\n';
    const fast = fastFrontmatter(text);
    expect(fast?.data).toEqual(reference(text).data);
    expect(fast?.lines.get('tags')).toBe(8);
    expect(fast?.body).toBe('Body\n');
  });

  it('steps aside for a plain number where source keeps an identifier', () => {
    const head = '---\nid: a-abcdef\nsource:\n  kind: manual\n';
    expect(fastFrontmatter(`${head}  commit: 0123456\n---\n`)).toBeUndefined();
    expect(fastFrontmatter(`${head}  session: 42\n---\n`)).toBeUndefined();
    expect(fastFrontmatter(`${head}  commit: "0123456"\n---\n`)?.data).toEqual({ id: 'a-abcdef', source: { kind: 'manual', commit: '0123456' } });
    expect(fastFrontmatter('---\nid: a-abcdef\nother:\n  commit: 42\n---\n')?.data).toEqual({ id: 'a-abcdef', other: { commit: 42 } });
  });

  it('agrees with yaml, or steps aside, on arbitrary key/value lines (property)', () => {
    const line = fc.tuple(fc.constantFrom('id', 'summary', 'tags', 'priority', 'x'), fc.oneof(fc.string({ maxLength: 30 }), fc.string({ maxLength: 12, unit: 'binary' }))).map(([k, v]) => `${k}: ${v.replace(/\n/g, ' ')}`);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (rows) => {
        const text = `---\n${rows.join('\n')}\n---\nbody`;
        const fast = fastFrontmatter(text);
        if (!fast) return;
        let ref: { data: unknown; body: string };
        try {
          ref = reference(text);
        } catch {
          throw new Error(`fast path accepted what yaml rejects: ${JSON.stringify(text)}`);
        }
        expect(fast.data).toEqual(ref.data ?? {});
        expect(fast.body).toBe(ref.body);
      }),
      { numRuns: 4000 },
    );
  });

  it.each([
    ['a block sequence', '---\ntags:\n  - a\n---\n'],
    ['a comment', '---\nid: a # note\n---\n'],
    ['a multi-line scalar', '---\nsummary: >\n  folded\n---\n'],
    ['an escape in double quotes', '---\nsummary: "a\\tb"\n---\n'],
    ['a duplicate key', '---\nid: a\nid: b\n---\n'],
    ['deep nesting', '---\nsource:\n  extra:\n    deep: 1\n---\n'],
    ['a hex number', '---\npriority: 0x1F\n---\n'],
    ['no closing fence', '---\nid: a\n'],
  ])('steps aside for %s', (_, text) => {
    expect(fastFrontmatter(text)).toBeUndefined();
  });
});

/** Strings at the edges of what YAML writes plain, quoted, escaped or as a block. */
const TRICKY = [
  '', ' ', 'a: b', 'a:b', 'a #b', 'a#b', '#a', '- a', '-a', '-', '?', '? a', ':', 'a:', 'a :', 'true', 'True', 'TRUE', 'false', 'yes', 'no', 'null', 'Null', '~',
  '123', '-7', '+7', '007', '0x1F', '0o17', '1e3', '1E-3', '.5', '5.', '1.5', '.inf', '-.Inf', '.nan', '1_000', "it's", 'say "hi"', `both ' and "`,
  'back\\slash', 'a\\nb', '%x', '---', '--- x', '...x', '..x', '[a]', '{a}', 'a,b', 'a, b', '@x', '`x`', '|x', '>x', '!x', '&x', '*x', "'x'", '"x"',
  'x\ty', 'x\ny', 'x\n', '\nx', 'x\r', 'é', 'naïve café', '😀 emoji', '\u2028', 'a\u2029b', '\u00a0x', 'x\u00a0', '\ufeffx', '\u0085', '\u007f', 'a  b',
  'trailing ', ' leading', '\ud800', 'x\udc00y', 'Gotcha: the cache is stale', 'Use X -> Y', 'C:\\path', '2026-11-21T10:00:00Z', '0123456', '1234e56',
];

// Weighted towards what the fast path takes, so most runs compare its bytes with yaml's.
const scalar = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY), weight: 4 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ maxLength: 12, unit: 'binary' }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }), weight: 2 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.constantFrom(0, -0, 1e21, 1e-7, 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);
const key = fc.oneof(
  { arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/), weight: 12 },
  { arbitrary: fc.constantFrom('true', 'Null', 'null', 'a b', '1x', '__proto__', 'k'.repeat(1100), 'é', ''), weight: 1 },
);
const list = fc.array(fc.oneof({ arbitrary: scalar, weight: 12 }, { arbitrary: fc.constantFrom<unknown>(undefined, {}, []), weight: 1 }), { maxLength: 4 });
const odd = fc.constantFrom<unknown>(undefined, new Date(0), { deep: 1 });
const inner = fc.dictionary(key, fc.oneof({ arbitrary: scalar, weight: 8 }, { arbitrary: list, weight: 3 }, { arbitrary: odd, weight: 1 }), { maxKeys: 4 });
const frontmatter = fc.dictionary(key, fc.oneof({ arbitrary: scalar, weight: 8 }, { arbitrary: list, weight: 3 }, { arbitrary: inner, weight: 3 }), { maxKeys: 5 });

describe('renderFastFrontmatter', () => {
  it('writes what yaml writes, byte for byte, or steps aside (property)', () => {
    let fast = 0;
    const runs = 5000;
    fc.assert(
      fc.property(frontmatter, (fm) => {
        const text = renderFastFrontmatter(fm);
        if (text === undefined) return;
        fast++;
        expect(text).toBe(renderYaml(fm));
      }),
      { numRuns: runs },
    );
    // Not a test of the fallback alone: the generator reaches the fast path often (45 %).
    expect(fast).toBeGreaterThan(runs * 0.3);
  });

  it('writes every memory yaml writes, byte for byte, and most of them itself (property)', () => {
    let fast = 0;
    const runs = 1000;
    fc.assert(
      fc.property(arbitraryMemory, (m) => {
        const fm = memoryFrontmatter(m);
        const text = renderFastFrontmatter(fm);
        if (text === undefined) return;
        fast++;
        expect(text).toBe(renderYaml(fm));
      }),
      { numRuns: runs },
    );
    expect(fast).toBeGreaterThan(runs * 0.5);
  });

  it.each(TRICKY.map((s) => [JSON.stringify(s), s] as const))('agrees with yaml on the summary %s', (_, s) => {
    const fm = { id: 'a-abcdef', summary: s, tags: [s, 'x'], source: { kind: 'manual', files: [s] } };
    const fast = renderFastFrontmatter(fm);
    if (fast !== undefined) expect(fast).toBe(renderYaml(fm));
  });

  it('takes the fast path for what capture writes: punctuation, quotes, accents, emoji', () => {
    for (const summary of ['Gotcha: the cache is stale', "Don't run the migration twice", 'Use "npm ci" in CI', 'Café ☕ needs UTF-8', 'Ship it 🚀', 'Use X -> Y (not Z)', '']) {
      const fm = { id: 'a-abcdef', type: 'gotcha', summary, priority: 5, confidence: 0.85, pinned: false, tags: ['db', 'ci'], created: '2026-11-21T10:00:00Z', source: { kind: 'extraction', layer: 'keyword', session: '0123456', files: ['src/db.ts'] } };
      expect(renderFastFrontmatter(fm), summary).toBe(renderYaml(fm));
    }
  });

  it.each([
    ['a multi-line string', { summary: 'a\nb' }],
    ['a tab', { summary: 'a\tb' }],
    ['a leading document marker', { summary: '--- x' }],
    ['an object met twice (yaml writes an alias)', (() => { const files = ['a.ts']; return { a: files, source: { files } }; })()],
    ['a list of mappings', { extra: [{ a: 1 }] }],
    ['nesting two levels down', { source: { extra: { deep: 1 } } }],
    ['a key yaml quotes', { true: 'x' }],
    ['a date', { created: new Date(0) }],
    ['nothing', {}],
  ])('steps aside for %s', (_, fm) => {
    expect(renderFastFrontmatter(fm as Record<string, unknown>)).toBeUndefined();
  });
});
