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
 * A growable list of 32-bit words. Grown by half again, not doubled: a rebuild of 100,000
 * memories holds 46 MB of postings, which doubling made 66.
 */
class Words {
  data = new Uint32Array(4);
  length = 0;

  push2(a: number, b: number): void {
    if (this.length + 2 > this.data.length) {
      const grown = new Uint32Array(this.data.length + ((this.data.length >>> 1) & ~1));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }
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
  private readonly postings: { field: number; words: Words }[][] = [];
  /** The same lists by `term * fields + field`. */
  private readonly lists: (Words | undefined)[] = [];
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
        let words = this.lists[t * f + field];
        if (words === undefined) {
          words = this.lists[t * f + field] = new Words();
          this.postings[t]!.push({ field, words });
        }
        words.push2(shortId, freq);
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
   * then each term's postings, released as they are written, then the raw columns of ids and
   * field lengths, so that the postings are never
   * held twice (a rebuild of 100,000 memories: 46 MB of them). Once. `out.write` gets bytes
   * that are only valid during the call.
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
      for (const { words } of this.postings[t]!) {
        size += 2 + words.length;
        max = Math.max(max, words.length / 2);
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
    for (const t of order) {
      const lists = this.postings[t]!;
      put(Uint32Array.of(lists.length));
      for (const { field, words } of lists) {
        head[0] = field;
        head[1] = words.length / 2;
        put(head);
        put(words.data.subarray(0, words.length));
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
