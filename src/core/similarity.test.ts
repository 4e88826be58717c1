import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOP_WORDS, jaccard, rarityOverlap, tokenSet } from './similarity.js';

describe('STOP_WORDS', () => {
  it('holds lower-case function words only', () => {
    for (const word of ['the', 'and', 'of', 'is', 'because']) expect(STOP_WORDS.has(word)).toBe(true);
    for (const word of STOP_WORDS) expect(word).toBe(word.toLowerCase());
    for (const word of ['sqlite', 'file', 'use', 'test', 'not-a-word']) expect(STOP_WORDS.has(word)).toBe(false);
  });
});

describe('tokenSet', () => {
  it('lower-cases and drops stop words and one-character tokens', () => {
    expect([...tokenSet('Chose SQLite over PostgreSQL for the store, a B-tree')]).toEqual([
      'chose',
      'sqlite',
      'postgresql',
      'store',
      'tree',
    ]);
  });

  it('splits snake_case, kebab-case and paths into words', () => {
    expect([...tokenSet('open_db in src/db-utils.ts')]).toEqual(['open', 'db', 'src', 'utils', 'ts']);
  });

  it('keeps numbers and non-ASCII letters', () => {
    expect([...tokenSet('Node 20 café naïve 日本語')]).toEqual(['node', '20', 'café', 'naïve', '日本語']);
  });

  it('returns each token once', () => {
    expect(tokenSet('cache Cache CACHE').size).toBe(1);
  });

  it('takes a custom stop list and minimum length', () => {
    expect([...tokenSet('the db is ok', { stopWords: new Set(['db']), minLength: 3 })]).toEqual(['the']);
  });

  it('is empty for text without words', () => {
    expect(tokenSet('').size).toBe(0);
    expect(tokenSet(' -- ... !! a ').size).toBe(0);
  });
});

describe('jaccard', () => {
  it('is the size of the intersection over the size of the union', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3, 12);
    expect(jaccard(new Set(['a', 'b', 'c', 'd']), new Set(['a', 'b']))).toBe(0.5);
    expect(jaccard(new Set(['x']), new Set(['y']))).toBe(0);
    expect(jaccard(new Set(['x', 'y']), new Set(['y', 'x']))).toBe(1);
  });

  it('is 0 when either side is empty, including both', () => {
    expect(jaccard(new Set(), new Set())).toBe(0);
    expect(jaccard(new Set(['a']), new Set())).toBe(0);
  });

  it('is symmetric, lies in [0, 1] and matches a naive oracle (property)', () => {
    const setArb = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 }).map((xs) => new Set(xs));
    fc.assert(
      fc.property(setArb, setArb, (a, b) => {
        const union = new Set([...a, ...b]);
        const common = [...a].filter((x) => b.has(x)).length;
        const oracle = union.size === 0 ? 0 : common / union.size;
        expect(jaccard(a, b)).toBe(oracle);
        expect(jaccard(b, a)).toBe(jaccard(a, b));
        expect(jaccard(a, b)).toBeGreaterThanOrEqual(0);
        expect(jaccard(a, b)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('gives 1 for a non-empty set and itself (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        const tokens = tokenSet(`${text} keyword`);
        expect(jaccard(tokens, new Set(tokens))).toBe(1);
      }),
    );
  });
});

describe('rarityOverlap', () => {
  const df: Record<string, number> = { said: 900, today: 600, caroline: 500, sqlite: 3, wal: 2, lock: 40 };
  const opts = { docFreq: (t: string) => df[t] ?? 1, totalDocs: 1000 };
  const set = (s: string) => new Set(s.split(' '));

  it('is 0 when the only shared words are common ones, however many', () => {
    expect(rarityOverlap(set('said today caroline'), set('said today caroline lock'), opts)).toEqual({ score: 0, rareShared: [] });
  });

  it('weights a shared rare word above shared common ones', () => {
    const rare = rarityOverlap(set('said sqlite x1'), set('said sqlite x2'), opts);
    const common = rarityOverlap(set('said today x1'), set('said today x2'), opts);
    expect(rare.rareShared).toEqual(['sqlite']);
    expect(rare.score).toBeGreaterThan(0.3);
    expect(common.score).toBe(0);
  });

  it('never counts a shared number alone as a rare word', () => {
    expect(rarityOverlap(set('1 note'), set('1 seed'), { docFreq: () => 2, totalDocs: 100 }).score).toBe(0);
    expect(rarityOverlap(set('1 queue'), set('1 queue seed'), { docFreq: () => 2, totalDocs: 100 }).rareShared).toEqual(['queue']);
  });

  it('is plain Jaccard between the only two memories of a store', () => {
    const two = { docFreq: (t: string) => (['a', 'b', 'c'].includes(t) ? 2 : 1), totalDocs: 2 };
    expect(rarityOverlap(set('a b c x'), set('a b c y z'), two).score).toBeCloseTo(3 / 6, 12);
  });

  it('counts a word as rare in a small store up to commonMinDocs memories', () => {
    const small = { docFreq: () => 9, totalDocs: 40 };
    expect(rarityOverlap(set('a b'), set('a c'), small).rareShared).toEqual(['a']);
    expect(rarityOverlap(set('a b'), set('a c'), { ...small, commonMinDocs: 8 }).score).toBe(0);
  });

  it('is symmetric, within 0..1, 1 for equal sets with a rare word, 0 for disjoint or empty sets', () => {
    const words = fc.subarray(['said', 'today', 'caroline', 'sqlite', 'wal', 'lock', 'p', 'q']);
    fc.assert(
      fc.property(words, words, (x, y) => {
        const a = new Set(x);
        const b = new Set(y);
        const ab = rarityOverlap(a, b, opts).score;
        expect(ab).toBeCloseTo(rarityOverlap(b, a, opts).score, 12);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(1);
      }),
    );
    expect(rarityOverlap(set('sqlite wal'), set('sqlite wal'), opts).score).toBeCloseTo(1, 12);
    expect(rarityOverlap(set('sqlite'), set('wal'), opts).score).toBe(0);
    expect(rarityOverlap(new Set(), new Set(), opts).score).toBe(0);
  });
});
