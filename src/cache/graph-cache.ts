/**
 * The graph cache, `.memory/graph.v8`: the sanitised edges (valid edge files and wikilinks)
 * and the centrality of the memories they touch, computed once per change. The memories
 * themselves are not in it: the graph's nodes are the caller's (the indexes' doc tables), so
 * the file grows with the edges, not with the store, and a write that adds a memory rebuilds
 * it from the edge caches and the memories' `[[links]]` without listing every memory. A warm
 * run checks the key (the edge directories' stamps and a fingerprint of the memory index),
 * reads one compact file (a small V8-serialized header, then the columns, read in place) and
 * builds adjacency lazily, only for the nodes a walk touches. A missing, corrupt or
 * mismatched cache is simply rebuilt by the caller.
 */
import { closeSync, fstatSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { EDGE_ORIGINS, RELATIONS } from '../core/edge.js';
import { centrality as computeCentrality, type Graph, type GraphEdge } from '../core/graph.js';
import type { Diagnostic } from '../core/memory.js';
import { writeFileAtomic } from '../store/atomic.js';
import { readInto } from '../store/safe-read.js';
import type { DirStamp } from './edge-cache.js';
import { sameStamp } from './edge-cache.js';
import { GRAPH_CACHE_FILE } from './layout.js';
import { adjacencyOf } from './index/score-kernel.js';
import { FileMemo, fileSignature } from './file-memo.js';

/**
 * Bump when the layout changes. 4: the edges' endpoints only, not every memory. 5: the
 * columns after the header, read where they lie in the file's bytes (V8's deserializer
 * copied each one: at 100,000 memories a megabyte more memory faulted in per command).
 */
export const GRAPH_CACHE_VERSION = 5;

/** The first bytes of the graph cache: then the header's length (u32 LE), the header, and the columns from the next multiple of 8. */
const GRAPH_MAGIC = Buffer.from('CXG\u0005', 'latin1');

export interface GraphCacheKey {
  /** One stamp per tier's edge directory, in tier order. */
  stamps: DirStamp[];
  /** Fingerprint of the memory ids and their wikilinks. */
  memories: string;
}

/** The header: what the file is, and how long its columns are. */
interface GraphCacheHeader {
  version: number;
  key: GraphCacheKey;
  /** Problems of edge files that could not be used. */
  diagnostics: Diagnostic[];
  /** How many ids the edges link, and how many edges there are. */
  ids: number;
  edges: number;
  /** Bytes of the ids' text. */
  text: number;
}

/** The cache as read: its columns are views into the file's bytes. */
interface GraphCacheFile {
  version: number;
  key: GraphCacheKey;
  /** The ids the edges link, in UTF-8, one per line (ids never hold a newline), in order of first use. */
  ends: Buffer;
  /** Where each id starts in `ends`, then `ends.length + 1`. */
  starts: Uint32Array;
  /** Id numbers in id order, for lookups by id (binary search). */
  sorted: Uint32Array;
  /** Stride 4: source number, target number, flags, strength. */
  edges: Float64Array;
  /** Centrality per id of `ends` (every other memory has 0). */
  centrality: Float64Array;
  /** Problems of edge files that could not be used. */
  diagnostics: Diagnostic[];
}

// flags: bits 0-2 relation, bit 3 suggested, bit 4 bidirectional, bits 5.. origin.
function pack(e: GraphEdge): number {
  return RELATIONS.indexOf(e.relation) | (e.status === 'suggested' ? 8 : 0) | (e.bidirectional ? 16 : 0) | (EDGE_ORIGINS.indexOf(e.origin) << 5);
}

export function graphCachePath(cacheDir: string): string {
  return join(cacheDir, GRAPH_CACHE_FILE);
}

/** True when a stored key still describes the current edge directories and memory index. */
export function sameKey(stored: GraphCacheKey, current: GraphCacheKey): boolean {
  return (
    stored.memories === current.memories &&
    stored.stamps.length === current.stamps.length &&
    stored.stamps.every((s, i) => sameStamp(current.stamps[i], s))
  );
}

export interface CachedGraphData {
  graph: Graph;
  /** Centrality by memory id (null prototype), every node's: made when first read. */
  centrality: Record<string, number>;
  diagnostics: Diagnostic[];
}

/**
 * Saves the graph's edges and the centrality of the memories they link (core's `centrality`:
 * a memory no edge touches has 0). Failing to save never fails the command.
 */
export function saveGraphCache(cacheDir: string, key: GraphCacheKey, graph: Pick<Graph, 'edges'>, diagnostics: Diagnostic[]): void {
  const index = new Map<string, number>();
  const ends: string[] = [];
  const numberOf = (id: string): number => {
    let i = index.get(id);
    if (i === undefined) {
      i = ends.length;
      index.set(id, i);
      ends.push(id);
    }
    return i;
  };
  const edges = new Float64Array(4 * graph.edges.length);
  graph.edges.forEach((e, k) => {
    edges[4 * k] = numberOf(e.source);
    edges[4 * k + 1] = numberOf(e.target);
    edges[4 * k + 2] = pack(e);
    edges[4 * k + 3] = e.strength;
  });
  // Not a memory id (UTF-8 could not give it back): no cache.
  if (ends.some((id) => id.includes('\n') || LONE_SURROGATE.test(id))) return;
  // Centrality over the linked memories alone: the others have no edge, hence 0.
  const centrality = computeCentrality({ nodes: new Set(ends), edges: graph.edges, out: new Map(), in: new Map() });
  const sorted = ends.map((_, i) => i).sort((a, b) => (ends[a]! < ends[b]! ? -1 : ends[a]! > ends[b]! ? 1 : 0));
  const text = Buffer.from(ends.join('\n'), 'utf8');
  const starts = new Uint32Array(ends.length + 1);
  for (let i = 0; i < ends.length; i++) starts[i + 1] = starts[i]! + Buffer.byteLength(ends[i]!, 'utf8') + 1;
  const header: GraphCacheHeader = { version: GRAPH_CACHE_VERSION, key, diagnostics, ids: ends.length, edges: graph.edges.length, text: text.length };
  const head = serialize(header);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  const columns = [edges, Float64Array.from(ends, (id) => centrality[id] ?? 0), starts, Uint32Array.from(sorted), text];
  const before = GRAPH_MAGIC.length + 4 + head.length;
  const bytes = Buffer.concat([GRAPH_MAGIC, length, head, Buffer.alloc(pad8(before) - before), ...columns.map(bytesOf)]);
  try {
    writeFileAtomic(graphCachePath(cacheDir), bytes);
    rmSync(join(cacheDir, 'graph.json'), { force: true }); // the cache of version ≤ 2
  } catch {
    // A cache: rebuilt next time.
  }
}

/** The cached graph over `nodes` (the memories the key's fingerprint describes) when its key matches `key`, else `undefined`. */
export function loadGraphCache(cacheDir: string, key: GraphCacheKey, nodes: ReadonlySet<string>): CachedGraphData | undefined {
  const path = graphCachePath(cacheDir);
  // A long-lived process (the MCP server) asks for the graph on every call: the file read
  // last time is kept while it is unchanged.
  const signature = fileSignature(path);
  let data = files.get(path, signature, key);
  if (!data) {
    try {
      data = checked(parse(readAligned(path)), key);
    } catch {
      return undefined;
    }
    if (!data) return undefined;
    files.set(path, signature, data.key, data);
  }
  const ids = new NodeIds(data.ends, data.starts, data.sorted);
  const graph = new PackedGraph(nodes, ids, data.edges);
  const values = data.centrality;
  let centrality: Record<string, number> | undefined;
  return {
    graph,
    get centrality() {
      if (!centrality) {
        centrality = Object.create(null) as Record<string, number>;
        for (const id of nodes) centrality[id] = 0;
        for (let i = 0; i < ids.size; i++) centrality[ids.at(i)] = values[i] ?? 0;
      }
      return centrality;
    },
    diagnostics: data.diagnostics,
  };
}

/** Half of a UTF-16 pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The graph files this process read, checked. */
const files = new FileMemo<GraphCacheKey, GraphCacheFile>(sameKey);

function pad8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function bytesOf(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** The whole file in memory of its own, from offset 0 (so that its 8-byte columns can be viewed in place). */
function readAligned(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.from(new ArrayBuffer(fstatSync(fd).size));
    return bytes.subarray(0, readInto(fd, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/** The cache in `bytes` (columns viewed where they lie), or `undefined` when they are not one. */
function parse(bytes: Buffer): GraphCacheFile | undefined {
  if (bytes.length < 8 || !bytes.subarray(0, 4).equals(GRAPH_MAGIC)) return undefined;
  const headLength = bytes.readUInt32LE(4);
  if (8 + headLength > bytes.length) return undefined;
  const header = deserialize(bytes.subarray(8, 8 + headLength)) as GraphCacheHeader;
  if (header?.version !== GRAPH_CACHE_VERSION || ![header.ids, header.edges, header.text].every((n) => Number.isInteger(n) && n >= 0)) return undefined;
  let at = pad8(8 + headLength);
  if (at + 32 * header.edges + 8 * header.ids + 4 * (header.ids + 1) + 4 * header.ids + header.text !== bytes.length) return undefined;
  const take = <T>(make: (offset: number, count: number) => T, count: number, width: number): T => {
    const view = make(bytes.byteOffset + at, count);
    at += count * width;
    return view;
  };
  return {
    version: header.version,
    key: header.key,
    diagnostics: header.diagnostics,
    edges: take((offset, count) => new Float64Array(bytes.buffer, offset, count), 4 * header.edges, 8),
    centrality: take((offset, count) => new Float64Array(bytes.buffer, offset, count), header.ids, 8),
    starts: take((offset, count) => new Uint32Array(bytes.buffer, offset, count), header.ids + 1, 4),
    sorted: take((offset, count) => new Uint32Array(bytes.buffer, offset, count), header.ids, 4),
    ends: take((offset, count) => Buffer.from(bytes.buffer, offset, count), header.text, 1),
  };
}

function checked(data: GraphCacheFile | undefined, key: GraphCacheKey): GraphCacheFile | undefined {
  if (
    data?.version !== GRAPH_CACHE_VERSION ||
    !data.key ||
    !Buffer.isBuffer(data.ends) ||
    !(data.starts instanceof Uint32Array) ||
    !(data.sorted instanceof Uint32Array) ||
    !(data.edges instanceof Float64Array) ||
    !(data.centrality instanceof Float64Array) ||
    data.edges.length % 4 !== 0 ||
    data.starts.length !== data.sorted.length + 1 ||
    data.starts[data.sorted.length] !== data.ends.length + (data.sorted.length > 0 ? 1 : 0) ||
    !sameKey(data.key, key)
  ) {
    return undefined;
  }
  const size = data.sorted.length;
  if (data.centrality.length !== size) return undefined;
  for (let i = 0; i < data.edges.length; i += 4) if (!(data.edges[i]! < size && data.edges[i + 1]! < size)) return undefined;
  return { ...data, diagnostics: Array.isArray(data.diagnostics) ? data.diagnostics : [] };
}

/**
 * A read-only graph over packed edges: compressed adjacency (one offsets array per
 * direction) built in one pass on first use, edge objects materialised only for the
 * nodes a walk visits. Satisfies the `Graph` interface the pure core walks; its nodes are
 * the caller's, its edges' ends numbered among the ids the edges link.
 */
class PackedGraph implements Graph {
  readonly nodes: ReadonlySet<string>;
  private readonly ids: NodeIds;
  private readonly packed: ArrayLike<number>;
  private readonly objects: Array<GraphEdge | undefined>;
  private all: GraphEdge[] | undefined;
  private outView: AdjacencyView | undefined;
  private inView: AdjacencyView | undefined;

  constructor(nodes: ReadonlySet<string>, ids: NodeIds, packed: ArrayLike<number>) {
    this.ids = ids;
    this.packed = packed;
    this.nodes = nodes;
    this.objects = new Array<GraphEdge | undefined>(packed.length / 4);
  }

  edge(i: number): GraphEdge {
    let e = this.objects[i];
    if (!e) {
      const p = this.packed;
      const flags = p[i * 4 + 2]!;
      e = {
        source: this.ids.at(p[i * 4]!),
        target: this.ids.at(p[i * 4 + 1]!),
        relation: RELATIONS[flags & 7] ?? 'relates_to',
        strength: p[i * 4 + 3]!,
        status: flags & 8 ? 'suggested' : 'active',
        bidirectional: (flags & 16) !== 0,
        origin: EDGE_ORIGINS[flags >> 5] ?? 'manual',
      };
      this.objects[i] = e;
    }
    return e;
  }

  get edges(): readonly GraphEdge[] {
    if (!this.all) {
      const n = this.packed.length / 4;
      this.all = new Array<GraphEdge>(n);
      for (let i = 0; i < n; i++) this.all[i] = this.edge(i);
    }
    return this.all;
  }

  nodeIndex(id: string): number | undefined {
    return this.ids.indexOf(id);
  }

  get out(): ReadonlyMap<string, readonly GraphEdge[]> {
    return (this.outView ??= new AdjacencyView(this, this.ids, this.packed, 0));
  }

  get in(): ReadonlyMap<string, readonly GraphEdge[]> {
    return (this.inView ??= new AdjacencyView(this, this.ids, this.packed, 1));
  }
}

/** Edges by source (`column` 0) or by target (`column` 1), in edge order. */
class AdjacencyView implements ReadonlyMap<string, readonly GraphEdge[]> {
  private readonly start: Int32Array;
  private readonly order: Int32Array;
  private readonly lists = new Map<number, GraphEdge[]>();

  constructor(
    private readonly graph: PackedGraph,
    private readonly ids: NodeIds,
    packed: ArrayLike<number>,
    column: 0 | 1,
  ) {
    const n = ids.size;
    // A counting sort, in WebAssembly where it runs (a process builds this once, cold: 4 ms
    // as JavaScript at 100,000 memories).
    const built = adjacencyOf(packed, column, n);
    if (built !== undefined) {
      this.start = built.start;
      this.order = built.order;
      return;
    }
    const m = packed.length / 4;
    const start = new Int32Array(n + 1);
    for (let i = 0; i < m; i++) start[packed[i * 4 + column]! + 1]!++;
    for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
    const fill = start.slice(0, n);
    const order = new Int32Array(m);
    for (let i = 0; i < m; i++) order[fill[packed[i * 4 + column]!]!++] = i;
    this.start = start;
    this.order = order;
  }

  private listAt(v: number): GraphEdge[] | undefined {
    const from = this.start[v]!;
    const to = this.start[v + 1]!;
    if (from === to) return undefined;
    let list = this.lists.get(v);
    if (!list) {
      list = [];
      for (let k = from; k < to; k++) list.push(this.graph.edge(this.order[k]!));
      this.lists.set(v, list);
    }
    return list;
  }

  get(id: string): readonly GraphEdge[] | undefined {
    const v = this.graph.nodeIndex(id);
    return v === undefined ? undefined : this.listAt(v);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  get size(): number {
    let count = 0;
    for (let v = 0; v < this.ids.size; v++) if (this.start[v + 1]! > this.start[v]!) count++;
    return count;
  }

  *entries(): MapIterator<[string, readonly GraphEdge[]]> {
    for (let v = 0; v < this.ids.size; v++) {
      const list = this.listAt(v);
      if (list) yield [this.ids.at(v), list];
    }
  }

  *keys(): MapIterator<string> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): MapIterator<readonly GraphEdge[]> {
    for (const [, list] of this.entries()) yield list;
  }

  [Symbol.iterator](): MapIterator<[string, readonly GraphEdge[]]> {
    return this.entries();
  }

  forEach(fn: (value: readonly GraphEdge[], key: string, map: ReadonlyMap<string, readonly GraphEdge[]>) => void): void {
    for (const [id, list] of this.entries()) fn(list, id, this);
  }
}

/**
 * The ids the edges link, as saved: one string, cut into ids only when one is read, and a
 * permutation in id order for lookups. A read-only Set of the ids, in saved order.
 */
class NodeIds implements ReadonlySet<string> {
  constructor(
    /** The ids in UTF-8, one per line. */
    private readonly text: Buffer,
    /** Where each id starts, then `text.length + 1`. */
    private readonly starts: Uint32Array,
    private readonly sorted: Uint32Array,
  ) {}

  get size(): number {
    return this.starts.length - 1;
  }

  /** Id number `i`. */
  at(i: number): string {
    return this.text.toString('utf8', this.starts[i]!, this.starts[i + 1]! - 1);
  }

  /** The number of `id`, or `undefined` (a binary search; each probe cuts one id out). */
  indexOf(id: string): number | undefined {
    let lo = 0;
    let hi = this.sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const i = this.sorted[mid]!;
      if (!(i < this.size)) return undefined;
      const probe = this.at(i);
      if (probe === id) return i;
      if (id < probe) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.indexOf(id) !== undefined;
  }

  *values(): SetIterator<string> {
    for (let i = 0; i < this.size; i++) yield this.at(i);
  }

  keys(): SetIterator<string> {
    return this.values();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this.values()) yield [id, id];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }

  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this.values()) fn.call(thisArg, id, id, this);
  }
}
