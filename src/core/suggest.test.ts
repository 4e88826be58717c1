import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, editDistance, nearestIds } from './suggest.js';

/** The textbook dynamic programme, as the oracle. */
function naive(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) dp[i]![j] = Math.min(dp[i - 1]![j]! + 1, dp[i]![j - 1]! + 1, dp[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return dp[a.length]![b.length]!;
}

describe('editDistance', () => {
  it('equals the textbook distance, and says "more than max" once it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.nat({ max: 6 }), (a, b, max) => {
        const exact = naive(a, b);
        expect(editDistance(a, b)).toBe(exact);
        expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
    );
  });
});

describe('closest', () => {
  it('prefers a prefix, then one or two edits', () => {
    expect(closest('tag', ['tags', 'type'])).toBe('tags');
    expect(closest('recal', ['recall', 'remember'])).toBe('recall');
    expect(closest('xyzzy', ['recall', 'remember'])).toBeUndefined();
  });
});

describe('nearestIds', () => {
  const ids = ['chose-sqlite-over-postgres-because-zero-config-k3f9qa', 'use-redis-for-sessions-p2x81d', 'timing-test-memory-for-the-hooks-7qllak'];
  it('finds the id a typo meant: in the slug, the suffix, or the start of the id', () => {
    expect(nearestIds('chose-sqlite-over-postgres-because-zero-config-k3f9qb', ids)).toEqual([ids[0]]);
    expect(nearestIds('use-redis-for-sesions-p2x81d', ids)).toEqual([ids[1]]);
    expect(nearestIds('chose-sqlite-over-postgress', ids)).toEqual([ids[0]]);
  });
  it('suggests nothing for a string that is not close to any id', () => {
    expect(nearestIds('no-such-id-zzzzzz', ids)).toEqual([]);
  });
});
