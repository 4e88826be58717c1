/**
 * The knowledge graph over memories: edge sanitising, adjacency, BFS traversal,
 * centrality and the compact views recall uses (DESIGN §3, §7).
 * Invalid edges (dangling, self-loops, unknown relations, duplicates) are left out of
 * the graph and reported by `lintGraph`, never thrown. Pure: data in, data out.
 */
import {
  RELATIONS,
  edgeFileName,
  isEdgeStatus,
  isRelation,
  resolveRelation,
  type Edge,
  type Relation,
  WIKILINK_STRENGTH,
} from './edge.js';
import type { Diagnostic } from './memory.js';

/** An edge as the graph holds it: the fields that matter for traversal and ranking. */
export type GraphEdge = Pick<Edge, 'source' | 'target' | 'relation' | 'strength' | 'status' | 'bidirectional' | 'origin'>;

/**
 * An edge handed to the graph: an `Edge` (or its graph fields) whose relation may still
 * be an alias, with the file it came from for diagnostics.
 */
export type GraphEdgeInput = Omit<GraphEdge, 'relation'> & Partial<Pick<Edge, 'created' | 'body' | 'extra'>> & {
  relation: string;
  /** Path shown in diagnostics; defaults to `.cortex/edges/<name>`. */
  file?: string | undefined;
};

export interface Graph {
  /** Memory ids, in the order given. */
  nodes: ReadonlySet<string>;
  /** Valid edges (files first, then wikilinks), in input order. */
  edges: readonly GraphEdge[];
  /** Edges by source id (built on first access). A bidirectional edge is stored once, under its source. */
  readonly out: ReadonlyMap<string, readonly GraphEdge[]>;
  /** Edges by target id (built on first access). */
  readonly in: ReadonlyMap<string, readonly GraphEdge[]>;
}

export interface BuildGraphOptions {
  /** The memory ids; a set (anything with `has` and `size`) is used as it is, not copied. */
  memoryIds: Iterable<string> | ReadonlySet<string>;
  edges: readonly GraphEdgeInput[];
  /** Ids linked from each memory's body (`extractWikilinks`), keyed by memory id. */
  wikilinks?: Readonly<Record<string, readonly string[]>>;
  /** Path of a memory file in diagnostics about its wikilinks. */
  memoryFile?: (id: string) => string;
}

/** Defaults of `buildGraph` and `lintGraph`: no wikilinks; memory files under `.cortex/memories/`. */
export const DEFAULT_BUILD_GRAPH = {
  wikilinks: {} as Readonly<Record<string, readonly string[]>>,
  memoryFile: (id: string): string => `.cortex/memories/${id}.md`,
};

/** `{ ...defaults, ...options }`, except that an explicit `undefined` keeps the default. */
function withDefaults<T extends object>(defaults: T, options: object): T {
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  return merged as T;
}

interface Candidate {
  edge: GraphEdge;
  input: GraphEdgeInput;
  alias: boolean;
  index: number;
  /** Position in the kept list, so a better duplicate takes its place in input order. */
  slot: number;
  dropped: boolean;
}

/** Edges grouped by source, then by target: no joined key string to build per edge. */
class EdgeIndex {
  private readonly bySource = new Map<string, Map<string, Candidate[]>>();

  get(source: string, relation: Relation, target: string): Candidate | undefined {
    const list = this.bySource.get(source)?.get(target);
    if (list) for (const c of list) if (c.edge.relation === relation) return c;
    return undefined;
  }

  add(c: Candidate): void {
    let byTarget = this.bySource.get(c.edge.source);
    if (!byTarget) this.bySource.set(c.edge.source, (byTarget = new Map()));
    const list = byTarget.get(c.edge.target);
    if (list) list.push(c);
    else byTarget.set(c.edge.target, [c]);
  }

  replace(old: Candidate, c: Candidate): void {
    const list = this.bySource.get(old.edge.source)!.get(old.edge.target)!;
    list[list.indexOf(old)] = c;
  }
}

// Computed only when a diagnostic or a tie needs it: validating and joining a name for
// each of 30,000 edges up front would dominate buildGraph.
function fileOf(edge: GraphEdgeInput): string {
  if (edge.file !== undefined) return edge.file;
  try {
    return `.cortex/edges/${edgeFileName({ source: edge.source, relation: edge.relation as Relation, target: edge.target })}`;
  } catch {
    return `.cortex/edges/${edge.source}--${edge.relation}--${edge.target}.md`;
  }
}

