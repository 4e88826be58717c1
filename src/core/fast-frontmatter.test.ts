import fc from 'fast-check';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { arbitraryMemory } from '../../test/helpers/arbitrary.js';
import { renderMemory } from './memory-format.js';
import { fastFrontmatter } from './fast-frontmatter.js';

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
