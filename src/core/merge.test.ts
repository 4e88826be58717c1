import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MEMORY_FORMAT,
  mergeFrontmatterRecord,
  mergeFrontmatterText,
  mergeMemoryText,
  mergeText,
  type MergeResult,
} from './merge.js';
import { MEMORY_STATUSES, MEMORY_TYPES, SOURCE_KINDS, type Memory } from './memory.js';
import { parseMemory, renderMemory } from './memory-format.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

function readFixture(dir: string, name: string): string | null {
  const path = `${FIXTURES}${dir}/${name}`;
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

const BASE: Memory = {
  id: 'chose-sqlite-k3f9qa',
  type: 'decision',
  summary: 'Chose SQLite',
  scope: 'project',
  priority: 5,
  confidence: 0.9,
  pinned: false,
  status: 'active',
  tags: ['storage', 'sqlite'],
  topic: 'decision/storage',
  created: '2026-01-01T00:00:00Z',
  updated: '2026-01-01T00:00:00Z',
  source: { kind: 'manual', branch: 'main', files: ['src/db.ts'] },
  body: 'Line one.\nLine two.\nLine three.',
  extra: {},
};

const render = (patch: Partial<Memory> = {}): string => renderMemory({ ...BASE, ...patch });
const parsed = (text: string | null): Memory => {
  const result = parseMemory(text ?? '');
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.memory as Memory;
};
const merge = (base: string | null, ours: string | null, theirs: string | null): MergeResult =>
  mergeMemoryText({ base, ours, theirs, file: 'm.md' });

describe('mergeMemoryText', () => {
  describe('fixtures', () => {
    // merge-<scenario>/ holds base.md, ours.md, theirs.md (any may be absent: deleted) and the
    // expected result; merge-projections/ is a projection golden set (projection.test.ts).
    const dirs = readdirSync(FIXTURES).filter((d) => d.startsWith('merge-') && !existsSync(`${FIXTURES}${d}/memories`));
    it('has a fixture for every scenario the rules name', () => {
      expect(dirs.length).toBeGreaterThanOrEqual(10);
    });
    for (const dir of dirs) {
      const expected = JSON.parse(readFixture(dir, 'expected.json') ?? '{}') as {
        scenario: string;
        clean: boolean;
        conflicts: Array<Record<string, unknown>>;
      };
      it(`${dir}: ${expected.scenario}`, () => {
        const result = mergeMemoryText({
          base: readFixture(dir, 'base.md'),
          ours: readFixture(dir, 'ours.md'),
          theirs: readFixture(dir, 'theirs.md'),
          file: `${dir}.md`,
        });
        expect(result.text).toBe(readFixture(dir, 'expected.md'));
        expect(result.clean).toBe(expected.clean);
        expect(result.conflicts.map((c) => Object.fromEntries(Object.keys(expected.conflicts[0] ?? {}).map((k) => [k, c[k as keyof typeof c]])))).toEqual(
          expected.conflicts,
        );
      });
    }
  });

  it('takes the lowered priority when only one side changed it', () => {
    const r = merge(render(), render({ priority: 2 }), render({ body: 'Line one.\nLine two.\nLine three.\nLine four.' }));
    expect(r.clean).toBe(true);
    expect(parsed(r.text).priority).toBe(2);
    expect(parsed(r.text).body).toContain('Line four.');
  });

  it('reactivates an archived memory when one side made it active and the other left it', () => {
    const base = render({ status: 'archived' });
    const r = merge(base, render({ status: 'active' }), render({ status: 'archived', tags: ['storage'] }));
    expect(parsed(r.text).status).toBe('active');
    expect(parsed(r.text).tags).toEqual(['storage']);
  });

  it('keeps an unpin when the other side did not touch pinned', () => {
    const base = render({ pinned: true });
    const r = merge(base, render({ pinned: false }), render({ pinned: true, priority: 9 }));
    expect(parsed(r.text)).toMatchObject({ pinned: false, priority: 9 });
  });

  it('takes the max confidence and the min created when both sides changed them', () => {
    const r = merge(
      render(),
      render({ confidence: 0.7, created: '2025-12-30T00:00:00Z', updated: '2026-02-01T00:00:00Z' }),
      render({ confidence: 0.95, created: '2025-12-31T00:00:00Z', updated: '2026-01-15T00:00:00Z' }),
    );
    expect(r.clean).toBe(true);
    expect(parsed(r.text)).toMatchObject({ confidence: 0.95, created: '2025-12-30T00:00:00Z', updated: '2026-02-01T00:00:00Z' });
  });

  it('merges source keys one by one and source.files as a set', () => {
    const r = merge(
      render(),
      render({ source: { kind: 'manual', branch: 'feat/a', files: ['src/db.ts', 'src/a.ts'] } }),
      render({ source: { kind: 'manual', branch: 'main', commit: 'abc1234', files: ['src/b.ts'] } }),
    );
    expect(r.clean).toBe(true);
    expect(parsed(r.text).source).toEqual({ kind: 'manual', branch: 'feat/a', commit: 'abc1234', files: ['src/a.ts', 'src/b.ts'] });
  });

  it('merges unknown keys 3-way and keeps them after the known keys', () => {
    const r = merge(
      render({ extra: { reviewed: false, owner: 'ana' } }),
      render({ extra: { reviewed: true, owner: 'ana' } }),
      render({ extra: { reviewed: false, owner: 'ana', ticket: 'CX-1' } }),
    );
    expect(r.clean).toBe(true);
    expect(parsed(r.text).extra).toEqual({ reviewed: true, owner: 'ana', ticket: 'CX-1' });
    expect(r.text).toMatch(/source:\n(?: {2}.*\n)+reviewed: true\nowner: ana\nticket: CX-1\n---/);
  });

  it('reports an unknown key changed on both sides as a field conflict with both values in the block', () => {
    const r = merge(render({ extra: { owner: 'ana' } }), render({ extra: { owner: 'bo' } }), render({ extra: { owner: 'cy' } }));
    expect(r.clean).toBe(false);
    expect(r.conflicts).toMatchObject([{ kind: 'field', field: 'owner', ours: 'bo', theirs: 'cy', line: expect.any(Number) }]);
    expect(parsed(r.text).extra.owner).toBe('bo');
    expect(r.text).toContain('<<<<<<< ours\nowner: bo\n=======\nowner: cy\n>>>>>>> theirs\n');
  });

  it('marks a field removed on one side and changed on the other as absent in the block', () => {
    const r = merge(render(), render({ topic: undefined }), render({ topic: 'decision/db' }));
    expect(r.conflicts).toMatchObject([{ kind: 'field', field: 'topic', ours: undefined, theirs: 'decision/db' }]);
    expect(r.text).toContain('<<<<<<< ours\n# topic: (absent)\n=======\ntopic: decision/db\n>>>>>>> theirs');
  });

  it('points each conflict at the line of its opening marker', () => {
    const r = merge(
      render(),
      render({ summary: 'Ours', body: 'Line one.\nLine 2 ours.\nLine three.' }),
      render({ summary: 'Theirs', body: 'Line one.\nLine 2 theirs.\nLine three.' }),
    );
    const lines = (r.text ?? '').split('\n');
    expect(r.conflicts.map((c) => c.kind)).toEqual(['field', 'body']);
    for (const c of r.conflicts) expect(lines[(c.line ?? 0) - 1]).toBe('<<<<<<< ours');
  });

  it('uses the given labels and marker size', () => {
    const r = mergeMemoryText({
      base: render(),
      ours: render({ body: 'A' }),
      theirs: render({ body: 'B' }),
      labels: { ours: 'HEAD', theirs: 'feat/x' },
      markerSize: 9,
    });
    expect(r.text).toContain('<<<<<<<<< HEAD\nA\n=========\nB\n>>>>>>>>> feat/x\n');
  });

  it('deletes when both sides deleted, and when one deleted and the other only reformatted', () => {
    expect(merge(render(), null, null)).toEqual({ clean: true, text: null, conflicts: [] });
    const reformatted = render().replace('tags: [storage, sqlite]', 'tags:\n  - storage\n  - sqlite');
    expect(merge(render(), reformatted, null)).toEqual({ clean: true, text: null, conflicts: [] });
  });

  it('keeps the modified side when theirs deleted and ours changed', () => {
    const ours = render({ priority: 9 });
    expect(merge(render(), ours, null)).toMatchObject({ clean: false, text: ours, conflicts: [{ kind: 'modify-delete', deletedBy: 'theirs' }] });
  });

  it('takes the one side that added a file', () => {
    expect(merge(null, null, render())).toEqual({ clean: true, text: render(), conflicts: [] });
  });

  it('merges a side with an out-of-range value as text, so the written value is not replaced by a default', () => {
    const ours = render().replace('priority: 5', 'priority: 42');
    const theirs = render({ body: 'Line one.\nLine two.\nLine three.\nLine four.' });
    const r = merge(render(), ours, theirs);
    expect(r.clean).toBe(true);
    expect(r.text).toContain('priority: 42');
    expect(r.text).toContain('Line four.');
  });

  it('leaves whole-text markers when a broken side conflicts', () => {
    const ours = render().replace('summary: Chose SQLite', 'summary: [unclosed');
    const theirs = render({ summary: 'Chose SQLite again' });
    const r = merge(render(), ours, theirs);
    expect(r.clean).toBe(false);
    expect(r.conflicts).toMatchObject([{ kind: 'text', line: 4 }]);
    expect(r.text).toContain('<<<<<<< ours\nsummary: [unclosed\n=======\nsummary: Chose SQLite again\n>>>>>>> theirs\n');
  });

  it('never throws on garbage input', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.string()), fc.option(fc.string()), (base, ours, theirs) => {
        const r = merge(base, ours, theirs);
        expect(typeof r.clean).toBe('boolean');
      }),
    );
  });
});

