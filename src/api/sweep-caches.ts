/**
 * Housekeeping a long-lived process does once when it starts: deleting the index files in
 * each tier's `.memory/` that no index points to any more (left by an older version, which
 * rewrote the file table on reads, or by an interrupted run). Writes sweep as they save; this
 * is for a server that may only ever read.
 */
import { FRESH_SWEEP_MS, setFreshSweepWindow, sweepStaleIndexFiles } from '../cache/index/search-index.js';
import { presentScopes, scopePaths, type Context } from '../services/context.js';

/**
 * Sweeps every present tier's stale index files (bounded per tier; see
 * `sweepStaleIndexFiles`). Returns how many files were deleted; never throws.
 *
 * @example
 * sweepStaleCaches(cortex.context) // 712 after a server of an older version ran a while
 */
export function sweepStaleCaches(ctx: Context): number {
  let removed = 0;
  try {
    for (const scope of presentScopes(ctx)) removed += sweepStaleIndexFiles(scopePaths(ctx, scope)).length;
  } catch {
    // Housekeeping only.
  }
  return removed;
}

/**
 * Readies this process to serve many calls (the MCP server): its indexes, held in memory,
 * skip the stat of every memory file within {@link FRESH_SWEEP_MS} of the last one while
 * the memories directory's stamp stays put (another program's change is seen by every call
 * at least that long after it), and stale index files are swept once. Returns how many
 * files were deleted; never throws.
 *
 * @example
 * startServing(cortex.context) // 0
 */
export function startServing(ctx: Context): number {
  setFreshSweepWindow(FRESH_SWEEP_MS);
  return sweepStaleCaches(ctx);
}