// Which of two edges with the same key stays: the canonical relation over an alias,
// then the smaller file name, so the answer never depends on directory listing order.
function better(a: Candidate, b: Candidate): boolean {
  if (a.alias !== b.alias) return !a.alias;
  const fa = fileOf(a.input);
  const fb = fileOf(b.input);
  if (fa !== fb) return fa < fb;
  return a.index < b.index;
}

/** True for a set of ids, such as the indexes' view of every memory: used without copying it. */
function isIdSet(ids: Iterable<string> | ReadonlySet<string>): ids is ReadonlySet<string> {
  return typeof (ids as ReadonlySet<string>).has === 'function' && typeof (ids as ReadonlySet<string>).size === 'number';
}

function sanitize(options: BuildGraphOptions, collect: boolean): { nodes: ReadonlySet<string>; edges: GraphEdge[]; diagnostics: Diagnostic[] } {
  const o = withDefaults({ ...DEFAULT_BUILD_GRAPH, memoryIds: [] as Iterable<string> | ReadonlySet<string>, edges: [] as readonly GraphEdgeInput[] }, options);
  const nodes = isIdSet(o.memoryIds) ? o.memoryIds : new Set(o.memoryIds);
  const diagnostics: Diagnostic[] = [];
  const index = new EdgeIndex();
  const kept: Candidate[] = [];
  const losers: Array<[Candidate, Candidate]> = [];
  // buildGraph discards diagnostics: skip building their messages (a bad merge can leave thousands).
  const problem = (input: GraphEdgeInput, reason: string, ruleId: string, hint?: string, severity: Diagnostic['severity'] = 'error') => {
    if (collect) diagnostics.push({ file: fileOf(input), reason, ruleId, severity, hint });
  };

  for (let i = 0; i < o.edges.length; i++) {
    const input = o.edges[i]!;
    let relation: Relation;
    let alias = false;
    if (isRelation(input.relation)) relation = input.relation;
    else {
      const resolved = resolveRelation(String(input.relation));
      if (!resolved || resolved.reversed) {
        problem(
          input,
          resolved
            ? `relation "${input.relation}" reads from target to source`
            : `unknown relation "${String(input.relation)}"`,
          'edge-relation-unknown',
          resolved ? `Swap source and target and write relation: ${resolved.relation}.` : `Use one of: ${RELATIONS.join(', ')}.`,
        );
        continue;
      }
      relation = resolved.relation;
      alias = true;
      problem(input, `relation "${input.relation}" is an alias of "${relation}"`, 'relation-alias', `Write relation: ${relation}.`, 'warning');
    }
    if (input.source === input.target) {
      problem(input, `edge links ${input.source} to itself`, 'edge-self-loop', 'Delete this edge file.');
      continue;
    }
    if (!nodes.has(input.source) || !nodes.has(input.target)) {
      const missing = [input.source, input.target].filter((id) => !nodes.has(id));
      problem(
        input,
        `edge points to no memory: ${missing.map((id) => `"${id}"`).join(' and ')} not found`,
        'edge-dangling',
        'Delete this edge file, or restore the missing memory.',
      );
      continue;
    }
    if (typeof input.strength !== 'number' || !(input.strength >= 0 && input.strength <= 1)) {
      problem(input, `strength must be a number from 0 to 1, found ${String(input.strength)}`, 'edge-strength-invalid', 'Set strength: to a value such as 0.8.');
      continue;
    }
    if (!isEdgeStatus(input.status)) {
      problem(input, `unknown edge status "${String(input.status)}"`, 'edge-status-invalid', 'Use active or suggested.');
      continue;
    }
    const edge: GraphEdge = {
      source: input.source,
      target: input.target,
      relation,
      strength: input.strength,
      status: input.status,
      bidirectional: input.bidirectional === true,
      origin: input.origin,
    };
    const candidate: Candidate = { edge, input, alias, index: i, slot: kept.length, dropped: false };
    const existing = index.get(edge.source, relation, edge.target);
    if (!existing) {
      index.add(candidate);
      kept.push(candidate);
    } else if (better(candidate, existing)) {
      candidate.slot = existing.slot;
      kept[existing.slot] = candidate;
      index.replace(existing, candidate);
      losers.push([existing, candidate]);
    } else losers.push([candidate, existing]);
  }

  for (const [loser, winner] of collect ? losers : []) {
    diagnostics.push({
      file: fileOf(loser.input),
      reason: `duplicate edge: ${fileOf(winner.input)} already links ${loser.edge.source} ${loser.edge.relation} ${loser.edge.target}`,
      ruleId: 'edge-duplicate',
      severity: 'error',
      hint: `Delete ${fileOf(loser.input)}.`,
    });
  }

  // A bidirectional edge already holds the reverse direction: a second edge the other way
  // would count twice in centrality. Keep the bidirectional one (then the active one, then
  // the smaller file name).
  for (const candidate of kept) {
    // Pairs where neither edge is bidirectional are fine, so only those need a look-up.
    if (!candidate.edge.bidirectional || candidate.dropped) continue;
    const { source, relation, target } = candidate.edge;
    const reverse = index.get(target, relation, source);
    if (!reverse || reverse.dropped) continue;
    const rank = (c: Candidate): [number, number, string] => [c.edge.bidirectional ? 0 : 1, c.edge.status === 'active' ? 0 : 1, fileOf(c.input)];
    const [a, b] = [rank(candidate), rank(reverse)];
    const keepCandidate = a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] <= b[2];
    const [keep, drop] = keepCandidate ? [candidate, reverse] : [reverse, candidate];
    drop.dropped = true;
    if (collect) {
      diagnostics.push({
        file: fileOf(drop.input),
        reason: `redundant edge: ${fileOf(keep.input)} is bidirectional and already links ${drop.edge.source} ${drop.edge.relation} ${drop.edge.target}`,
        ruleId: 'edge-redundant',
        severity: 'warning',
        hint: `Delete ${fileOf(drop.input)}.`,
      });
    }
  }

  const edges: GraphEdge[] = [];
  for (const candidate of kept) if (!candidate.dropped) edges.push(candidate.edge);

  // Wikilinks: relates_to edges without files. An edge file saying the same wins silently.
  const linkSources = Object.entries(o.wikilinks);
  const explicit = (source: string, target: string): boolean => {
    const same = index.get(source, 'relates_to', target);
    if (same && !same.dropped) return true;
    const reverse = index.get(target, 'relates_to', source);
    return reverse !== undefined && !reverse.dropped && reverse.edge.bidirectional;
  };
  for (const [source, targets] of linkSources) {
    if (!nodes.has(source)) continue;
    const seen = new Set<string>();
    for (const target of targets) {
      if (target === source || seen.has(target)) continue;
      seen.add(target);
      if (!nodes.has(target)) {
        if (collect) {
          diagnostics.push({
            file: o.memoryFile(source),
            reason: `[[${target}]] links to no memory`,
            ruleId: 'wikilink-dangling',
            severity: 'warning',
            hint: 'Fix the id in the link, or remove the link.',
          });
        }
        continue;
      }
      if (explicit(source, target)) continue;
      edges.push({
        source,
        target,
        relation: 'relates_to',
        strength: WIKILINK_STRENGTH,
        status: 'active',
        bidirectional: false,
        origin: 'wikilink',
      });
    }
  }

  diagnostics.sort((a, b) =>
    a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.ruleId !== b.ruleId ? (a.ruleId < b.ruleId ? -1 : 1) : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0,
  );
  return { nodes, edges, diagnostics };
}

