/**
 * `linkPending`: auto-links the memories written with `autoLink: 'later'` (the Stop hook's
 * captures), as `remember` would have right after writing them. The session-end worker
 * and PreCompact run it; what one run leaves (a crash, a held lock) the next one links.
 */
import { SCOPES, type Scope } from '../core/memory.js';
import { LockError, MemoryNotFoundError } from '../errors.js';
import { readPendingLinks, removePendingLinks } from '../cache/pending-links.js';
import { lockPath } from '../cache/layout.js';
import { withLock } from '../store/lock.js';
import { readMemoryById } from '../store/memory-store.js';
import { autoLinkMemory } from '../services/autolink.js';
import { scopePaths, type Context } from '../services/context.js';
import { openTierIndex } from '../services/indexes.js';

export interface LinkPendingResult {
  /** Memories linked (compared with their closest ones), per tier. */
  linked: number;
  /** Edge files written. */
  edges: number;
  /** Likely duplicates queued for `cortex consolidate`. */
  consolidate: number;
  /** Listed memories that no longer exist (deleted since): taken off the list. */
  missing: number;
  /** Memories whose linking failed: left on the list for the next run. */
  failed: { id: string; scope: Scope; error: string }[];
  /** Tiers whose write lock stayed held past `lockTimeoutMs`: their list waits for the next run. */
  locked: Scope[];
}

export interface LinkPendingOptions {
  /** Wait this long for a tier's write lock, then leave its list for the next run (ms). */
  lockTimeoutMs?: number;
}

export const DEFAULT_LINK_PENDING: Required<LinkPendingOptions> = { lockTimeoutMs: 15_000 };

/**
 * Links every memory listed in a tier's `.memory/pending-links`, under the tier's write
 * lock, and takes it off the list. Idempotent: a memory linked already gets no second
 * edge, and a pair queued already is not queued again.
 *
 * @example
 * const out = await linkPending(ctx); // { linked: 3, edges: 4, consolidate: 0, missing: 0, failed: [], locked: [] }
 */
export async function linkPending(ctx: Context, options: LinkPendingOptions = {}): Promise<LinkPendingResult> {
  const o = { ...DEFAULT_LINK_PENDING, ...options };
  const result: LinkPendingResult = { linked: 0, edges: 0, consolidate: 0, missing: 0, failed: [], locked: [] };
  for (const scope of SCOPES) {
    const paths = scopePaths(ctx, scope);
    if (readPendingLinks(paths.cacheDir).length === 0) continue;
    try {
      await linkTier(ctx, scope, o.lockTimeoutMs, result);
    } catch (err) {
      if (!(err instanceof LockError)) throw err;
      result.locked.push(scope);
    }
  }
  return result;
}

/** Links one tier's list under its write lock, adding to `result`. */
async function linkTier(ctx: Context, scope: Scope, timeoutMs: number, result: LinkPendingResult): Promise<void> {
  const paths = scopePaths(ctx, scope);
  await withLock(
    lockPath(paths.cacheDir, 'write'),
    async () => {
      // Read again under the lock: another run may have linked them meanwhile.
      const ids = readPendingLinks(paths.cacheDir);
      if (ids.length === 0) return;
      const tier = openTierIndex(ctx, scope);
      const done: string[] = [];
      for (const id of ids) {
        let memory;
        try {
          memory = readMemoryById(paths, id, tier.base).memory;
        } catch (err) {
          // Deleted (or renamed) since it was written: nothing to link.
          if (err instanceof MemoryNotFoundError) {
            result.missing++;
            done.push(id);
            continue;
          }
          result.failed.push({ id, scope, error: (err as Error)?.message ?? String(err) });
          continue;
        }
        if (memory === undefined) {
          // A file that does not parse any more: a person is editing it; `remember` would not link it either.
          done.push(id);
          continue;
        }
        try {
          const links = await autoLinkMemory(ctx, { tier, memory });
          result.linked++;
          result.edges += links.edges.length;
          result.consolidate += links.consolidate.length;
          done.push(id);
        } catch (err) {
          result.failed.push({ id, scope, error: (err as Error)?.message ?? String(err) });
        }
      }
      removePendingLinks(paths.cacheDir, done);
    },
    { timeoutMs },
  );
}
