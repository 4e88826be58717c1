/**
 * `status`: how many memories of each type and status, and the health of the index.
 */
import { existsSync, statSync } from 'node:fs';
import type { Diagnostic, MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { searchIndexPath } from '../cache/index/search-index.js';
import type { Context } from '../services/context.js';
import { openIndexes } from '../services/indexes.js';
import { embedSettings, vectorsFile } from '../services/embed-settings.js';
import { readVectorFileHeader } from '../cache/vector-header.js';
import { isEmbeddable } from '../embed/embedder.js';

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

/**
 * Whether recall searches by meaning too (hybrid) or by keywords only, and why: read from
 * the settings and the vector caches' headers; the embedding library is not loaded.
 */
export interface SemanticStatus {
  /** True when recall defaults to hybrid: embeddings enabled and vectors for the configured model. */
  on: boolean;
  /** Embeddings enabled (`CORTEX_EMBED`, `embed.enabled`). */
  enabled: boolean;
  /** The configured model (`<model>:<dtype>`). */
  model: string;
  /** Vectors cached for the configured model, over the tiers. */
  embedded: number;
  /** Memories that would be embedded (every type but `code`), over the tiers. */
  embeddable: number;
  /** Vectors cached for another model (stale until `cortex index --embed`). */
  otherModel?: { model: string; count: number } | undefined;
  /** When off, or when memories are missing: why, and the command that fixes it. */
  why?: string | undefined;
}

export interface StatusOutput {
  root: string;
  tiers: TierStatus[];
  semantic: SemanticStatus;
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
  return { root: ctx.root, tiers: out, semantic: semanticStatus(ctx, tiers), diagnostics: [...ctx.configDiagnostics, ...tiers.flatMap((t) => t.report.diagnostics)] };
}

function semanticStatus(ctx: Context, tiers: ReturnType<typeof openIndexes>): SemanticStatus {
  const settings = embedSettings(ctx);
  let embedded = 0;
  let embeddable = 0;
  let otherModel: SemanticStatus['otherModel'];
  for (const tier of tiers) {
    for (const doc of tier.index.docs.values()) if (isEmbeddable(doc)) embeddable++;
    const header = readVectorFileHeader(vectorsFile(tier.paths));
    if (!header) continue;
    if (header.model === settings.identity) embedded += header.count;
    else if (header.count > 0) otherModel = { model: header.model, count: (otherModel?.count ?? 0) + header.count };
  }
  const on = settings.enabled && embedded > 0;
  const why = !settings.enabled
    ? 'embeddings are turned off (CORTEX_EMBED=0 or embed.enabled: false in .cortex/config.yaml)'
    : embedded === 0
      ? otherModel
        ? `the cached vectors are for ${otherModel.model}, not ${settings.identity}: run \`cortex index --embed\``
        : 'no memory is embedded yet: run `cortex index --embed`'
      : embedded < embeddable
        ? `${embeddable - embedded} ${embeddable - embedded === 1 ? 'memory is' : 'memories are'} not embedded yet: run \`cortex index --embed\``
        : undefined;
  return { on, enabled: settings.enabled, model: settings.identity, embedded, embeddable, ...(otherModel ? { otherModel } : {}), ...(why ? { why } : {}) };
}