// ---------------------------------------------------------------------------
// Properties over generated memories

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'storage', 'sqlite', 'wal', 'perf'];
const LINES = ['One.', 'Two.', 'Three.', '', 'Four.', 'Five.', '- item', '## Heading'];
const dateArb = fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }).map((s) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
const bodyArb = fc.array(fc.constantFrom(...LINES), { maxLength: 8 }).map((lines) => lines.join('\n').replace(/^\n+/, '').replace(/\s+$/, ''));

const memoryArb: fc.Arbitrary<Memory> = fc.record({
  id: fc.constantFrom('chose-sqlite-k3f9qa', 'use-wal-abcdef'),
  type: fc.constantFrom(...MEMORY_TYPES),
  summary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  scope: fc.constantFrom('project' as const, 'global' as const),
  priority: fc.integer({ min: 1, max: 10 }),
  confidence: fc.constantFrom(0, 0.25, 0.5, 0.9, 1),
  pinned: fc.boolean(),
  status: fc.constantFrom(...MEMORY_STATUSES),
  tags: fc.uniqueArray(fc.constantFrom(...WORDS), { maxLength: 4 }),
  topic: fc.option(fc.constantFrom('decision/storage', 'plan/current'), { nil: undefined }),
  created: dateArb,
  updated: dateArb,
  source: fc.record(
    {
      kind: fc.constantFrom(...SOURCE_KINDS),
      branch: fc.constantFrom('main', 'feat/x'),
      files: fc.uniqueArray(fc.constantFrom('src/a.ts', 'src/b.ts', 'src/c.ts'), { maxLength: 3 }),
    },
    { requiredKeys: ['kind'] },
  ),
  body: bodyArb,
  extra: fc.option(fc.record({ owner: fc.constantFrom('ana', 'bo') }), { nil: {} }).map((e) => e ?? {}),
}).map((m) => (m.topic === undefined ? (({ topic: _t, ...rest }) => rest)(m) : m) as Memory);

/** A memory derived from `base` by changing some fields (each side edits independently). */
const editArb = (base: Memory): fc.Arbitrary<Memory> =>
  fc
    .record(
      {
        summary: fc.constantFrom('alpha edited', 'beta edited'),
        priority: fc.integer({ min: 1, max: 10 }),
        confidence: fc.constantFrom(0.3, 0.6),
        pinned: fc.boolean(),
        status: fc.constantFrom(...MEMORY_STATUSES),
        tags: fc.subarray(WORDS),
        updated: dateArb,
        bodyEdit: fc.tuple(fc.nat(), fc.constantFrom('Edited.', 'Changed.', ''), fc.constantFrom('replace', 'insert', 'delete')),
      },
      { requiredKeys: [] },
    )
    .map(({ bodyEdit, ...patch }) => {
      const lines = base.body === '' ? [] : base.body.split('\n');
      if (bodyEdit) {
        const [at, line, op] = bodyEdit;
        const i = lines.length === 0 ? 0 : at % lines.length;
        if (op === 'replace' && lines.length > 0) lines[i] = line;
        else if (op === 'delete') lines.splice(i, 1);
        else lines.splice(i, 0, line);
      }
      return { ...base, ...patch, body: lines.join('\n').replace(/^\n+/, '').replace(/\s+$/, '') };
    });

const triple = memoryArb.chain((base) => fc.tuple(fc.constant(base), editArb(base), editArb(base)));

describe('mergeMemoryText properties', () => {
  it('merge(a, a, a) = a, byte for byte', () => {
    fc.assert(
      fc.property(memoryArb, (m) => {
        expect(merge(renderMemory(m), renderMemory(m), renderMemory(m))).toEqual({ clean: true, text: renderMemory(m), conflicts: [] });
      }),
    );
  });

  it('merge(base, x, base) = x and merge(base, base, x) = x', () => {
    fc.assert(
      fc.property(triple, ([base, x]) => {
        const b = renderMemory(base);
        const t = renderMemory(x);
        expect(merge(b, t, b)).toEqual({ clean: true, text: t, conflicts: [] });
        expect(merge(b, b, t)).toEqual({ clean: true, text: t, conflicts: [] });
      }),
    );
  });

  it('is symmetric in ours and theirs: same clean flag, same clean text, same conflict count', () => {
    fc.assert(
      fc.property(triple, ([base, a, b]) => {
        const ab = merge(renderMemory(base), renderMemory(a), renderMemory(b));
        const ba = merge(renderMemory(base), renderMemory(b), renderMemory(a));
        expect(ab.clean).toBe(ba.clean);
        expect(ab.conflicts.length).toBe(ba.conflicts.length);
        if (ab.clean) expect(ab.text).toBe(ba.text);
      }),
    );
  });

  it('always yields a parseable memory, rendered canonically, conflicted or not', () => {
    fc.assert(
      fc.property(triple, ([base, a, b]) => {
        const r = merge(renderMemory(base), renderMemory(a), renderMemory(b));
        const m = parsed(r.text);
        expect(renderMemory(m)).toBe(r.text);
        expect(m.id).toBe(base.id);
      }),
    );
  });

  it('follows the field rules on clean merges', () => {
    fc.assert(
      fc.property(triple, ([base, a, b]) => {
        const r = merge(renderMemory(base), renderMemory(a), renderMemory(b));
        const m = parsed(r.text);
        const pick = <T,>(o: T, t: T, bv: T, both: (x: T, y: T) => T): T => (o === bv ? t : t === bv ? o : both(o, t));
        expect(m.priority).toBe(pick(a.priority, b.priority, base.priority, Math.max));
        expect(m.updated).toBe(pick(a.updated, b.updated, base.updated, (x, y) => (x > y ? x : y)));
        const rank = ['active', 'archived', 'superseded'];
        expect(m.status).toBe(pick(a.status, b.status, base.status, (x, y) => (rank.indexOf(x) > rank.indexOf(y) ? x : y)));
        expect(m.pinned).toBe(pick(a.pinned, b.pinned, base.pinned, (x, y) => x || y));
        const inTags = (t: string) =>
          base.tags.includes(t) ? a.tags.includes(t) && b.tags.includes(t) : a.tags.includes(t) || b.tags.includes(t);
        expect(new Set(m.tags)).toEqual(new Set(WORDS.filter(inTags)));
      }),
    );
  });

  it('keeps both versions of every conflicting body hunk in the text', () => {
    fc.assert(
      fc.property(triple, ([base, a, b]) => {
        const r = merge(renderMemory(base), renderMemory(a), renderMemory(b));
        for (const c of r.conflicts.filter((x) => x.kind === 'body')) {
          // An empty string is zero lines or one blank line: both end up right after the marker.
          expect(r.text).toContain(`<<<<<<< ours\n${String(c.ours)}`);
          expect(r.text).toContain(`${String(c.theirs)}\n>>>>>>> theirs`);
        }
        expect(r.clean).toBe(r.conflicts.length === 0);
      }),
    );
  });
});

describe('mergeFrontmatterRecord', () => {
  it('resolves each field only when both sides changed it', () => {
    expect(
      mergeFrontmatterRecord({
        base: { priority: 5, tags: ['a', 'b'], note: 'x' },
        ours: { priority: 7, tags: ['a'], note: 'x' },
        theirs: { priority: 6, tags: ['a', 'b', 'c'], note: 'y' },
        rules: { fields: { priority: 'max', tags: 'set' } },
      }),
    ).toEqual({ record: { priority: 7, tags: ['a', 'c'], note: 'y' }, conflicts: [] });
  });

  it('merges with an empty base when the record is new on both sides', () => {
    const r = mergeFrontmatterRecord({ ours: { s: 'active', n: 1 }, theirs: { s: 'suggested', n: 1 }, rules: { fields: { s: { precedence: ['active', 'suggested'] } } } });
    expect(r).toEqual({ record: { s: 'active', n: 1 }, conflicts: [] });
  });

  it('reports a conflict and keeps ours when a resolver cannot compare the values', () => {
    const r = mergeFrontmatterRecord({ base: { p: 1 }, ours: { p: 'high' }, theirs: { p: 3 }, rules: { fields: { p: 'max' } } });
    expect(r).toEqual({ record: { p: 'high' }, conflicts: [{ path: ['p'], base: 1, ours: 'high', theirs: 3 }] });
  });

  it('orders keys the same way whichever side is ours', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 5 }), fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'f'), { maxLength: 4 }), (ok, tk) => {
        const ours = Object.fromEntries(ok.map((k) => [k, 1]));
        const theirs = Object.fromEntries(tk.map((k) => [k, 1]));
        const ab = mergeFrontmatterRecord({ base: {}, ours, theirs, rules: { other: 'max' } });
        const ba = mergeFrontmatterRecord({ base: {}, ours: theirs, theirs: ours, rules: { other: 'max' } });
        expect(Object.keys(ab.record)).toEqual(Object.keys(ba.record));
      }),
    );
  });
});

describe('mergeText', () => {
  it('merges non-overlapping line edits', () => {
    expect(mergeText({ base: 'a\nb\nc\n', ours: 'A\nb\nc\n', theirs: 'a\nb\nC\n' })).toEqual({ clean: true, text: 'A\nb\nC\n', conflicts: [] });
  });

  it('leaves 2-way markers around overlapping edits and ends the file with a newline', () => {
    const r = mergeText({ base: 'a\nb', ours: 'a\nX', theirs: 'a\nY' });
    expect(r.text).toBe('a\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\n');
    expect(r.conflicts).toMatchObject([{ kind: 'text', line: 2, ours: 'X', theirs: 'Y', base: 'b' }]);
  });

  it('takes the final newline from the side that changed it', () => {
    expect(mergeText({ base: 'a\nb\n', ours: 'a\nb', theirs: 'A\nb\n' }).text).toBe('A\nb');
  });
});

describe('mergeFrontmatterText', () => {
  it('merges with any format, here the memory format', () => {
    const r = mergeFrontmatterText({ base: render(), ours: render({ priority: 8 }), theirs: render({ tags: ['storage'] }), format: MEMORY_FORMAT });
    expect(r.text).toBe(render({ priority: 8, tags: ['storage'] }));
  });
});
