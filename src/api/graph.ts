/**
 * The knowledge graph as files: opening it (cached, with centrality), linking and
 * unlinking memories, and walking it (DESIGN §2.1, §3).
 */
import { join } from 'node:path';
import { MemoryNotFoundError, UsageError } from '../errors.js';
import { RELATIONS, buildEdge, edgeFileName, resolveRelation, type Edge, type Relation } from '../core/edge.js';
import { combineFingerprints, emptyFingerprint, fingerprintText } from '../core/fingerprint.js';
import { traverse, type Graph, type TraverseDirection, type TraverseVia } from '../core/graph.js';
import { formatDate, type Diagnostic, type MemoryStatus, type MemoryType, type Scope } from '../core/memory.js';
import type { EdgeCache } from '../search/edge-cache.js';
import type { IndexedDoc } from '../search/keyword-index.js';
import { deleteEdge, readEdge } from '../store/edge-store.js';
import { writeEdge } from '../store/edge-write.js';
import { withLock } from '../store/lock.js';
import { displayPath } from '../store/memory-store.js';
import { assertSafeId, type TierPaths } from '../store/paths.js';
import { edgeScopeOf, scopePaths, type Context } from './context.js';
import { keepForUndo, type UndoInfo } from './undo.js';
import { graphTierLocations, loadGraph, refreshEdgeCache, saveEdgeCacheQuietly, type GraphNodeInput } from './graph-view.js';
import { openTierIndex, tierBase, type TierIndex } from './indexes.js';

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
  /** True when the graph was rebuilt rather than read from `.memory/graph.json`. */
  rebuilt: boolean;
  /** The memory indexes the graph was built over, project first. */
  tiers: TierIndex[];
}

/** The indexes a graph spans (see `graphTierLocations`), reusing those already open. */
function graphTiers(ctx: Context, given: TierIndex[] | undefined): TierIndex[] {
  return graphTierLocations(ctx).map((t) => given?.find((g) => g.scope === t.scope) ?? openTierIndex(ctx, t.scope));
}

/**
 * Opens the graph over every memory tier: from `.memory/graph.json` when neither the
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
  const nodes = (): GraphNodeInput[] => {
    const out: GraphNodeInput[] = [];
    for (const tier of tiers) for (const doc of tier.index.docs.allFacets()) out.push({ scope: doc.scope, id: doc.id, links: doc.links });
    return out;
  };
  const loaded = loadGraph(ctx, tiers, { fingerprint, nodes }, options.verify === true);
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
  return withLock(join(tier.paths.cacheDir, 'locks', 'write.lock'), async () => {
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
function edgeTier(ctx: Context, a: { tier: TierIndex }, b: { tier: TierIndex }): { paths: TierPaths; base: string; scope: Scope } {
  const scope: Scope = edgeScopeOf(a.tier.scope, b.tier.scope);
  return { scope, paths: scopePaths(ctx, scope), base: tierBase(ctx, scope) };
}

function locateBoth(ctx: Context, source: string, target: string): { tiers: TierIndex[]; a: { doc: IndexedDoc; tier: TierIndex }; b: { doc: IndexedDoc; tier: TierIndex } } {
  assertSafeId(source);
  assertSafeId(target);
  const tiers = graphTiers(ctx, undefined);
  const a = findDoc(tiers, source);
  if (!a) throw new MemoryNotFoundError(source);
  const b = findDoc(tiers, target);
  if (!b) throw new MemoryNotFoundError(target);
  return { tiers, a, b };
}

export interface LinkInput {
  source: string;
  /** A relation or an alias; a reversed alias (`superseded_by`) swaps the endpoints. */
  relation: string;
  target: string;
  /** 0..1 (default 0.5 for a new edge; unchanged for an existing one). */
  strength?: number;
  /** The rationale, written as the edge file's body. */
  note?: string;
  /** Write the edge as `suggested` (awaiting review) instead of `active`. */
  suggested?: boolean;
  bidirectional?: boolean;
}

