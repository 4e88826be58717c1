/**
 * MiniSearch's OR query, scored straight from the packed postings.
 *
 * `MiniSearch.search` builds a result object, a term list and a match record for every
 * posting it scores; a question with a dozen thesaurus words touches tens of thousands of
 * postings at 10,000 memories, and that allocation (and the garbage it leaves) was a third
 * of a warm `recall`. This computes the same thing — BM25+ per field, the same prefix and
 * fuzzy expansion with the same weights, the same order of summation and the same result
 * order — into typed arrays indexed by document, reading packed postings without unpacking
 * them (search-state.ts). A test checks it against `MiniSearch.search` on random queries.
 *
 * One difference, on purpose: a discarded memory's postings stay in the index until a
 * vacuum, and MiniSearch counts them in a term's document frequency until a query happens to
 * sweep them (so the same query can score differently twice, even below zero). Here they
 * are never counted: scores are those of the vacuumed index, every time.
 *
 * It reads MiniSearch's private fields; when they are not what this expects it returns
 * `undefined` and the caller uses `MiniSearch.search`.
 */
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { LazyDocIds, LazyFieldLengths, LazyTermData, MISSING_LENGTH, packMap } from './search-state.js';

/** One query term, as MiniSearch's `termToQuerySpec` would make it. */
export interface TermSpec {
  term: string;
  prefix: boolean;
  /** Edit distance as a fraction of the term's length (< 1) or absolute (≥ 1); false for none. */
  fuzzy: number | false;
  boost: number;
}

