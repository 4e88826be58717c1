/**
 * Opening the keyword indexes of the project tier and (when present) the global tier,
 * refreshed against the files on disk.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isDerivedCache } from '../cache/layout.js';
import type { Diagnostic, Scope } from '../core/memory.js';
import { extractWikilinks } from '../core/wikilinks.js';
import { openSearchIndex, type LinkExtractor, type RefreshReport, type SearchIndex } from '../cache/index/search-index.js';
import type { TierPaths } from '../store/paths.js';
import { presentScopes, scopePaths, type Context } from './context.js';

export interface TierIndex {
  scope: Scope;
  paths: TierPaths;
  /** Base for the paths shown to people. */
  base: string;
  index: SearchIndex;
  report: RefreshReport;
}

/**
 * `[[id]]` links are relates_to edges (DESIGN §2.1): the index keeps them per memory so
 * the graph never reads bodies. The markdown parser behind it loads only on demand.
 */
export const LINK_EXTRACTOR: LinkExtractor = Object.assign((body: string) => extractWikilinks(body), { inWorker: 'wikilinks' as const });

export function tierBase(ctx: Context, scope: Scope): string {
  return scope === 'global' ? ctx.global.cortexDir : ctx.root;
}

/**
 * Indexes this process has already loaded, per context and tier. A long-lived process (the
 * MCP server, a library user asking many questions) then only re-stats the files on each
 * call instead of parsing the whole cache file again; the refresh against the files keeps
 * it exact when another process changed memories meanwhile.
 */
const loaded = new WeakMap<Context, Map<Scope, SearchIndex>>();

/**
 * Loads and refreshes one tier's index; saves it when something changed. `sweep` states
 * every memory file whatever the size of the tier (see `SearchIndex.refresh`).
 */
export function openTierIndex(ctx: Context, scope: Scope, options: { save?: boolean; rebuild?: boolean; sweep?: boolean; sweepBelow?: number } = {}): TierIndex {
  const paths = scopePaths(ctx, scope);
  const base = tierBase(ctx, scope);
  let byScope = loaded.get(ctx);
  if (!byScope) loaded.set(ctx, (byScope = new Map()));
  const index = options.rebuild ? openSearchIndex(paths, { empty: true }) : (byScope.get(scope) ?? openSearchIndex(paths));
  byScope.set(scope, index);
  const report = index.refresh(paths, { base, links: LINK_EXTRACTOR, ...(options.sweep ? { sweep: true } : {}), ...(options.sweepBelow !== undefined ? { sweepBelow: options.sweepBelow } : {}) });
  if (options.save !== false) saveQuietly(index, paths);
  return { scope, paths, base, index, report };
}

/** The project tier, then the private tier and the global tier when they exist (and the global one is wanted). */
export function openIndexes(ctx: Context, options: { save?: boolean; rebuild?: boolean; sweep?: boolean; scope?: Scope } = {}): TierIndex[] {
  const scopes = options.scope === 'project' ? ['project' as const] : presentScopes(ctx).filter((s) => options.scope === undefined || s === options.scope);
  return scopes.map((scope) => openTierIndex(ctx, scope, options));
}

/**
 * The cache is an optimisation: failing to save it (read-only checkout, full disk)
 * must never fail the command.
 */
export function saveQuietly(index: SearchIndex, paths: TierPaths): void {
  try {
    index.save(paths);
  } catch {
    // Rebuilt next time.
  }
}

/** A tier's index is rebuilt once it holds more discarded documents than this share of live ones (and at least {@link COMPACT_MIN}). */
export const COMPACT_SHARE = 0.25;
export const COMPACT_MIN = 200;

/**
 * Rebuilds the index of each tier whose search tree carries too many discarded documents
 * (see `SearchIndex.discarded`): what `cortex index --rebuild` does, only when worth it.
 * Run by the session-end worker, off the interactive path. Returns the tiers rebuilt.
 *
 * @example
 * compactIndexes(ctx) // [{ scope: 'project', discarded: 2600 }] after many edits, else []
 */
export function compactIndexes(ctx: Context): Array<{ scope: Scope; discarded: number }> {
  const rebuilt: Array<{ scope: Scope; discarded: number }> = [];
  for (const tier of openIndexes(ctx)) {
    const discarded = tier.index.discarded;
    if (discarded < Math.max(COMPACT_MIN, COMPACT_SHARE * tier.index.size)) continue;
    openTierIndex(ctx, tier.scope, { rebuild: true });
    rebuilt.push({ scope: tier.scope, discarded });
  }
  return rebuilt;
}

/**
 * Reads again the named memory files (absolute paths) in the tiers whose memories
 * directory holds them, without stating the others; saves. Returns the tiers, each with the
 * report of its named files, and the paths that are in no tier's memories directory.
 *
 * @example
 * refreshNamedFiles(ctx, ['/repo/.cortex/memories/db-choice-ab12cd.md']).tiers[0].report.updated // 1
 */
export function refreshNamedFiles(ctx: Context, files: readonly string[]): { tiers: TierIndex[]; outside: string[] } {
  const byScope = new Map<Scope, string[]>();
  const outside: string[] = [];
  for (const file of files) {
    const scope = presentScopes(ctx).find((s) => dirname(resolve(file)) === resolve(scopePaths(ctx, s).memoriesDir));
    if (scope === undefined || !file.endsWith('.md')) outside.push(file);
    else byScope.set(scope, [...(byScope.get(scope) ?? []), basename(file)]);
  }
  const tiers: TierIndex[] = [];
  for (const [scope, names] of byScope) {
    // No sweep when the directory is unchanged, whatever the tier's size: the files are named.
    const tier = openTierIndex(ctx, scope, { save: false, sweepBelow: 0 });
    const named = tier.index.refreshFiles(names);
    saveQuietly(tier.index, tier.paths);
    const report = { added: tier.report.added + named.added, updated: tier.report.updated + named.updated, removed: tier.report.removed + named.removed, diagnostics: named.diagnostics };
    tiers.push({ ...tier, report });
  }
  return { tiers, outside };
}

/**
 * Checks the files of the memories about to be shown (see `SearchIndex.verify`); returns
 * true, after saving, when one had changed since it was indexed: the caller asks again.
 */
export function verifyShown(tiers: readonly TierIndex[], shown: readonly { id: string; scope: Scope }[]): boolean {
  let changed = false;
  for (const tier of tiers) {
    const ids = shown.filter((r) => r.scope === tier.scope).map((r) => r.id);
    if (ids.length === 0 || !tier.index.verify(ids)) continue;
    saveQuietly(tier.index, tier.paths);
    changed = true;
  }
  return changed;
}

export function allDiagnostics(tiers: TierIndex[]): Diagnostic[] {
  return tiers.flatMap((t) => t.report.diagnostics);
}

/**
 * Deletes the derived caches of the project tier (and the global tier when present);
 * returns the paths removed. The next command rebuilds each of them.
 *
 * @example
 * clearDerivedCaches(ctx) // ['/repo/.memory/index.v8', '/repo/.memory/staleness.json', …]
 */
export function clearDerivedCaches(ctx: Context): string[] {
  const removed: string[] = [];
  const dirs = [ctx.paths.cacheDir, ctx.local.cacheDir, ...(ctx.includeGlobal ? [ctx.global.cacheDir] : [])];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!isDerivedCache(name)) continue;
      const path = join(dir, name);
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
  }
  return removed;
}
