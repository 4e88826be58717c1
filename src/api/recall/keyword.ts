/**
 * Keyword recall: the BM25 hits of the project and global indexes merged into one ranking,
 * on one scale across the tiers, each with its coverage of the query, then re-ranked by their
 * conversation neighbours (core/neighbours.ts). What the ranking weighs and how is
 * core/recall-rank.ts; this applies it to the open tiers.
 */
import { DEFAULT_NEIGHBOURS, neighbourBonus, rankWithNeighbours } from '../../core/neighbours.js';
import { DEFAULT_GLOBAL_WEIGHT, oneScale, planRecall, rankingDepth } from '../../core/recall-rank.js';
import type { SearchOptions } from '../../cache/index/search-index.js';
import type { TierIndex } from '../../services/indexes.js';
import { toResult, type RecallResult } from './results.js';

/**
 * Keyword hits of every tier merged into one ranking, best first, as core/recall-rank.ts
 * says: the query planned once for every tier (`planRecall`), each hit moved onto one scale
 * across the tiers with its coverage of the query (`oneScale`), global memories weighing
 * `globalWeight` (default `DEFAULT_GLOBAL_WEIGHT`) of project ones.
 *
 * Then the conversation neighbours: twice `limit` hits are ranked (`rankingDepth`), and each
 * of the first results passes `neighbourWeight` (default {@link DEFAULT_NEIGHBOURS}.weight; 0:
 * off) of its score to the hits up to two places before or after it in its session. A hit next
 * to other hits — the answer after the question, the fix after the error — moves up; no memory
 * is added that the query's words did not find.
 */
export function keywordResults(
  tiers: TierIndex[],
  query: string,
  options: SearchOptions & { limit: number; globalWeight?: number; neighbourWeight?: number },
): RecallResult[] {
  const plan = planRecall(query, { expand: options.expand, exact: options.exact });
  const stats = tiers.map((tier) => tier.index.termStats([...new Set([...plan.terms, ...plan.expansions])]));
  const scales = oneScale(plan, stats);
  const globalWeight = options.globalWeight ?? DEFAULT_GLOBAL_WEIGHT;
  const neighbourWeight = options.neighbourWeight ?? DEFAULT_NEIGHBOURS.weight;
  const depth = rankingDepth(options.limit, neighbourWeight);
  const merged: RecallResult[] = [];
  tiers.forEach((tier, i) => {
    const factor = tier.scope === 'global' ? globalWeight : 1;
    for (const hit of tier.index.query(plan, { ...options, limit: depth })) {
      const doc = tier.index.docs.get(hit.id);
      if (!doc) continue;
      const { scale, coverage } = scales.place(i, hit.queryTerms ?? []);
      const result = toResult(doc, hit.score * scale * factor, hit.terms);
      result.coverage = coverage;
      merged.push(result);
    }
  });
  merged.sort((a, b) => b.score - a.score || (a.scope === b.scope ? a.id.localeCompare(b.id) : a.scope === 'project' ? -1 : 1));
  const ranked = merged.slice(0, depth);
  if (neighbourWeight <= 0 || ranked.length < 2) return ranked.slice(0, options.limit);
  return withNeighbours(tiers, ranked, neighbourWeight).slice(0, options.limit);
}

/**
 * The ranking re-ranked by conversation neighbours, each tier's memories by the session
 * order its doc table keeps (read only for the sessions of the first results).
 */
function withNeighbours(tiers: TierIndex[], ranked: RecallResult[], weight: number): RecallResult[] {
  const tierOf = new Map(tiers.map((t) => [t.scope as string, t]));
  const seeds = ranked.slice(0, DEFAULT_NEIGHBOURS.seeds).filter((r) => tierOf.get(r.scope)?.index.docs.get(r.id)?.session);
  if (seeds.length === 0) return ranked;
  const around = (key: string, width: number): string[] => {
    const [scope, id] = splitKey(key);
    const docs = tierOf.get(scope)?.index.docs;
    return docs ? docs.sessionNeighbours(id, width).map((n) => keyOf(scope, n)) : [];
  };
  const bonus = neighbourBonus(seeds.map((r) => ({ id: keyOf(r.scope, r.id), score: r.score })), around, { weight });
  const keyed = ranked.map((result) => ({ id: keyOf(result.scope, result.id), score: result.score, result }));
  return rankWithNeighbours(keyed, bonus).map((k) => (k.score === k.result.score ? k.result : { ...k.result, score: k.score }));
}

/** A result's key across tiers: the same id may exist in two tiers. */
function keyOf(scope: string, id: string): string {
  return `${scope}\u0000${id}`;
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
}
