/**
 * `status`: how many memories of each type and status, and the health of the index.
 */
import { existsSync, statSync } from 'node:fs';
import type { Diagnostic, MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { searchIndexPath } from '../cache/index/search-index.js';
import type { Context } from '../services/context.js';
import { openIndexes } from '../services/indexes.js';

export interface TierStatus {
  scope: Scope;
  dir: string;
  total: number;
  byType: Partial<Record<MemoryType, number>>;
  byStatus: Partial<Record<MemoryStatus, number>>;
  index: {
    file: string;
    exists: boolean;
    bytes: number;
    /** True when the cache was unusable and was rebuilt by this call. */
    rebuilt: boolean;
    /** Files that could not be indexed (see `cortex lint`). */
    brokenFiles: number;
  };
}

export interface StatusOutput {
  root: string;
  tiers: TierStatus[];
  diagnostics: Diagnostic[];
}

/**
 * Counts by type and status per tier, and index health.
 *
 * @example
 * status(ctx).tiers[0].total
 */
export function status(ctx: Context): StatusOutput {
  const tiers = openIndexes(ctx);
  const out: TierStatus[] = tiers.map((tier) => {
    const byType: Partial<Record<MemoryType, number>> = {};
    const byStatus: Partial<Record<MemoryStatus, number>> = {};
    for (const doc of tier.index.docs.values()) {
      byType[doc.type] = (byType[doc.type] ?? 0) + 1;
      byStatus[doc.status] = (byStatus[doc.status] ?? 0) + 1;
    }
    const file = searchIndexPath(tier.paths);
    const exists = existsSync(file);
    const broken = new Set(tier.report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
    return {
      scope: tier.scope,
      dir: tier.paths.cortexDir,
      total: tier.index.size,
      byType,
      byStatus,
      index: { file, exists, bytes: exists ? statSync(file).size : 0, rebuilt: tier.index.rebuilt, brokenFiles: broken.size },
    };
  });
  return { root: ctx.root, tiers: out, diagnostics: [...ctx.configDiagnostics, ...tiers.flatMap((t) => t.report.diagnostics)] };
}