export interface LinkResult {
  action: 'created' | 'updated' | 'unchanged';
  edge: Edge;
  /** Path of the edge file, relative to the repository root for project edges. */
  file: string;
  /** True when a reversed alias swapped source and target. */
  reversed: boolean;
}

/**
 * Links two memories with an edge file. Linking an existing edge again updates the
 * fields given (and makes a suggested edge active unless `suggested` is set).
 *
 * @example
 * await link(ctx, { source: 'wal-mode-p2x81d', relation: 'refines', target: 'chose-sqlite-k3f9qa', note: 'WAL is how SQLite copes with the hooks.' });
 */
export async function link(ctx: Context, input: LinkInput): Promise<LinkResult> {
  const { relation, reversed } = relationOf(input.relation);
  const [source, target] = reversed ? [input.target, input.source] : [input.source, input.target];
  if (input.strength !== undefined && !(input.strength >= 0 && input.strength <= 1)) {
    throw new UsageError(`Strength must be a number from 0 to 1, got ${input.strength}.`);
  }
  if (source === target) throw new UsageError(`Cannot link ${source} to itself.`, { hint: 'An edge joins two different memories.' });
  const { a, b } = locateBoth(ctx, source, target);
  const tier = edgeTier(ctx, a, b);
  return withEdgeWrite(tier, (cache) => {
    const existing = readEdge(tier.paths, { source, relation, target }, tier.base)?.edge;
    const edge: Edge = existing
      ? {
          ...existing,
          ...(input.strength !== undefined ? { strength: input.strength } : {}),
          status: input.suggested ? 'suggested' : 'active',
          ...(input.bidirectional !== undefined ? { bidirectional: input.bidirectional } : {}),
          ...(input.note !== undefined ? { body: input.note } : {}),
        }
      : buildEdge({
          source,
          target,
          relation,
          created: formatDate(ctx.now()),
          origin: 'manual',
          status: input.suggested ? 'suggested' : 'active',
          ...(input.strength !== undefined ? { strength: input.strength } : {}),
          ...(input.bidirectional !== undefined ? { bidirectional: input.bidirectional } : {}),
          ...(input.note !== undefined ? { body: input.note } : {}),
        });
    const { file, result } = writeEdgeRecorded(tier, cache, edge);
    return { action: result, edge, file, reversed };
  });
}

export interface UnlinkInput {
  source: string;
  target: string;
  /** Only this relation (aliases accepted); every relation in both directions when omitted. */
  relation?: string;
}

export interface UnlinkOutput {
  removed: Array<{ source: string; relation: Relation; target: string; file: string }>;
  /** Set when a `[[link]]` in a body joins the two: it is an edge no file holds. */
  wikilinkFrom?: string | undefined;
  /** How to get the removed edge files back. */
  undo?: UndoInfo | undefined;
}

/**
 * Removes the edge files between two memories: the one named by `relation`, or every
 * one between them in either direction. `[[links]]` in bodies are reported, not edited.
 *
 * @example
 * await unlink(ctx, { source: 'a-k3f9qa', target: 'b-p2x81d' }); // { removed: [...] }
 */
export async function unlink(ctx: Context, input: UnlinkInput): Promise<UnlinkOutput> {
  const { a, b } = locateBoth(ctx, input.source, input.target);
  const keys: Array<{ source: string; relation: Relation; target: string }> = [];
  if (input.relation !== undefined) {
    const { relation, reversed } = relationOf(input.relation);
    keys.push(reversed ? { source: input.target, relation, target: input.source } : { source: input.source, relation, target: input.target });
  } else {
    for (const relation of RELATIONS) {
      keys.push({ source: input.source, relation, target: input.target }, { source: input.target, relation, target: input.source });
    }
  }
  const tier = edgeTier(ctx, a, b);
  const undo = await keepForUndo(
    ctx,
    keys.filter((k) => k.source !== k.target).map((k) => ({ path: join(tier.paths.edgesDir, edgeFileName(k)), scope: tier.scope })),
    'unlink',
  );
  const removed = await withEdgeWrite(tier, (cache) => {
    const done: UnlinkOutput['removed'] = [];
    for (const key of keys) {
      if (key.source === key.target) continue;
      const file = displayPath(join(tier.paths.edgesDir, edgeFileName(key)), tier.base);
      if (deleteEdgeRecorded(tier, cache, key)) done.push({ ...key, file });
    }
    return done;
  });
  const wikilinkFrom = a.doc.links?.includes(b.doc.id) ? a.doc.id : b.doc.links?.includes(a.doc.id) ? b.doc.id : undefined;
  return { removed, ...(wikilinkFrom ? { wikilinkFrom } : {}), ...(removed.length > 0 ? { undo } : {}) };
}

