import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LazyRanking } from './lazy-ranking.js';

describe('LazyRanking', () => {
  it('reads the order a full sort gives, position by position, however far it is read', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 200, size: 'max' }), fc.nat(210), (scores, read) => {
        const sorted = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || b - a);
        // Ties: the later position first (any strict order will do).
        const ranking = new LazyRanking(scores.length, scores, (a, b) => a > b);
        expect(ranking.length).toBe(scores.length);
        const got = Array.from({ length: Math.min(read, scores.length) }, (_, k) => ranking.at(k));
        expect(got).toEqual(sorted.slice(0, got.length));
        // Reading again, or further, continues the same order.
        expect(Array.from({ length: scores.length }, (_, k) => ranking.at(k))).toEqual(sorted);
        expect(ranking.at(scores.length)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
