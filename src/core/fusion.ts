/**
 * Vector similarity and rank fusion for hybrid recall: cosine over embeddings, top-k
 * selection, and reciprocal rank fusion of the keyword and vector rankings. Pure.
 */

/** Anything indexable as numbers: `Float32Array`, `number[]` … */
export type Vector = ArrayLike<number>;

/**
 * Cosine similarity in [-1, 1]. For L2-normalised vectors this is their dot product;
 * norms are computed anyway (in the same pass) so unnormalised input stays correct.
 * A zero vector is similar to nothing: 0.
 *
 * @throws RangeError when the lengths differ (vectors from two different models).
 * @example
 * cosine([1, 0], [0.6, 0.8]) // 0.6
 */
export function cosine(a: Vector, b: Vector): number {
  if (a.length !== b.length) throw new RangeError(`cosine of vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  const value = dot / Math.sqrt(na * nb);
  // Rounding can push |value| a hair past 1; callers rely on the range.
  if (Number.isNaN(value)) return 0;
  return value > 1 ? 1 : value < -1 ? -1 : value;
}

/** A scored id: output of `topKByCosine` and `reciprocalRankFusion`. */
export interface ScoredId {
  id: string;
  score: number;
}

/** Best first; equal scores by id (code-unit order, not locale) so output never depends on input order. */
function compareScored(a: ScoredId, b: ScoredId): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The `k` entries most similar to `query`, best first; ties broken by id.
 * Keeps a bounded sorted buffer, so it is O(n log k) and never sorts the whole corpus.
 *
 * @example
 * topKByCosine([1, 0], [{ id: 'a', vector: [0, 1] }, { id: 'b', vector: [1, 0] }], 1)
 * // [{ id: 'b', score: 1 }]
 */
export function topKByCosine(query: Vector, entries: Iterable<{ id: string; vector: Vector }>, k: number): ScoredId[] {
  const limit = Math.max(0, Math.floor(k));
  const best: ScoredId[] = [];
  if (limit === 0) return best;
  for (const entry of entries) {
    const candidate = { id: entry.id, score: cosine(query, entry.vector) };
    if (best.length === limit && compareScored(candidate, best[limit - 1] as ScoredId) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareScored(best[mid] as ScoredId, candidate) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, candidate);
    if (best.length > limit) best.pop();
  }
  return best;
}

export interface RrfOptions {
  /**
   * Rank damping constant: higher values flatten the difference between rank 1 and rank
   * 10. 60 is the value from Cormack et al. (2009) and what most hybrid search uses.
   */
  k: number;
  /** Weight per ranking (same order); missing entries weigh 1; rankings weighted ≤ 0 are ignored. */
  weights: number[] | undefined;
}

export const DEFAULT_RRF: RrfOptions = { k: 60, weights: undefined };

/**
 * Reciprocal rank fusion: `score(id) = Σ weight_i / (k + rank_i(id))`, rank 1-based,
 * over the rankings that contain the id. Best first, ties by id. A duplicate id within
 * one ranking counts at its first (best) position only.
 * Contributions are summed in a canonical order, so permuting the rankings (with their
 * weights) gives bit-identical scores.
 *
 * @example
 * reciprocalRankFusion([['a', 'b'], ['b', 'c']])
 * // [{ id: 'b', score: 1/62 + 1/61 }, { id: 'a', score: 1/61 }, { id: 'c', score: 1/62 }]
 */
export function reciprocalRankFusion(rankings: readonly (readonly string[])[], options: Partial<RrfOptions> = {}): ScoredId[] {
  const { k, weights } = { ...DEFAULT_RRF, ...options };
  if (!(k >= 0) || !Number.isFinite(k)) throw new RangeError(`RRF k must be a finite number ≥ 0, got ${k}`);
  const contributions = new Map<string, number[]>();
  rankings.forEach((ranking, listIndex) => {
    const weight = weights?.[listIndex] ?? 1;
    if (!(weight > 0)) return;
    const seen = new Set<string>();
    ranking.forEach((id, position) => {
      if (seen.has(id)) return;
      seen.add(id);
      const value = weight / (k + position + 1);
      const list = contributions.get(id);
      if (list) list.push(value);
      else contributions.set(id, [value]);
    });
  });
  const fused: ScoredId[] = [];
  for (const [id, values] of contributions) {
    values.sort((x, y) => y - x);
    let score = 0;
    for (const v of values) score += v;
    fused.push({ id, score });
  }
  return fused.sort(compareScored);
}
