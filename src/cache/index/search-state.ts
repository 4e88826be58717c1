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
import { closeSync, fstatSync, openSync } from 'node:fs';
import { OpenFile, readAt, readInto } from '../../store/safe-read.js';
import type { TextSource } from './columns.js';
import { FileText } from './docs-file.js';
import { NumberColumn } from './number-column.js';
import { deserialize, serialize } from 'node:v8';
import MiniSearch, { type Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

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

/** The fields saved as they are; the other two are saved as columns (see {@link SavedState}). */
export const PLAIN_FIELDS = FIELDS.filter((f) => f !== '_idToShortId' && f !== '_documentIds' && f !== '_fieldLength');

/** The key under which MiniSearch's radix tree keeps a term's value. */
const LEAF = '';

type Tree = Map<string, unknown>;
type TermData = Map<number, Map<number, number>>;
type Internals = Record<(typeof FIELDS)[number], unknown> & { _index?: { _tree?: unknown; _size?: unknown } };

export interface SavedState {
  kind: 'packed' | 'json';
  documentCount: number;
  /**
   * The radix tree with each term's value replaced by its offset in the postings: as Maps
   * (what a writer gives, and files of earlier versions hold) or as columns (what is saved).
   */
  tree?: Tree;
  treeColumns?: TreeColumns;
  /** Length of the postings (in 32-bit words), which follow the state in the file. */
  postingsLength?: number;
  /** Where each term's postings start, ascending, then `postingsLength`: a term's postings end where the next one's start. */
  termOffsets?: Uint32Array;
  /** Per term (as `termOffsets`), its largest number of documents in one field: its document frequency without reading it. */
  termCounts?: Uint32Array;
  /** MiniSearch's fields but `_idToShortId`, `_documentIds` and `_fieldLength`. */
  fields?: Record<string, unknown>;
  /** `_documentIds` as columns: each short id's memory id (joined, where each ends; '' where none), and the short ids sorted by id (`_idToShortId`). */
  ids?: { text: string | TextSource; ends: Uint32Array; present: Uint8Array; order: Uint32Array };
  /**
   * `_fieldLength` as columns: `fields` lengths per short id (`MISSING_LENGTH` where none), and
   * which ids have them. Read from a file, the lengths stay there until asked for (number-column.ts).
   */
  lengths?: { fields: number; values: Uint32Array | NumberColumn<Uint32Array>; present: Uint8Array };
  json?: unknown;
}

/** A field length a document does not have (a hole in its MiniSearch array). */
export const MISSING_LENGTH = 0xffffffff;

/**
 * The radix tree as columns, its nodes numbered breadth first (the root is 0, a child after
 * its parent): node `i`'s entries are `first[i]` to `first[i] + count[i] - 1`; entry `e`'s
 * key is `keys` cut at `keyEnds` (from the end of entry `e - 1`'s), its value the postings
 * offset of a term (key {@link LEAF}) or the number of a node. Deserialising the tree as
 * 8,000 Maps took 20 ms of every command at 100,000 memories; these are five strings and
 * arrays, and a node becomes a Map when a lookup first reaches it ({@link LazyTreeNode}).
 */
export interface TreeColumns {
  keys: string;
  keyEnds: Uint32Array;
  first: Uint32Array;
  count: Uint32Array;
  value: Uint32Array;
}

/** The columns of a tree of Maps (a save; every node of a loaded tree is read). */
export function treeColumnsOf(root: Tree): TreeColumns {
  const keys: string[] = [];
  const keyEnds: number[] = [];
  const first: number[] = [];
  const count: number[] = [];
  const value: number[] = [];
  const queue: Tree[] = [root];
  let end = 0;
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    first.push(keyEnds.length);
    count.push(node.size);
    node.forEach((child, key) => {
      keys.push(key);
      keyEnds.push((end += key.length));
      if (key === LEAF) value.push(child as number);
      else {
        value.push(queue.length);
        queue.push(child as Tree);
      }
    });
  }
  return { keys: keys.join(''), keyEnds: Uint32Array.from(keyEnds), first: Uint32Array.from(first), count: Uint32Array.from(count), value: Uint32Array.from(value) };
}

/**
 * The root of the tree in `columns` when they are one whose leaves are offsets below
 * `length` (every node reached once, each after its parent, every entry in range), else
 * `undefined`.
 */
export function treeOfColumns(columns: unknown, length: number): Tree | undefined {
  const c = columns as TreeColumns;
  if (typeof c !== 'object' || c === null || typeof c.keys !== 'string' || ![c.keyEnds, c.first, c.count, c.value].every((a) => a instanceof Uint32Array)) return undefined;
  const nodes = c.first.length;
  const entries = c.keyEnds.length;
  if (nodes === 0 || c.count.length !== nodes || c.value.length !== entries || (entries === 0 ? 0 : c.keyEnds[entries - 1]) !== c.keys.length) return undefined;
  const reached = new Uint8Array(nodes);
  reached[0] = 1;
  for (let i = 0; i < nodes; i++) {
    const from = c.first[i]!;
    const to = from + c.count[i]!;
    if (to > entries) return undefined;
    for (let e = from; e < to; e++) {
      const start = e === 0 ? 0 : c.keyEnds[e - 1]!;
      const v = c.value[e]!;
      if (c.keyEnds[e]! < start) return undefined;
      if (c.keyEnds[e] === start) {
        if (v >= length) return undefined;
      } else if (!(v > i && v < nodes) || reached[v] === 1) {
        return undefined;
      } else {
        reached[v] = 1;
      }
    }
  }
  return new LazyTreeNode(c, 0);
}

/**
 * A node of a tree saved as columns: a Map (as MiniSearch's radix tree reads and changes
 * it) whose entries are made from the columns when it is first used, each child node
 * when it is first read (a lookup reads one child of each node on its way; a fuzzy match
 * lists a node's keys and reads the children within its distance). A query reaches a few
 * hundred of a tree's nodes.
 */
export class LazyTreeNode extends Map<string, unknown> {
  readonly #columns: TreeColumns;
  readonly #node: number;
  #filled = false;

  constructor(columns: TreeColumns, node: number) {
    super();
    this.#columns = columns;
    this.#node = node;
  }

