import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without type declarations
import { generate } from '../../scripts/thesaurus.mjs';
import { ANALYSED_GROUPS, ANALYSED_TIME_TERMS } from './query-terms.js';
import { DEFAULT_FEEDBACK, analyseWordLists, expansionsOf, feedbackTerms, planQuery } from './query.js';
import { analyze } from './text.js';

const df = (table: Record<string, number>) => (term: string) => table[term] ?? 0;

describe('feedbackTerms', () => {
  it('adds the words that characterise the first results, rarest and most frequent first', () => {
    const docs = [
      { text: 'Melanie painted a sunrise over the lake', score: 4 },
      { text: 'The lake painting hangs in her studio', score: 2 },
    ];
    const added = feedbackTerms(docs, { exclude: new Set(analyze('paint')), docFreq: df({ melani: 50, sunris: 3, lake: 4, studio: 6, hang: 10 }), totalDocs: 100 });
    expect([...added.keys()][0]).toBe('lake'); // in both results, and rare
    expect(added.get('lake')).toBeCloseTo(DEFAULT_FEEDBACK.weight);
    expect(added.has('paint')).toBe(false); // the query's own term
    expect(added.get('melani')!).toBeLessThan(added.get('sunris')!); // common in the collection
  });

  it('ignores words too rare to connect anything, and returns nothing without results', () => {
    const added = feedbackTerms([{ text: 'zebra stripes', score: 1 }], { exclude: new Set(), docFreq: df({ zebra: 1, stripe: 2 }), totalDocs: 10 });
    expect([...added.keys()]).toEqual(['stripe']);
    expect(feedbackTerms([], { exclude: new Set(), docFreq: () => 5, totalDocs: 10 }).size).toBe(0);
  });

  it('keeps at most `terms` terms with weights in (0, weight], none excluded, the same for the same input (property)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma', 'omega');
    fc.assert(
      fc.property(
        fc.array(fc.record({ words: fc.array(word, { maxLength: 12 }), score: fc.double({ min: 0.01, max: 10, noNaN: true }) }), { maxLength: 6 }),
        fc.subarray(['alpha', 'beta', 'gamma']),
        fc.integer({ min: 1, max: 5 }),
        (raw, excluded, terms) => {
          const docs = raw.map((d) => ({ text: d.words.join(' '), score: d.score })).sort((a, b) => b.score - a.score);
          const options = { exclude: new Set(excluded), docFreq: (t: string) => t.length, totalDocs: 20, terms, weight: 0.5 };
          const added = feedbackTerms(docs, options);
          expect(added.size).toBeLessThanOrEqual(terms);
          for (const [term, w] of added) {
            expect(excluded).not.toContain(term);
            expect(w).toBeGreaterThan(0);
            expect(w).toBeLessThanOrEqual(0.5 + 1e-12);
          }
          expect([...feedbackTerms(docs, options)]).toEqual([...added]);
        },
      ),
    );
  });
});

describe('the analysed word lists (query-terms.ts)', () => {
  it('are what analysing query.ts\'s thesaurus and time words gives (run `npm run thesaurus` after editing them)', () => {
    const analysed = analyseWordLists();
    expect(ANALYSED_GROUPS).toEqual(analysed.groups);
    expect(ANALYSED_TIME_TERMS).toEqual(analysed.timeTerms);
    expect(readFileSync(new URL('./query-terms.ts', import.meta.url), 'utf8')).toBe(generate(analysed));
  });

  it('expand a question through them', () => {
    expect(expansionsOf('databas')).toContain('sqlite');
    expect(planQuery('which database did we pick').expansions).toContain('postgr');
    expect(planQuery('when did we drop Prisma').timeTerms).toContain('yesterdai');
  });
});
