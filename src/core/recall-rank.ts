/**
 * Where a ranking stops being relevant: one rule for `recall` (CLI, MCP, library) and the
 * anticipatory prompt hook. Pure.
 *
 * BM25 scores have no fixed scale, so the floor is relative to the best hit: a result
 * scoring under `minScoreShare` of the best one is noise beside it. A relative floor alone
 * cannot say that the best hit itself is unrelated, so keyword results must also cover a
 * share of the query: the idf-weighted share of the query's words they contain
 * (`minCoverage`). A memory that shares only "need" with "which houseplants need little
 * sunlight" covers a small part of that question, whatever its rank.
 */

export interface RelevanceOptions {
  /** Results scoring below this share of the best result are dropped (0 turns the floor off). */
  minScoreShare?: number;
  /** Keyword results covering less than this idf-weighted share of the query are dropped (0: off). */
  minCoverage?: number;
}

export const DEFAULT_RELEVANCE: Required<RelevanceOptions> = { minScoreShare: 0.2, minCoverage: 0.2 };

export interface Scored {
  score: number;
  /** Idf-weighted share of the query this result contains, 0..1; absent for results found by meaning alone. */
  coverage?: number | undefined;
}

/**
 * The results above the floor, in their order (best first is assumed, not checked).
 *
 * @example
 * aboveFloor([{ score: 10, coverage: 0.8 }, { score: 5, coverage: 0.1 }, { score: 1 }])
 * // [{ score: 10, coverage: 0.8 }]
 */
export function aboveFloor<T extends Scored>(ranked: readonly T[], options: RelevanceOptions = {}): T[] {
  const { minScoreShare, minCoverage } = { ...DEFAULT_RELEVANCE, ...options };
  const best = ranked.reduce((m, r) => Math.max(m, r.score), 0);
  return ranked.filter((r) => (best <= 0 || r.score >= best * minScoreShare) && (r.coverage === undefined || r.coverage >= minCoverage));
}

/**
 * Inverse document frequency (BM25's, always positive): rare words weigh more. A word no
 * memory contains weighs most.
 *
 * @example
 * idf(0, 100) > idf(50, 100) // true
 */
export function idf(docFreq: number, totalDocs: number): number {
  return Math.log(1 + (totalDocs - docFreq + 0.5) / (docFreq + 0.5));
}
