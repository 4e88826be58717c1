/**
 * Data the briefing and the lifecycle take from other parts: graph centrality (in-degree
 * over active edges, from the graph cache) and reality checks ("possibly outdated": a
 * referenced file no longer exists). A caller may replace the centrality or add checks
 * through `openCortex({ centrality, staleness })`; there is no module-level state.
 */
import { parseAnchor } from '../core/anchor.js';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Memory } from '../core/memory.js';
import type { Context } from './context.js';
import { centralityFor } from './graph-view.js';

export type { CentralityProvider, StalenessProvider } from './context.js';

/**
 * Centrality by memory id: the graph's, or the context's replacement; all zeros when it
 * fails (a broken graph must not take the briefing down).
 *
 * @example
 * centralityOf(ctx, memories) // { 'chose-sqlite-k3f9qa': 1, 'wal-mode-p2x81d': 0.5 }
 */
export function centralityOf(ctx: Context, memories: readonly Memory[]): Record<string, number> {
  try {
    return (ctx.centrality ?? centralityFor)(ctx, memories);
  } catch {
    return {};
  }
}

/**
 * "Referenced file no longer exists" for active project memories: `source.files` are
 * relative to the repository root. Global memories span projects, so they are not checked.
 *
 * @example
 * missingFiles(ctx, memories) // { 'wal-needs-writable-dir-h8j9kk': ['src/db.ts no longer exists'] }
 */
export function missingFiles(ctx: Context, memories: readonly Memory[]): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const m of memories) {
    if (m.status !== 'active' || m.scope !== 'project' || !m.source.files || m.source.files.length === 0) continue;
    const reasons: string[] = [];
    for (const file of m.source.files) {
      if (typeof file !== 'string' || file.trim() === '') continue;
      // A code anchor (`src/db.ts#acquire`) names its file before the `#`.
      const named = parseAnchor(file).path;
      const path = isAbsolute(named) ? named : resolve(ctx.root, named);
      if (!existsSync(path)) reasons.push(`${named} no longer exists`);
    }
    if (reasons.length > 0) out[m.id] = reasons;
  }
  return out;
}

/**
 * Every reason each memory may be outdated: the missing-file check, then the context's
 * added checks (a failing one is skipped).
 *
 * @example
 * stalenessOf(ctx, memories)['wal-needs-writable-dir-h8j9kk'] // ['src/db.ts no longer exists']
 */
export function stalenessOf(ctx: Context, memories: readonly Memory[]): Record<string, string[]> {
  const out = missingFiles(ctx, memories);
  for (const provider of ctx.staleness) {
    let extra: Record<string, string[]>;
    try {
      extra = provider(ctx, memories);
    } catch {
      continue;
    }
    for (const [id, reasons] of Object.entries(extra)) {
      if (!Array.isArray(reasons) || reasons.length === 0) continue;
      out[id] = [...(out[id] ?? []), ...reasons.filter((r) => typeof r === 'string' && !(out[id] ?? []).includes(r))];
    }
  }
  return out;
}
