import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EDGE_ORIGINS, EDGE_STATUSES, type Edge } from './edge.js';
import { parseEdge, renderEdge } from './edge-format.js';
import { EDGE_MERGE_RULES, mergeEdgeText } from './merge-edge.js';
import { mergeFrontmatterRecord } from './merge.js';

const FILE = '.cortex/edges/a-k3f9qa--refines--b-p2x81d.md';

const BASE: Edge = {
  source: 'a-k3f9qa',
  target: 'b-p2x81d',
  relation: 'refines',
  strength: 0.5,
  status: 'suggested',
  bidirectional: false,
  origin: 'jaccard',
  created: '2026-01-01T00:00:00Z',
  body: 'Both talk about WAL.\nFound by the nightly consolidation.',
  extra: {},
};

const render = (patch: Partial<Edge> = {}) => renderEdge({ ...BASE, ...patch });
const merge = (base: string | null, ours: string | null, theirs: string | null) => mergeEdgeText({ base, ours, theirs, file: FILE });
const parsed = (text: string | null): Edge => {
  const r = parseEdge(text ?? '', { file: FILE });
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.edge as Edge;
};

describe('mergeEdgeText', () => {
  it('takes the max strength, active over suggested and bidirectional when either side set it', () => {
    const r = merge(render(), render({ strength: 0.9, status: 'active' }), render({ strength: 0.7, bidirectional: true }));
    expect(r).toEqual({ clean: true, text: render({ strength: 0.9, status: 'active', bidirectional: true }), conflicts: [] });
  });

  it('keeps a one-sided demotion to suggested and a one-sided lower strength', () => {
    const base = render({ status: 'active', strength: 0.8 });
    const r = merge(base, render({ status: 'suggested', strength: 0.4 }), render({ status: 'active', strength: 0.8, body: 'Rationale.' }));
    expect(parsed(r.text)).toMatchObject({ status: 'suggested', strength: 0.4, body: 'Rationale.' });
  });

  it('prefers a manual origin and the earlier created date when both sides changed them', () => {
    const r = merge(
      render(),
      render({ origin: 'embedding', created: '2025-12-01T00:00:00Z' }),
      render({ origin: 'manual', created: '2025-12-02T00:00:00Z' }),
    );
    expect(parsed(r.text)).toMatchObject({ origin: 'manual', created: '2025-12-01T00:00:00Z' });
  });

  it('merges rationale edits on different lines and conflicts on the same line', () => {
    // As in git, edits must be separated by an unchanged line: adjacent edits conflict.
    const body = (first: string, last: string) => ({ body: `${first}\n\n${last}` });
    const clean = merge(render(body('WAL.', 'Nightly.')), render(body('WAL mode.', 'Nightly.')), render(body('WAL.', 'Confirmed by ana.')));
    expect(parsed(clean.text).body).toBe('WAL mode.\n\nConfirmed by ana.');

    const r = merge(render(), render({ body: 'Ours.\nFound by the nightly consolidation.' }), render({ body: 'Theirs.\nFound by the nightly consolidation.' }));
    expect(r.clean).toBe(false);
    expect(r.text).toContain('---\n<<<<<<< ours\nOurs.\n=======\nTheirs.\n>>>>>>> theirs\nFound by the nightly consolidation.\n');
    expect(r.conflicts).toMatchObject([{ kind: 'body', line: 11, file: FILE }]);
  });

  it('reports an unknown key changed differently on both sides, keeping ours', () => {
    const r = merge(render({ extra: { note: 'x' } }), render({ extra: { note: 'y' } }), render({ extra: { note: 'z' } }));
    expect(r.clean).toBe(false);
    expect(parsed(r.text).extra).toEqual({ note: 'y' });
    expect(r.text).toContain('<<<<<<< ours\nnote: y\n=======\nnote: z\n>>>>>>> theirs\n');
  });

  it('deletes an edge unlinked on one side and untouched on the other', () => {
    expect(merge(render(), null, render())).toEqual({ clean: true, text: null, conflicts: [] });
  });

  it('keeps an edge changed on one side and deleted on the other, with a conflict', () => {
    expect(merge(render(), render({ status: 'active' }), null)).toMatchObject({
      clean: false,
      text: render({ status: 'active' }),
      conflicts: [{ kind: 'modify-delete', deletedBy: 'theirs' }],
    });
  });

  it('merges an edge added on both sides against an empty base', () => {
    const r = merge(null, render({ strength: 0.6, origin: 'wikilink' }), render({ strength: 0.8, status: 'active', body: '' }));
    expect(r.clean).toBe(true);
    expect(parsed(r.text)).toMatchObject({ strength: 0.8, status: 'active', origin: 'wikilink', body: BASE.body });
  });

  it('falls back to a text merge when a side has an invalid value', () => {
    const ours = render().replace('strength: 0.5', 'strength: lots');
    const r = merge(render(), ours, render({ body: 'Both talk about WAL.\nFound by the nightly consolidation.\nChecked.' }));
    expect(r.clean).toBe(true);
    expect(r.text).toContain('strength: lots');
    expect(r.text).toContain('Checked.');
  });
});

const edgeArb: fc.Arbitrary<Edge> = fc.record({
  source: fc.constant('a-k3f9qa'),
  target: fc.constant('b-p2x81d'),
  relation: fc.constant('refines' as const),
  strength: fc.constantFrom(0, 0.25, 0.5, 0.75, 1),
  status: fc.constantFrom(...EDGE_STATUSES),
  bidirectional: fc.boolean(),
  origin: fc.constantFrom(...EDGE_ORIGINS),
  created: fc.constantFrom('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
  body: fc.array(fc.constantFrom('One.', 'Two.', 'Three.'), { maxLength: 4 }).map((l) => l.join('\n')),
  extra: fc.constant({}),
});
const triple = fc.tuple(edgeArb, edgeArb, edgeArb).map(([b, o, t]) => [renderEdge(b), renderEdge(o), renderEdge(t)] as const);

describe('mergeEdgeText properties', () => {
  it('merge(a, a, a) = a, merge(b, x, b) = x, merge(b, b, x) = x', () => {
    fc.assert(
      fc.property(triple, ([b, x]) => {
        expect(merge(x, x, x).text).toBe(x);
        expect(merge(b, x, b).text).toBe(x);
        expect(merge(b, b, x).text).toBe(x);
      }),
    );
  });

  it('is symmetric on clean merges and always yields a canonical, parseable edge', () => {
    fc.assert(
      fc.property(triple, ([b, x, y]) => {
        const xy = merge(b, x, y);
        const yx = merge(b, y, x);
        expect(xy.clean).toBe(yx.clean);
        if (xy.clean) expect(xy.text).toBe(yx.text);
        expect(renderEdge(parsed(xy.text))).toBe(xy.text);
      }),
    );
  });
});

describe('EDGE_MERGE_RULES', () => {
  it('resolves status, strength and bidirectional when the edge is new on both sides', () => {
    expect(
      mergeFrontmatterRecord({
        ours: { status: 'suggested', strength: 0.9, bidirectional: false },
        theirs: { status: 'active', strength: 0.3, bidirectional: true },
        rules: EDGE_MERGE_RULES,
      }).record,
    ).toEqual({ strength: 0.9, status: 'active', bidirectional: true });
  });
});
