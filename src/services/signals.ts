/**
 * Usage signals (access count, last access) for ranking and the lifecycle, kept per tier
 * in `.memory/` (project) and `$CORTEX_HOME/.memory/` (global): an append-only usage log
 * folded now and then into `signals.json` (see cache/signals.ts). Recording is best effort:
 * a write error skips the update and never fails the command that read the memory.
 */
import { existsSync } from 'node:fs';
import { SCOPES, formatDate, type Scope } from '../core/memory.js';
import type { UsageSignal } from '../core/rank.js';
import { appendUsage, readSignals } from '../cache/signals.js';
import type { TierPaths } from '../store/paths.js';
import { scopePaths, type Context } from './context.js';

export interface AccessRef {
  id: string;
  scope: Scope;
}

export interface RecordAccessOptions {
  /** Give up on the lock after this long (ms) and skip folding the log (the access is appended all the same). */
  timeoutMs?: number;
}

/** Short: a reader must not wait long for bookkeeping. */
export const DEFAULT_RECORD_ACCESS: Required<RecordAccessOptions> = { timeoutMs: 250 };

function tierPathsOf(ctx: Context, scope: Scope): TierPaths {
  return scopePaths(ctx, scope);
}

/**
 * Counts one access of each memory (a memory listed twice counts once) at `ctx.now()`.
 * Returns true when every tier's signals were written; never throws.
 *
 * @example
 * recordAccess(ctx, [{ id: 'chose-sqlite-k3f9qa', scope: 'project' }]) // true
 */
export function recordAccess(ctx: Context, refs: readonly AccessRef[], options: RecordAccessOptions = {}): boolean {
  const { timeoutMs } = { ...DEFAULT_RECORD_ACCESS, ...options };
  if (refs.length === 0) return true;
  let ok = true;
  let at: string;
  try {
    at = formatDate(ctx.now());
  } catch {
    return false;
  }
  for (const scope of SCOPES) {
    const ids = [...new Set(refs.filter((r) => r.scope === scope).map((r) => r.id))];
    if (ids.length === 0) continue;
    try {
      // One line appended to the usage log: a read writes nothing else (see cache/signals.ts).
      appendUsage(tierPathsOf(ctx, scope), ids, at, { timeoutMs });
    } catch {
      // Read-only disk, a missing directory …: the access is not counted, the command goes on.
      ok = false;
    }
  }
  return ok;
}

/**
 * The signals of the tiers in use, merged; the project's entry wins for an id in both.
 *
 * @example
 * loadSignals(ctx)['chose-sqlite-k3f9qa'] // { accessCount: 3, lastAccess: '2026-11-30T10:00:00Z' }
 */
export function loadSignals(ctx: Context, scopes: readonly Scope[] = SCOPES): Record<string, UsageSignal> {
  const merged = Object.create(null) as Record<string, UsageSignal>;
  if (scopes.includes('global') && ctx.includeGlobal && existsSync(ctx.global.cacheDir)) Object.assign(merged, readSignals(ctx.global));
  if (scopes.includes('local') && existsSync(ctx.local.cacheDir)) Object.assign(merged, readSignals(ctx.local));
  if (scopes.includes('project')) Object.assign(merged, readSignals(ctx.paths));
  return merged;
}
