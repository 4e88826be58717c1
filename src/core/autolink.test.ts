import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoLinkScore, planAutoLinks, type AutoLinkCandidate } from './autolink.js';
import { DEFAULT_CONFIG } from './config.js';
import { RELATIONS, type Edge } from './edge.js';
import { jaccard, tokenSet } from './similarity.js';

const now = new Date('2026-05-01T12:00:00.000Z');

// New memory: tokens use, sqlite, wal, mode, concurrent, hook, writes (7).
const memory = { id: 'wal-for-hooks-aaaaaa', text: 'Use SQLite WAL mode for concurrent hook writes' };
const corpus = [
  // 6 of 7 tokens shared, union 7: 0.857 → consolidate
  { id: 'wal-mode-bbbbbb', text: 'SQLite WAL mode for concurrent hook writes' },
  // hook, writes, sqlite shared; union 9: 0.333 → active relates_to
  { id: 'hook-locking-cccccc', text: 'Hook writes need SQLite locking' },
  // wal, mode, concurrent, sqlite shared; union 9: 0.444 → suggested relates_to
  { id: 'wal-readers-dddddd', text: 'WAL mode concurrent readers and writers in SQLite' },
  // nothing shared: 0 → nothing
  { id: 'tabs-eeeeee', text: 'Prefer tabs over spaces in TypeScript' },
  // use, mode shared; union 9: 0.222 → active, but an edge already exists
  { id: 'cli-flags-ffffff', text: 'Use mode flags for the CLI' },
  // sqlite shared; union 7: 0.143 → active
  { id: 'sqlite-gggggg', text: 'SQLite' },
];

function corpusCandidates(): AutoLinkCandidate[] {
  const own = tokenSet(memory.text);
  return corpus.map(({ id, text }) => ({ id, jaccard: jaccard(own, tokenSet(text)) }));
}

const existingEdges = [{ source: 'cli-flags-ffffff', target: memory.id, relation: 'refines' as const }];

describe('autoLinkScore', () => {
  it('is the Jaccard score without a cosine and the larger of both with one', () => {
    expect(autoLinkScore({ id: 'x', jaccard: 0.2 })).toBe(0.2);
    expect(autoLinkScore({ id: 'x', jaccard: 0.2, cosine: 0.45 })).toBe(0.45);
    expect(autoLinkScore({ id: 'x', jaccard: 0.3, cosine: -0.5 })).toBe(0.3);
    expect(autoLinkScore({ id: 'x', jaccard: 0.3, cosine: Number.NaN })).toBe(0.3);
  });
});

