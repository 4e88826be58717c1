/**
 * Data the briefing and the lifecycle take from other parts, plugged in when those parts
 * are present: graph centrality (in-degree over active edges) and reality checks
 * ("possibly outdated"). Until a provider is installed the defaults apply: centrality 0
 * for everything, and staleness = referenced files that no longer exist.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Memory } from '../core/memory.js';
import type { Context } from './context.js';
import { centralityFor } from './graph-view.js';

/** Centrality by memory id, 0..1 (absent ids count as 0). */
export type CentralityProvider = (ctx: Context, memories: readonly Memory[]) => Record<string, number>;

/** Reasons by memory id why a memory may be outdated; only ids with reasons need be present. */
export type StalenessProvider = (ctx: Context, memories: readonly Memory[]) => Record<string, string[]>;

// The graph's centrality, from .memory/graph.json when nothing changed (no search index).
let centralityProvider: CentralityProvider | undefined = centralityFor;
let stalenessProviders: StalenessProvider[] = [];

/**
 * Installs the graph's centrality (replaces any previous provider; `undefined` removes it).
 *
 * @example
 * setCentralityProvider((ctx, memories) => centralityFromEdges(ctx, memories));
 */
export function setCentralityProvider(provider: CentralityProvider | undefined): void {
  centralityProvider = provider;
}

/**
 * Adds a reality check (e.g. "changed since the commit it was made at", "branch is gone").
 *
 * @example
 * addStalenessProvider((ctx, memories) => ({ 'wal-mode-p2x81d': ['src/db.ts changed since 3f2a9c1'] }));
 */
export function addStalenessProvider(provider: StalenessProvider): void {
  if (!stalenessProviders.includes(provider)) stalenessProviders.push(provider);
}

/**
 * Removes every added reality check (tests). The missing-file check always runs.
 *
 * @example
 * resetStalenessProviders();
 */
export function resetStalenessProviders(): void {
  stalenessProviders = [];
}

/**
 * Centrality from the installed provider; all zeros without one, or when it fails
 * (a broken graph must not take the briefing down).
 *
 * @example
 * centralityOf(ctx, memories) // {} until the graph provider is installed
 */
export function centralityOf(ctx: Context, memories: readonly Memory[]): Record<string, number> {
  if (!centralityProvider) return {};
  try {
    return centralityProvider(ctx, memories);
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
      const path = isAbsolute(file) ? file : resolve(ctx.root, file);
      if (!existsSync(path)) reasons.push(`${file} no longer exists`);
    }
    if (reasons.length > 0) out[m.id] = reasons;
  }
  return out;
}

/**
 * Every reason each memory may be outdated: the missing-file check, then the installed
 * providers' (a failing provider is skipped).
 *
 * @example
 * stalenessOf(ctx, memories)['wal-needs-writable-dir-h8j9kk'] // ['src/db.ts no longer exists']
 */
export function stalenessOf(ctx: Context, memories: readonly Memory[]): Record<string, string[]> {
  const out = missingFiles(ctx, memories);
  for (const provider of stalenessProviders) {
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
