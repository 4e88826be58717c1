import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expansionsOf, planQuery } from './query.js';
import {
  COVERAGE_MIN_DOCS,
  DEFAULT_EXPANSION_WEIGHT,
  DEFAULT_TIME_WEIGHT,
  MAX_FUZZY_TERM,
  coverageOf,
  feedbackTailScale,
  idf,
  oneScale,
  planRecall,
  rankingDepth,
  type TermStats,
} from './recall-rank.js';

describe('planRecall', () => {
  it('matches the question’s own words by prefix and fuzzily, expansions and time words exactly at their weights', () => {
    const plan = planRecall('when did we pick the database');
    const spec = (term: string) => plan.specs.find((s) => s.term === term);
    const own = plan.terms.find((t) => t.length >= 6)!;
    expect(spec(own)).toEqual({ term: own, prefix: true, fuzzy: 0.2, boost: 1 });
    expect(plan.expansions.length).toBeGreaterThan(0);
    for (const e of plan.expansions) expect(spec(e)).toEqual({ term: e, prefix: false, fuzzy: false, boost: DEFAULT_EXPANSION_WEIGHT });
    expect(plan.timeTerms.length).toBeGreaterThan(0);
    for (const t of plan.timeTerms.filter((t) => !plan.expansions.includes(t))) expect(spec(t)).toMatchObject({ prefix: false, fuzzy: false, boost: DEFAULT_TIME_WEIGHT });
  });

  it('is planQuery’s plan, the own words first, one spec per term', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.boolean(), (text, expand) => {
        const plan = planRecall(text, { expand });
        const q = planQuery(text, { expand });
        expect(plan).toMatchObject({ terms: q.terms, expansions: q.expansions, timeTerms: q.timeTerms, typeHints: q.typeHints });
        expect(plan.specs.map((s) => s.term)).toEqual([...q.terms, ...q.expansions, ...q.timeTerms]);
      }),
    );
  });

  it('matches every term as it is when exact, and a term past MAX_FUZZY_TERM never fuzzily', () => {
    expect(planRecall('postgres migrations', { exact: true }).specs.every((s) => !s.prefix && s.fuzzy === false)).toBe(true);
    const long = 'x'.repeat(MAX_FUZZY_TERM + 1);
    expect(planRecall(long).specs[0]).toMatchObject({ prefix: true, fuzzy: false });
  });
});

describe('oneScale', () => {
  const stats = (documents: number, freq: Record<string, number>): TermStats => ({ documents, docFreq: new Map(Object.entries(freq)) });

  it('moves nothing with one tier', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 2, maxLength: 2 }), (n, [a, b]) => {
        const plan = { terms: ['alpha', 'beta'], expansions: [] };
        const placed = oneScale(plan, [stats(n, { alpha: Math.min(a!, n), beta: Math.min(b!, n) })]).place(0, ['alpha', 'beta']);
        expect(placed.scale).toBeCloseTo(1, 12);
      }),
    );
  });

  it('lifts a hit of a small tier whose word is rare over both tiers, and lowers one of a large tier', () => {
    // "alpha" is in 1 of 2 memories of the small tier: common there, rare over both.
    const plan = { terms: ['alpha'], expansions: [] };
    const scale = oneScale(plan, [stats(1000, { alpha: 1 }), stats(2, { alpha: 1 })]);
    expect(scale.place(1, ['alpha']).scale).toBeGreaterThan(1);
    expect(scale.place(0, ['alpha']).scale).toBeLessThan(1);
    expect(scale.place(0, []).scale).toBe(1);
  });

  it('gives the coverage of the query, rarity judged on at least COVERAGE_MIN_DOCS memories', () => {
    const plan = { terms: ['alpha', 'beta'], expansions: [] };
    const tiny = oneScale(plan, [stats(2, { alpha: 1, beta: 1 })]);
    expect(tiny.place(0, ['alpha']).coverage).toBeCloseTo(0.5, 12);
    const weight = idf(1, COVERAGE_MIN_DOCS);
    expect(tiny.place(0, ['alpha']).coverage).toBeCloseTo(coverageOf(['alpha', 'beta'], new Set(['alpha']), () => weight), 12);
    expect(tiny.place(0, ['alpha', 'beta']).coverage).toBe(1);
  });
});

describe('coverageOf', () => {
  it('counts each synonym found at the expansion weight, up to a whole term', () => {
    const term = planQuery('database').terms[0]!;
    const synonyms = expansionsOf(term);
    expect(synonyms.length).toBeGreaterThan(1);
    expect(coverageOf([term], new Set([synonyms[0]!]), () => 1)).toBeCloseTo(DEFAULT_EXPANSION_WEIGHT, 12);
    expect(coverageOf([term], new Set(synonyms), () => 1)).toBe(Math.min(1, DEFAULT_EXPANSION_WEIGHT * synonyms.length));
  });

  it('stays within 0..1', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }), fc.subarray(['a', 'b', 'c', 'd']), fc.double({ min: 0, max: 10, noNaN: true }), (terms, matched, w) => {
        const c = coverageOf(terms, new Set(matched), () => w);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });
});

describe('the feedback tail and the neighbours’ depth', () => {
  it('scales the tail’s best just under the head’s last score', () => {
    expect(feedbackTailScale(2, 8) * 8).toBeLessThan(2);
    expect(feedbackTailScale(2, 8) * 8).toBeCloseTo(2 * 0.999, 12);
    expect(feedbackTailScale(2, 0)).toBe(0);
  });

  it('ranks twice the limit when neighbours re-rank, the limit otherwise', () => {
    expect(rankingDepth(10, 0.1)).toBe(20);
    expect(rankingDepth(10, 0)).toBe(10);
  });
});