/**
 * Builds the graph from memory ids, parsed edge files and body wikilinks. Edges that
 * `lintGraph` reports as errors are left out; nothing throws.
 *
 * @example
 * const g = buildGraph({ memoryIds: ['a', 'b'], edges: [], wikilinks: { a: ['b'] } });
 * g.out.get('a')?.[0]?.origin // 'wikilink'
 */
export function buildGraph(options: BuildGraphOptions): Graph {
  const { nodes, edges } = sanitize(options, false);
  // Adjacency is built on first use: ranking needs only `edges` (centrality), and the
  // two maps are a large share of the cost on 30,000 edges.
  let adjacency: { out: Map<string, GraphEdge[]>; in: Map<string, GraphEdge[]> } | undefined;
  const index = () => {
    if (adjacency) return adjacency;
    const out = new Map<string, GraphEdge[]>();
    const inn = new Map<string, GraphEdge[]>();
    for (const edge of edges) {
      const o = out.get(edge.source);
      if (o) o.push(edge);
      else out.set(edge.source, [edge]);
      const i = inn.get(edge.target);
      if (i) i.push(edge);
      else inn.set(edge.target, [edge]);
    }
    return (adjacency = { out, in: inn });
  };
  return {
    nodes,
    edges,
    get out() {
      return index().out;
    },
    get in() {
      return index().in;
    },
  };
}

