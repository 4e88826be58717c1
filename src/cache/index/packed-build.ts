/**
 * Building a search state without MiniSearch's Maps: a full rebuild of 100,000 memories
 * held every posting as a Map entry (a gigabyte); here each term's postings grow in typed
 * arrays, field by field, and the saved state is written from them.
 *
 * The result is the state `saveSearchState` writes for a MiniSearch that added the same
 * analysed documents in the same order (the postings byte for byte): the same radix tree (terms inserted
 * in the order first seen), the same postings in the same order (fields in the order each
 * term first met them, documents ascending), the same field lengths and the same running
 * averages, computed with MiniSearch's arithmetic. A property test checks it.
 */
import SearchableMap from 'minisearch/SearchableMap';
import { detachString } from '../../core/detach-string.js';
import { MISSING_LENGTH, PLAIN_FIELDS, stateParts, writeColumns, type AnalyzedDoc, type SavedState } from './search-state.js';

/**
 * One term's postings in one field as they grow: each document as the gap from the one
 * before (documents come in ascending) and the term's frequency in it, both as LEB128
 * varints, in bytes grown by half again. A rebuild of 100,000 memories held its 5.8 million
 * postings as pairs of 32-bit words, 46 MB (58 MB with the room to grow, and as much again
 * in outgrown arrays until V8's next major collection); as varints they take about a
 * quarter. They are written as words again ({@link PackedBuilder.encodeTo}).
 */
export class PostingList {
  bytes = new Uint8Array(8);
  /** Bytes used. */
  size = 0;
  /** Postings held. */
  count = 0;
  private last = -1;

  /** Adds document `doc` (above the last one added) with the term's frequency `freq`. */
  push(doc: number, freq: number): void {
    // Two varints of 32-bit numbers take at most 10 bytes.
    if (this.size + 10 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length + Math.max(16, this.bytes.length >>> 1));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.size = putVarint(this.bytes, this.size, doc - this.last);
    this.size = putVarint(this.bytes, this.size, freq);
    this.last = doc;
    this.count++;
  }

  /**
   * Writes the postings as pairs of words (document, frequency) to `out` from `at`, as many
   * as fit; returns where it stopped in `out`. `state` (from `{ read: 0, doc: -1 }`) keeps
   * where it stopped in the list, so that a full `out` can be flushed and the call made again.
   */
  decodeTo(out: Uint32Array, state: { read: number; doc: number }, at: number): number {
    const bytes = this.bytes;
    let read = state.read;
    let doc = state.doc;
    while (read < this.size && at + 2 <= out.length) {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = bytes[read++]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      doc += value;
      let freq = 0;
      shift = 0;
      do {
        byte = bytes[read++]!;
        freq += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      out[at++] = doc;
      out[at++] = freq;
    }
    state.read = read;
    state.doc = doc;
    return at;
  }
}

/** Writes `value` (a non-negative 32-bit number) as a LEB128 varint at `at`; returns the end. */
function putVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

/**
 * Collects analysed documents (see `analyzeDocument`) and encodes the search state.
 *
 * @example
 * const build = new PackedBuilder(['text', 'summary']);
 * build.add(analyzeDocument({ id: 'a', text: 'Chose SQLite' }, analyzer));
 * writeFileSync(path, build.encode()); // later: openSearchState(path, options)
 */
export class PackedBuilder {
  /** Term → its number, in the order first seen. */
  private readonly terms = new Map<string, number>();
  private readonly termNames: string[] = [];
  /** Per term, its fields in the order first met, with the postings of each. */
  private readonly postings: { field: number; list: PostingList }[][] = [];
  /** The same lists by `term * fields + field`. */
  private readonly lists: (PostingList | undefined)[] = [];
  private readonly ids: string[] = [];
  private readonly idSet = new Set<string>();
  private lengths = new Uint32Array(0);
  /** Per document: 1 when it has a value in some field (MiniSearch keeps no lengths otherwise). */
  private present = new Uint8Array(0);
  private readonly avg: number[] = [];
  /** Scratch for {@link add}: each term's frequency in the field being added (0 otherwise) … */
  private freqs = new Uint32Array(1024);
  /** … and the terms it holds, in the order first met. */
  private touched = new Uint32Array(256);
  /** Encoded (see {@link encodeTo}): the postings are gone. */
  private spent = false;

