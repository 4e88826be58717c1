/**
 * A keyword query's passes made one ranking, in the score kernel's memory where it can: the
 * coordination of the first pass (a result's score × the query's own words it matched) and
 * the merge of the feedback pass with it (see `KeywordIndex.query`, and core/recall-rank.ts
 * for the policy both apply).
 */
import { LazyRanking } from './lazy-ranking.js';
import { ranksBefore, type PackedResults } from './packed-search.js';
import { instantiateKernel, KernelLayout, NO_IMPORTS, type KernelArena } from './score-kernel.js';

/**
 * MiniSearch multiplies a result's score by the number of query terms it matched. A thesaurus
 * expansion is a guess, not something the question said: counting it as a full term let a
 * memory that matched "db" and "postgres" by expansion outrank the one that matched the
 * question's own words (golden hit@1 82.7 → 94.2%). Only the query's terms count here, and
 * the time words of a "when" question: a memory that says when is what such a question wants.
 *
 * Returns each result's counted query words, its final score, and the results best first
 * (ties in MiniSearch's order), ranked as far as they are read.
 */
export function coordinate(results: PackedResults, expansions: ReadonlySet<string>, arena?: KernelArena): { counts: Int32Array; scores: Float64Array; order: LazyRanking } {
  // In the query's kernel memory when the search is there (a loop over tens of thousands of
  // results that, as JavaScript, ran interpreted), else here.
  let { counts, scores } = results.coordinated?.(expansions) ?? {};
  if (counts === undefined || scores === undefined) {
    counts = results.queryTermCounts(expansions);
    scores = new Float64Array(results.length);
    for (let i = 0; i < results.length; i++) scores[i] = results.raw[i]! * Math.max(1, counts[i]!);
  }
  const order = new LazyRanking(results.length, scores, (a, b) => ranksBefore(results, a, b), arena);
  return { counts, scores, order };
}

/**
 * The second ranking's documents: the first pass's results in their order, then those only
 * feedback found, in its order, with the final score of each (`final[x]` is `docs[x]`'s) and
 * where each document is in either pass (-1: not there). Computed by score-kernel.wat (a loop
 * over every result of both passes runs once per process: as JavaScript it ran interpreted).
 */
export function mergeFeedback(first: PackedResults, firstCounts: Int32Array, more: PackedResults, arena?: KernelArena): { docs: Int32Array; final: Float64Array; firstAt: Int32Array; moreAt: Int32Array; release?(): void } {
  const n = Math.max(first.documents, more.documents);
  const moreCounts = more.queryTermCounts();
  // In the query's arena when both passes' columns are there (they are then read in place).
  const shared = arena !== undefined && [first.docs, first.raw, more.docs, more.raw].every((view) => arena.holds(view));
  // There, the sums by document each pass no longer reads hold the merge's: the positions
  // in either pass (4 + 4 bytes a document) over the first's, the sums over the second's
  // (memory already faulted in, rather than 2 MB more at 100,000 memories).
  const spare = shared && first.spare !== undefined && more.spare !== undefined && first.spare !== more.spare && first.documents === n && more.documents === n ? { first: first.spare, more: more.spare } : undefined;
  // The kernel's memory: each pass's columns (in the arena, read where they are; else copied
  // in), then the merge's own.
  const layoutOf = (take: (bytes: number) => number, inArena: boolean) => {
    const place = (view: Int32Array | Float64Array) => (inArena && arena!.holds(view) ? view.byteOffset : take(view.byteLength));
    const over = inArena ? spare : undefined;
    return {
      firstRaw: place(first.raw),
      moreRaw: place(more.raw),
      firstDocs: place(first.docs),
      firstCounts: place(firstCounts),
      moreDocs: place(more.docs),
      moreCounts: place(moreCounts),
      score: over?.more ?? take(8 * n),
      final: take(8 * (first.length + more.length)),
      count: take(4 * n),
      firstAt: over?.first ?? take(4 * n),
      moreAt: over ? over.first + 4 * n : take(4 * n),
      docs: take(4 * (first.length + more.length)),
    };
  };
  // No room left in the arena: a memory of its own, everything copied in.
  const base = shared ? arena.take(KernelLayout.bytes((take) => layoutOf(take, true))) : undefined;
  const inArena = base !== undefined;
  const instance = inArena ? arena!.kernel : instantiateKernel(8 + KernelLayout.bytes((take) => layoutOf(take, false)), NO_IMPORTS);
  if (instance === undefined) return mergeFeedbackSlowly(first, firstCounts, more, moreCounts);
  const layout = new KernelLayout(base ?? 8);
  const at = layoutOf((bytes) => layout.take(bytes), inArena);
  const { kernel, memory } = instance;
  const buffer = memory.buffer;
  const copies: [Int32Array | Float64Array, number][] = [[first.raw, at.firstRaw], [more.raw, at.moreRaw], [first.docs, at.firstDocs], [firstCounts, at.firstCounts], [more.docs, at.moreDocs], [moreCounts, at.moreCounts]];
  for (const [view, offset] of copies) if (view.byteOffset !== offset || view.buffer !== buffer) new Uint8Array(buffer, offset, view.byteLength).set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  const i32 = new Int32Array(buffer);
  i32.fill(-1, at.firstAt >>> 2, (at.firstAt >>> 2) + n);
  i32.fill(-1, at.moreAt >>> 2, (at.moreAt >>> 2) + n);
  // The sums start at zero (written over, they are not).
  if (inArena && spare !== undefined) new Float64Array(buffer, at.score, n).fill(0);
  const length = kernel.mergeFeedback(first.length, at.firstDocs, at.firstRaw, at.firstCounts, more.length, at.moreDocs, at.moreRaw, at.moreCounts, at.score, at.count, at.firstAt, at.moreAt, at.docs, at.final);
  return {
    docs: new Int32Array(buffer, at.docs, length),
    final: new Float64Array(buffer, at.final, length),
    firstAt: new Int32Array(buffer, at.firstAt, n),
    moreAt: new Int32Array(buffer, at.moreAt, n),
    // The arena is given back with the query; a memory of its own, with these columns.
    ...(inArena ? {} : { release: instance.release }),
  };
}

/** {@link mergeFeedback} where WebAssembly cannot run (the packed results are MiniSearch's then). */
export function mergeFeedbackSlowly(first: PackedResults, firstCounts: Int32Array, more: PackedResults, moreCounts: Int32Array): { docs: Int32Array; final: Float64Array; firstAt: Int32Array; moreAt: Int32Array } {
  const n = Math.max(first.documents, more.documents);
  const score = new Float64Array(n);
  const count = new Int32Array(n);
  const firstAt = new Int32Array(n).fill(-1);
  const moreAt = new Int32Array(n).fill(-1);
  const docs: number[] = [];
  for (let i = 0; i < first.length; i++) {
    const doc = first.docs[i]!;
    score[doc] = first.raw[i]!;
    count[doc] = firstCounts[i]!;
    firstAt[doc] = i;
    docs.push(doc);
  }
  for (let i = 0; i < more.length; i++) {
    const doc = more.docs[i]!;
    if (firstAt[doc] === -1) docs.push(doc);
    moreAt[doc] = i;
    score[doc]! += more.raw[i]!;
    count[doc]! += moreCounts[i]!;
  }
  const final = new Float64Array(docs.length);
  for (let x = 0; x < docs.length; x++) final[x] = score[docs[x]!]! * Math.max(1, count[docs[x]!]!);
  return { docs: Int32Array.from(docs), final, firstAt, moreAt };
}