  /** The entries: a term's postings offset under {@link LEAF}, else the number of a child node not made yet. */
  #fill(): void {
    if (this.#filled) return;
    this.#filled = true;
    const c = this.#columns;
    for (let e = c.first[this.#node]!, to = e + c.count[this.#node]!; e < to; e++) super.set(c.keys.slice(e === 0 ? 0 : c.keyEnds[e - 1]!, c.keyEnds[e]!), c.value[e]!);
  }

  /** `value` as read under `key`: a child node made (and kept) when it is still a number. */
  #made(key: string, value: unknown): unknown {
    if (key === LEAF || typeof value !== 'number') return value;
    const child = new LazyTreeNode(this.#columns, value);
    super.set(key, child);
    return child;
  }

  /** Every entry made, for a walk over the values. */
  #all(): void {
    this.#fill();
    for (const [key, value] of super.entries()) this.#made(key, value);
  }

  override get size(): number {
    this.#fill();
    return super.size;
  }
  override get(key: string): unknown {
    this.#fill();
    return this.#made(key, super.get(key));
  }
  override has(key: string): boolean {
    this.#fill();
    return super.has(key);
  }
  override set(key: string, value: unknown): this {
    this.#fill();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.#fill();
    return super.delete(key);
  }
  override clear(): void {
    this.#filled = true;
    super.clear();
  }
  override forEach(fn: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    this.#all();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<string> {
    this.#fill();
    return super.keys();
  }
  override values(): MapIterator<unknown> {
    this.#all();
    return super.values();
  }
  override entries(): MapIterator<[string, unknown]> {
    this.#all();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }
}

/** Ids left in a search of {@link SavedIds.find} below which their stretch of the text is read at once (at ~45 characters an id, a few kB). */
const SPAN_IDS = 64;
/** Probes {@link SavedIds.find} keeps, at most. */
const MAX_PROBES = 1024;

/** The memory ids of a saved state by short id (see `SavedState.ids`), read without making a string per id. */
export class SavedIds {
  constructor(
    /** In memory, or read by position from the state's file. */
    readonly text: string | TextSource,
    readonly ends: Uint32Array,
    readonly present: Uint8Array,
    /** The present short ids, sorted by their ids. */
    readonly order: Uint32Array,
  ) {}

  /** The id of short id `shortId` as saved, or undefined when none was. */
  at(shortId: number): string | undefined {
    if (this.present[shortId] !== 1) return undefined;
    return this.text.slice(shortId === 0 ? 0 : this.ends[shortId - 1]!, this.ends[shortId]!);
  }

  /** Ids cut out by {@link find}, by place in `order`: the first probes of every search are the same ones. */
  readonly #probes = new Map<number, string>();

  /**
   * The saved short id of `id`, by binary search over `order`. Each probe cuts an id out of
   * the text (a read of the file, when it is there); once the ids left are few and saved
   * side by side (a build saves them in id order), their stretch of the text is cut out
   * once and the search ends in it.
   */
  find(id: string): number | undefined {
    const order = this.order;
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      if (hi - lo < SPAN_IDS) {
        const found = this.#findInSpan(id, lo, hi);
        if (found !== null) return found;
      }
      const mid = (lo + hi) >>> 1;
      let probe = this.#probes.get(mid);
      if (probe === undefined) {
        const shortId = order[mid]!;
        probe = this.text.slice(shortId === 0 ? 0 : this.ends[shortId - 1]!, this.ends[shortId]!);
        if (this.#probes.size < MAX_PROBES) this.#probes.set(mid, probe);
      }
      if (probe === id) return order[mid]!;
      if (id < probe) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }

  /** {@link find} within places `lo` to `hi` of `order` when their short ids follow each other (their text is then one stretch), else null. */
  #findInSpan(id: string, lo: number, hi: number): number | undefined | null {
    const order = this.order;
    const first = order[lo]!;
    for (let k = lo + 1; k <= hi; k++) if (order[k] !== first + (k - lo)) return null;
    const start = first === 0 ? 0 : this.ends[first - 1]!;
    const span = this.text.slice(start, this.ends[order[hi]!]!);
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const shortId = order[mid]!;
      const probe = span.slice((shortId === 0 ? 0 : this.ends[shortId - 1]!) - start, this.ends[shortId]! - start);
      if (probe === id) return shortId;
      if (id < probe) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }

  /** The columns of `documentIds` (short id → id) for a state of `nextId` short ids. */
  static save(documentIds: Map<number, string>, nextId: number): NonNullable<SavedState['ids']> {
    const present = new Uint8Array(nextId);
    const ends = new Uint32Array(nextId);
    const parts: string[] = [];
    let end = 0;
    for (let shortId = 0; shortId < nextId; shortId++) {
      const id = documentIds.get(shortId);
      if (id !== undefined) {
        present[shortId] = 1;
        parts.push(id);
        end += id.length;
      }
      ends[shortId] = end;
    }
    const order = Uint32Array.from([...documentIds.keys()].filter((k) => k < nextId).sort((x, y) => {
      const a = documentIds.get(x)!;
      const b = documentIds.get(y)!;
      return a < b ? -1 : a > b ? 1 : 0;
    }));
    return { text: parts.join(''), ends, present, order };
  }
}

/**
 * MiniSearch's `_documentIds` (short id → memory id) over the saved columns: nothing is
 * built at load (100,000 ids made a Map of 100,000 strings), an id is cut out when read.
 * Anything that needs the whole Map (an iteration, its size) builds it once.
 */
export class LazyDocIds extends Map<number, string> {
  #saved: SavedIds | undefined;
  /** Changes since the load: an id, or `undefined` for a deleted short id. */
  readonly #changes = new Map<number, string | undefined>();

  constructor(saved: SavedIds) {
    super();
    this.#saved = saved;
  }

  #build(): void {
    const saved = this.#saved;
    if (saved === undefined) return;
    this.#saved = undefined;
    for (let shortId = 0; shortId < saved.present.length; shortId++) {
      if (saved.present[shortId] !== 1 || this.#changes.has(shortId)) continue;
      super.set(shortId, saved.at(shortId)!);
    }
    for (const [shortId, id] of this.#changes) if (id !== undefined) super.set(shortId, id);
    this.#changes.clear();
  }

  /** One byte per short id below `n`: 1 for a live document. */
  liveBits(n: number): Uint8Array {
    const live = new Uint8Array(n);
    if (this.#saved === undefined) {
      for (const shortId of super.keys()) if (shortId < n) live[shortId] = 1;
      return live;
    }
    live.set(this.#saved.present.subarray(0, n));
    for (const [shortId, id] of this.#changes) if (shortId < n) live[shortId] = id === undefined ? 0 : 1;
    return live;
  }

  override get size(): number {
    this.#build();
    return super.size;
  }
  override get(shortId: number): string | undefined {
    if (this.#saved === undefined) return super.get(shortId);
    return this.#changes.has(shortId) ? this.#changes.get(shortId) : this.#saved.at(shortId);
  }
  override has(shortId: number): boolean {
    return this.get(shortId) !== undefined;
  }
  override set(shortId: number, id: string): this {
    if (this.#saved === undefined) super.set(shortId, id);
    else this.#changes.set(shortId, id);
    return this;
  }
  override delete(shortId: number): boolean {
    if (this.#saved === undefined) return super.delete(shortId);
    const had = this.get(shortId) !== undefined;
    this.#changes.set(shortId, undefined);
    return had;
  }
  override clear(): void {
    this.#saved = undefined;
    this.#changes.clear();
    super.clear();
  }
  override forEach(fn: (value: string, key: number, map: Map<number, string>) => void, thisArg?: unknown): void {
    this.#build();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<number> {
    this.#build();
    return super.keys();
  }
  override values(): MapIterator<string> {
    this.#build();
    return super.values();
  }
  override entries(): MapIterator<[number, string]> {
    this.#build();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, string]> {
    return this.entries();
  }
}

/**
 * MiniSearch's `_idToShortId` (memory id → short id) over the saved ids: a lookup is a
 * binary search over the short ids sorted by id, and nothing is built at load. Changes are
 * kept beside the saved ids; anything that needs the whole Map (its size, an iteration)
 * builds it once.
 */
export class LazyIdMap extends Map<string, number> {
  #saved: SavedIds | undefined;
  /** Changes since the load: a short id, or `undefined` for a deleted id. */
  readonly #changes = new Map<string, number | undefined>();

  constructor(saved: SavedIds) {
    super();
    this.#saved = saved;
  }

  /**
   * Short ids found in the saved columns (which never change), `undefined` for ids not there:
   * replaying the journal asks for each of its memories two or three times (MiniSearch's
   * `has`, `discard`, `add`), a binary search each that cuts a dozen ids out of the file.
   */
  readonly #found = new Map<string, number | undefined>();

  #lookup(id: string): number | undefined {
    if (this.#changes.has(id)) return this.#changes.get(id);
    if (this.#found.has(id)) return this.#found.get(id);
    const shortId = this.#saved!.find(id);
    this.#found.set(id, shortId);
    return shortId;
  }

  #build(): void {
    const saved = this.#saved;
    if (saved === undefined) return;
    this.#saved = undefined;
    this.#found.clear();
    for (const shortId of saved.order) {
      const id = saved.at(shortId)!;
      if (!this.#changes.has(id)) super.set(id, shortId);
    }
    for (const [id, shortId] of this.#changes) if (shortId !== undefined) super.set(id, shortId);
    this.#changes.clear();
  }

  /**
   * The short id `id` has in the saved columns (-1: none), or `undefined` once the map was
   * built whole (it then holds the current ids, not the saved ones).
   */
  savedShortId(id: string): number | undefined {
    if (this.#saved === undefined) return undefined;
    if (!this.#found.has(id)) this.#found.set(id, this.#saved.find(id));
    return this.#found.get(id) ?? -1;
  }

  /** Remembers the short id `id` has in the saved columns (-1: none), as an earlier {@link savedShortId} gave it. */
  knowSaved(id: string, shortId: number): void {
    if (this.#saved !== undefined && (shortId === -1 || this.#saved.present[shortId] === 1)) this.#found.set(id, shortId === -1 ? undefined : shortId);
  }

  override get size(): number {
    this.#build();
    return super.size;
  }
  override get(id: string): number | undefined {
    return this.#saved === undefined ? super.get(id) : this.#lookup(id);
  }
  override has(id: string): boolean {
    return this.#saved === undefined ? super.has(id) : this.#lookup(id) !== undefined;
  }
  override set(id: string, shortId: number): this {
    if (this.#saved === undefined) super.set(id, shortId);
    else this.#changes.set(id, shortId);
    return this;
  }
  override delete(id: string): boolean {
    if (this.#saved === undefined) return super.delete(id);
    const had = this.#lookup(id) !== undefined;
    this.#changes.set(id, undefined);
    return had;
  }
  override clear(): void {
    this.#saved = undefined;
    this.#changes.clear();
    this.#found.clear();
    super.clear();
  }
  override forEach(fn: (value: number, key: string, map: Map<string, number>) => void, thisArg?: unknown): void {
    this.#build();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<string> {
    this.#build();
    return super.keys();
  }
  override values(): MapIterator<number> {
    this.#build();
    return super.values();
  }
  override entries(): MapIterator<[string, number]> {
    this.#build();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }
}

/**
 * MiniSearch's `_fieldLength` (short id → length of each field) over the saved flat
 * columns: a document's array is made when MiniSearch asks for it (and kept, since
 * MiniSearch updates it in place), and {@link lengthAt} reads a length without making it.
 */
export class LazyFieldLengths extends Map<number, number[]> {
  #values: NumberColumn<Uint32Array> | undefined;
  readonly #present: Uint8Array;
  readonly #fields: number;
  /** How many documents are still only in the columns; counted when first asked (a query never asks). */
  #pendingCount: number | undefined;

  constructor(saved: { fields: number; values: Uint32Array | NumberColumn<Uint32Array>; present: Uint8Array }) {
    super();
    this.#values = saved.values instanceof Uint32Array ? NumberColumn.of(saved.values) : saved.values;
    this.#present = saved.present;
    this.#fields = saved.fields;
  }

  get #pending(): number {
    if (this.#pendingCount === undefined) {
      let pending = 0;
      if (this.#values !== undefined) for (let i = 0; i < this.#present.length; i++) pending += this.#present[i]!;
      this.#pendingCount = pending;
    }
    return this.#pendingCount;
  }

  /** One document fewer only in the columns (its `present` entry was just cleared). */
  #taken(): void {
    if (this.#pendingCount !== undefined) this.#pendingCount--;
  }

  /** Moves document `id`'s lengths from the columns into the Map. */
  #take(id: number): number[] | undefined {
    if (this.#values === undefined || this.#present[id] !== 1) return undefined;
    this.#present[id] = 0;
    this.#taken();
    const values: number[] = [];
    this.#values.getRun(id * this.#fields, this.#fields, values);
    const lengths: number[] = [];
    for (let f = 0; f < this.#fields; f++) if (values[f] !== MISSING_LENGTH) lengths[f] = values[f]!;
    super.set(id, lengths);
    return lengths;
  }

  #takeAll(): void {
    if (this.#values === undefined) return;
    for (let id = 0; id < this.#present.length; id++) if (this.#present[id] === 1) this.#take(id);
    this.#values = undefined;
  }

  /**
   * The columns while documents are still only in them: a document `id` with
   * `present[id] === 1` has field `f`'s length at `values[id * fields + f]` ({@link MISSING_LENGTH}
   * when none); any other document's lengths are in the Map ({@link lengthAt}). `values` holds
   * `fields × present.length` of them.
   */
  columns(): { values: NumberColumn<Uint32Array>; present: Uint8Array; fields: number } | undefined {
    return this.#values === undefined ? undefined : { values: this.#values, present: this.#present, fields: this.#fields };
  }

  /** The length of field `fieldId` of document `id` (NaN when it has none), without making its array. */
  lengthAt(id: number, fieldId: number): number {
    if (this.#values !== undefined && this.#present[id] === 1) {
      const v = this.#values.get(id * this.#fields + fieldId);
      return v === MISSING_LENGTH ? Number.NaN : v;
    }
    return super.get(id)?.[fieldId] ?? Number.NaN;
  }

  override get size(): number {
    return super.size + this.#pending;
  }
  override get(id: number): number[] | undefined {
    return super.get(id) ?? this.#take(id);
  }
  override has(id: number): boolean {
    return super.has(id) || (this.#values !== undefined && this.#present[id] === 1);
  }
  override set(id: number, lengths: number[]): this {
    if (this.#values !== undefined && this.#present[id] === 1) {
      this.#present[id] = 0;
      this.#taken();
    }
    return super.set(id, lengths);
  }
  override delete(id: number): boolean {
    let had = false;
    if (this.#values !== undefined && this.#present[id] === 1) {
      this.#present[id] = 0;
      this.#taken();
      had = true;
    }
    return super.delete(id) || had;
  }
  override clear(): void {
    this.#values = undefined;
    this.#pendingCount = 0;
    super.clear();
  }
  override forEach(fn: (value: number[], key: number, map: Map<number, number[]>) => void, thisArg?: unknown): void {
    this.#takeAll();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<number> {
    this.#takeAll();
    return super.keys();
  }
  override values(): MapIterator<number[]> {
    this.#takeAll();
    return super.values();
  }
  override entries(): MapIterator<[number, number[]]> {
    this.#takeAll();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, number[]]> {
    return this.entries();
  }
}

/** `_fieldLength` as the columns {@link LazyFieldLengths} reads; undefined when a length does not fit. */
function lengthColumns(fieldLength: Map<number, number[]>, fields: number, nextId: number): SavedState['lengths'] {
  const values = new Uint32Array(nextId * fields).fill(MISSING_LENGTH);
  const present = new Uint8Array(nextId);
  for (const [id, lengths] of fieldLength) {
    if (!Number.isInteger(id) || id < 0 || id >= nextId) return undefined;
    present[id] = 1;
    for (let f = 0; f < lengths.length; f++) {
      const v = lengths[f];
      if (v === undefined) continue;
      if (!Number.isInteger(v) || v < 0 || v >= MISSING_LENGTH) return undefined;
      values[id * fields + f] = v;
    }
  }
  return { fields, values, present };
}

/**
 * Where loaded terms read their packed postings: the whole array in memory, or the state's
 * file, read term by term (see {@link openSearchState}).
 */
export interface PostingsSource {
  /** The packed postings of the term at `offset`: an array holding them, and where they start in it. */
  read(offset: number): { packed: Uint32Array; offset: number };
  /** The term's largest number of documents in one field, when known without reading its postings. */
  count?(offset: number): number | undefined;
  /** The term's documents per field, `[fieldId, count]`, read without its postings (headers only). */
  fieldCounts?(offset: number): [number, number][] | undefined;
  /** The length in words of the term's packed postings, when known without reading them. */
  words?(offset: number): number | undefined;
  /** Reads the term's packed postings into the start of `into` (at least {@link words} long). */
  readInto?(offset: number, into: Uint32Array): void;
}

/** Postings held in one array (a state loaded from bytes). */
class ArrayPostings implements PostingsSource {
  constructor(private readonly packed: Uint32Array) {}
  read(offset: number): { packed: Uint32Array; offset: number } {
    return { packed: this.packed, offset };
  }
}

/** The index of `offset` in the ascending `offsets`, or -1. */
function offsetIndex(offsets: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = offsets[mid]!;
    if (v === offset) return mid;
    if (v < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Postings read from the state's file, one term at a time, by position: opening an index of
 * 100,000 memories reads none of its tens of megabytes of postings, a query those of the
 * terms it touches. The file stays open while the state lives (a replaced file is still
 * read as it was: renaming over it does not change what the descriptor reads).
 */
class FilePostings implements PostingsSource {
  constructor(
    /** Held open while the postings (and the ids' text, which reads the same file) may be read. */
    private readonly file: OpenFile,
    /** Byte position of the postings in the file. */
    private readonly start: number,
    private readonly offsets: Uint32Array,
    private readonly counts: Uint32Array | undefined,
  ) {}

  read(offset: number): { packed: Uint32Array; offset: number } {
    const i = offsetIndex(this.offsets, offset);
    if (i < 0) throw new RangeError(`no term's postings start at ${offset}`);
    const packed = new Uint32Array(this.offsets[i + 1]! - offset);
    if (readInto(this.file.fd, packed, this.start + offset * 4) !== packed.byteLength) throw new RangeError('the search state file is shorter than its postings');
    return { packed, offset: 0 };
  }

  words(offset: number): number | undefined {
    const i = offsetIndex(this.offsets, offset);
    return i < 0 ? undefined : this.offsets[i + 1]! - offset;
  }

  readInto(offset: number, into: Uint32Array): void {
    const words = this.words(offset);
    if (words === undefined) throw new RangeError(`no term's postings start at ${offset}`);
    if (into.length < words) throw new RangeError(`${words} words of postings do not fit in ${into.length}`);
    if (readInto(this.file.fd, into.subarray(0, words), this.start + offset * 4) !== words * 4) throw new RangeError('the search state file is shorter than its postings');
  }

  count(offset: number): number | undefined {
    if (this.counts === undefined) return undefined;
    const i = offsetIndex(this.offsets, offset);
    return i < 0 ? undefined : this.counts[i];
  }

  fieldCounts(offset: number): [number, number][] | undefined {
    const i = offsetIndex(this.offsets, offset);
    if (i < 0) return undefined;
    const end = this.offsets[i + 1]!;
    const words = new Uint32Array(2);
    const read = (at: number, n: number): void => {
      if (at + n > end || readInto(this.file.fd, words.subarray(0, n), this.start + at * 4) !== n * 4) throw new RangeError('the search state file is shorter than its postings');
    };
    read(offset, 1);
    const fields = words[0]!;
    const out: [number, number][] = [];
    for (let f = 0, at = offset + 1; f < fields; f++) {
      read(at, 2);
      out.push([words[0]!, words[1]!]);
      at += 2 + 2 * words[1]!;
    }
    return out;
  }
}

/**
 * A term's postings (field id → document short id → term frequency) that unpack on first
 * use. Until then it holds where its packed postings are:
 * `[fieldCount, (fieldId, docCount, (docId, freq) × docCount) × fieldCount]`, read when first
 * needed, and the postings of documents added since the load ({@link addAnalyzed}) beside
 * it, so that adding a memory to a loaded index does not unpack every term it contains.
 * Every Map method unpacks first, so MiniSearch reads and updates it as an ordinary Map.
 */
export class LazyTermData extends Map<number, Map<number, number>> {
  #source: PostingsSource | undefined;
  readonly #offset: number;
  /** The packed postings once read from the source. */
  #view: { packed: Uint32Array; offset: number } | undefined;
  /** Postings added while packed (documents added after the load: never in the source). */
  #added: Map<number, Map<number, number>> | undefined;
  /** `#added` packed, for readers; cleared when a posting is added. */
  #addedPacked: Uint32Array | undefined;

  constructor(source: PostingsSource | Uint32Array, offset: number) {
    super();
    this.#source = source instanceof Uint32Array ? new ArrayPostings(source) : source;
    this.#offset = offset;
  }

  /** The packed postings while still packed (read from the source on first use). */
  #packed(): { packed: Uint32Array; offset: number } | undefined {
    if (this.#source === undefined) return undefined;
    return (this.#view ??= this.#source.read(this.#offset));
  }

  /**
   * The packed array and this term's offset in it, while still packed (a reader that walks
   * the postings itself need not unpack them), with the postings added since the load packed
   * the same way in `added` (their documents follow those of `packed`, in each field);
   * `undefined` once unpacked.
   */
  packedAt(): { packed: Uint32Array; offset: number; added: Uint32Array | undefined } | undefined {
    const view = this.#packed();
    if (view === undefined) return undefined;
    if (this.#added !== undefined && this.#addedPacked === undefined) this.#addedPacked = packMap(this.#added);
    return { packed: view.packed, offset: view.offset, added: this.#addedPacked };
  }

  /**
   * While the packed postings are in the file and not read yet: their length in words and a
   * reader that puts them (laid out as {@link packedAt}'s, from index 0) into the caller's
   * array, such as a kernel's memory, so that a query reads them into no array of their own;
   * with the postings added since the load, packed. `undefined` once read or unpacked, or
   * when the source cannot read by length.
   */
  unread(): { words: number; readInto(into: Uint32Array): void; added: Uint32Array | undefined } | undefined {
    const source = this.#source;
    if (source === undefined || this.#view !== undefined || source.words === undefined || source.readInto === undefined) return undefined;
    const offset = this.#offset;
    const words = source.words(offset);
    if (words === undefined) return undefined;
    if (this.#added !== undefined && this.#addedPacked === undefined) this.#addedPacked = packMap(this.#added);
    return { words, readInto: (into) => source.readInto!(offset, into), added: this.#addedPacked };
  }

  /**
   * Counts one more occurrence of the term in `fieldId` of document `doc`, as MiniSearch's
   * `addTerm` does, without unpacking. Only for a document added after the load, whose
   * short id the packed postings cannot hold.
   */
  addPosting(fieldId: number, doc: number): void {
    if (this.#source === undefined) {
      let docs = super.get(fieldId);
      if (docs === undefined) super.set(fieldId, (docs = new Map()));
      docs.set(doc, (docs.get(doc) ?? 0) + 1);
      return;
    }
    this.#added ??= new Map();
    let docs = this.#added.get(fieldId);
    if (docs === undefined) this.#added.set(fieldId, (docs = new Map()));
    docs.set(doc, (docs.get(doc) ?? 0) + 1);
    this.#addedPacked = undefined;
  }

  #unpack(): void {
    const view = this.#packed();
    if (view === undefined) return;
    this.#source = undefined;
    this.#view = undefined;
    const p = view.packed;
    let i = view.offset;
    const fields = p[i++]!;
    for (let f = 0; f < fields; f++) {
      const fieldId = p[i++]!;
      const count = p[i++]!;
      const docs = new Map<number, number>();
      for (let d = 0; d < count; d++, i += 2) docs.set(p[i]!, p[i + 1]!);
      super.set(fieldId, docs);
    }
    const added = this.#added;
    this.#added = undefined;
    this.#addedPacked = undefined;
    if (added === undefined) return;
    // In MiniSearch's order: a field already listed keeps its place, the new documents last.
    for (const [fieldId, docs] of added) {
      const existing = super.get(fieldId);
      if (existing === undefined) super.set(fieldId, docs);
      else for (const [doc, freq] of docs) existing.set(doc, (existing.get(doc) ?? 0) + freq);
    }
  }

  /**
   * The largest number of documents listed under one field, read without unpacking
   * (discarded documents not yet swept out included, as in the unpacked Maps); from the
   * saved counts when nothing was added, without reading the postings at all.
   */
  maxFieldCount(): number {
    if (this.#source === undefined) {
      let max = 0;
      for (const docs of super.values()) max = Math.max(max, docs.size);
      return max;
    }
    if (this.#view === undefined) {
      if (this.#added === undefined) {
        const known = this.#source.count?.(this.#offset);
        if (known !== undefined) return known;
      }
      // Documents added since the load: the saved counts per field, from the postings'
      // headers (a few words), not the postings (megabytes for a common word at 100,000).
      const counts = this.#source.fieldCounts?.(this.#offset);
      if (counts !== undefined) {
        let max = 0;
        for (const [field, count] of counts) max = Math.max(max, count + (this.#added?.get(field)?.size ?? 0));
        if (this.#added) for (const docs of this.#added.values()) max = Math.max(max, docs.size);
        return max;
      }
    }
    const { packed: p, offset } = this.#packed()!;
    let i = offset;
    const fields = p[i++]!;
    let max = 0;
    for (let f = 0; f < fields; f++) {
      const count = p[i + 1]!;
      max = Math.max(max, count + (this.#added?.get(p[i]!)?.size ?? 0));
      i += 2 + 2 * count;
    }
    if (this.#added) for (const docs of this.#added.values()) max = Math.max(max, docs.size);
    return max;
  }

  /** Appends this term's packed form to `out` (copied as is while still packed). */
  packInto(out: PackedWriter): number {
    if (this.#source === undefined || this.#added !== undefined) return out.packMap(this);
    const { packed: p, offset } = this.#packed()!;
    let end = offset;
    const fields = p[end++]!;
    for (let f = 0; f < fields; f++) end += 2 + 2 * p[end + 1]!;
    return out.copy(p, offset, end);
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
    this.#source = undefined;
    this.#view = undefined;
    this.#added = undefined;
    this.#addedPacked = undefined;
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

/** A term's postings packed as the shared array packs them (for postings held in Maps). */
export function packMap(data: TermData): Uint32Array {
  let size = 1;
  for (const docs of data.values()) size += 2 + 2 * docs.size;
  const out = new Uint32Array(size);
  let i = 0;
  out[i++] = data.size;
  for (const [fieldId, docs] of data) {
    out[i++] = fieldId;
    out[i++] = docs.size;
    for (const [doc, freq] of docs) {
      out[i++] = doc;
      out[i++] = freq;
    }
  }
  return out;
}

/** A document analysed as MiniSearch's `add` analyses it: per field (in the index's field order), its terms. */
export interface AnalyzedDoc {
  id: string;
  /** `null` for a field the document has no value for. */
  fields: (AnalyzedField | null)[];
}

export interface AnalyzedField {
  /** Distinct tokens before term processing (MiniSearch's field length). */
  unique: number;
  /** The processed terms, in order, repeats included (stop words dropped). */
  terms: string[];
}

/** What analysing a document needs: MiniSearch's options of the same names (plain string fields). */
export interface Analyzer {
  fields: readonly string[];
  idField: string;
  tokenize: (text: string, field?: string) => string[];
  processTerm: (term: string, field?: string) => string | readonly string[] | null | undefined | false;
}

/**
 * Analyses `doc` as `MiniSearch.add` would with these options (default field extraction
 * and stringification), so that {@link addAnalyzed} can add it later without analysing it
 * again: the index's journal keeps memories this way.
 *
 * @example
 * const analyzed = analyzeDocument({ id: 'a', text: 'Chose SQLite' }, { fields: ['text'], idField: 'id', tokenize, processTerm });
 */
export function analyzeDocument(doc: Record<string, unknown>, analyzer: Analyzer): AnalyzedDoc {
  const fields = analyzer.fields.map((field): AnalyzedField | null => {
    const value = doc[field];
    if (value == null) return null;
    const tokens = analyzer.tokenize(String(value), field);
    const terms: string[] = [];
    for (const token of tokens) {
      const processed = analyzer.processTerm(token, field);
      if (typeof processed === 'string') {
        if (processed !== '') terms.push(processed);
      } else if (processed) {
        terms.push(...processed);
      }
    }
    return { unique: new Set(tokens).size, terms };
  });
  return { id: String(doc[analyzer.idField]), fields };
}

/** MiniSearch's methods that {@link addAnalyzed} calls in place of `add`. */
interface AnalyzedAdder {
  addDocumentId?: (id: string) => number;
  addFieldLength?: (shortId: number, fieldId: number, count: number, length: number) => void;
  _idToShortId?: Map<string, number>;
  _fieldIds?: Record<string, number>;
  _documentCount?: number;
  _options?: { fields?: string[]; storeFields?: string[] };
  _index?: { fetch?: (term: string, make: () => TermData) => TermData };
}

/**
 * Adds a document analysed by {@link analyzeDocument} (with this index's options) as
 * `MiniSearch.add` adds it, the analysis skipped and loaded terms left packed. Returns
 * false, changing nothing, when MiniSearch's internals are not the expected ones.
 * `terms` caches the tree's term data across calls (a replay adds many documents that
 * share terms): pass the same Map to consecutive calls on one index, and nothing else.
 */
export function addAnalyzed(ms: MiniSearch, doc: AnalyzedDoc, terms: Map<string, TermData> = new Map()): boolean {
  const m = ms as unknown as AnalyzedAdder;
  const fields = m._options?.fields;
  if (
    typeof m.addDocumentId !== 'function' ||
    typeof m.addFieldLength !== 'function' ||
    typeof m._index?.fetch !== 'function' ||
    !(m._idToShortId instanceof Map) ||
    typeof m._documentCount !== 'number' ||
    typeof m._fieldIds !== 'object' ||
    !Array.isArray(fields) ||
    fields.length !== doc.fields.length ||
    (m._options?.storeFields?.length ?? 0) > 0
  ) {
    return false;
  }
  if (m._idToShortId.has(doc.id)) throw new Error(`MiniSearch: duplicate ID ${doc.id}`);
  const index = m._index;
  const shortId = m.addDocumentId.call(ms, doc.id);
  fields.forEach((field, i) => {
    const analyzed = doc.fields[i];
    if (!analyzed) return;
    const fieldId = m._fieldIds![field]!;
    m.addFieldLength!.call(ms, shortId, fieldId, m._documentCount! - 1, analyzed.unique);
    for (const term of analyzed.terms) {
      let data = terms.get(term);
      if (data === undefined) terms.set(term, (data = index.fetch!(term, () => new Map())));
      if (data instanceof LazyTermData) {
        data.addPosting(fieldId, shortId);
        continue;
      }
      // MiniSearch's addTerm, on the term data already found.
      const docs = data.get(fieldId);
      if (docs === undefined) data.set(fieldId, new Map([[shortId, 1]]));
      else docs.set(shortId, (docs.get(shortId) ?? 0) + 1);
    }
  });
  return true;
}

function isAnalyzedField(value: unknown): value is AnalyzedField | null {
  const f = value as AnalyzedField | null;
  return f === null || (typeof f === 'object' && typeof f.unique === 'number' && Array.isArray(f.terms) && f.terms.every((t) => typeof t === 'string'));
}

/** True when `value` is an {@link AnalyzedDoc} (as read back from a file). */
export function isAnalyzedDoc(value: unknown): value is AnalyzedDoc {
  const d = value as AnalyzedDoc;
  return typeof d === 'object' && d !== null && typeof d.id === 'string' && Array.isArray(d.fields) && d.fields.every(isAnalyzedField);
}

/** A growable Uint32Array that packed postings are appended to. */
export class PackedWriter {
  private buf = new Uint32Array(1 << 16);
  length = 0;
  /** Where each term written starts, in order, and its largest number of documents in one field. */
  readonly starts: number[] = [];
  readonly counts: number[] = [];

  /** Records the term just written at `offset` (see `starts`, `counts`); returns `offset`. */
  term(offset: number): number {
    const b = this.buf;
    let i = offset;
    const fields = b[i++]!;
    let max = 0;
    for (let f = 0; f < fields; f++) {
      const count = b[i + 1]!;
      if (count > max) max = count;
      i += 2 + 2 * count;
    }
    this.starts.push(offset);
    this.counts.push(max);
    return offset;
  }

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

/** A copy of the radix tree whose values are offsets of their postings packed into `out` (`source` reads leaves still saved as offsets). */
function packTree(node: Tree, out: PackedWriter, source: PostingsSource | undefined): Tree {
  const copy: Tree = new Map();
  for (const [key, value] of node) {
    if (key === LEAF) {
      const data = typeof value === 'number' ? new LazyTermData(source!, value) : value;
      copy.set(LEAF, out.term(data instanceof LazyTermData ? data.packInto(out) : out.packMap(data as TermData)));
    } else {
      copy.set(key, packTree(value as Tree, out, source));
    }
  }
  return copy;
}

/**
 * MiniSearch's term index over a loaded tree whose leaves are still the offsets of their
 * postings: a term becomes a {@link LazyTermData} when a query or an update reaches it, so
 * opening an index makes nothing per term (a real vocabulary of 100,000 terms made 100,000
 * Maps at every start). Reads through a prefix view or fuzzy matching wrap a term for that
 * read; `get` and `fetch` keep the wrapper in the tree (it may then gather postings).
 */
export class PackedIndex extends SearchableMap<TermData> {
  constructor(
    tree: Tree,
    prefix: string,
    readonly source: PostingsSource,
  ) {
    super(tree as never, prefix);
  }

  #wrap(value: unknown): TermData | undefined {
    return typeof value === 'number' ? new LazyTermData(this.source, value) : (value as TermData | undefined);
  }

  override get(key: string): TermData | undefined {
    const value = super.get(key) as unknown;
    if (typeof value !== 'number') return value as TermData | undefined;
    const data = new LazyTermData(this.source, value);
    if (this._prefix === '') super.set(key, data);
    return data;
  }

  override fetch(key: string, initial: () => TermData): TermData {
    const value = super.get(key) as unknown;
    if (typeof value === 'number' && this._prefix === '') super.set(key, new LazyTermData(this.source, value));
    return super.fetch(key, initial);
  }

  override atPrefix(prefix: string): SearchableMap<TermData> {
    const view = super.atPrefix(prefix);
    return new PackedIndex(view._tree as never, view._prefix, this.source);
  }

  override fuzzyGet(key: string, maxEditDistance: number): Map<string, [TermData, number]> {
    const out = new Map<string, [TermData, number]>();
    for (const [term, [value, distance]] of super.fuzzyGet(key, maxEditDistance)) out.set(term, [this.#wrap(value)!, distance]);
    return out;
  }

  // Iterations wrap the leaves they yield (typed as the base class's tree iterators, which
  // callers only iterate).
  // Over the whole tree (a vacuum walks it and updates what it finds) the wrapper is kept.
  *#wrapped(): Generator<[string, TermData]> {
    for (const [term, value] of super.entries()) {
      const data = this.#wrap(value)!;
      if (data !== value && this._prefix === '') super.set(term, data);
      yield [term, data];
    }
  }

  override entries(): ReturnType<SearchableMap<TermData>['entries']> {
    return this.#wrapped() as never;
  }

  override values(): ReturnType<SearchableMap<TermData>['values']> {
    const entries = this.#wrapped();
    return (function* () {
      for (const [, value] of entries) yield value;
    })() as never;
  }

  override forEach(fn: (key: string, value: TermData, map: SearchableMap<TermData>) => void): void {
    for (const [term, value] of this.#wrapped()) fn(term, value, this as never);
  }

  override [Symbol.iterator](): ReturnType<SearchableMap<TermData>['entries']> {
    return this.entries();
  }
}

/**
 * Checks that a saved tree's leaves are offsets below `length`; false if the tree is not one.
 * `forEach`, not `for … of`: it runs once per process, before V8 has compiled anything of
 * it, and the interpreter walks a Map's entries through the iterator protocol three times
 * slower than the built-in loop (8 ms for the 8,000 nodes of a 100,000-memory index).
 */
export function checkTree(node: Map<string, unknown>, length: number): boolean {
  let ok = true;
  const visit = (value: unknown, key: string): void => {
    if (!ok) return;
    if (key === LEAF) {
      if (typeof value !== 'number' || value >= length) ok = false;
    } else if (!(value instanceof Map)) {
      ok = false;
    } else {
      (value as Tree).forEach(visit);
    }
  };
  node.forEach(visit);
  return ok;
}


/**
 * The first bytes of a saved state: then the state's length (u32 LE), the state, padding to 4
 * bytes, the postings, and the columns of ids and field lengths as raw bytes (see
 * {@link RawColumns}), which a query reads without a deserializer. 3: those columns raw.
 */
const STATE_MAGIC = Buffer.from('CXS\u0003', 'latin1');

/** Where the postings start after a state of `length` bytes. */
const postingsStart = (length: number) => (8 + length + 3) & ~3;

/**
 * The columns of `SavedState.ids` and `.lengths`, written after the postings in this order,
 * each padded to 4 bytes: the ids' text (one byte per character when every one fits, else
 * UTF-16), their ends, which short ids have one, the short ids in id order, the field
 * lengths, which short ids have them. The state itself says how long each is.
 */
interface RawColumns {
  encoding: 'latin1' | 'utf16le';
  /** The ids' text, in UTF-16 code units. */
  chars: number;
  /** Short ids with a slot (`ends` and `present` hold one entry each). */
  slots: number;
  /** Short ids in `order`. */
  ordered: number;
  fields: number;
  /** Short ids with a slot in the lengths. */
  lengthSlots: number;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** The byte lengths of the raw columns, in file order. */
function rawSizes(raw: RawColumns): number[] {
  const width = raw.encoding === 'latin1' ? 1 : 2;
  return [raw.chars * width, 4 * raw.slots, raw.slots, 4 * raw.ordered, 4 * raw.fields * raw.lengthSlots, raw.lengthSlots];
}

function isRawColumns(value: unknown): value is RawColumns {
  const r = value as RawColumns;
  return (
    typeof r === 'object' &&
    r !== null &&
    (r.encoding === 'latin1' || r.encoding === 'utf16le') &&
    [r.chars, r.slots, r.ordered, r.fields, r.lengthSlots].every((n) => Number.isInteger(n) && n >= 0)
  );
}

/**
 * Serializes an index to bytes: the state without the postings (tree, ids, lengths), then
 * the postings as raw 32-bit words, so that {@link openSearchState} reads the state and no
 * posting.
 *
 * @example
 * const bytes = saveSearchState(index); // later: loadSearchState(bytes, options)
 */
export function saveSearchState(ms: MiniSearch): Buffer {
  let state: SavedState | undefined;
  let postings: Uint32Array = new Uint32Array(0);
  if (hasInternals(ms)) {
    const m = ms as unknown as Internals;
    const fieldCount = Object.keys(m._fieldIds as object).length;
    const lengths = lengthColumns(m._fieldLength as Map<number, number[]>, fieldCount, m._nextId as number);
    if (lengths) {
      const fields: Record<string, unknown> = {};
      for (const f of PLAIN_FIELDS) fields[f] = m[f];
      const out = new PackedWriter();
      const index = m._index as unknown;
      const tree = packTree(m._index!._tree as Tree, out, index instanceof PackedIndex ? index.source : undefined);
      postings = out.result();
      const ids = SavedIds.save(m._documentIds as Map<number, string>, m._nextId as number);
      const termOffsets = Uint32Array.from([...out.starts, postings.length]);
      state = { kind: 'packed', documentCount: ms.documentCount, tree, postingsLength: postings.length, termOffsets, termCounts: Uint32Array.from(out.counts), fields, ids, lengths };
    }
  }
  state ??= { kind: 'json', documentCount: ms.documentCount, json: ms.toJSON() };
  return encodeState(state, postings);
}

/** The bytes of a saved state and its postings (see {@link saveSearchState}). */
export function encodeState(state: SavedState, postings: Uint32Array): Buffer {
  const { head, columns } = stateParts(state);
  let size = head.length + postings.byteLength;
  for (const part of columns) size += pad4(part.length);
  const bytes = Buffer.alloc(size);
  head.copy(bytes, 0);
  Buffer.from(postings.buffer, postings.byteOffset, postings.byteLength).copy(bytes, head.length);
  let at = head.length + postings.byteLength;
  for (const part of columns) {
    bytes.set(part, at);
    at += pad4(part.length);
  }
  return bytes;
}

/**
 * The bytes of a saved state around its postings, for a writer that streams the postings
 * (see `PackedBuilder.encodeTo`): `head` goes before them (magic, length, state, padding),
 * `columns` after them (the raw columns of ids and field lengths, see {@link RawColumns}),
 * each padded to 4 bytes as {@link writeColumns} writes them. {@link encodeState} writes the same.
 */
export function stateParts(state: SavedState): { head: Buffer; columns: Uint8Array[] } {
  const { ids, lengths, tree, ...others } = state;
  // The tree is saved as columns (see TreeColumns).
  const rest: Omit<SavedState, 'ids' | 'lengths'> = tree ? { ...others, treeColumns: treeColumnsOf(tree) } : others;
  const columns: Uint8Array[] = [];
  let serialized: Buffer;
  if (ids && lengths && typeof ids.text === 'string') {
    const encoding = /[^\u0000-\u00ff]/.test(ids.text) ? 'utf16le' : 'latin1';
    const raw: RawColumns = { encoding, chars: ids.text.length, slots: ids.ends.length, ordered: ids.order.length, fields: lengths.fields, lengthSlots: lengths.present.length };
    serialized = serialize({ ...rest, raw });
    const bytesOf = (a: Uint32Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    columns.push(Buffer.from(ids.text, encoding), bytesOf(ids.ends), bytesOf(ids.present), bytesOf(ids.order), bytesOf(lengths.values instanceof Uint32Array ? lengths.values : lengths.values.whole()), bytesOf(lengths.present));
  } else {
    serialized = serialize({ ...rest, ...(ids ? { ids } : {}), ...(lengths ? { lengths } : {}) });
  }
  const head = Buffer.alloc(postingsStart(serialized.length));
  STATE_MAGIC.copy(head, 0);
  head.writeUInt32LE(serialized.length, 4);
  serialized.copy(head, 8);
  return { head, columns };
}

/** Writes the `columns` of {@link stateParts} to `out`, each padded to 4 bytes with zeros. */
export function writeColumns(columns: readonly Uint8Array[], out: { write(bytes: Uint8Array): void }): void {
  for (const part of columns) {
    out.write(part);
    if (pad4(part.length) > part.length) out.write(new Uint8Array(pad4(part.length) - part.length));
  }
}

/** The saved state in `head`, checked, or undefined. */
function parseState(head: Uint8Array): (SavedState & { raw?: RawColumns }) | undefined {
  let state: SavedState & { raw?: RawColumns };
  try {
    state = deserialize(head) as SavedState & { raw?: RawColumns };
  } catch {
    return undefined;
  }
  if (typeof state !== 'object' || state === null || typeof state.documentCount !== 'number') return undefined;
  if (state.raw !== undefined && !isRawColumns(state.raw)) return undefined;
  return state;
}

/**
 * Puts the raw columns back into the state (`SavedState.ids` and `.lengths`): `read(offset,
 * length)` gives the bytes at `offset` after the postings, and `text` the ids' text.
 */
function withColumns(
  state: SavedState & { raw?: RawColumns },
  read: <T extends Uint8Array | Uint32Array>(offset: number, into: T) => T,
  text: (offset: number, raw: RawColumns) => string | TextSource,
  /** A column of 32-bit values left where it is (the file) until asked for; read by default. */
  column: (offset: number, count: number) => Uint32Array | NumberColumn<Uint32Array> = (offset, count) => read(offset, new Uint32Array(count)),
): SavedState {
  const raw = state.raw;
  if (raw === undefined) return state;
  const sizes = rawSizes(raw);
  const offsets: number[] = [];
  let at = 0;
  for (const size of sizes) {
    offsets.push(at);
    at += pad4(size);
  }
  const u32 = (k: number) => read(offsets[k]!, new Uint32Array(sizes[k]! / 4));
  const u8 = (k: number) => read(offsets[k]!, new Uint8Array(sizes[k]!));
  return {
    ...state,
    ids: { text: text(offsets[0]!, raw), ends: u32(1), present: u8(2), order: u32(3) },
    // The lengths (2.4 MB at 100,000 memories) are read by a query straight into its kernel's memory.
    lengths: { fields: raw.fields, values: column(offsets[4]!, sizes[4]! / 4), present: u8(5) },
  };
}

/** The bytes of the raw columns (see {@link RawColumns}) of a state, 0 without them. */
function rawBytes(state: { raw?: RawColumns }): number {
  return state.raw === undefined ? 0 : rawSizes(state.raw).reduce((n, size) => n + pad4(size), 0);
}

/** A MiniSearch over a saved state whose postings `source` reads, or undefined when the state is not usable. */
function restore(state: SavedState, source: (offsets: Uint32Array, counts: Uint32Array | undefined) => PostingsSource, options: Options): MiniSearch | undefined {
  try {
    if (state.kind === 'json') {
      const ms = MiniSearch.loadJS(state.json as never, options);
      return ms.documentCount === state.documentCount ? ms : undefined;
    }
    if (state.kind !== 'packed' || typeof state.postingsLength !== 'number' || !state.fields) return undefined;
    const { ids, lengths, termOffsets, termCounts } = state;
    if (!(termOffsets instanceof Uint32Array) || termOffsets.length === 0 || termOffsets[termOffsets.length - 1] !== state.postingsLength) return undefined;
    if (termCounts !== undefined && (!(termCounts instanceof Uint32Array) || termCounts.length !== termOffsets.length - 1)) return undefined;
    if (!ids || (typeof ids.text !== 'string' && typeof ids.text?.slice !== 'function') || !(ids.ends instanceof Uint32Array) || !(ids.present instanceof Uint8Array) || !(ids.order instanceof Uint32Array)) return undefined;
    if (ids.ends.length !== ids.present.length || (ids.ends.length > 0 && ids.ends[ids.ends.length - 1] !== ids.text.length)) return undefined;
    if (!lengths || !(lengths.present instanceof Uint8Array)) return undefined;
    if (lengths.values instanceof Uint32Array ? lengths.values.length !== lengths.fields * lengths.present.length : !(lengths.values instanceof NumberColumn)) return undefined;
    // Columns (as saved now), or Maps (a file of an earlier version).
    const tree = state.treeColumns !== undefined ? treeOfColumns(state.treeColumns, state.postingsLength) : state.tree instanceof Map && checkTree(state.tree, state.postingsLength) ? state.tree : undefined;
    if (tree === undefined) return undefined;
    const ms = new MiniSearch(options);
    if (!hasInternals(ms)) return undefined;
    const m = ms as unknown as Internals;
    for (const f of PLAIN_FIELDS) {
      if (!(f in state.fields)) return undefined;
      (m as Record<string, unknown>)[f] = state.fields[f];
    }
    if (lengths.present.length !== m._nextId || ids.present.length !== m._nextId || lengths.fields !== Object.keys(m._fieldIds as object).length) return undefined;
    const saved = new SavedIds(ids.text, ids.ends, ids.present, ids.order);
    m._documentIds = new LazyDocIds(saved);
    m._idToShortId = new LazyIdMap(saved);
    m._fieldLength = new LazyFieldLengths(lengths);
    (m as { _index?: unknown })._index = new PackedIndex(tree, '', source(termOffsets, termCounts)) as unknown;
    return ms.documentCount === state.documentCount ? ms : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The short id memory `id` has in the saved state `ms` was opened from (-1: none), or
 * `undefined` when that is no longer known (`ms` was built, or its ids were built whole).
 */
export function savedShortIdOf(ms: MiniSearch, id: string): number | undefined {
  const map = (ms as unknown as Internals)._idToShortId;
  return map instanceof LazyIdMap ? map.savedShortId(id) : undefined;
}

/** Tells the opened state `ms` the saved short ids of `known` (from {@link savedShortIdOf}), so it need not look for them. */
export function knowSavedShortIds(ms: MiniSearch, known: ReadonlyMap<string, number>): void {
  const map = (ms as unknown as Internals)._idToShortId;
  if (map instanceof LazyIdMap) for (const [id, shortId] of known) map.knowSaved(id, shortId);
}

/**
 * Restores an index saved by `saveSearchState`, or returns `undefined` when the bytes are
 * not a usable state (truncated, another format, another MiniSearch).
 */
export function loadSearchState(bytes: Buffer, options: Options): MiniSearch | undefined {
  if (bytes.length < 8 || !bytes.subarray(0, 4).equals(STATE_MAGIC)) return undefined;
  const length = bytes.readUInt32LE(4);
  if (8 + length > bytes.length) return undefined;
  const parsed = parseState(bytes.subarray(8, 8 + length));
  if (!parsed) return undefined;
  const start = postingsStart(length);
  const words = parsed.postingsLength ?? 0;
  if (parsed.kind === 'packed' && start + words * 4 + rawBytes(parsed) !== bytes.length) return undefined;
  const after = start + words * 4;
  const state = withColumns(
    parsed,
    (offset, into) => {
      // Copied into aligned arrays (a Buffer may start anywhere in its memory).
      new Uint8Array(into.buffer, into.byteOffset, into.byteLength).set(bytes.subarray(after + offset, after + offset + into.byteLength));
      return into;
    },
    (offset, raw) => bytes.toString(raw.encoding, after + offset, after + offset + rawSizes(raw)[0]!),
  );
  // Copied to an aligned array (a Buffer may start anywhere in its memory).
  const postings = new Uint32Array(words);
  new Uint8Array(postings.buffer).set(bytes.subarray(start, start + words * 4));
  return restore(state, () => new ArrayPostings(postings), options);
}

/**
 * Opens the state saved in the file at `path`, reading the state, the columns of ids and
 * field lengths (raw bytes), and none of the postings, which are read term by term as queries
 * touch them; the ids' text is cut out id by id. `undefined` when the file is missing or not
 * a usable state.
 */
export function openSearchState(path: string, options: Options): MiniSearch | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  let owned = false;
  try {
    const prefix = readAt(fd, 0, 8);
    if (prefix.length !== 8 || !prefix.subarray(0, 4).equals(STATE_MAGIC)) return undefined;
    const length = prefix.readUInt32LE(4);
    const size = fstatSync(fd).size;
    if (8 + length > size) return undefined;
    const head = readAt(fd, 8, length);
    if (head.length !== length) return undefined;
    const parsed = parseState(head);
    if (!parsed) return undefined;
    const start = postingsStart(length);
    if (parsed.kind === 'packed' && start + (parsed.postingsLength ?? 0) * 4 + rawBytes(parsed) !== size) return undefined;
    const after = start + (parsed.postingsLength ?? 0) * 4;
    // From here on the file is closed when no reader of it is left.
    const file = new OpenFile(fd);
    owned = true;
    const state = withColumns(
      parsed,
      (offset, into) => {
        if (readInto(fd, into, after + offset) !== into.byteLength) throw new RangeError('the search state file is shorter than its columns');
        return into;
      },
      (offset, raw) => new FileText(file, after + offset, raw.encoding, raw.chars),
      (offset, count) => NumberColumn.file('u32', { file, position: after + offset, count }),
    );
    return restore(state, (offsets, counts) => new FilePostings(file, start, offsets, counts), options);
  } catch {
    return undefined;
  } finally {
    if (!owned) closeSync(fd);
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