/**
 * Problems in the edges and wikilinks, sorted by file: `edge-dangling`, `edge-self-loop`,
 * `edge-relation-unknown`, `edge-duplicate`, `edge-strength-invalid`,
 * `edge-status-invalid` (errors: the edge is ignored), `relation-alias`, `edge-redundant`,
 * `wikilink-dangling` (warnings).
 *
 * @example
 * const loop = { source: 'a', target: 'a', relation: 'refines', strength: 1, status: 'active', bidirectional: false, origin: 'manual' } as const;
 * lintGraph({ memoryIds: ['a'], edges: [loop] })[0]?.ruleId // 'edge-self-loop'
 */
export function lintGraph(options: BuildGraphOptions): Diagnostic[] {
  return sanitize(options, true).diagnostics;
}

export type TraverseDirection = 'out' | 'in' | 'both';

export interface TraverseOptions {
  /** Levels to walk, 0..10 (clamped). */
  depth?: number;
  /** `out` follows arrows, `in` walks them backwards, `both` does both. Bidirectional edges are always walkable both ways. */
  direction?: TraverseDirection;
  /** Only these relations; all when omitted. */
  types?: readonly Relation[] | undefined;
  /** Skip edges weaker than this. */
  minStrength?: number;
  /** Also walk `suggested` edges. */
  includeSuggested?: boolean;
}

/** Defaults of `traverse`: two levels, both directions, every relation, active edges only. */
export const DEFAULT_TRAVERSE = {
  depth: 2,
  direction: 'both' as TraverseDirection,
  types: undefined as readonly Relation[] | undefined,
  minStrength: 0,
  includeSuggested: false,
};

/** Deeper walks reach most of any real graph and say nothing useful. */
export const MAX_TRAVERSE_DEPTH = 10;

export interface TraverseVia {
  /** The node one level up that reached this one. */
  from: string;
  relation: Relation;
  /** `out` when the edge was walked along its arrow (from = source), `in` against it. */
  direction: 'out' | 'in';
  strength: number;
}

export interface TraverseLevel {
  depth: number;
  nodes: Array<{ id: string; via: TraverseVia }>;
}

function viaBefore(a: TraverseVia, b: TraverseVia): boolean {
  if (a.strength !== b.strength) return a.strength > b.strength;
  if (a.from !== b.from) return a.from < b.from;
  if (a.relation !== b.relation) return a.relation < b.relation;
  return a.direction === 'out' && b.direction === 'in';
}

/**
 * Breadth-first walk from `start`: one entry per level (depth 1, 2 …), each node once at
 * its shallowest depth, so cycles end. Within a level nodes are sorted by id; when
 * several edges reach a node, `via` is the strongest (then smallest `from`, relation,
 * `out` before `in`), so the result never depends on input order. An unknown start
 * or depth 0 gives [].
 *
 * @example
 * traverse(graph, 'a', { depth: 1, direction: 'out' })
 * // [{ depth: 1, nodes: [{ id: 'b', via: { from: 'a', relation: 'refines', direction: 'out', strength: 0.8 } }] }]
 */
export function traverse(graph: Graph, start: string, options: TraverseOptions = {}): TraverseLevel[] {
  const o = withDefaults(DEFAULT_TRAVERSE, options);
  const maxDepth = Number.isFinite(o.depth) ? Math.max(0, Math.min(MAX_TRAVERSE_DEPTH, Math.floor(o.depth))) : DEFAULT_TRAVERSE.depth;
  if (!graph.nodes.has(start)) return [];
  const types = o.types ? new Set<string>(o.types) : undefined;
  const usable = (e: GraphEdge): boolean =>
    (e.status === 'active' || o.includeSuggested) && e.strength >= o.minStrength && (!types || types.has(e.relation));
  const walkOut = o.direction !== 'in';
  const walkIn = o.direction !== 'out';

  const visited = new Set<string>([start]);
  const levels: TraverseLevel[] = [];
  let frontier = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const found = new Map<string, TraverseVia>();
    const offer = (id: string, via: TraverseVia): void => {
      if (visited.has(id)) return;
      const best = found.get(id);
      if (!best || viaBefore(via, best)) found.set(id, via);
    };
    for (const from of frontier) {
      for (const e of graph.out.get(from) ?? []) {
        if ((walkOut || e.bidirectional) && usable(e)) offer(e.target, { from, relation: e.relation, direction: 'out', strength: e.strength });
      }
      for (const e of graph.in.get(from) ?? []) {
        if ((walkIn || e.bidirectional) && usable(e)) offer(e.source, { from, relation: e.relation, direction: 'in', strength: e.strength });
      }
    }
    const ids = [...found.keys()].sort();
    if (ids.length === 0) break;
    for (const id of ids) visited.add(id);
    levels.push({ depth, nodes: ids.map((id) => ({ id, via: found.get(id)! })) });
    frontier = ids;
  }
  return levels;
}

