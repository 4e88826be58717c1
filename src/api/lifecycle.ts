/**
 * `lifecycle`: applies the transitions the pure core plans (DESIGN §3) as ordinary file
 * changes, reviewable in a diff: active → archived and archived → active are status
 * edits (with `updated` set to the transition time, which is how the core tells later
 * accesses from earlier ones), archived → pruned deletes the file (git history keeps it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic, Memory, Scope } from '../core/memory.js';
import { planLifecycle, type LifecycleTransition } from '../core/lifecycle.js';
import { UsageError } from '../errors.js';
import { removeStaleTempFiles } from '../store/atomic.js';
import { withLock } from '../store/lock.js';
import { deleteMemory, displayPath } from '../store/memory-store.js';
import { writeMemory } from '../store/memory-write.js';
import { memoryPath, type TierPaths } from '../store/paths.js';
import { updateSignals } from '../store/signals.js';
import { edgeFileName } from '../core/edge.js';
import { scopePaths, type Context } from './context.js';
import { tierBase } from './indexes.js';
import { deleteEdgeRecorded } from './graph.js';
import { refreshEdgeCache, saveEdgeCacheQuietly } from './graph-view.js';
import { edgesTouching, regenerateProjections } from './memories.js';
import { keepForUndo, type UndoInfo } from './undo.js';
import { centralityOf } from './providers.js';
import { loadSignals } from './signals.js';
import { loadMemories } from './surface.js';

export interface LifecycleInput {
  /** Plan only: list what would change, write nothing. */
  dryRun?: boolean;
  /** Which tier to maintain (default: the project). */
  scope?: Scope | 'all';
}

export const DEFAULT_LIFECYCLE_INPUT: Required<LifecycleInput> = { dryRun: false, scope: 'project' };

export interface LifecycleChange extends LifecycleTransition {
  scope: Scope;
  /** The memory file, relative to the repository root for project memories. */
  file: string;
  /** The file change this transition is (or would be). */
  change: 'modified' | 'deleted';
  summary: string;
}

export interface LifecycleOutput {
  changes: LifecycleChange[];
  /** False for a dry run. */
  applied: boolean;
  /** The clock the plan was made at (ISO). */
  now: string;
  diagnostics: Diagnostic[];
  /** Edge files deleted because a memory they link was pruned. */
  edges: { file: string }[];
  /** How to undo what was applied, one record per tier changed (none for a dry run). */
  undo: UndoInfo[];
  /** Projection files regenerated after the changes. */
  projections: string[];
}

function tierOf(ctx: Context, scope: Scope): { paths: TierPaths; base: string } {
  return { paths: scopePaths(ctx, scope), base: tierBase(ctx, scope) };
}

function plan(ctx: Context, scope: Scope, now: Date): { changes: LifecycleChange[]; memories: Map<string, Memory>; diagnostics: Diagnostic[] } {
  const loaded = loadMemories(ctx, [scope]);
  const memories = new Map(loaded.memories.map((m) => [m.id, m]));
  const transitions = planLifecycle(loaded.memories, {
    now,
    config: ctx.config,
    signals: loadSignals(ctx, [scope]),
    centrality: centralityOf(ctx, loaded.memories),
  });
  const { paths, base } = tierOf(ctx, scope);
  const changes = transitions.map((t) => ({
    ...t,
    scope,
    file: displayPath(memoryPath(paths, t.id), base),
    change: t.to === 'pruned' ? ('deleted' as const) : ('modified' as const),
    summary: memories.get(t.id)?.summary ?? '',
  }));
  return { changes, memories, diagnostics: loaded.diagnostics };
}

/**
 * Plans the lifecycle transitions due now and (unless `dryRun`) applies them under the
 * tier's write lock. Running it twice in a row changes nothing the second time.
 *
 * @example
 * const { changes } = await lifecycle(ctx, { dryRun: true });
 * changes.map((c) => `${c.from} → ${c.to}: ${c.id}`) // ['active → archived: old-progress-abcdef']
 */