export interface TraverseInput {
  id: string;
  /** 0..10, default 2. */
  depth?: number;
  /** Only these relations (aliases accepted). */
  types?: readonly string[] | undefined;
  direction?: TraverseDirection;
  minStrength?: number;
  /** Also walk `suggested` edges. */
  includeSuggested?: boolean;
}

export interface GraphNodeSummary {
  id: string;
  type: MemoryType;
  summary: string;
  status: MemoryStatus;
  scope: Scope;
}

export interface TraverseOutput {
  start: GraphNodeSummary;
  depth: number;
  direction: TraverseDirection;
  levels: Array<{ depth: number; nodes: Array<GraphNodeSummary & { via: TraverseVia }> }>;
  /** Memories reached, all levels together. */
  total: number;
  diagnostics: Diagnostic[];
}

export const DEFAULT_TRAVERSE_INPUT = { depth: 2, direction: 'both' as TraverseDirection, minStrength: 0 };

export function summaryOf(doc: Pick<IndexedDoc, 'id' | 'type' | 'summary' | 'status' | 'scope'>): GraphNodeSummary {
  return { id: doc.id, type: doc.type, summary: doc.summary, status: doc.status, scope: doc.scope };
}

/**
 * Breadth-first walk from a memory, grouped by depth. Each memory appears once, at its
 * shallowest depth, so cycles end; broken edges are skipped.
 *
 * @example
 * traverseMemories(ctx, { id: 'chose-sqlite-k3f9qa', depth: 3, direction: 'out' }).levels[0].nodes
 */
export function traverseMemories(ctx: Context, input: TraverseInput): TraverseOutput {
  const o = { ...DEFAULT_TRAVERSE_INPUT, ...input };
  assertSafeId(o.id);
  if (!Number.isInteger(o.depth) || o.depth < 0 || o.depth > 10) throw new UsageError(`--depth must be an integer from 0 to 10, got ${o.depth}.`);
  if (!['out', 'in', 'both'].includes(o.direction)) throw new UsageError(`--direction must be out, in or both, got "${o.direction}".`);
  if (!(o.minStrength >= 0 && o.minStrength <= 1)) throw new UsageError(`--min-strength must be a number from 0 to 1, got ${o.minStrength}.`);
  const types = o.types?.map((t) => relationOf(t).relation);
  const view = openGraph(ctx);
  const start = findDoc(view.tiers, o.id);
  if (!start) throw new MemoryNotFoundError(o.id);
  const levels = traverse(view.graph, o.id, {
    depth: o.depth,
    direction: o.direction,
    types,
    minStrength: o.minStrength,
    includeSuggested: o.includeSuggested === true,
  });
  const out: TraverseOutput['levels'] = levels.map((level) => ({
    depth: level.depth,
    nodes: level.nodes.map((n) => {
      const found = findDoc(view.tiers, n.id);
      return { ...(found ? summaryOf(found.doc) : { id: n.id, type: 'context' as MemoryType, summary: '', status: 'active' as MemoryStatus, scope: 'project' as Scope }), via: n.via };
    }),
  }));
  return {
    start: summaryOf(start.doc),
    depth: o.depth,
    direction: o.direction,
    levels: out,
    total: out.reduce((n, l) => n + l.nodes.length, 0),
    diagnostics: view.diagnostics,
  };
}
