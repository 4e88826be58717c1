/**
 * Loading the graph over a set of memories: from `.memory/graph.v8` when neither the
 * edge directories nor the memories (ids and `[[links]]`) changed, else rebuilt from the
 * edge-file caches and saved with its centrality. Shared by `openGraph` (fed by the
 * keyword index) and the centrality provider of the briefing and the lifecycle (fed by
 * the memories they already read), so this module never loads the search index.
 */
import { existsSync } from 'node:fs';
import { buildGraph, centrality as computeCentrality, type Graph, type GraphEdgeInput } from '../core/graph.js';
import { addLine, emptyFingerprint, fingerprintText, memoryLine } from '../core/fingerprint.js';
import type { Diagnostic, Memory, Scope } from '../core/memory.js';
import { extractWikilinks } from '../core/wikilinks.js';
import { EdgeCache, dirStamp, type DirStamp } from '../cache/edge-cache.js';
import { loadGraphCache, saveGraphCache } from '../cache/graph-cache.js';
import type { TierPaths } from '../store/paths.js';
import type { Context } from './context.js';

/** A tier whose edge directory the graph reads. */
export interface GraphTier {
  scope: Scope;
  paths: TierPaths;
  /** Base for the paths shown to people. */
  base: string;
}

/** A memory as the graph sees it: an id, its tier and the ids its body links. */
export interface GraphNodeInput {
  scope: Scope;
  id: string;
  links?: readonly string[] | undefined;
}

export interface LoadedGraph {
  graph: Graph;
  centrality: Record<string, number>;
  diagnostics: Diagnostic[];
  rebuilt: boolean;
}

/**
 * The tiers a graph spans: the project, and the global tier when it exists and is wanted.
 *
 * @example
 * graphTierLocations(ctx).map((t) => t.scope) // ['project', 'global']
 */
export function graphTierLocations(ctx: Context): GraphTier[] {
  const tiers: GraphTier[] = [{ scope: 'project', paths: ctx.paths, base: ctx.root }];
  if (existsSync(ctx.local.memoriesDir)) tiers.push({ scope: 'local', paths: ctx.local, base: ctx.root });
  if (ctx.includeGlobal && existsSync(ctx.global.memoriesDir)) tiers.push({ scope: 'global', paths: ctx.global, base: ctx.global.cortexDir });
  return tiers;
}

/**
 * Changes whenever a memory appears, disappears or changes its `[[links]]`; the same for
 * the same memories in any order, so the index and a plain read of the files agree.
 *
 * @example
 * memoryFingerprint([{ scope: 'project', id: 'a', links: ['b'] }]) // '1-…-…'
 */
export function memoryFingerprint(nodes: Iterable<GraphNodeInput>): string {
  const parts = emptyFingerprint();
  for (const n of nodes) addLine(parts, memoryLine(n.scope, n.id, n.links?.join(' ') ?? ''));
  return fingerprintText(parts);
}

/** The memories a graph is built over: their fingerprint, their ids, and their links on demand. */
export interface GraphMemories {
  /** {@link memoryFingerprint} of the memories. */
  fingerprint: string;
  /** The memory ids, as a set the graph keeps as its nodes (not copied: a view of the indexes will do). */
  ids: ReadonlySet<string>;
  /** The ids linked from each memory's body (only memories that link any); called only when the cached graph cannot be used. */
  wikilinks(): Record<string, readonly string[]>;
}

/**
 * The memories of `nodes` as a graph source (a set of their ids, their links).
 *
 * @example
 * loadGraph(ctx, graphTierLocations(ctx), graphMemories([{ scope: 'project', id: 'a' }])).centrality.a // 0
 */
export function graphMemories(nodes: readonly GraphNodeInput[]): GraphMemories {
  return {
    fingerprint: memoryFingerprint(nodes),
    ids: new Set(nodes.map((n) => n.id)),
    wikilinks: () => {
      const out = Object.create(null) as Record<string, readonly string[]>;
      for (const n of nodes) if (n.links && n.links.length > 0) out[n.id] = n.links;
      return out;
    },
  };
}