  constructor(private readonly fields: readonly string[]) {}

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.idSet.has(id);
  }

  /** Adds a document (ids must be new: MiniSearch refuses a duplicate too). */
  add(doc: AnalyzedDoc): void {
    if (this.spent) throw new Error('a PackedBuilder takes no documents once encoded');
    if (this.idSet.has(doc.id)) throw new Error(`duplicate ID ${doc.id}`);
    const shortId = this.ids.length;
    // The id is kept as given (see `detachString`); a new term as a copy, which costs little
    // (a term cut from a memory file's text would keep that text alive).
    this.ids.push(doc.id);
    this.idSet.add(doc.id);
    const f = this.fields.length;
    if (this.lengths.length < (shortId + 1) * f) {
      const grown = new Uint32Array(Math.max(64 * f, this.lengths.length * 2)).fill(MISSING_LENGTH);
      grown.set(this.lengths);
      this.lengths = grown;
      const present = new Uint8Array(grown.length / f);
      present.set(this.present);
      this.present = present;
    }
    const count = shortId; // MiniSearch's `_documentCount - 1` when adding (no discards here)
    for (let field = 0; field < f; field++) {
      const analyzed = doc.fields[field];
      if (!analyzed) continue;
      this.lengths[shortId * f + field] = analyzed.unique;
      this.present[shortId] = 1;
      // MiniSearch's addFieldLength, the same arithmetic.
      const average = this.avg[field] || 0;
      this.avg[field] = (average * count + analyzed.unique) / (count + 1);
      // Each term's frequency in the field, the terms in the order first met (as a Map of
      // them would iterate), in scratch arrays: a Map per field was most of a build's time here.
      const terms = analyzed.terms;
      if (this.touched.length < terms.length) this.touched = new Uint32Array(Math.max(terms.length, 2 * this.touched.length));
      const touched = this.touched;
      let distinct = 0;
      for (let i = 0; i < terms.length; i++) {
        const term = terms[i]!;
        let t = this.terms.get(term);
        if (t === undefined) {
          t = this.termNames.length;
          const name = detachString(term);
          this.terms.set(name, t);
          this.termNames.push(name);
          this.postings.push([]);
          if (t >= this.freqs.length) {
            const grown = new Uint32Array(2 * this.freqs.length);
            grown.set(this.freqs);
            this.freqs = grown;
          }
        }
        if (this.freqs[t]!++ === 0) touched[distinct++] = t;
      }
      for (let i = 0; i < distinct; i++) {
        const t = touched[i]!;
        const freq = this.freqs[t]!;
        this.freqs[t] = 0;
        let list = this.lists[t * f + field];
        if (list === undefined) {
          list = this.lists[t * f + field] = new PostingList();
          this.postings[t]!.push({ field, list });
        }
        list.push(shortId, freq);
      }
    }
  }

  /**
   * The state's bytes, as `saveSearchState` writes them (see the module comment). Once: the
   * builder releases its postings as it writes them.
   */
  encode(options: { fieldIds: Record<string, number> }): Buffer {
    const parts: Buffer[] = [];
    this.encodeTo({ write: (bytes) => parts.push(Buffer.from(bytes)) }, options);
    return Buffer.concat(parts);
  }

