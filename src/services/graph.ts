/**
 * The knowledge graph as files, for the use cases that read or write it: opening it
 * (cached, with centrality), finding a memory in the open indexes, and writing or deleting
 * an edge file under the tier's write lock with the edge cache kept in step (DESIGN §2.1, §3).
 * The use cases themselves: api/link.ts (link, unlink), api/traverse.ts.
 */
import { UsageError } from '../errors.js';
import { RELATIONS, edgeFileName, resolveRelation, type Edge, type Relation } from '../core/edge.js';
import { combineFingerprints, emptyFingerprint, fingerprintText } from '../core/fingerprint.js';
import { type Graph } from '../core/graph.js';
import { type Diagnostic } from '../core/memory.js';
import type { EdgeCache } from '../cache/edge-cache.js';
import type { IndexedDoc } from '../cache/index/search-index.js';
import { deleteEdge } from '../store/edge-store.js';
import { writeEdge } from '../store/edge-write.js';
import { withLock } from '../store/lock.js';
import { displayPath } from '../store/memory-store.js';
import { type TierPaths } from '../store/paths.js';
import type { Context } from './context.js';
import { graphTierLocations, loadGraph, refreshEdgeCache, saveEdgeCacheQuietly } from './graph-view.js';
import { openTierIndex, type TierIndex } from './indexes.js';
import { lockPath } from '../cache/layout.js';

export interface OpenGraphOptions {
  /** Indexes already opened by the caller (reused; missing tiers are opened). */
  tiers?: TierIndex[];
  /** List and stat every edge file even when the directories look unchanged. */
  verify?: boolean;
}

export interface GraphView {
  /** Valid edges only: dangling, self-loop, unknown and duplicate edges are left out. */
  graph: Graph;
  /** In-degree over active edges / max (DESIGN §3), by memory id; computed once per refresh. */
  centrality: Record<string, number>;
  /** Edge files that could not be read or parsed (skipped). */
  diagnostics: Diagnostic[];
  /** True when the graph was rebuilt rather than read from `.memory/graph.v8`. */
  rebuilt: boolean;
  /** The memory indexes the graph was built over, project first. */
  tiers: TierIndex[];
}

/** The indexes a graph spans (see `graphTierLocations`), reusing those already open. */
export function graphTiers(ctx: Context, given: TierIndex[] | undefined): TierIndex[] {
  return graphTierLocations(ctx).map((t) => given?.find((g) => g.scope === t.scope) ?? openTierIndex(ctx, t.scope));
}

/**
 * Opens the graph over every memory tier: from `.memory/graph.v8` when neither the
 * edge directories nor the memory index changed, else rebuilt from the edge-file cache
 * (which reads only new or changed edge files) and saved with its centrality.
 * Bad edges are left out and never fail the call.
 *
 * @example
 * const { graph, centrality } = openGraph(ctx);
 * centrality['chose-sqlite-k3f9qa'] // 0.5
 */
export function openGraph(ctx: Context, options: OpenGraphOptions = {}): GraphView {
  const tiers = graphTiers(ctx, options.tiers);
  // The indexes keep the fingerprint of their memories: a warm run lists none of them.
  const fingerprint = fingerprintText(tiers.map((t) => t.index.docs.fingerprint()).reduce(combineFingerprints, emptyFingerprint()));
  const wikilinks = (): Record<string, readonly string[]> => {
    const out = Object.create(null) as Record<string, readonly string[]>;
    for (const tier of tiers) for (const [id, links] of tier.index.docs.linked()) out[id] = links;
    return out;
  };
  const loaded = loadGraph(ctx, tiers, { fingerprint, ids: new IndexedIds(tiers), wikilinks }, options.verify === true);
  return {
    graph: loaded.graph,
    get centrality() {
      return loaded.centrality;
    },
    diagnostics: loaded.diagnostics,
    rebuilt: loaded.rebuilt,
    tiers,
  };
}

/**
 * The ids of the memories of some indexes, as a read-only set: `has` asks the doc tables (a
 * binary search each), and the ids are listed only when the set is walked or counted.
 */
