/**
 * `recall`: find the memories relevant to a query, across the project and global tiers.
 * Keyword search here (keyword.ts); semantic and hybrid in hybrid.ts, other branches in
 * branches.ts, both loaded only when asked for; the shapes in results.ts.
 */
import { UsageError } from '../../errors.js';
import type { Context } from '../../services/context.js';
import { enrichResults } from '../../services/enrich.js';
import { hasVectors } from '../../services/embed-settings.js';
import { allDiagnostics, openIndexes, verifyShown } from '../../services/indexes.js';
import { recordAccess } from '../../services/signals.js';
import { keywordResults } from './keyword.js';
import { withReviewCandidates } from './candidates.js';
import { aboveFloor } from '../../core/recall-rank.js';
import { RECALL_MODES, relevanceOf, searchOptionsOf, type RecallInput, type RecallOutput } from './results.js';

export {
  DEFAULT_EMBED_ON_RECALL,
  RECALL_MODES,
  parseSince,
  relevanceOf,
  searchOptionsOf,
  toResult,
  type RecallInput,
  type RecallMode,
  type RecallOutput,
  type RecallResult,
  type RefInfo,
} from './results.js';
export { keywordResults } from './keyword.js';

/**
 * Recall over both tiers: keyword, semantic or hybrid (see {@link RecallMode}).
 * The keyword path loads neither the vector cache nor the embedding library; deciding
 * the default mode costs one small read of `.memory/vectors.bin`'s header.
 *
 * @example
 * const { results, mode } = await recall(ctx, { query: 'which database did we pick' });
 */
export async function recall(ctx: Context, input: RecallInput): Promise<RecallOutput> {
  if (input.branch !== undefined || input.allBranches) return (await import('./branches.js')).recallBranches(ctx, input, recall);
  const query = input.query.trim();
  if (query === '') throw new UsageError('The query is empty.', { hint: 'Example: cortex recall "database choice"' });
  if (input.mode !== undefined && !RECALL_MODES.includes(input.mode)) {
    throw new UsageError(`Unknown recall mode "${input.mode}".`, { hint: `Use one of: ${RECALL_MODES.join(', ')}.` });
  }
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit, globalWeight: ctx.config.recall.globalWeight, neighbourWeight: ctx.config.recall.neighbourWeight };
  const scope = input.scope ? { scope: input.scope } : {};
  const mode = input.mode ?? (hasVectors(ctx, scope) ? 'hybrid' : 'keyword');
  const tiers = openIndexes(ctx, scope);
  let out: RecallOutput;
  // The files of what is shown are checked against the index (a large tier is not swept on
  // every command): when one was edited in place, the question is asked again.
  for (let attempt = 0; ; attempt++) {
    if (mode !== 'keyword') {
      const { recallWithVectors } = await import('./hybrid.js');
      out = await recallWithVectors(ctx, { ...input, query, limit, options, mode, tiers });
    } else {
      out = { query, mode: 'keyword', results: keywordResults(tiers, query, options), diagnostics: allDiagnostics(tiers) };
    }
    if (attempt > 0 || !verifyShown(tiers, out.results)) break;
  }
  // `limit` is a maximum: the ranking stops where relevance does.
  const relevant = aboveFloor(out.results, relevanceOf(ctx, input));
  out = { ...out, results: relevant, belowFloor: out.results.length - relevant.length };
  // Graph neighbours and linked code, over the indexes already open.
  if (input.enrich !== false) out = { ...out, results: enrichResults(ctx, out.results, { tiers }) };
  if (input.recordAccess !== false) recordAccess(ctx, out.results);
  // Review candidates the query needs, marked unconfirmed (candidates.ts): never recorded, enriched or written.
  return withReviewCandidates(ctx, input, out);
}
