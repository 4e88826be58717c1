/**
 * Matching for commands that delete or rewrite by a query (`forget --query`): whole words as
 * typed, case-insensitive, every word required. No stemming, no fuzzy matching, no prefixes:
 * "timing probe" matches a memory that says "timing" and "probe", never one that says
 * "timestamps" or "probes". Search (`recall`) is generous on purpose; deletion is not.
 *
 * Pure: no I/O.
 */

// A word: letters, digits, marks and connector punctuation (`_`), in any script.
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

/**
 * The words of a text, lower-cased, in order.
 *
 * @example
 * wordsOf('Timing probe: v2_final') // ['timing', 'probe', 'v2_final']
 */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).slice();
}

/**
 * Whether every word of `query` appears as a whole word somewhere in `texts`.
 * A query with no words matches nothing.
 *
 * @example
 * matchesWholeWords('timing probe', ['Added a timing probe to the pool']) // true
 * matchesWholeWords('timing probe', ['All timestamps are UTC']) // false
 */
export function matchesWholeWords(query: string, texts: readonly string[]): boolean {
  const wanted = wordsOf(query);
  if (wanted.length === 0) return false;
  const have = new Set<string>();
  for (const t of texts) for (const w of wordsOf(t)) have.add(w);
  return wanted.every((w) => have.has(w));
}
