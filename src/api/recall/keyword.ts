/**
 * Keyword recall: the BM25 hits of the project and global indexes merged into one ranking.
 */
import type { SearchOptions } from '../../cache/index/keyword-index.js';
import type { TierIndex } from '../../services/indexes.js';
import { GLOBAL_SCORE_FACTOR, toResult, type RecallResult } from './results.js';

/**
 * Keyword hits of every tier merged into one ranking, best first; global memories weigh
 * {@link GLOBAL_SCORE_FACTOR} of project ones.
 */
export function keywordResults(tiers: TierIndex[], query: string, options: SearchOptions & { limit: number }): RecallResult[] {
  const merged: RecallResult[] = [];
  for (const tier of tiers) {
    const factor = tier.scope === 'global' ? GLOBAL_SCORE_FACTOR : 1;
    for (const hit of tier.index.query(query, options)) {
      const doc = tier.index.docs.get(hit.id);
      if (doc) merged.push(toResult(doc, hit.score * factor, hit.terms));
    }
  }
  merged.sort((a, b) => b.score - a.score || (a.scope === b.scope ? a.id.localeCompare(b.id) : a.scope === 'project' ? -1 : 1));
  return merged.slice(0, options.limit);
}