export interface PackedSearchOptions {
  /** Boost per field; every indexed field is scored, a missing or zero boost counts as 1 (as MiniSearch does). */
  boost: Readonly<Record<string, number>>;
  bm25: { k: number; b: number; d: number };
  maxFuzzy: number;
  weights?: { fuzzy: number; prefix: number };
  /** A document's score multiplier; called once per document (it must not depend on the term). 0 drops it. */
  boostDocument?: ((id: string) => number) | undefined;
  /** The same by document number, when the caller has it so (no id is cut out per document); used instead of `boostDocument`. */
  boostDoc?: ((doc: number) => number) | undefined;
  /** Documents to keep (default: all; a caller that reads only the head can filter as it reads). */
  filter?: ((id: string) => boolean) | undefined;
  /**
   * Query terms that {@link PackedResults.queryTermCounts} will be asked to leave out
   * (passing this very set): they are then counted while scoring.
   */
  uncounted?: ReadonlySet<string> | undefined;
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
  /** The indexed terms that matched result `i` (prefix and fuzzy variants included). */
  terms(i: number): string[];
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

function internalsOf(ms: MiniSearch): Internals | undefined {
  const m = ms as unknown as Partial<Internals>;
  const index = m._index;
  if (
    !index ||
    typeof index.get !== 'function' ||
    typeof index.atPrefix !== 'function' ||
    typeof index.fuzzyGet !== 'function' ||
    !(m._documentIds instanceof Map) ||
    !(m._fieldLength instanceof Map) ||
    typeof m._fieldIds !== 'object' ||
    !Array.isArray(m._avgFieldLength) ||
    typeof m._documentCount !== 'number' ||
    typeof m._dirtCount !== 'number' ||
    typeof m._nextId !== 'number' ||
    !Array.isArray(m._options?.fields)
  ) {
    return undefined;
  }
  return m as Internals;
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
 */
class BitSets {
  private readonly blocks: Uint32Array[] = [];

  constructor(private readonly documents: number) {}

  /** The column holding value `v` (made when first asked for): `v` is in `doc`'s set when bit `1 << (v & 31)` of entry `doc` is. */
  words(v: number): Uint32Array {
    const block = v >>> 5;
    while (this.blocks.length <= block) this.blocks.push(new Uint32Array(this.documents));
    return this.blocks[block]!;
  }

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

/**
 * Scores `specs` combined with OR, as `ms.search` would with the same options, or returns
 * `undefined` when the index's internals are not the expected ones.
 *
 * @example
 * const results = searchPacked(index, [{ term: 'sqlite', prefix: true, fuzzy: 0.2, boost: 1 }], { boost: { text: 1 }, bm25: BM25, maxFuzzy: 2 });
 */
export function searchPacked(ms: MiniSearch, specs: readonly TermSpec[], options: PackedSearchOptions): PackedResults | undefined {
  const m = internalsOf(ms);
  if (!m) return undefined;
  const { k, b, d } = options.bm25;
  const weights = options.weights ?? MATCH_WEIGHTS;
  const boostDocument = options.boostDocument;
  const fieldNames = m._options.fields;
  const fieldIds = Int32Array.from(fieldNames, (name) => m._fieldIds[name]!);
  const fieldBoosts = Float64Array.from(fieldNames, (name) => options.boost[name] || 1);
  const fieldAvgs = Float64Array.from(fieldIds, (id) => m._avgFieldLength[id]!);
  const n = m._nextId;
  const total = m._documentCount;
  const documentIds = m._documentIds;
  const fieldLength = m._fieldLength;
  // Discarded documents may still have postings (until a vacuum): count only live ones,
  // looked up in a bit per document rather than in the id Map for every posting.
  const dirty = m._dirtCount > 0;
  const live = dirty ? liveDocuments(m) : new Uint8Array(0);

  const score = new Float64Array(n);
  const termScore = new Float64Array(n);
  /** Per document: its multiplier once computed (NaN: not yet). */
  const docBoost = new Float64Array(n).fill(Number.NaN);
  // A loaded index reads lengths from its columns; one built in this process from its arrays.
  const lazyLengths = fieldLength instanceof LazyFieldLengths ? fieldLength : undefined;
  const lengthColumns = lazyLengths?.columns();
  const lengths: (number[] | undefined)[] = lazyLengths ? [] : new Array(n);
  const lengthOf = (doc: number, fieldId: number): number => {
    if (lazyLengths !== undefined) return lazyLengths.lengthAt(doc, fieldId);
    let lens = lengths[doc];
    if (lens === undefined) lens = lengths[doc] = fieldLength.get(doc)!;
    return lens[fieldId]!;
  };
  const boostOf = options.boostDoc ?? (boostDocument ? (doc: number) => boostDocument(documentIds.get(doc)!) : undefined);
  const touched: number[] = [];
  const seen = new Uint8Array(n);
  /** The documents the current query term scored, in the order first scored. */
  const termTouched: number[] = [];
  // Unique query terms and derived (indexed) terms by string, and per document which matched.
  const queryTermIndex = new Map<string, number>();
  const queryTermNames: string[] = [];
  const derivedIndex = new Map<string, number>();
  const derivedNames: string[] = [];
  // Query terms are numbered in the order they are searched, so ascending is MiniSearch's order.
  const docQueryTerms = new BitSets(n);
  const quality = new Int32Array(n);
  /** Per document: how many of the query terms it matched are in `options.uncounted`. */
  const uncounted = new Int32Array(options.uncounted ? n : 0);
  const docDerived = new BitSets(n);

  /**
   * MiniSearch's termResults: one indexed term's postings, field by field, with the same
   * arithmetic in the same order, so that scores are equal to the last bit. One loop over
   * the packed postings (an unpacked term is packed for it), no call per posting.
   */
  const scoreTerm = (derivedTerm: string, data: TermData | undefined, termWeight: number, termBoost: number): void => {
    if (data == null) return;
    let derived = derivedIndex.get(derivedTerm);
    if (derived === undefined) {
      derived = derivedNames.length;
      derivedIndex.set(derivedTerm, derived);
      derivedNames.push(derivedTerm);
    }
    const derivedWords = docDerived.words(derived);
    const derivedBit = 1 << (derived & 31);
    const at = data instanceof LazyTermData ? data.packedAt() : undefined;
    const p = at ? at.packed : packMap(data);
    const base = at ? at.offset : 0;
    // Postings added since the load, in the same layout, follow the packed ones per field.
    const q = at?.added;
    for (let f = 0; f < fieldIds.length; f++) {
      const fieldId = fieldIds[f]!;
      const start = sectionOf(p, base, fieldId);
      const addedStart = q === undefined ? -1 : sectionOf(q, 0, fieldId);
      if (start < 0 && addedStart < 0) continue;
      const end = start < 0 ? start : start + 2 * p[start - 1]!;
      const addedEnd = addedStart < 0 ? addedStart : addedStart + 2 * q![addedStart - 1]!;
      let matching = (end - start + addedEnd - addedStart) / 2;
      if (dirty) matching = liveCount(p, start, end, live) + (q === undefined ? 0 : liveCount(q, addedStart, addedEnd, live));
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      const weight = termWeight * termBoost * fieldBoosts[f]!;
      const avg = fieldAvgs[f]!;
      const sections: [Uint32Array, number, number][] = [[p, start, end]];
      if (q !== undefined) sections.push([q, addedStart, addedEnd]);
      for (const [a, from, to] of sections) {
        scoreSection(a, from, to, termScore, termTouched, docBoost, dirty ? live : undefined, lengthColumns?.values, lengthColumns?.present, lengthColumns?.fields ?? 0, lengthOf, fieldId, weight, idf, avg, k, b, d, derivedWords, derivedBit, boostOf);
      }
    }
  };

  for (const spec of specs) {
    const term = spec.term;
    const boost = spec.boost;
    scoreTerm(term, m._index.get(term), 1, boost);
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
        scoreTerm(match, data, (weights.prefix * match.length) / (match.length + 0.3 * distance), boost);
      }
    }
    if (fuzzyMatches) {
      for (const [match, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        scoreTerm(match, data, (weights.fuzzy * match.length) / (match.length + distance), boost);
      }
    }
    // OR: add this term's scores to the totals, and the term to each document it matched.
    let q = queryTermIndex.get(term);
    if (q === undefined) {
      q = queryTermNames.length;
      queryTermIndex.set(term, q);
      queryTermNames.push(term);
    }
    addTermScores(termTouched, termScore, score, docQueryTerms.words(q), 1 << (q & 31), quality, options.uncounted?.has(term) === true ? uncounted : undefined, seen, touched);
    termTouched.length = 0;
  }

  // Left in the order first matched: callers rank lazily (MiniSearch's order is key
  // descending, then that order: see ranksBefore), reading only the head of thousands.
  const filter = options.filter;
  const kept = filter ? touched.filter((doc) => filter(documentIds.get(doc)!)) : touched;
  const { raw, key, docs: keptDocs } = resultColumns(kept, score, quality);
  let exceptSet: ReadonlySet<string> | undefined;
  let exceptMask: Uint32Array = new Uint32Array(0);
  return {
    length: kept.length,
    documents: n,
    docs: keptDocs,
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
    queryTermCounts: (except) => {
      const counts = new Int32Array(kept.length);
      // The set counted as the documents were scored needs no second look at them.
      const counted = except !== undefined && except === options.uncounted;
      const mask = !counted && except && except.size > 0 ? maskOf(queryTermNames.flatMap((t, q) => (except.has(t) ? [q] : []))) : undefined;
      for (let i = 0; i < kept.length; i++) {
        const doc = kept[i]!;
        counts[i] = counted ? quality[doc]! - uncounted[doc]! : mask ? quality[doc]! - docQueryTerms.countIn(doc, mask) : quality[doc]!;
      }
      return counts;
    },
    terms: (i) => docDerived.values(kept[i]!).map((t) => derivedNames[t]!),
  };
}

// The loops over every matched document live in small functions of their own: V8 compiles
// a function with a hot loop while it runs (on another thread), and a process waits for that
// compilation before it exits; compiling all of searchPacked for one loop cost a recall 10 ms.

/**
 * OR: adds one query term's scores (`termScore` of the `termTouched` documents, reset to 0)
 * to the totals, and the term (`queryBit` in `queryWords`) to each document, counting it in
 * `quality` (and in `uncounted`, when given) the first time; `touched` gets new documents.
 */
function addTermScores(
  termTouched: readonly number[],
  termScore: Float64Array,
  score: Float64Array,
  queryWords: Uint32Array,
  queryBit: number,
  quality: Int32Array,
  uncounted: Int32Array | undefined,
  seen: Uint8Array,
  touched: number[],
): void {
  for (let t = 0; t < termTouched.length; t++) {
    const doc = termTouched[t]!;
    score[doc]! += termScore[doc]!;
    termScore[doc] = 0;
    if ((queryWords[doc]! & queryBit) === 0) {
      queryWords[doc] = queryWords[doc]! | queryBit;
      quality[doc]!++;
      if (uncounted !== undefined) uncounted[doc]!++;
    }
    if (seen[doc] === 0) {
      seen[doc] = 1;
      touched.push(doc);
    }
  }
}

/** How many of the postings `a[from..to)` are of live documents. */
function liveCount(a: Uint32Array, from: number, to: number, live: Uint8Array): number {
  let count = 0;
  for (let j = from; j < to; j += 2) count += live[a[j]!]!;
  return count;
}

/** The result columns of the documents `kept` (loops, not TypedArray.from with a mapping function: slow while cold). */
function resultColumns(kept: readonly number[], score: Float64Array, quality: Int32Array): { raw: Float64Array; key: Float64Array; docs: Int32Array } {
  const raw = new Float64Array(kept.length);
  const key = new Float64Array(kept.length);
  const docs = new Int32Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    const doc = kept[i]!;
    docs[i] = doc;
    raw[i] = score[doc]!;
    key[i] = score[doc]! * (quality[doc]! || 1);
  }
  return { raw, key, docs };
}

/**
 * The inner loop of {@link searchPacked}: the postings `a[from..to)` (document, frequency
 * pairs) of one term in one field, added to `termScore` with MiniSearch's BM25+ arithmetic.
 * A plain function of plain arguments (no closure, no object), so that it runs fast before
 * the optimizing compiler has seen it: a `recall` process scores tens of thousands of
 * postings once and exits. A document is listed in `termTouched` when first scored (every
 * score is positive), and `derivedBit` is set in its `derivedWords` entry.
 */
function scoreSection(
  a: Uint32Array,
  from: number,
  to: number,
  termScore: Float64Array,
  termTouched: number[],
  docBoost: Float64Array,
  live: Uint8Array | undefined,
  lengthValues: Uint32Array | undefined,
  lengthPresent: Uint8Array | undefined,
  fieldCount: number,
  lengthOf: (doc: number, fieldId: number) => number,
  fieldId: number,
  weight: number,
  idf: number,
  avg: number,
  k: number,
  b: number,
  d: number,
  derivedWords: Uint32Array,
  derivedBit: number,
  boostOf: ((doc: number) => number) | undefined,
): void {
  for (let j = from; j < to; j += 2) {
    const doc = a[j]!;
    if (live !== undefined && live[doc] === 0) continue;
    let boost = 1;
    if (boostOf !== undefined) {
      boost = docBoost[doc]!;
      if (boost !== boost) docBoost[doc] = boost = boostOf(doc);
      if (!boost) continue;
    }
    let length: number;
    if (lengthPresent !== undefined && lengthPresent[doc] === 1) {
      length = lengthValues![doc * fieldCount + fieldId]!;
      if (length === MISSING_LENGTH) length = Number.NaN;
    } else {
      length = lengthOf(doc, fieldId);
    }
    const freq = a[j + 1]!;
    if (termScore[doc] === 0) termTouched.push(doc);
    termScore[doc]! += weight * boost * (idf * (d + (freq * (k + 1)) / (freq + k * (1 - b + (b * length) / avg))));
    derivedWords[doc] = derivedWords[doc]! | derivedBit;
  }
}

/**
 * Where `fieldId`'s postings start in the packed term at `base`
 * (`[fieldCount, (fieldId, docCount, (doc, freq)…)…]`), or -1 when it has none; the
 * document count is just before.
 */
function sectionOf(p: Uint32Array, base: number, fieldId: number): number {
  for (let i = base + 1, sections = p[base]!, s = 0; s < sections; s++) {
    if (p[i] === fieldId) return i + 2;
    i += 2 + 2 * p[i + 1]!;
  }
  return -1;
}

/**
 * The documents (by number) that have a posting of the analysed `term` in `field`, as a bit
 * per document (removed ones included: scoring skips them), read from the packed postings; or
 * `undefined` when the index's internals are not the expected ones.
 *
 * @example
 * documentsWithTerm(index, 'decis', 'type')?.[3] // 1 when document 3's type is decision
 */
export function documentsWithTerm(ms: MiniSearch, term: string, field: string): Uint8Array | undefined {
  const m = internalsOf(ms);
  const fieldId = m?._fieldIds[field];
  if (!m || fieldId === undefined) return undefined;
  const out = new Uint8Array(m._nextId);
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