export async function lifecycle(ctx: Context, input: LifecycleInput = {}): Promise<LifecycleOutput> {
  const { dryRun, scope } = { ...DEFAULT_LIFECYCLE_INPUT, ...input };
  if (scope !== 'project' && scope !== 'local' && scope !== 'global' && scope !== 'all') {
    throw new UsageError(`Unknown scope "${String(scope)}".`, { hint: 'Use project, local, global or all.' });
  }
  const now = ctx.now();
  const scopes: Scope[] = scope === 'all' ? ['project', 'local', 'global'] : [scope];
  const changes: LifecycleChange[] = [];
  const diagnostics: Diagnostic[] = [...ctx.configDiagnostics];
  const edges: LifecycleOutput['edges'] = [];
  const undos: UndoInfo[] = [];
  for (const s of scopes) {
    // No global tier yet: nothing to maintain, and no reason to create $CORTEX_HOME.
    if (s === 'global' && (!ctx.includeGlobal || !existsSync(ctx.global.memoriesDir))) continue;
    if (s === 'local' && !existsSync(ctx.local.memoriesDir)) continue;
    const { paths } = tierOf(ctx, s);
    if (dryRun) {
      const planned = plan(ctx, s, now);
      changes.push(...planned.changes);
      diagnostics.push(...planned.diagnostics);
      continue;
    }
    // Planned inside the lock, so it is made from the files as they are when applied.
    const tier = tierOf(ctx, s);
    await withLock(join(paths.cacheDir, 'locks', 'write.lock'), async () => {
      // Leftovers of writes a crash interrupted (never while their writer runs).
      for (const dir of [paths.memoriesDir, paths.edgesDir]) removeStaleTempFiles(dir, { now: now.getTime() });
      const planned = plan(ctx, s, now);
      diagnostics.push(...planned.diagnostics);
      const applying = planned.changes.filter((c) => planned.memories.has(c.id));
      if (applying.length === 0) return;
      const pruned = applying.filter((c) => c.to === 'pruned').map((c) => c.id);
      // A pruned memory takes the edge files that link it along (lint would call them dangling).
      const edgeKeys = pruned.length > 0 ? edgesTouching(paths, new Set(pruned)) : [];
      const undo = await keepForUndo(
        ctx,
        [...applying.map((c) => ({ path: memoryPath(paths, c.id), scope: s })), ...edgeKeys.map((k) => ({ path: join(paths.edgesDir, edgeFileName(k)), scope: s }))],
        'lifecycle',
      );
      undos.push(undo);
      for (const change of applying) {
        const memory = planned.memories.get(change.id)!;
        if (change.to === 'pruned') deleteMemory(paths, change.id);
        else writeMemory(paths, { ...memory, status: change.to, updated: change.at });
        changes.push(change);
      }
      if (edgeKeys.length > 0) {
        const cache = refreshEdgeCache(tier);
        for (const key of edgeKeys) if (deleteEdgeRecorded(tier, cache, key)) edges.push({ file: displayPath(join(paths.edgesDir, edgeFileName(key)), tier.base) });
        saveEdgeCacheQuietly(cache, paths);
      }
      if (pruned.length > 0) {
        try {
          // The signals of deleted memories are dead weight; dropping them is best effort.
          updateSignals(paths, (signals) => {
            let changed = false;
            for (const id of pruned) if (id in signals) changed = delete signals[id];
            return changed;
          });
        } catch {
          // Kept until the next lifecycle run.
        }
      }
    });
  }
  const projections = !dryRun && changes.some((c) => c.scope === 'project') ? await regenerateProjections(ctx) : [];
  if (projections.length > 0) for (const u of undos) u.then = 'cortex project';
  return { changes, applied: !dryRun, now: now.toISOString(), diagnostics, edges, undo: undos, projections };
}
