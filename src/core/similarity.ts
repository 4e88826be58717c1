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

export interface RarityOptions {
  /** Number of memories containing a term (the index's document frequency). */
  docFreq: (term: string) => number;
  /** Number of memories indexed. */
  totalDocs: number;
  /**
   * A term in more than this share of the memories is common: it adds little to the score
   * and never makes two memories related on its own (default 0.05).
   */
  commonShare?: number;
  /** …but a term in at most this many memories is never common, however small the store (default 10). */
  commonMinDocs?: number;
}

const LETTER = /\p{L}/u;

/** Defaults of `rarityOverlap`. */
export const DEFAULT_RARITY = { commonShare: 0.05, commonMinDocs: 10 };

export interface RarityOverlap {
  /** Σ idf(shared) / Σ idf(either), 0..1; 0 when no shared term is rare. */
  score: number;
  /** Shared terms that are not common, rarest first. */
  rareShared: string[];
}

/**
 * Overlap of two term sets weighted by rarity: each term counts by its inverse document
 * frequency, `log(1 + (N − df + ½) / (df + ½))`, so two memories sharing "sqlite" and "wal"
 * score far above two sharing "said" and "today". When every shared term is common (in
 * more than `commonShare` of the memories, and more than `commonMinDocs`), the score is 0:
 * common words alone never relate two memories, however many they share. Nor do numbers
 * alone ("1", "2023"): a shared word must have a letter to count as rare.
 *
 * Both memories are among those `docFreq` counts, and rarity is taken among the others
 * (each term's count without these two, N − 2): sharing a word must not make it look
 * common, or in a small store near-duplicates would score low. Among two or three memories
 * every word then weighs about the same, and the score is close to plain Jaccard.
 *
 * @example
 * const df = (t: string) => ({ said: 90, today: 60, sqlite: 2 })[t] ?? 1;
 * rarityOverlap(new Set(['said', 'sqlite']), new Set(['said', 'sqlite', 'today']), { docFreq: df, totalDocs: 100 }).score // ≈ 0.91
 * rarityOverlap(new Set(['said', 'today']), new Set(['said', 'today', 'sqlite']), { docFreq: df, totalDocs: 100 }).score // 0
 */
export function rarityOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>, options: RarityOptions): RarityOverlap {
  const { commonShare, commonMinDocs } = { ...DEFAULT_RARITY, ...options };
  const commonAbove = Math.max(commonMinDocs, commonShare * options.totalDocs);
  const others = Math.max(0, options.totalDocs - 2);
  /** idf among the other memories: `mine` is how many of the two hold the term. */
  const idfOf = (term: string, mine: number): number => {
    const df = Math.min(others, Math.max(0, options.docFreq(term) - mine));
    return Math.log(1 + (others - df + 0.5) / (df + 0.5));
  };
  let shared = 0;
  let union = 0;
  const rare: Array<[string, number]> = [];
  for (const term of a) {
    const both = b.has(term);
    const w = idfOf(term, both ? 2 : 1);
    union += w;
    if (!both) continue;
    shared += w;
    // A number alone ("1", "2023", a minute) is no topic two memories share.
    if (options.docFreq(term) <= commonAbove && LETTER.test(term)) rare.push([term, w]);
  }
  for (const term of b) if (!a.has(term)) union += idfOf(term, 1);
  rare.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  return { score: rare.length === 0 || union <= 0 ? 0 : shared / union, rareShared: rare.map(([t]) => t) };
}
