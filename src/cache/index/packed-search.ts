/**
 * MiniSearch's OR query, scored straight from the packed postings.
 *
 * `MiniSearch.search` builds a result object, a term list and a match record for every
 * posting it scores; a question with a dozen thesaurus words touches tens of thousands of
 * postings at 10,000 memories, and that allocation (and the garbage it leaves) was a third
 * of a warm `recall`. This computes the same thing — BM25+ per field, the same prefix and
 * fuzzy expansion with the same weights, the same order of summation and the same result
 * order — into arrays indexed by document, reading packed postings without unpacking them
 * (search-state.ts). The loops over postings and documents are WebAssembly
 * (score-kernel.wat): a process runs them once, and as JavaScript they ran in V8's
 * interpreter until its optimizing compiler caught up (a cold query at 100,000 memories took
 * 110–170 ms against 25 ms warm). A test checks it against `MiniSearch.search` on random queries.
 *
 * One difference, on purpose: a discarded memory's postings stay in the index until a
 * vacuum, and MiniSearch counts them in a term's document frequency until a query happens to
 * sweep them (so the same query can score differently twice, even below zero). Here they
 * are never counted: scores are those of the vacuumed index, every time.
 *
 * It reads MiniSearch's private fields; when they are not what this expects (or WebAssembly
 * cannot run: `node --jitless`) it returns `undefined` and the caller uses `MiniSearch.search`.
 */
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { copyOut, instantiateKernel, KernelLayout, type Kernel, type KernelArena } from './score-kernel.js';
import { LazyDocIds, LazyFieldLengths, LazyTermData, packMap } from './search-state.js';
import type { TermSpec } from '../../core/recall-rank.js';

/** One query term, as MiniSearch's `termToQuerySpec` would make it. */
export type { TermSpec };

export interface PackedSearchOptions {
  /** Boost per field; every indexed field is scored, a missing or zero boost counts as 1 (as MiniSearch does). */
  boost: Readonly<Record<string, number>>;
  bm25: { k: number; b: number; d: number };
  maxFuzzy: number;
  weights?: { fuzzy: number; prefix: number };
  /** A document's score multiplier; called once per document (it must not depend on the term). 0 drops it. */
  boostDocument?: ((id: string) => number) | undefined;
  /** The same as a mask by document number (1: `factor`, else 1), when the caller has it so (no id is cut out per document); used instead of `boostDocument` when it covers every document. */
  boostMask?: { docs: Uint8Array; factor: number } | undefined;
  /** Documents to keep (default: all; a caller that reads only the head can filter as it reads). */
  filter?: ((id: string) => boolean) | undefined;
  /**
   * Query terms that {@link PackedResults.queryTermCounts} will be asked to leave out
   * (passing this very set): they are then counted while scoring.
   */
  uncounted?: ReadonlySet<string> | undefined;
  /**
   * The query's shared kernel memory (see `KernelArena`): the first search opens it, a later
   * one over the same index with the same boosts reuses its field lengths and scratch arrays.
   * Results in it are given back with it (their `release` does nothing).
   */
  arena?: KernelArena | undefined;
}

/** What the first search of a query leaves in its arena for the next: the inputs it copied in and its scratch arrays. */
interface SharedInputs {
  /** What they were made for: a later search shares them only when all of these are the same. */
  key: readonly unknown[];
  at: { lengths: number; present: number; live: number; boostMask: number; docBoost: number; termScore: number; seen: number };
}

/** Default weights of prefix and fuzzy matches (MiniSearch's). */
export const MATCH_WEIGHTS = { fuzzy: 0.45, prefix: 0.375 } as const;

/**
 * Results as columns, in the order documents were first matched (not ranked: see
 * {@link ranksBefore}): result `i` is document number `docs[i]` (MiniSearch's short id,
 * below `documents`) with summed term score `raw[i]`.
 */
