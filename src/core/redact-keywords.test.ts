/**
 * The keyword prefilter of the gate: a rule runs only when one of its keywords occurs, so
 * the set found must be exactly the keywords in the text, for short texts (searched one
 * keyword at a time) and long ones (one expression of all keywords) alike, including
 * keywords that overlap or start inside another.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULE_KEYWORDS, presentKeywords } from './redact.js';

const expected = (text: string): string[] => RULE_KEYWORDS.filter((k) => text.toLowerCase().includes(k)).sort();
const LONG = 'x'.repeat(20 * 1024);

describe('presentKeywords', () => {
  it('finds exactly the keywords in a text, short or long, in any case', () => {
    const piece = fc.oneof(
      fc.constantFrom(...RULE_KEYWORDS),
      fc.constantFrom(...RULE_KEYWORDS).map((k) => k.toUpperCase()),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-.:/ '), maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, long) => {
        const text = long ? LONG + pieces.join('') : pieces.join('');
        expect([...presentKeywords(text)].sort()).toEqual(expected(text));
      }),
      { numRuns: 600, seed: 36 },
    );
  });

  it('finds a keyword that starts inside another, and one that another starts with', () => {
    // Pairs from the rule set itself: `dp.` then `.acc` overlapping; `sk-` inside `sk-ant-`.
    for (const text of ['dp.acc', 'sk-ant-', 'ops_eyj', 'pat.']) {
      expect([...presentKeywords(LONG + text)].sort()).toEqual(expected(LONG + text));
      expect([...presentKeywords(text)].sort()).toEqual(expected(text));
    }
  });

  it('are lower case and at least three chars (shorter ones always run)', () => {
    for (const k of RULE_KEYWORDS) expect(k === k.toLowerCase() && k.length >= 3, k).toBe(true);
  });
});