class IndexedIds implements ReadonlySet<string> {
  private all: Set<string> | undefined;

  constructor(private readonly tiers: readonly TierIndex[]) {}

  has(id: string): boolean {
    return this.all ? this.all.has(id) : this.tiers.some((t) => t.index.docs.has(id));
  }

  /** Every id once (the same id in two tiers is one memory of the graph), in tier order. */
  private list(): Set<string> {
    if (!this.all) {
      this.all = new Set();
      for (const tier of this.tiers) for (const id of tier.index.docs.keys()) this.all.add(id);
    }
    return this.all;
  }

  get size(): number {
    return this.tiers.length === 1 ? this.tiers[0]!.index.docs.size : this.list().size;
  }

  values(): SetIterator<string> {
    return this.list().values();
  }

  keys(): SetIterator<string> {
    return this.list().keys();
  }

  entries(): SetIterator<[string, string]> {
    return this.list().entries();
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.list().values();
  }

  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this) fn.call(thisArg, id, id, this);
  }
}

/**
 * The indexed memory with this id in any of the tiers (project first).
 *
 * @example
 * findDoc(openGraph(ctx).tiers, 'chose-sqlite-k3f9qa')?.doc.summary
 */
export function findDoc(tiers: TierIndex[], id: string): { doc: IndexedDoc; tier: TierIndex } | undefined {
  for (const tier of tiers) {
    const doc = tier.index.docs.get(id);
    if (doc) return { doc, tier };
  }
  return undefined;
}

/**
 * Resolves a relation word (aliases too); throws a usage error listing the relations.
 *
 * @example
 * relationOf('superseded by') // { relation: 'supersedes', reversed: true }
 */
export function relationOf(word: string): { relation: Relation; reversed: boolean } {
  const resolved = resolveRelation(word);
  if (!resolved) {
    throw new UsageError(`Unknown relation "${word}".`, {
      hint: `Use one of: ${RELATIONS.join(', ')} (aliases such as related, derives, example, refine, contradict, supersede, source work too).`,
    });
  }
  return resolved;
}

/**
 * Runs `fn` under the tier's write lock with its edge cache up to date, then saves the cache.
 *
 * @example
 * await withEdgeWrite({ paths: ctx.paths, base: ctx.root }, (cache) => writeEdgeRecorded({ paths: ctx.paths, base: ctx.root }, cache, edge));
 */
export async function withEdgeWrite<T>(tier: { paths: TierPaths; base: string }, fn: (cache: EdgeCache) => T | Promise<T>): Promise<T> {
  return withLock(lockPath(tier.paths.cacheDir, 'write'), async () => {
    const cache = refreshEdgeCache(tier);
    try {
      return await fn(cache);
    } finally {
      saveEdgeCacheQuietly(cache, tier.paths);
    }
  });
}

/**
 * Writes one edge and records it in the tier's edge cache (caller holds the lock).
 *
 * @example
 * writeEdgeRecorded(tier, cache, edge) // { file: '.cortex/edges/a--refines--b.md', result: 'created' }
 */
export function writeEdgeRecorded(tier: { paths: TierPaths; base: string }, cache: EdgeCache, edge: Edge): { file: string; result: 'created' | 'updated' | 'unchanged' } {
  const written = writeEdge(tier.paths, edge);
  if (written.result !== 'unchanged') cache.record(tier.paths, written.name, written.edge);
  return { file: displayPath(written.path, tier.base), result: written.result };
}

/**
 * Deletes one edge file and forgets it in the tier's edge cache (caller holds the lock).
 *
 * @example
 * deleteEdgeRecorded(tier, cache, { source: 'a', relation: 'refines', target: 'b' }) // true
 */
export function deleteEdgeRecorded(tier: { paths: TierPaths }, cache: EdgeCache, key: Pick<Edge, 'source' | 'relation' | 'target'>): boolean {
  const removed = deleteEdge(tier.paths, key);
  if (removed) cache.forget(tier.paths, edgeFileName(key));
  return removed;
}

/** Where an edge between two memories is stored: the global tier only when both ends are global. */