export interface PackedResults {
  readonly length: number;
  /** Every document number is below this. */
  readonly documents: number;
  readonly docs: Int32Array;
  /** The id of document number `doc`. */
  id(doc: number): string;
  /** Sum of the weighted term scores (MiniSearch's score divided by the quality). */
  readonly raw: Float64Array;
  /** MiniSearch's score: `raw` times the number of query terms matched (its ranking key). */
  readonly key: Float64Array;
  /** The query terms that matched result `i` (in the order of the query; MiniSearch lists a repeated term where it first matched). */
  queryTerms(i: number): string[];
  /** How many query terms matched result `i`, not counting those in `except`. */
  queryTermCount(i: number, except?: ReadonlySet<string>): number;
  /** {@link queryTermCount} of every result, in one pass. */
  queryTermCounts(except?: ReadonlySet<string>): Int32Array;
  /**
   * {@link queryTermCounts} with `except` the search's `uncounted`, and each result's `raw`
   * times its count (at least 1), in one pass of the kernel, in the query's arena;
   * `undefined` when they cannot be (another set, no arena, no room left in it).
   */
  coordinated?(except: ReadonlySet<string>): { counts: Int32Array; scores: Float64Array } | undefined;
  /** The indexed terms that matched result `i` (prefix and fuzzy variants included). */
  terms(i: number): string[];
  /** Gives the memory its columns are views into back for reuse: after this, none of them may be read. */
  release?(): void;
  /**
   * In a query's arena: where 8 bytes a document (`documents`) start that this search no
   * longer reads (its sums by document, now in `raw`), for a later user of the arena (the
   * merge) to write over.
   */
  readonly spare?: number;
}

type TermData = Map<number, Map<number, number>>;

interface Internals {
  _index: { get(term: string): TermData | undefined; atPrefix(prefix: string): Iterable<[string, TermData]>; fuzzyGet(term: string, distance: number): Map<string, [TermData, number]> };
  _documentIds: Map<number, string>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _dirtCount: number;
  _nextId: number;
  _options: { fields: string[] };
}

/**
 * Which private field of MiniSearch this engine reads is missing or has changed shape, or
 * `undefined` when all are as expected. A MiniSearch upgrade that changes one sends every query
 * to the slow path (`MiniSearch.search`); `test/minisearch-pin.test.ts` names the field.
 */
export function minisearchInternalsProblem(ms: MiniSearch): string | undefined {
  const m = ms as unknown as Partial<Internals>;
  const index = m._index;
  const changed = (field: string, expected: string): string => `MiniSearch's private field \`${field}\` is missing or changed (expected ${expected})`;
  if (!index || typeof index.get !== 'function' || typeof index.atPrefix !== 'function' || typeof index.fuzzyGet !== 'function') return changed('_index', 'an object with get, atPrefix and fuzzyGet');
  if (!(m._documentIds instanceof Map)) return changed('_documentIds', 'a Map');
  if (!(m._fieldLength instanceof Map)) return changed('_fieldLength', 'a Map');
  if (typeof m._fieldIds !== 'object') return changed('_fieldIds', 'an object');
  if (!Array.isArray(m._avgFieldLength)) return changed('_avgFieldLength', 'an array');
  if (typeof m._documentCount !== 'number') return changed('_documentCount', 'a number');
  if (typeof m._dirtCount !== 'number') return changed('_dirtCount', 'a number');
  if (typeof m._nextId !== 'number') return changed('_nextId', 'a number');
  if (!Array.isArray(m._options?.fields)) return changed('_options', 'an object with a fields array');
  return undefined;
}

function internalsOf(ms: MiniSearch): Internals | undefined {
  return minisearchInternalsProblem(ms) === undefined ? (ms as unknown as Internals) : undefined;
}

/** The live-document bits of an index, by its state (an index answering several queries makes them once). */
const liveCache = new WeakMap<object, { key: string; live: Uint8Array }>();