/**
 * Brings a tier's edge-file cache up to date and saves it (quietly: it is a cache).
 *
 * @example
 * refreshEdgeCache({ paths: ctx.paths, base: ctx.root }).edges(ctx.paths, ctx.root).length
 */
export function refreshEdgeCache(tier: { paths: TierPaths; base: string }, verify = false): EdgeCache {
  const cache = EdgeCache.load(tier.paths);
  cache.refresh(tier.paths, { base: tier.base, verify });
  saveEdgeCacheQuietly(cache, tier.paths);
  return cache;
}

/**
 * Saves an edge cache; a failure (read-only checkout, full disk) never fails the command.
 *
 * @example
 * saveEdgeCacheQuietly(cache, ctx.paths);
 */
export function saveEdgeCacheQuietly(cache: EdgeCache, paths: TierPaths): void {
  try {
    cache.save(paths);
  } catch {
    // Rebuilt next time.
  }
}

/**
 * The graph over `nodes` and the edge files of `tiers`, cached in the project's
 * `.memory/graph.v8`. `verify` re-checks every edge file (stat, and a read of each one
 * that changed) and rebuilds only when one did.
 *
 * @example
 * const nodes = [{ scope: 'project', id: 'a' }];
 * loadGraph(ctx, graphTierLocations(ctx), graphMemories(nodes)).centrality.a // 0
 */
export function loadGraph(ctx: Context, tiers: GraphTier[], source: GraphMemories, verify = false): LoadedGraph {
  const memories = source.fingerprint;
  // A verify re-checks every edge file first; when none changed, the cached graph stands.
  let caches: EdgeCache[] | undefined;
  let changed = false;
  if (verify) {
    caches = tiers.map((tier) => {
      const cache = EdgeCache.load(tier.paths);
      const report = cache.refresh(tier.paths, { base: tier.base, verify: true });
      if (report.read > 0 || report.removed > 0) changed = true;
      saveEdgeCacheQuietly(cache, tier.paths);
      return cache;
    });
  }
  if (!changed) {
    const cached = loadGraphCache(ctx.paths.cacheDir, { stamps: tiers.map((t) => dirStamp(t.paths.edgesDir)), memories }, source.ids);
    // Centrality is read from the cache only when asked for (recall's enrichment never is).
    if (cached) {
      return {
        graph: cached.graph,
        get centrality() {
          return cached.centrality;
        },
        diagnostics: cached.diagnostics,
        rebuilt: false,
      };
    }
  }
  const edges: GraphEdgeInput[] = [];
  const diagnostics: Diagnostic[] = [];
  const stamps: DirStamp[] = [];
  tiers.forEach((tier, i) => {
    const cache = caches?.[i] ?? refreshEdgeCache(tier);
    stamps.push(cache.stamp!);
    edges.push(...cache.edges(tier.paths, tier.base));
    diagnostics.push(...cache.diagnostics());
  });
  // Over the memories as the caller holds them: the graph's work grows with the edges.
  const graph = buildGraph({ memoryIds: source.ids, edges, wikilinks: source.wikilinks() });
  saveGraphCache(ctx.paths.cacheDir, { stamps, memories }, graph, diagnostics);
  let centrality: Record<string, number> | undefined;
  return {
    graph,
    get centrality() {
      return (centrality ??= computeCentrality(graph));
    },
    diagnostics,
    rebuilt: true,
  };
}

/**
 * Centrality (DESIGN §3) of the memories the briefing or the lifecycle already read:
 * the cached value when nothing changed, without opening the search index.
 *
 * @example
 * centralityFor(ctx, loadMemories(ctx).memories)['chose-sqlite-k3f9qa'] // 0.5
 */
export function centralityFor(ctx: Context, memories: readonly Memory[]): Record<string, number> {
  const tiers = graphTierLocations(ctx);
  const scopes = new Set(tiers.map((t) => t.scope));
  const nodes: GraphNodeInput[] = [];
  for (const m of memories) if (scopes.has(m.scope)) nodes.push({ scope: m.scope, id: m.id, links: extractWikilinks(m.body) });
  return loadGraph(ctx, tiers, graphMemories(nodes)).centrality;
}