describe('planAutoLinks', () => {
  it('sorts a small corpus into the three tiers', () => {
    const plan = planAutoLinks({ memory, candidates: corpusCandidates(), existingEdges, now });
    expect(plan.edges.map((e) => [e.target, e.status, e.strength])).toEqual([
      ['wal-readers-dddddd', 'suggested', 0.444],
      ['hook-locking-cccccc', 'active', 0.333],
      ['sqlite-gggggg', 'active', 0.143],
    ]);
    expect(plan.consolidate).toEqual([{ a: memory.id, b: 'wal-mode-bbbbbb', score: 6 / 7 }]);
  });

  it('writes complete bidirectional relates_to edges from the memory, dated now, with a rationale', () => {
    const plan = planAutoLinks({ memory, candidates: [{ id: 'hook-locking-cccccc', jaccard: 1 / 3 }], now });
    expect(plan.edges).toEqual<Edge[]>([
      {
        source: memory.id,
        target: 'hook-locking-cccccc',
        relation: 'relates_to',
        strength: 0.333,
        status: 'active',
        bidirectional: true,
        origin: 'jaccard',
        created: '2026-05-01T12:00:00Z',
        body: 'Linked automatically: weighted jaccard 0.333.',
        extra: {},
      },
    ]);
  });

  it('marks an edge decided by the cosine as origin embedding', () => {
    const candidates = corpusCandidates().map((c) => (c.id === 'tabs-eeeeee' ? { ...c, cosine: 0.45 } : c));
    const [first] = planAutoLinks({ memory, candidates, existingEdges, now }).edges;
    expect(first).toMatchObject({ target: 'tabs-eeeeee', status: 'suggested', origin: 'embedding', strength: 0.45 });
    expect(first?.body).toBe('Linked automatically: weighted jaccard 0, cosine 0.45.');
  });

  it('treats lower bounds as inclusive', () => {
    const plan = planAutoLinks({
      memory,
      candidates: [
        { id: 'at-relates-min', jaccard: 0.1 },
        { id: 'at-suggested-min', jaccard: 0.4 },
        { id: 'at-consolidate-min', jaccard: 0.5 },
        { id: 'below-relates-min', jaccard: 0.099 },
      ],
      now,
    });
    expect(plan.edges.map((e) => [e.target, e.status])).toEqual([
      ['at-suggested-min', 'suggested'],
      ['at-relates-min', 'active'],
    ]);
    expect(plan.consolidate.map((c) => c.b)).toEqual(['at-consolidate-min']);
  });

  it('writes at most maxEdges edges, the strongest', () => {
    const candidates = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}-cccccc`, jaccard: 0.1 + i * 0.03 }));
    const plan = planAutoLinks({ memory, candidates, now });
    expect(plan.edges.map((e) => e.target)).toEqual(['c7-cccccc', 'c6-cccccc', 'c5-cccccc']);
    expect(planAutoLinks({ memory, candidates, thresholds: { maxEdges: 1 }, now }).edges).toHaveLength(1);
    expect(planAutoLinks({ memory, candidates, thresholds: { maxEdges: 0 }, now }).edges).toEqual([]);
  });

  it('follows configured thresholds', () => {
    const plan = planAutoLinks({
      memory,
      candidates: corpusCandidates(),
      thresholds: { relatesMin: 0.3, suggestedMin: 0.9, consolidateMin: 0.95 },
      now,
    });
    expect(plan.edges.map((e) => [e.target, e.status])).toEqual([
      ['wal-mode-bbbbbb', 'active'],
      ['wal-readers-dddddd', 'active'],
      ['hook-locking-cccccc', 'active'],
    ]);
    expect(plan.consolidate).toEqual([]);
  });

  it('skips an existing edge in either direction, itself, unsafe ids and unusable scores', () => {
    const plan = planAutoLinks({
      memory,
      candidates: [
        { id: 'b-linked-out', jaccard: 0.2 },
        { id: 'c-linked-in', jaccard: 0.2 },
        { id: memory.id, jaccard: 0.3 },
        { id: '../escape', jaccard: 0.3 },
        { id: 'double--dash', jaccard: 0.3 },
        { id: 'nan-score', jaccard: Number.NaN },
        { id: 'fresh', jaccard: 0.2 },
      ],
      existingEdges: [
        { source: memory.id, target: 'b-linked-out', relation: 'relates_to' },
        { source: 'c-linked-in', target: memory.id, relation: 'exemplifies' },
        { source: 'x', target: 'y', relation: 'relates_to' },
      ],
      now,
    });
    expect(plan.edges.map((e) => e.target)).toEqual(['fresh']);
  });

  it('counts a candidate listed twice once, with its best score', () => {
    const plan = planAutoLinks({ memory, candidates: [{ id: 'b', jaccard: 0.15 }, { id: 'b', jaccard: 0.3 }], now });
    expect(plan.edges.map((e) => [e.target, e.strength])).toEqual([['b', 0.3]]);
  });

  it('proposes no consolidation of a pair someone marked as contradicting or superseded', () => {
    const plan = planAutoLinks({
      memory,
      candidates: [{ id: 'b', jaccard: 0.9 }, { id: 'c', jaccard: 0.9 }, { id: 'd', jaccard: 0.8 }],
      existingEdges: [
        { source: 'b', target: memory.id, relation: 'contradicts' },
        { source: memory.id, target: 'c', relation: 'supersedes' },
        { source: memory.id, target: 'd', relation: 'relates_to' },
      ],
      now,
    });
    expect(plan).toEqual({ edges: [], consolidate: [{ a: memory.id, b: 'd', score: 0.8 }] });
  });

  it('uses the config defaults when no thresholds are given', () => {
    const a = planAutoLinks({ memory, candidates: corpusCandidates(), now });
    const b = planAutoLinks({ memory, candidates: corpusCandidates(), thresholds: DEFAULT_CONFIG.autolink, now });
    expect(a).toEqual(b);
  });

  const candidateArb = fc.record({
    id: fc.constantFrom('a-aaaaaa', 'b-bbbbbb', 'c-cccccc', 'd-dddddd', 'wal-for-hooks-aaaaaa', 'x--y'),
    jaccard: fc.double({ min: 0, max: 1, noNaN: true }),
    cosine: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
  });
  const thresholdsArb = fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([x, y, z]) => {
      const [relatesMin, suggestedMin, consolidateMin] = [x, y, z].sort((p, q) => p - q) as [number, number, number];
      return { relatesMin, suggestedMin, consolidateMin, maxEdges: 100 };
    });
  const existingArb = fc.array(
    fc.record({
      source: fc.constantFrom('a-aaaaaa', 'b-bbbbbb', 'wal-for-hooks-aaaaaa'),
      target: fc.constantFrom('c-cccccc', 'wal-for-hooks-aaaaaa'),
      relation: fc.constantFrom(...RELATIONS),
    }),
    { maxLength: 4 },
  );

  it('never creates supersedes or any relation but relates_to, never a self-link, never repeats an existing edge (property)', () => {
    fc.assert(
      fc.property(fc.array(candidateArb, { maxLength: 8 }), thresholdsArb, existingArb, (candidates, thresholds, existing) => {
        const plan = planAutoLinks({ memory, candidates, thresholds, existingEdges: existing, now });
        const targets = new Set<string>();
        for (const e of plan.edges) {
          expect(e.relation).toBe('relates_to');
          expect(e.relation).not.toBe('supersedes');
          expect(e.source).toBe(memory.id);
          expect(e.target).not.toBe(memory.id);
          expect(targets.has(e.target)).toBe(false);
          targets.add(e.target);
          for (const x of existing) {
            const samePair = (x.source === e.source && x.target === e.target) || (x.source === e.target && x.target === e.source);
            expect(samePair).toBe(false);
          }
          expect(e.strength).toBeGreaterThanOrEqual(0);
          expect(e.strength).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('puts each candidate in the tier its score falls in (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(candidateArb, { selector: (c) => c.id, maxLength: 6 }), thresholdsArb, (candidates, thresholds) => {
        const plan = planAutoLinks({ memory, candidates, thresholds, now });
        for (const c of candidates) {
          if (c.id === memory.id || c.id === 'x--y') continue;
          const score = autoLinkScore(c);
          const edge = plan.edges.find((e) => e.target === c.id);
          const merge = plan.consolidate.find((m) => m.b === c.id);
          if (score >= thresholds.consolidateMin) {
            expect(merge?.score).toBe(score);
            expect(edge).toBeUndefined();
          } else if (score >= thresholds.relatesMin) {
            expect(edge?.status).toBe(score >= thresholds.suggestedMin ? 'suggested' : 'active');
            expect(merge).toBeUndefined();
          } else {
            expect(edge ?? merge).toBeUndefined();
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
