import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cosine, reciprocalRankFusion, topKByCosine } from './fusion.js';

const vec = (dims: number) => fc.array(fc.float({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }), { minLength: dims, maxLength: dims });
const vectorPair = fc.integer({ min: 1, max: 48 }).chain((d) => fc.tuple(vec(d), vec(d)));

function normalise(v: number[]): Float32Array {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(v, (x) => (n === 0 ? 0 : x / n));
}

describe('cosine', () => {
  it('is the dot product for normalised vectors', () => {
    expect(cosine([1, 0], [0.6, 0.8])).toBeCloseTo(0.6, 12);
    expect(cosine([0, 1], [0.6, 0.8])).toBeCloseTo(0.8, 12);
  });

  it('is 1 for a vector with itself and -1 for its opposite', () => {
    expect(cosine([3, 4], [3, 4])).toBe(1);
    expect(cosine([3, 4], [-3, -4])).toBe(-1);
  });

  it('ignores magnitude', () => {
    expect(cosine([1, 2, 3], [10, 20, 30])).toBeCloseTo(1, 12);
  });

  it('is 0 when either vector is zero, never NaN', () => {
    expect(cosine([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosine([1, 2, 3], new Float32Array(3))).toBe(0);
    expect(cosine([], [])).toBe(0);
  });

  it('rejects vectors of different lengths', () => {
    expect(() => cosine([1, 2], [1, 2, 3])).toThrow(RangeError);
  });

  it('is symmetric and stays in [-1, 1]', () => {
    fc.assert(
      fc.property(vectorPair, ([a, b]) => {
        const ab = cosine(a, b);
        expect(ab).toBe(cosine(b, a));
        expect(ab).toBeGreaterThanOrEqual(-1);
        expect(ab).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('agrees with the dot product on normalised Float32Arrays', () => {
    fc.assert(
      fc.property(vectorPair, ([a, b]) => {
        const na = normalise(a);
        const nb = normalise(b);
        let dot = 0;
        for (let i = 0; i < na.length; i++) dot += (na[i] ?? 0) * (nb[i] ?? 0);
        const zero = na.every((x) => x === 0) || nb.every((x) => x === 0);
        expect(cosine(na, nb)).toBeCloseTo(zero ? 0 : dot, 5);
      }),
    );
  });
});

describe('topKByCosine', () => {
  const entries = [
    { id: 'east', vector: [1, 0] },
    { id: 'north', vector: [0, 1] },
    { id: 'north-east', vector: [1, 1] },
    { id: 'west', vector: [-1, 0] },
  ];

  it('returns the k most similar entries, best first, with their cosine', () => {
    const top = topKByCosine([1, 0.2], entries, 2);
    expect(top.map((r) => r.id)).toEqual(['east', 'north-east']);
    expect(top[0]?.score).toBeCloseTo(cosine([1, 0.2], [1, 0]), 12);
  });

  it('returns everything, sorted, when k exceeds the corpus', () => {
    expect(topKByCosine([1, 0], entries, 10).map((r) => r.id)).toEqual(['east', 'north-east', 'north', 'west']);
  });

  it('returns nothing for k = 0 or an empty corpus', () => {
    expect(topKByCosine([1, 0], entries, 0)).toEqual([]);
    expect(topKByCosine([1, 0], [], 3)).toEqual([]);
  });

  it('breaks ties by id, whatever the input order', () => {
    const tied = [
      { id: 'b', vector: [1, 0] },
      { id: 'a', vector: [2, 0] },
      { id: 'c', vector: [3, 0] },
    ];
    expect(topKByCosine([1, 0], tied, 2).map((r) => r.id)).toEqual(['a', 'b']);
    expect(topKByCosine([1, 0], [...tied].reverse(), 2).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('matches a full sort of all scores (naive oracle) for any corpus and k', () => {
    const corpus = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), vec(3)), {
      selector: ([id]) => id,
      maxLength: 40,
    });
    fc.assert(
      fc.property(vec(3), corpus, fc.integer({ min: 0, max: 45 }), (query, rows, k) => {
        const items = rows.map(([id, vector]) => ({ id, vector }));
        const oracle = items
          .map((e) => ({ id: e.id, score: cosine(query, e.vector) }))
          .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
          .slice(0, k);
        expect(topKByCosine(query, items, k)).toEqual(oracle);
      }),
    );
  });
});

describe('reciprocalRankFusion', () => {
  it('scores each id by the sum of 1 / (k + rank) over the rankings', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(fused.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 15);
    expect(fused[1]?.score).toBeCloseTo(1 / 61, 15);
    expect(fused[2]?.score).toBeCloseTo(1 / 62, 15);
  });

  it('uses the k option', () => {
    const [top] = reciprocalRankFusion([['a']], { k: 0 });
    expect(top).toEqual({ id: 'a', score: 1 });
  });

  it('weights rankings and ignores a ranking weighted 0', () => {
    const rankings = [['keyword-hit'], ['vector-hit']];
    expect(reciprocalRankFusion(rankings, { weights: [1, 2] })[0]?.id).toBe('vector-hit');
    expect(reciprocalRankFusion(rankings, { weights: [2, 1] })[0]?.id).toBe('keyword-hit');
    expect(reciprocalRankFusion(rankings, { weights: [1, 0] }).map((r) => r.id)).toEqual(['keyword-hit']);
  });

  it('counts a duplicate id once per ranking, at its best position', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'a']]);
    expect(fused).toEqual([
      { id: 'a', score: 1 / 61 },
      { id: 'b', score: 1 / 62 },
    ]);
  });

  it('breaks score ties by id', () => {
    const fused = reciprocalRankFusion([
      ['z', 'y'],
      ['y', 'z'],
    ]);
    expect(fused.map((r) => r.id)).toEqual(['y', 'z']);
    expect(fused[0]?.score).toBe(fused[1]?.score);
  });

  it('returns nothing for no rankings', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });

  const ranking = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { maxLength: 8 });

  it('gives bit-identical output for any order of the rankings (ties included)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(ranking, fc.integer({ min: 1, max: 3 })), { maxLength: 5 }), fc.nat(), (lists, seed) => {
        const shuffled = [...lists];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = (seed + i * 7) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        const a = reciprocalRankFusion(lists.map(([r]) => r), { weights: lists.map(([, w]) => w) });
        const b = reciprocalRankFusion(shuffled.map(([r]) => r), { weights: shuffled.map(([, w]) => w) });
        expect(b).toEqual(a);
      }),
    );
  });

  it('returns every id exactly once, sorted by descending score', () => {
    fc.assert(
      fc.property(fc.array(ranking, { maxLength: 5 }), (lists) => {
        const fused = reciprocalRankFusion(lists);
        expect(new Set(fused.map((r) => r.id))).toEqual(new Set(lists.flat()));
        expect(fused.length).toBe(new Set(lists.flat()).size);
        for (let i = 1; i < fused.length; i++) expect(fused[i - 1]!.score).toBeGreaterThanOrEqual(fused[i]!.score);
      }),
    );
  });

  it('ranks an id that tops every list first', () => {
    fc.assert(
      fc.property(fc.array(ranking, { minLength: 1, maxLength: 5 }), (lists) => {
        const withLeader = lists.map((r) => ['leader', ...r]);
        expect(reciprocalRankFusion(withLeader)[0]?.id).toBe('leader');
      }),
    );
  });
});
