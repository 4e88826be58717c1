/**
 * Lexical similarity: word-token sets and Jaccard overlap, used to auto-link memories
 * (autolink.ts) and to spot duplicates. Pure.
 */

/**
 * A plain English stop list: function words that make two unrelated texts look alike.
 * Kept short on purpose; domain words ("use", "file", "test") stay, they carry meaning here.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either else few for from further had has ' +
    'have having he her here hers herself him himself his how however if in into is it its itself just me more ' +
    'most my myself neither no nor not now of off on once only or other our ours ourselves out over own same ' +
    'she should since so some such than that the their theirs them themselves then there these they this those ' +
    'through thus to too under until up upon us very was we were what when where whether which while who whom ' +
    'whose why will with within without would yet you your yours yourself yourselves'
  ).split(' '),
);

export interface TokenSetOptions {
  stopWords?: ReadonlySet<string>;
  /** Tokens shorter than this are dropped. */
  minLength?: number;
}

/** Defaults of `tokenSet`: the English stop list, tokens of two characters or more. */
export const DEFAULT_TOKEN_SET = { stopWords: STOP_WORDS, minLength: 2 };

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The distinct lower-case word tokens of a text, without stop words and one-character
 * tokens. Words are runs of letters and digits, so `snake_case`, `kebab-case` and
 * `src/db.ts` split into their parts.
 *
 * @example
 * tokenSet('Chose SQLite over PostgreSQL for the store') // Set { 'chose', 'sqlite', 'postgresql', 'store' }
 */
export function tokenSet(text: string, options: TokenSetOptions = {}): Set<string> {
  const stopWords = options.stopWords ?? DEFAULT_TOKEN_SET.stopWords;
  const minLength = options.minLength ?? DEFAULT_TOKEN_SET.minLength;
  const tokens = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (word.length >= minLength && !stopWords.has(word)) tokens.add(word);
  }
  return tokens;
}

/**
 * |a ∩ b| / |a ∪ b|, from 0 to 1. Two empty sets give 0, not 1: no words in common is
 * no evidence of similarity, and empty memories must never look like duplicates.
 *
 * @example
 * jaccard(new Set(['a', 'b']), new Set(['b', 'c'])) // 1 / 3
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (large.size === 0) return 0;
  let common = 0;
  for (const token of small) if (large.has(token)) common++;
  return common / (a.size + b.size - common);
}
