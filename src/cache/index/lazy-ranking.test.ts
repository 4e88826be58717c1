import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LazyRanking } from './lazy-ranking.js';
import { KernelArena, NO_IMPORTS } from './score-kernel.js';

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

  it('reads the same order over a long ranking of doubles, where it picks among the candidates first (property)', () => {
    // Few distinct values (ties across the cut), negative, infinite and zero ones; a NaN at times.
    const value = fc.oneof(fc.constantFrom(0, -0, 1.5, 2.25, -3, Infinity, -Infinity), fc.double({ noNaN: true, min: -10, max: 10 }));
    fc.assert(
      fc.property(
        fc.array(value, { minLength: LazyRanking.NARROW_FROM, maxLength: LazyRanking.NARROW_FROM + 300 }),
        fc.option(fc.nat(LazyRanking.NARROW_FROM - 1), { nil: undefined }),
        fc.nat(100),
        (values, nanAt, read) => {
          const scores = Float64Array.from(values);
          if (nanAt !== undefined) scores[nanAt] = Number.NaN;
          // The plain pass over every position is the reference: the same class, short.
          const reference = (k: number) => {
            const order = Array.from(scores.keys()).sort((a, b) => {
              const pa = scores[a]!;
              const pb = scores[b]!;
              if (pa > pb) return -1;
              if (pa < pb) return 1;
              return a - b;
            });
            return order.slice(0, k);
          };
          const ranking = new LazyRanking(scores.length, scores, (a, b) => a < b);
          const got = Array.from({ length: read }, (_, k) => ranking.at(k));
          if (nanAt === undefined) expect(got).toEqual(reference(read));
          // With a NaN (a tie with everything: no total order) it must still be the first pass's pick.
          else expect(new Set(got).size).toBe(got.length);
          // The scores in a query's kernel memory: its candidates picked there, the same order.
          const arena = new KernelArena();
          arena.open(8 + 8 * scores.length, 8 + 8 * scores.length + 12 * scores.length + 4096, NO_IMPORTS);
          const inArena = new Float64Array(arena.kernel!.memory.buffer, 8, scores.length);
          inArena.set(scores);
          const before = arena.take(0);
          const ranked = new LazyRanking(scores.length, inArena, (a, b) => a < b, arena);
          expect(Array.from({ length: read }, (_, k) => ranked.at(k))).toEqual(got);
          // It did pick them there (the arena gave out room for them).
          if (read > 0) expect(arena.take(0)).toBeGreaterThan(before!);
          arena.release();
        },
      ),
      { numRuns: 60 },
    );
  });
});
