/**
 * Keyword recall: the BM25 hits of the project and global indexes merged into one ranking,
 * on one scale across the tiers, each with its coverage of the query, then re-ranked by their
 * conversation neighbours (core/neighbours.ts).
 */
import { DEFAULT_NEIGHBOURS, neighbourBonus, rankWithNeighbours } from '../../core/neighbours.js';
import { expansionsOf, planQuery } from '../../core/query.js';
import { idf } from '../../core/recall-rank.js';
import { EXPANSION_WEIGHT, type SearchOptions } from '../../cache/index/search-index.js';
import type { TierIndex } from '../../services/indexes.js';
import { GLOBAL_SCORE_FACTOR, toResult, type RecallResult } from './results.js';

/**
 * Keyword hits of every tier merged into one ranking, best first.
 *
 * Each tier is a separate index, and BM25 weighs a word by how rare it is *in that index*:
 * the same match scores less in a small global tier than in a large project. So each hit's
 * score is moved onto one scale — the idf of its matched words over both tiers together,
 * instead of its own tier's — and global memories then weigh `globalWeight` (default
 * {@link GLOBAL_SCORE_FACTOR}) of project ones. With one tier (or an empty one) nothing moves.
 * Each result also carries its `coverage` of the query, on the same scale.
 *
 * Then the conversation neighbours: twice `limit` hits are ranked, and each of the first
 * results passes `neighbourWeight` (default {@link DEFAULT_NEIGHBOURS}.weight; 0: off) of its
 * score to the hits up to two places before or after it in its session. A hit next to other
 * hits — the answer after the question, the fix after the error — moves up; no memory is
 * added that the query's words did not find.
 */
export function keywordResults(
  tiers: TierIndex[],
  query: string,
  options: SearchOptions & { limit: number; globalWeight?: number; neighbourWeight?: number },
): RecallResult[] {
  const plan = planQuery(query);
  const terms = [...new Set(plan.terms)];
  const expansions = new Set(plan.expansions);
  const stats = tiers.map((tier) => tier.index.termStats([...terms, ...expansions]));
  const documents = stats.reduce((n, s) => n + s.documents, 0);
  const unionIdf = new Map([...terms, ...expansions].map((t) => [t, idf(stats.reduce((n, s) => n + (s.docFreq.get(t) ?? 0), 0), documents)]));
  // Rarity for coverage is judged as if there were at least COVERAGE_MIN_DOCS memories: in a
  // project of three, every word it has would otherwise look common beside one it lacks.
  const coverageIdf = new Map(terms.map((t) => [t, idf(stats.reduce((n, s) => n + (s.docFreq.get(t) ?? 0), 0), Math.max(documents, COVERAGE_MIN_DOCS))]));
  const weight = (t: string) => coverageIdf.get(t) ?? 0;
  const globalWeight = options.globalWeight ?? GLOBAL_SCORE_FACTOR;
  const neighbourWeight = options.neighbourWeight ?? DEFAULT_NEIGHBOURS.weight;
  // Candidates for the neighbours to re-rank: a hit just below the limit may move into it.
  const depth = neighbourWeight > 0 ? 2 * options.limit : options.limit;
  const merged: RecallResult[] = [];
  tiers.forEach((tier, i) => {
    const own = stats[i]!;
    const factor = tier.scope === 'global' ? globalWeight : 1;
    for (const hit of tier.index.query(query, { ...options, limit: depth })) {
      const doc = tier.index.docs.get(hit.id);
      if (!doc) continue;
      const matched = (hit.queryTerms ?? []).filter((t) => unionIdf.has(t));
      let local = 0;
      let union = 0;
      for (const t of matched) {
        const w = expansions.has(t) ? EXPANSION_WEIGHT : 1;
        local += w * idf(own.docFreq.get(t) ?? 0, own.documents);
        union += w * (unionIdf.get(t) ?? 0);
      }
      const scale = local > 0 ? union / local : 1;
      const result = toResult(doc, hit.score * scale * factor, hit.terms);
      result.coverage = coverageOf(terms, new Set(matched), weight);
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

/** See `keywordResults`: the smallest corpus size rarity is judged on. */
export const COVERAGE_MIN_DOCS = 100;

/**
 * The idf-weighted share of the query's terms a memory contains; a term it has only
 * through the thesaurus counts {@link EXPANSION_WEIGHT} per synonym found, up to a whole term
 * (the weight synonyms are searched with: "database" is covered by "SQLite" and "Postgres"
 * together more than by either alone).
 */
function coverageOf(terms: readonly string[], matched: ReadonlySet<string>, weight: (t: string) => number): number {
  let total = 0;
  let found = 0;
  for (const t of terms) {
    const w = weight(t);
    total += w;
    if (matched.has(t)) found += w;
    else found += Math.min(1, EXPANSION_WEIGHT * expansionsOf(t).filter((e) => matched.has(e)).length) * w;
  }
  return total > 0 ? found / total : 0;
}