export interface CentralityOptions {
  /** Count wikilinks as in-links (they are deliberate `relates_to` edges, DESIGN §2.1). */
  includeWikilinks?: boolean;
}

/** Defaults of `centrality`: wikilinks count as in-links. */
export const DEFAULT_CENTRALITY = { includeWikilinks: true };

/**
 * In-degree over ACTIVE edges divided by the largest in-degree (DESIGN §3), for every
 * node: 0 for nodes nobody links to, and 0 everywhere when there are no active edges.
 * A bidirectional edge counts as an in-link at both ends; suggested edges never count.
 *
 * @example
 * centrality(buildGraph({ memoryIds: ['a', 'b', 'c'], edges: [], wikilinks: { a: ['c'], b: ['c'] } }))
 * // { a: 0, b: 0, c: 1 }
 */
export function centrality(graph: Graph, options: CentralityOptions = {}): Record<string, number> {
  const o = withDefaults(DEFAULT_CENTRALITY, options);
  const degree = new Map<string, number>();
  let max = 0;
  const bump = (id: string): void => {
    const d = (degree.get(id) ?? 0) + 1;
    degree.set(id, d);
    if (d > max) max = d;
  };
  for (const e of graph.edges) {
    if (e.status !== 'active' || (e.origin === 'wikilink' && !o.includeWikilinks)) continue;
    bump(e.target);
    if (e.bidirectional) bump(e.source);
  }
  // Null prototype: an id such as "constructor" must not read an inherited value.
  const result: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const id of graph.nodes) result[id] = max === 0 ? 0 : (degree.get(id) ?? 0) / max;
  return result;
}

export interface NeighboursOptions extends TraverseOptions {
  /** At most this many neighbours (closest and strongest first). */
  limit?: number;
}

/** Defaults of `neighbours`: those of `traverse`, no limit. */
export const DEFAULT_NEIGHBOURS = { ...DEFAULT_TRAVERSE, limit: Number.POSITIVE_INFINITY };

export interface Neighbour {
  id: string;
  depth: number;
  from: string;
  relation: Relation;
  direction: 'out' | 'in';
  strength: number;
}

/**
 * The neighbourhood of a memory as a flat list for recall enrichment: active edges in
 * both directions to depth 2 unless told otherwise, sorted by depth, then strength
 * (strongest first), then id, cut at `limit`.
 *
 * @example
 * neighbours(graph, 'a', { depth: 1 }).map((n) => n.id) // ['b', 'c']
 */
export function neighbours(graph: Graph, id: string, options: NeighboursOptions = {}): Neighbour[] {
  const o = withDefaults(DEFAULT_NEIGHBOURS, options);
  const flat: Neighbour[] = [];
  for (const level of traverse(graph, id, o)) {
    const ordered = [...level.nodes].sort((a, b) => b.via.strength - a.via.strength || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const node of ordered) flat.push({ id: node.id, depth: level.depth, ...node.via });
  }
  return flat.slice(0, Math.max(0, o.limit));
}

export interface SourceLink {
  /** The memory reached over a `source_of` edge. */
  id: string;
  /** The input memory it was reached from. */
  from: string;
  /** `out` when `from` is the source of `id`, `in` when `id` is the source of `from`. */
  direction: 'out' | 'in';
}

/**
 * Memories one active `source_of` edge away from `ids`, in either direction: the code
 * behind a description, and the descriptions of a piece of code. Inputs are excluded;
 * each memory appears once (first input wins); per input the links are sorted by id.
 *
 * @example
 * followSourceOf(graph, ['db-description-abcdef']) // [{ id: 'db-code-ghijkl', from: 'db-description-abcdef', direction: 'in' }]
 */
export function followSourceOf(graph: Graph, ids: Iterable<string>): SourceLink[] {
  const inputs = [...new Set(ids)];
  const inputSet = new Set(inputs);
  const seen = new Set<string>();
  const result: SourceLink[] = [];
  for (const from of inputs) {
    const links: SourceLink[] = [];
    for (const e of graph.out.get(from) ?? []) {
      if (e.relation === 'source_of' && e.status === 'active') links.push({ id: e.target, from, direction: 'out' });
    }
    for (const e of graph.in.get(from) ?? []) {
      if (e.relation === 'source_of' && e.status === 'active') links.push({ id: e.source, from, direction: 'in' });
    }
    links.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.direction === 'out' ? -1 : 1));
    for (const link of links) {
      if (inputSet.has(link.id) || seen.has(link.id)) continue;
      seen.add(link.id);
      result.push(link);
    }
  }
  return result;
}
