import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesWholeWords, wordsOf } from './word-match.js';

describe('matchesWholeWords', () => {
  it('matches whole words as typed, any case, every word required', () => {
    expect(matchesWholeWords('timing probe', ['Added a Timing probe to Pool.acquire'])).toBe(true);
    expect(matchesWholeWords('timing probe', ['All timestamps are UTC', 'the probe runs'])).toBe(false);
    expect(matchesWholeWords('probe', ['probes were removed'])).toBe(false);
    expect(matchesWholeWords('deploy', ['deployment notes', 'deploys nightly'])).toBe(false);
    expect(matchesWholeWords('timing probe', ['a timing note', 'a probe note'])).toBe(true);
    expect(matchesWholeWords('Größe', ['die größe zählt'])).toBe(true);
  });
  it('a query with no words matches nothing', () => {
    expect(matchesWholeWords('  -- ', ['anything at all'])).toBe(false);
  });
  it('never matches a text missing one of the query\'s words (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-z]{1,8}$/), (words, extra) => {
        const text = words.join(' ');
        expect(matchesWholeWords(text, [text])).toBe(true);
        if (!words.includes(extra)) expect(matchesWholeWords(`${text} ${extra}`, [text])).toBe(false);
      }),
    );
  });
  it('wordsOf splits on everything that is not a letter, digit or underscore', () => {
    expect(wordsOf('Pool.acquire(timeout_ms) — 30s')).toEqual(['pool', 'acquire', 'timeout_ms', '30s']);
  });
});