function liveDocuments(m: Internals): Uint8Array {
  const key = `${m._nextId}/${m._documentCount}/${m._dirtCount}`;
  const cached = liveCache.get(m);
  if (cached?.key === key) return cached.live;
  let live: Uint8Array;
  if (m._documentIds instanceof LazyDocIds) {
    live = m._documentIds.liveBits(m._nextId);
  } else {
    live = new Uint8Array(m._nextId);
    for (const doc of m._documentIds.keys()) live[doc] = 1;
  }
  liveCache.set(m, { key, live });
  return live;
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A bit set of the given small integers. */
function maskOf(values: readonly number[]): Uint32Array {
  const mask = new Uint32Array((Math.max(-1, ...values) >>> 5) + 1);
  for (const v of values) mask[v >>> 5] = mask[v >>> 5]! | (1 << (v & 31));
  return mask;
}

/**
 * Per-document sets of small integers (which query terms, which indexed terms matched a
 * document) as bit columns, 32 values per column: no allocation per posting or document.
 * Column `c` holds values `32c` to `32c + 31`: `v` is in `doc`'s set when bit `1 << (v & 31)`
 * of entry `doc` of column `v >>> 5` is.
 */
class BitSets {
  constructor(private readonly blocks: readonly Uint32Array[]) {}

  /** How many of `doc`'s values are in `mask` (a bit set of values, as `maskOf` makes). */
  countIn(doc: number, mask: Uint32Array): number {
    let count = 0;
    for (let b = 0; b < this.blocks.length && b < mask.length; b++) count += popcount(this.blocks[b]![doc]! & mask[b]!);
    return count;
  }

  /** `doc`'s values, ascending. */
  values(doc: number): number[] {
    const out: number[] = [];
    for (let b = 0; b < this.blocks.length; b++) {
      const word = this.blocks[b]![doc]!;
      if (word === 0) continue;
      for (let bit = 0; bit < 32; bit++) if ((word & (1 << bit)) !== 0) out.push(b * 32 + bit);
    }
    return out;
  }
}

/** One indexed term a query term matched: its postings per field, and its weight. */
interface Derived {
  /** Number of the indexed term (its bit in the per-document sets). */
  number: number;
  /**
   * Per field (in the order of `fieldNames`): the packed postings (unless `unread`), then
   * those added since the load.
   */
  sections: [Uint32Array, number, number][][];
  /** The packed postings while still in the file: read into the kernel's memory when scored. */
  unread?: { words: number; readInto(into: Uint32Array): void };
  weight: number;
}

/**
 * Scores `specs` combined with OR, as `ms.search` would with the same options, or returns
 * `undefined` when the index's internals are not the expected ones (or WebAssembly cannot
 * run here).
 *
 * The postings are scored by score-kernel.wat: each query term's matching indexed terms
 * (itself, prefix and fuzzy variants) are found first, then their postings are copied into
 * the kernel's memory field by field and scored there.
 *
 * @example
 * const results = searchPacked(index, [{ term: 'sqlite', prefix: true, fuzzy: 0.2, boost: 1 }], { boost: { text: 1 }, bm25: BM25, maxFuzzy: 2 });
 */
export function searchPacked(ms: MiniSearch, specs: readonly TermSpec[], options: PackedSearchOptions): PackedResults | undefined {
  const m = internalsOf(ms);
  if (!m) return undefined;
  const { k, b, d } = options.bm25;
  const weights = options.weights ?? MATCH_WEIGHTS;
  const fieldNames = m._options.fields;
  const fieldIds = Int32Array.from(fieldNames, (name) => m._fieldIds[name]!);
  const fieldBoosts = Float64Array.from(fieldNames, (name) => options.boost[name] || 1);
  const fieldAvgs = Float64Array.from(fieldIds, (id) => m._avgFieldLength[id]!);
  const n = m._nextId;
  const total = m._documentCount;
  const documentIds = m._documentIds;
  const fieldLength = m._fieldLength;
  // Discarded documents may still have postings (until a vacuum): count only live ones.
  const dirty = m._dirtCount > 0;

  // The indexed terms each query term matches, in MiniSearch's order of summation.
  const derivedIndex = new Map<string, number>();
  const derivedNames: string[] = [];
  const queryTermIndex = new Map<string, number>();
  const queryTermNames: string[] = [];
  const plan: { query: number; uncounted: boolean; derived: Derived[]; pairs: number }[] = [];
  let maxSection = 0;
  let maxUnread = 0;
  const derive = (list: Derived[], term: string, data: TermData | undefined, weight: number): number => {
    if (data == null) return 0;
    let number = derivedIndex.get(term);
    if (number === undefined) {
      number = derivedNames.length;
      derivedIndex.set(term, number);
      derivedNames.push(term);
    }
    // Postings still in the file are read when scored, into the kernel's memory: at 100,000
    // memories a question's terms have megabytes of them, and an array of their own per term
    // was that much memory faulted in, only to be copied.
    const unread = data instanceof LazyTermData ? data.unread() : undefined;
    const at = unread === undefined && data instanceof LazyTermData ? data.packedAt() : undefined;
    const p = unread !== undefined ? undefined : at ? at.packed : packMap(data);
    const base = at ? at.offset : 0;
    // Postings added since the load, in the same layout, follow the packed ones per field.
    const q = unread !== undefined ? unread.added : at?.added;
    // At most a pair per two words of the packed postings (the exact count is in them).
    let pairs = unread !== undefined ? unread.words >>> 1 : 0;
    if (unread !== undefined) maxUnread = Math.max(maxUnread, unread.words);
    const sections = Array.from(fieldIds, (fieldId) => {
      const out: [Uint32Array, number, number][] = [];
      const start = p === undefined ? -1 : sectionOf(p, base, fieldId);
      if (start >= 0) out.push([p!, start, start + 2 * p![start - 1]!]);
      const addedStart = q === undefined ? -1 : sectionOf(q, 0, fieldId);
      if (addedStart >= 0) out.push([q!, addedStart, addedStart + 2 * q![addedStart - 1]!]);
      const length = out.reduce((sum, [, from, to]) => sum + to - from, 0);
      maxSection = Math.max(maxSection, length);
      pairs += length / 2;
      return out;
    });
    list.push({ number, sections, weight, ...(unread !== undefined ? { unread: { words: unread.words, readInto: unread.readInto } } : {}) });
    return pairs;
  };
  for (const spec of specs) {
    const term = spec.term;
    const boost = spec.boost;
    const derived: Derived[] = [];
    let pairs = derive(derived, term, m._index.get(term), boost);
    let fuzzyMatches: Map<string, [TermData, number]> | undefined;
    if (spec.fuzzy !== false) {
      const fuzzy = spec.fuzzy;
      const maxDistance = fuzzy < 1 ? Math.min(options.maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
      if (maxDistance) fuzzyMatches = m._index.fuzzyGet(term, maxDistance);
    }
    if (spec.prefix) {
      for (const [match, data] of m._index.atPrefix(term)) {
        const distance = match.length - term.length;
        if (!distance) continue;
        fuzzyMatches?.delete(match);
        pairs += derive(derived, match, data, ((weights.prefix * match.length) / (match.length + 0.3 * distance)) * boost);
      }
    }
    if (fuzzyMatches) {
      for (const [match, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        pairs += derive(derived, match, data, ((weights.fuzzy * match.length) / (match.length + distance)) * boost);
      }
    }
    let query = queryTermIndex.get(term);
    if (query === undefined) {
      query = queryTermNames.length;
      queryTermIndex.set(term, query);
      queryTermNames.push(term);
    }
    plan.push({ query, uncounted: options.uncounted?.has(term) === true, derived, pairs });
  }

  // The kernel's memory: per document, then the longest term list and posting section.
  const lazyLengths = fieldLength instanceof LazyFieldLengths ? fieldLength : undefined;
  const lengthColumns = lazyLengths?.columns();
  const boostMask = options.boostMask;
  const boostDocument = options.boostDocument;
  const boostOf = boostDocument ? (doc: number) => boostDocument(documentIds.get(doc)!) : undefined;
  const boostMode = boostMask !== undefined && boostMask.docs.length >= n ? 1 : boostOf !== undefined ? 2 : 0;
  const queryColumns = (queryTermNames.length + 31) >>> 5;
  const derivedColumns = (derivedNames.length + 31) >>> 5;
  // Inputs and scratch a later search of the same query can share (termScore is zero again
  // after each term; `seen` is cleared), then this search's own columns.
  const takeShared = (take: (bytes: number) => number): SharedInputs['at'] => ({
    lengths: lengthColumns ? take(4 * lengthColumns.fields * lengthColumns.present.length) : 0,
    // Every document's entry: those added since the load are past the end of the column (0: not present).
    present: lengthColumns ? take(Math.max(n, lengthColumns.present.length)) : 0,
    live: dirty ? take(n) : 0,
    boostMask: boostMode === 1 ? take(n) : 0,
    docBoost: boostMode === 2 ? take(8 * n) : 0,
    termScore: take(8 * n),
    seen: take(n),
  });
  const takeOwn = (take: (bytes: number) => number) => ({
    score: take(8 * n),
    raw: take(8 * n),
    key: take(8 * n),
    quality: take(4 * n),
    uncounted: options.uncounted ? take(4 * n) : 0,
    touched: take(4 * n),
    kept: options.filter ? take(4 * n) : 0,
    termTouched: take(4 * Math.max(1, ...plan.map((s) => s.pairs))),
    queryWords: Array.from({ length: queryColumns }, () => take(4 * n)),
    derivedWords: Array.from({ length: derivedColumns }, () => take(4 * n)),
    post: take(4 * maxSection),
    unread: take(4 * maxUnread),
    counts: take(4 * n),
  });
  const ownBytes = KernelLayout.bytes(takeOwn);
  const lengthOf = (doc: number, fieldId: number): number => {
    if (lazyLengths !== undefined) return lazyLengths.lengthAt(doc, fieldId);
    return fieldLength.get(doc)?.[fieldId] ?? Number.NaN;
  };
  const imports = { lengthOf, boostOf: (doc: number) => boostOf!(doc) };
  const arena = options.arena;
  const sharedKey = [ms, n, dirty, fieldLength, lengthColumns?.present.length, boostMode, boostMask, boostDocument];
  const prior = arena?.shared as SharedInputs | undefined;
  const sharing = prior !== undefined && prior.key.length === sharedKey.length && prior.key.every((v, i) => v === sharedKey[i]);
  // Where this search's own columns start.
  let base = sharing ? arena!.take(ownBytes) : undefined;
  let instance: Kernel | undefined;
  let sharedAt: SharedInputs['at'];
  let inArena = false;
  if (base !== undefined) {
    instance = arena!.kernel!;
    sharedAt = prior!.at;
    inArena = true;
  } else {
    const layout = new KernelLayout();
    sharedAt = takeShared((bytes) => layout.take(bytes));
    base = layout.take(ownBytes);
    if (arena !== undefined && arena.kernel === undefined) {
      // Room for a second search as large as this one, and for what ranks and merges the two
      // (at most 72 bytes a document: 44 the merge, 8 the counts of both, 8 the first's
      // scores, 12 the candidates of both rankings), reserved, not touched: the memory is no
      // larger than that, as V8 counts it towards the external memory that sets off a
      // garbage collection.
      instance = arena.open(layout.size, layout.size + ownBytes + 72 * n + 65536, imports);
      if (instance !== undefined) {
        arena.shared = { key: sharedKey, at: sharedAt } satisfies SharedInputs;
        inArena = true;
      }
    } else {
      instance = instantiateKernel(layout.size, imports);
    }
  }
  if (instance === undefined) return undefined;
  const ownLayout = new KernelLayout(base);
  const at = { ...sharedAt, ...takeOwn((bytes) => ownLayout.take(bytes)) };
  const { kernel, memory } = instance;
  const buffer = memory.buffer;
  const u32 = new Uint32Array(buffer);
  const u8 = new Uint8Array(buffer);
  if (sharing) {
    // The previous search's documents: none seen by this one yet.
    u8.fill(0, at.seen, at.seen + n);
  } else {
    if (lengthColumns) {
      lengthColumns.values.copyInto(new Uint32Array(buffer, at.lengths, lengthColumns.fields * lengthColumns.present.length));
      u8.set(lengthColumns.present, at.present);
    }
    if (dirty) u8.set(liveDocuments(m).subarray(0, n), at.live);
    if (boostMode === 1) u8.set(boostMask!.docs.subarray(0, n), at.boostMask);
    // NaN (all bits set): no document's multiplier asked yet.
    if (boostMode === 2) u8.fill(0xff, at.docBoost, at.docBoost + 8 * n);
  }
  const release = inArena ? undefined : instance.release;

  let touchedLength = 0;
  for (const step of plan) {
    let termLength = 0;
    for (const derived of step.derived) {
      const derivedWords = at.derivedWords[derived.number >>> 5]!;
      const derivedBit = 1 << (derived.number & 31);
      // The packed postings read from the file where the kernel reads them.
      const unread = derived.unread;
      const record = at.unread >>> 2;
      if (unread !== undefined) unread.readInto(u32.subarray(record, record + unread.words));
      for (let f = 0; f < fieldIds.length; f++) {
        const sections = derived.sections[f]!;
        const start = unread === undefined ? -1 : sectionOf(u32, record, fieldIds[f]!, record + unread.words);
        if (sections.length === 0 && start < 0) continue;
        // The field's postings as runs in the kernel's memory (packed, then added), scored in
        // that order: those read in place, the rest copied in as one run.
        const runs: [number, number][] = [];
        if (start >= 0) runs.push([4 * start, u32[start - 1]!]);
        let copied = 0;
        for (const [a, from, to] of sections) {
          u32.set(a.subarray(from, to), (at.post >>> 2) + 2 * copied);
          copied += (to - from) / 2;
        }
        if (copied > 0) runs.push([at.post, copied]);
        let matching = 0;
        for (const [post, pairs] of runs) matching += dirty ? kernel.liveCount(post, pairs, at.live) : pairs;
        const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
        for (const [post, pairs] of runs) {
          termLength = kernel.scoreSection(
            post,
            pairs,
            at.termScore,
            at.termTouched,
            termLength,
            boostMode,
            at.boostMask,
            boostMask?.factor ?? 1,
            at.docBoost,
            at.live,
            at.lengths,
            at.present,
            lengthColumns?.fields ?? 0,
            fieldIds[f]!,
            derived.weight * fieldBoosts[f]!,
            idf,
            fieldAvgs[f]!,
            k,
            b,
            d,
            derivedWords,
            derivedBit,
          );
        }
      }
    }
    // OR: add this term's scores to the totals, and the term to each document it matched.
    touchedLength = kernel.addTermScores(
      at.termTouched,
      termLength,
      at.termScore,
      at.score,
      at.queryWords[step.query >>> 5]!,
      1 << (step.query & 31),
      at.quality,
      step.uncounted ? at.uncounted : 0,
      at.seen,
      at.touched,
      touchedLength,
    );
  }

  // Left in the order first matched: callers rank lazily (MiniSearch's order is key
  // descending, then that order: see ranksBefore), reading only the head of thousands.
  const touched = new Int32Array(buffer, at.touched, touchedLength);
  const filter = options.filter;
  let kept = touched;
  if (filter) {
    kept = new Int32Array(buffer, at.kept, n);
    let length = 0;
    for (let i = 0; i < touchedLength; i++) if (filter(documentIds.get(touched[i]!)!)) kept[length++] = touched[i]!;
    kept = kept.subarray(0, length);
  }
  kernel.resultColumns(kept.byteOffset, kept.length, at.score, at.quality, at.raw, at.key);
  const raw = new Float64Array(buffer, at.raw, kept.length);
  const key = new Float64Array(buffer, at.key, kept.length);
  const quality = new Int32Array(buffer, at.quality, n);
  const docQueryTerms = new BitSets(at.queryWords.map((offset) => new Uint32Array(buffer, offset, n)));
  const docDerived = new BitSets(at.derivedWords.map((offset) => new Uint32Array(buffer, offset, n)));
  let exceptSet: ReadonlySet<string> | undefined;
  let exceptMask: Uint32Array = new Uint32Array(0);
  return {
    length: kept.length,
    documents: n,
    docs: kept,
    id: (doc) => documentIds.get(doc)!,
    raw,
    key,
    queryTerms: (i) => docQueryTerms.values(kept[i]!).map((q) => queryTermNames[q]!),
    queryTermCount: (i, except) => {
      const doc = kept[i]!;
      if (!except || except.size === 0) return quality[doc]!;
      if (except !== exceptSet) {
        exceptSet = except;
        exceptMask = maskOf(queryTermNames.flatMap((t, q) => (except.has(t) ? [q] : [])));
      }
      return quality[doc]! - docQueryTerms.countIn(doc, exceptMask);
    },
    coordinated: (except) => {
      const counts = except === options.uncounted && inArena ? arena!.take(4 * kept.length) : undefined;
      const scores = counts === undefined ? undefined : arena!.take(8 * kept.length);
      if (scores === undefined) return undefined;
      kernel.termCounts(kept.byteOffset, kept.length, at.quality, at.uncounted, counts!, raw.byteOffset, scores);
      return { counts: new Int32Array(buffer, counts, kept.length), scores: new Float64Array(buffer, scores, kept.length) };
    },
    queryTermCounts: (except) => {
      // The set counted as the documents were scored needs no second look at them.
      const counted = except !== undefined && except === options.uncounted;
      if (counted || !except || except.size === 0) {
        // In the query's arena, each answer in memory of its own there (no allocation that
        // V8 counts towards a collection); else copied out of the search's memory.
        const into = inArena ? arena!.take(4 * kept.length) : undefined;
        kernel.termCounts(kept.byteOffset, kept.length, at.quality, counted ? at.uncounted : 0, into ?? at.counts, 0, 0);
        return into !== undefined ? new Int32Array(buffer, into, kept.length) : copyOut(new Int32Array(buffer, at.counts, kept.length));
      }
      const counts = new Int32Array(kept.length);
      const mask = maskOf(queryTermNames.flatMap((t, q) => (except.has(t) ? [q] : [])));
      for (let i = 0; i < kept.length; i++) counts[i] = quality[kept[i]!]! - docQueryTerms.countIn(kept[i]!, mask);
      return counts;
    },
    terms: (i) => docDerived.values(kept[i]!).map((t) => derivedNames[t]!),
    ...(release ? { release } : {}),
    ...(inArena ? { spare: at.score } : {}),
  };
}

/**
 * Where `fieldId`'s postings start in the packed term at `base`
 * (`[fieldCount, (fieldId, docCount, (doc, freq)…)…]`), or -1 when it has none; the
 * document count is just before. With `end` (where the term's postings end), postings that
 * do not fit are damaged: a RangeError.
 */
function sectionOf(p: Uint32Array, base: number, fieldId: number, end?: number): number {
  for (let i = base + 1, sections = p[base]!, s = 0; s < sections; s++) {
    if (end !== undefined && !(i + 2 + 2 * p[i + 1]! <= end)) throw new RangeError('the search state file\'s postings are damaged');
    if (p[i] === fieldId) return i + 2;
    i += 2 + 2 * p[i + 1]!;
  }
  return -1;
}

/**
 * The documents (by number) that have a posting of the analysed `term` in `field`, as a bit
 * per document (removed ones included: scoring skips them), read from the packed postings
 * and set to 1 in `into` (a new array when not given); or `undefined` when the index's
 * internals are not the expected ones or `into` does not have an entry per document.
 *
 * @example
 * documentsWithTerm(index, 'decis', 'type')?.[3] // 1 when document 3's type is decision
 */
export function documentsWithTerm(ms: MiniSearch, term: string, field: string, into?: Uint8Array): Uint8Array | undefined {
  const m = internalsOf(ms);
  const fieldId = m?._fieldIds[field];
  if (!m || fieldId === undefined) return undefined;
  const out = into ?? new Uint8Array(m._nextId);
  if (out.length !== m._nextId) return undefined;
  const data = m._index.get(term);
  if (data == null) return out;
  const at = data instanceof LazyTermData ? data.packedAt() : undefined;
  const sections: [Uint32Array, number][] = at ? [[at.packed, at.offset]] : [[packMap(data), 0]];
  if (at?.added !== undefined) sections.push([at.added, 0]);
  for (const [p, base] of sections) {
    const start = sectionOf(p, base, fieldId);
    if (start < 0) continue;
    for (let j = start, end = start + 2 * p[start - 1]!; j < end; j += 2) out[p[j]!] = 1;
  }
  return out;
}

/** Numbers for document ids, shared by the fallback searches whose results are combined. */
export class DocNumbering {
  private readonly numbers = new Map<string, number>();
  private readonly ids: string[] = [];

  get size(): number {
    return this.ids.length;
  }

  numberOf(id: string): number {
    let doc = this.numbers.get(id);
    if (doc === undefined) {
      doc = this.ids.length;
      this.numbers.set(id, doc);
      this.ids.push(id);
    }
    return doc;
  }

  idOf(doc: number): string {
    return this.ids[doc]!;
  }
}

/** The same columns from `MiniSearch.search` results (the fallback). */
export function packResults(results: readonly SearchResult[], numbering: DocNumbering): PackedResults {
  const docs = Int32Array.from(results, (r) => numbering.numberOf(r.id as string));
  // Already in MiniSearch's order, which ranksBefore then keeps (keys descending, stable).
  return {
    length: results.length,
    get documents() {
      return numbering.size;
    },
    docs,
    id: (doc) => numbering.idOf(doc),
    raw: Float64Array.from(results, (r) => r.score / (r.queryTerms.length || 1)),
    key: Float64Array.from(results, (r) => r.score),
    queryTerms: (i) => results[i]!.queryTerms,
    queryTermCount: (i, except) => results[i]!.queryTerms.filter((t) => !except?.has(t)).length,
    queryTermCounts: (except) => Int32Array.from(results, (r) => r.queryTerms.filter((t) => !except?.has(t)).length),
    terms: (i) => results[i]!.terms,
  };
}

/**
 * True when result `i` comes before result `j` in MiniSearch's order: the higher key
 * first, then the one matched first.
 *
 * @example
 * new LazyRanking(results.length, (i, j) => ranksBefore(results, i, j)).at(0) // MiniSearch's first result
 */
export function ranksBefore(results: PackedResults, i: number, j: number): boolean {
  const d = results.key[j]! - results.key[i]!;
  if (d) return d < 0;
  return i < j;
}
