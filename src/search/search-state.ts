/**
 * Saving and loading a MiniSearch index fast.
 *
 * `MiniSearch.loadJS` rebuilds the whole radix tree from JSON; at 10,000 memories that
 * (plus the JSON parse) is the largest single cost of a warm `recall`. Restoring the tree as
 * Maps from V8's structured serializer is several times faster, but still builds every
 * posting of every term (half a million Map entries at 10,000 memories) when a query reads
 * a few dozen terms. So the tree is saved with each term's postings packed into one shared
 * `Uint32Array`, and a loaded term holds a {@link LazyTermData}: a Map that unpacks its
 * postings on first use. Loading then costs in proportion to the vocabulary, and a query in
 * proportion to the terms it touches.
 *
 * That reaches into MiniSearch's private fields, so every step is checked: if the fields
 * are not where this code expects them (another MiniSearch version), it stores MiniSearch's
 * own JSON form instead, and a state that does not restore to the same document count is
 * rejected (the caller rebuilds the index).
 */
import { deserialize, serialize } from 'node:v8';
import MiniSearch, { type Options } from 'minisearch';

/** The private fields of a MiniSearch instance that make up its state (minisearch 7). */
const FIELDS = [
  '_documentIds',
  '_idToShortId',
  '_fieldIds',
  '_fieldLength',
  '_avgFieldLength',
  '_nextId',
  '_storedFields',
  '_documentCount',
  '_dirtCount',
] as const;

/** The key under which MiniSearch's radix tree keeps a term's value. */
const LEAF = '';

type Tree = Map<string, unknown>;
type TermData = Map<number, Map<number, number>>;
type Internals = Record<(typeof FIELDS)[number], unknown> & { _index?: { _tree?: unknown; _size?: unknown } };

interface SavedState {
  kind: 'packed' | 'json';
  documentCount: number;
  /** The radix tree with each term's value replaced by its offset in `postings`. */
  tree?: Tree;
  postings?: Uint32Array;
  fields?: Record<string, unknown>;
  json?: unknown;
}

/**
 * A term's postings (field id → document short id → term frequency) that unpack on first
 * use. Until then it holds an offset into the shared packed array:
 * `[fieldCount, (fieldId, docCount, (docId, freq) × docCount) × fieldCount]`.
 * Every Map method unpacks first, so MiniSearch reads and updates it as an ordinary Map.
 */
export class LazyTermData extends Map<number, Map<number, number>> {
  #packed: Uint32Array | undefined;
  readonly #offset: number;

  constructor(packed: Uint32Array, offset: number) {
    super();
    this.#packed = packed;
    this.#offset = offset;
  }

  /**
   * The packed array and this term's offset in it, while still packed (a reader that walks
   * the postings itself need not unpack them); `undefined` once unpacked.
   */
  packedAt(): { packed: Uint32Array; offset: number } | undefined {
    return this.#packed === undefined ? undefined : { packed: this.#packed, offset: this.#offset };
  }

  #unpack(): void {
    const p = this.#packed;
    if (p === undefined) return;
    this.#packed = undefined;
    let i = this.#offset;
    const fields = p[i++]!;
    for (let f = 0; f < fields; f++) {
      const fieldId = p[i++]!;
      const count = p[i++]!;
      const docs = new Map<number, number>();
      for (let d = 0; d < count; d++, i += 2) docs.set(p[i]!, p[i + 1]!);
      super.set(fieldId, docs);
    }
  }

  /**
   * The largest number of documents listed under one field, read without unpacking
   * (discarded documents not yet swept out included, as in the unpacked Maps).
   */
  maxFieldCount(): number {
    const p = this.#packed;
    if (p === undefined) {
      let max = 0;
      for (const docs of super.values()) max = Math.max(max, docs.size);
      return max;
    }
    let i = this.#offset;
    const fields = p[i++]!;
    let max = 0;
    for (let f = 0; f < fields; f++) {
      const count = p[i + 1]!;
      max = Math.max(max, count);
      i += 2 + 2 * count;
    }
    return max;
  }

  /** Appends this term's packed form to `out` (copied as is while still packed). */
  packInto(out: PackedWriter): number {
    const p = this.#packed;
    if (p === undefined) return out.packMap(this);
    let end = this.#offset;
    const fields = p[end++]!;
    for (let f = 0; f < fields; f++) end += 2 + 2 * p[end + 1]!;
    return out.copy(p, this.#offset, end);
  }

  override get size(): number {
    this.#unpack();
    return super.size;
  }
  override get(key: number): Map<number, number> | undefined {
    this.#unpack();
    return super.get(key);
  }
  override has(key: number): boolean {
    this.#unpack();
    return super.has(key);
  }
  override set(key: number, value: Map<number, number>): this {
    this.#unpack();
    return super.set(key, value);
  }
  override delete(key: number): boolean {
    this.#unpack();
    return super.delete(key);
  }
  override clear(): void {
    this.#packed = undefined;
    super.clear();
  }
  override forEach(fn: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void, thisArg?: unknown): void {
    this.#unpack();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<number> {
    this.#unpack();
    return super.keys();
  }
  override values(): MapIterator<Map<number, number>> {
    this.#unpack();
    return super.values();
  }
  override entries(): MapIterator<[number, Map<number, number>]> {
    this.#unpack();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
    return this.entries();
  }
}