  /**
   * Writes the state's bytes (those of {@link encode}) to `out` piece by piece: the state,
   * then each term's postings as words, a chunk at a time, each list released once written,
   * then the raw columns of ids and field lengths, so that the postings are never held twice
   * (a rebuild of 100,000 memories: 46 MB of words). Once. `out.write` gets bytes that are
   * only valid during the call.
   */
  encodeTo(out: { write(bytes: Uint8Array): void }, options: { fieldIds: Record<string, number> }): void {
    if (this.spent) throw new Error('a PackedBuilder encodes once');
    this.spent = true;
    const map = new SearchableMap<number>();
    for (let t = 0; t < this.termNames.length; t++) map.set(this.termNames[t]!, t);
    // Each term's offset in the order saveSearchState packs the tree in, before any is written.
    const order: number[] = [];
    const starts: number[] = [];
    const counts: number[] = [];
    let postingsLength = 0;
    const tree = this.offsetTree((map as unknown as { _tree: Map<string, unknown> })._tree, (t) => {
      let size = 1;
      let max = 0;
      for (const { list } of this.postings[t]!) {
        size += 2 + 2 * list.count;
        max = Math.max(max, list.count);
      }
      const offset = postingsLength;
      order.push(t);
      starts.push(offset);
      counts.push(max);
      postingsLength += size;
      return offset;
    });
    const n = this.ids.length;
    const f = this.fields.length;
    const ends = new Uint32Array(n);
    let end = 0;
    for (let i = 0; i < n; i++) ends[i] = end += this.ids[i]!.length;
    const sortedIds = Uint32Array.from(this.ids.keys()).sort((x, y) => (this.ids[x]! < this.ids[y]! ? -1 : this.ids[x]! > this.ids[y]! ? 1 : 0));
    const plain: Record<string, unknown> = {
      _fieldIds: options.fieldIds,
      _avgFieldLength: this.avg,
      _nextId: n,
      _storedFields: new Map(),
      _documentCount: n,
      _dirtCount: 0,
    };
    const fields: Record<string, unknown> = {};
    for (const name of PLAIN_FIELDS) fields[name] = plain[name];
    const state: SavedState = {
      kind: 'packed',
      documentCount: n,
      tree,
      postingsLength,
      termOffsets: Uint32Array.from([...starts, postingsLength]),
      termCounts: Uint32Array.from(counts),
      fields,
      ids: { text: this.ids.join(''), ends, present: new Uint8Array(n).fill(1), order: sortedIds },
      lengths: { fields: f, values: this.lengths.slice(0, n * f), present: this.present.slice(0, n) },
    };
    const { head: stateHead, columns } = stateParts(state);
    out.write(stateHead);
    // The postings in that order, a chunk at a time (little-endian words, as saveSearchState's).
    const chunk = new Uint32Array(1 << 16);
    let used = 0;
    const flush = () => {
      if (used > 0) out.write(new Uint8Array(chunk.buffer, 0, used * 4));
      used = 0;
    };
    const put = (words: Uint32Array) => {
      for (let i = 0; i < words.length; ) {
        if (used === chunk.length) flush();
        const take = Math.min(words.length - i, chunk.length - used);
        chunk.set(words.subarray(i, i + take), used);
        used += take;
        i += take;
      }
    };
    const head = new Uint32Array(2);
    const at = { read: 0, doc: -1 };
    for (const t of order) {
      const lists = this.postings[t]!;
      put(Uint32Array.of(lists.length));
      for (const { field, list } of lists) {
        head[0] = field;
        head[1] = list.count;
        put(head);
        at.read = 0;
        at.doc = -1;
        for (;;) {
          used = list.decodeTo(chunk, at, used);
          if (at.read === list.size) break;
          flush();
        }
        this.lists[t * f + field] = undefined;
      }
      this.postings[t] = [];
    }
    flush();
    // Then the raw columns of ids and field lengths (state format 3), as encodeState writes them.
    writeColumns(columns, out);
  }

  /** A copy of the tree whose leaves (term numbers) are the offsets `offsetOf` gives them, in the tree's order. */
  private offsetTree(node: Map<string, unknown>, offsetOf: (term: number) => number): Map<string, unknown> {
    const copy = new Map<string, unknown>();
    for (const [key, value] of node) {
      copy.set(key, key === '' ? offsetOf(value as number) : this.offsetTree(value as Map<string, unknown>, offsetOf));
    }
    return copy;
  }
}