/** A growable Uint32Array that packed postings are appended to. */
class PackedWriter {
  private buf = new Uint32Array(1 << 16);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint32Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  copy(from: Uint32Array, start: number, end: number): number {
    const offset = this.length;
    this.reserve(end - start);
    this.buf.set(from.subarray(start, end), offset);
    this.length += end - start;
    return offset;
  }

  packMap(data: TermData): number {
    const offset = this.length;
    let n = 1;
    for (const docs of data.values()) n += 2 + 2 * docs.size;
    this.reserve(n);
    const b = this.buf;
    let i = this.length;
    b[i++] = data.size;
    for (const [fieldId, docs] of data) {
      b[i++] = fieldId;
      b[i++] = docs.size;
      for (const [docId, freq] of docs) {
        b[i++] = docId;
        b[i++] = freq;
      }
    }
    this.length = i;
    return offset;
  }

  result(): Uint32Array {
    return this.buf.slice(0, this.length);
  }
}

function hasInternals(ms: MiniSearch): boolean {
  const m = ms as unknown as Internals;
  return (
    m._index?._tree instanceof Map &&
    m._documentIds instanceof Map &&
    m._idToShortId instanceof Map &&
    m._fieldLength instanceof Map &&
    typeof m._documentCount === 'number' &&
    FIELDS.every((f) => f in m)
  );
}

/** A copy of the radix tree whose values are offsets of their postings packed into `out`. */
function packTree(node: Tree, out: PackedWriter): Tree {
  const copy: Tree = new Map();
  for (const [key, value] of node) {
    if (key === LEAF) {
      copy.set(LEAF, value instanceof LazyTermData ? value.packInto(out) : out.packMap(value as TermData));
    } else {
      copy.set(key, packTree(value as Tree, out));
    }
  }
  return copy;
}

/** Replaces the offsets in a saved tree with lazy term data, in place; false if the tree is not one. */
function unpackTree(node: Tree, packed: Uint32Array): boolean {
  for (const [key, value] of node) {
    if (key === LEAF) {
      if (typeof value !== 'number' || value >= packed.length) return false;
      node.set(LEAF, new LazyTermData(packed, value));
    } else if (!(value instanceof Map) || !unpackTree(value as Tree, packed)) {
      return false;
    }
  }
  return true;
}

/**
 * Serializes an index to bytes.
 *
 * @example
 * const bytes = saveSearchState(index); // later: loadSearchState(bytes, options)
 */
export function saveSearchState(ms: MiniSearch): Buffer {
  if (hasInternals(ms)) {
    const m = ms as unknown as Internals;
    const fields: Record<string, unknown> = {};
    for (const f of FIELDS) fields[f] = m[f];
    const out = new PackedWriter();
    const tree = packTree(m._index!._tree as Tree, out);
    return serialize({ kind: 'packed', documentCount: ms.documentCount, tree, postings: out.result(), fields } satisfies SavedState);
  }
  return serialize({ kind: 'json', documentCount: ms.documentCount, json: ms.toJSON() } satisfies SavedState);
}

/**
 * Restores an index saved by `saveSearchState`, or returns `undefined` when the bytes are
 * not a usable state (truncated, another format, another MiniSearch).
 */
export function loadSearchState(bytes: Buffer, options: Options): MiniSearch | undefined {
  let state: SavedState;
  try {
    state = deserialize(bytes) as SavedState;
  } catch {
    return undefined;
  }
  if (typeof state !== 'object' || state === null || typeof state.documentCount !== 'number') return undefined;
  try {
    if (state.kind === 'json') {
      const ms = MiniSearch.loadJS(state.json as never, options);
      return ms.documentCount === state.documentCount ? ms : undefined;
    }
    if (state.kind !== 'packed' || !(state.tree instanceof Map) || !(state.postings instanceof Uint32Array) || !state.fields) return undefined;
    if (!unpackTree(state.tree, state.postings)) return undefined;
    const ms = new MiniSearch(options);
    if (!hasInternals(ms)) return undefined;
    const m = ms as unknown as Internals;
    for (const f of FIELDS) {
      if (!(f in state.fields)) return undefined;
      (m as Record<string, unknown>)[f] = state.fields[f];
    }
    m._index!._tree = state.tree;
    m._index!._size = undefined;
    return ms.documentCount === state.documentCount ? ms : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Number of documents listing an analysed term: its largest count in one field, read
 * without unpacking the postings. `undefined` when the index's internals are not the
 * expected ones.
 */
export function termDocCount(ms: MiniSearch, term: string): number | undefined {
  const index = (ms as unknown as { _index?: { get?: (t: string) => TermData | undefined } })._index;
  if (typeof index?.get !== 'function') return undefined;
  const data = index.get(term);
  if (data === undefined) return 0;
  if (data instanceof LazyTermData) return data.maxFieldCount();
  let max = 0;
  for (const docs of data.values()) max = Math.max(max, docs.size);
  return max;
}
