import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { DocNumbering, packResults, ranksBefore, searchPacked, type PackedResults, type TermSpec } from './packed-search.js';
import { LazyRanking } from './lazy-ranking.js';
import { KernelArena } from './score-kernel.js';
import { mergeFeedback, mergeFeedbackSlowly } from './ranking-passes.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { addAnalyzed, analyzeDocument, LazyTermData, loadSearchState, openSearchState, saveSearchState, termDocCount } from './search-state.js';

const WORDS = ['sqlite', 'sql', 'postgres', 'migration', 'migrate', 'migrations', 'runner', 'retry', 'retries', 'policy', 'cache', 'cached', 'caching', '500', '42', 'db', 'hooks', 'hook'];
const OPTIONS = { fields: ['text', 'summary', 'tags'], idField: 'id' };
const BOOST = { text: 1, summary: 0.5, tags: 1.4 };
const BM25 = { k: 1.2, b: 0.4, d: 0.5 };

const arbitraryText = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' '));
const arbitraryDoc = fc.record({ text: arbitraryText, summary: arbitraryText, tags: arbitraryText });
const arbitrarySpec: fc.Arbitrary<TermSpec> = fc.record({
  term: fc.constantFrom(...WORDS, 'migrat', 'sqlit', 'polcy', 'nothing'),
  prefix: fc.boolean(),
  fuzzy: fc.constantFrom(false as const, 0.2, 0.34, 1, 2),
  boost: fc.constantFrom(1, 0.3, 0.1),
});

/** The term cache a replay shares across the documents it adds to one index. */
const replayTerms = new WeakMap<MiniSearch, NonNullable<Parameters<typeof addAnalyzed>[2]>>();

/** Adds a document to a loaded index as the journal's replay does: analysed, then added with its terms kept packed. */
function addPacked(ms: MiniSearch, doc: object): void {
  const analyzer = { ...OPTIONS, tokenize: MiniSearch.getDefault('tokenize') as never, processTerm: MiniSearch.getDefault('processTerm') as never };
  if (!replayTerms.has(ms)) replayTerms.set(ms, new Map());
  expect(addAnalyzed(ms, analyzeDocument(doc as Record<string, unknown>, analyzer), replayTerms.get(ms))).toBe(true);
}

function build(docs: { text: string; summary: string; tags: string }[], discard: number[]): MiniSearch {
  const ms = new MiniSearch(OPTIONS);
  ms.addAll(docs.map((d, i) => ({ id: `m${i}`, ...d })));
  for (const i of discard) if (ms.has(`m${i}`)) ms.discard(`m${i}`);
  return ms;
}

/** What MiniSearch itself returns for the same specs. */
function reference(ms: MiniSearch, specs: TermSpec[], boostDocument?: (id: string) => number, filter?: (id: string) => boolean): PackedResults {
  const results = ms.search(
    { combineWith: 'OR', queries: specs.map((s) => ({ queries: [s.term], prefix: s.prefix, fuzzy: s.fuzzy, boostTerm: () => s.boost })) } as never,
    {
      boost: BOOST,
      bm25: BM25,
      maxFuzzy: 2,
      tokenize: (t: string) => [t],
      processTerm: (t: string) => t,
      ...(boostDocument ? { boostDocument: (id: unknown) => boostDocument(id as string) } : {}),
      ...(filter ? { filter: (r: { id: unknown }) => filter(r.id as string) } : {}),
    },
  );
  return packResults(results, new DocNumbering());
}

const stateDir = mkdtempSync(join(tmpdir(), 'cortex-packed-search-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
let stateFiles = 0;

/**
 * The state of `ms` saved to a file and opened from it, as a process opens its index: the
 * postings stay in the file until a query reads them (straight into its kernel's memory).
 */
function opened(ms: MiniSearch): MiniSearch {
  const path = join(stateDir, `state-${++stateFiles}.bin`);
  writeFileSync(path, saveSearchState(ms));
  return openSearchState(path, OPTIONS)!;
}

/** How many of the index's terms still have their postings only in the file. */
function unreadTerms(ms: MiniSearch): number {
  let count = 0;
  for (const word of WORDS) {
    const data = (ms as unknown as { _index: { get(t: string): unknown } })._index.get(word);
    if (data instanceof LazyTermData && data.unread() !== undefined) count++;
  }
  return count;
}

/** An index, some of its documents discarded, documents added later (each in a slot: a new one, or replacing it), and a query. */
const laterDocuments = fc.record({
  docs: fc.array(arbitraryDoc, { minLength: 1, maxLength: 20 }),
  discard: fc.array(fc.nat(25), { maxLength: 4 }),
  later: fc.array(fc.record({ slot: fc.nat(30), doc: arbitraryDoc }), { minLength: 1, maxLength: 6 }),
  specs: fc.array(arbitrarySpec, { minLength: 1, maxLength: 6 }),
});

/** The journal's replay: each later document replaces the memory in its slot, or is new. */
function replayLater(ms: MiniSearch, later: readonly { slot: number; doc: object }[], add: (ms: MiniSearch, doc: object) => void): MiniSearch {
  for (const { slot, doc } of later) {
    if (ms.has(`m${slot}`)) ms.discard(`m${slot}`);
    add(ms, { id: `m${slot}`, ...doc });
  }
  return ms;
}

/** Terms counted apart (as the index does with thesaurus expansions). */
const EXCEPT = new Set(['sql', 'db', 'migrat']);

function columns(r: PackedResults) {
  const except = EXCEPT;
  // MiniSearch's order, read through the lazy ranking the index uses.
  const order = new LazyRanking(r.length, r.key, (i, j) => ranksBefore(r, i, j));
  return Array.from({ length: r.length }, (_, k) => order.at(k)!).map((i) => ({
    id: r.id(r.docs[i]!),
    raw: r.raw[i]!,
    queryTerms: [...r.queryTerms(i)].sort(),
    counts: [r.queryTermCount(i), r.queryTermCount(i, except), r.queryTermCounts()[i], r.queryTermCounts(except)[i]],
    terms: [...r.terms(i)].sort(),
  }));
}

function expectSame(actual: PackedResults, expected: PackedResults): void {
  const a = columns(actual);
  const e = columns(expected);
  expect(a.map((x) => x.id)).toEqual(e.map((x) => x.id));
  for (let i = 0; i < a.length; i++) {
    expect(a[i]!.raw).toBeCloseTo(e[i]!.raw, 10);
    expect(a[i]!.queryTerms).toEqual(e[i]!.queryTerms);
    expect(a[i]!.counts).toEqual(e[i]!.counts);
    expect(a[i]!.terms).toEqual(e[i]!.terms);
  }
}

describe('searchPacked', () => {
  it('returns what MiniSearch.search returns (vacuumed), packed or not, with discarded documents, boosts and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryDoc, { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(30), { maxLength: 5 }),
        fc.array(arbitrarySpec, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (docs, discard, specs, withFns, withFile) => {
          const boostDocument = withFns ? (id: string) => (id.endsWith('1') ? 1.25 : id.endsWith('3') ? 0 : 1) : undefined;
          const filter = withFns ? (id: string) => !id.endsWith('2') : undefined;
          const options = { boost: BOOST, bm25: BM25, maxFuzzy: 2, boostDocument, filter, uncounted: EXCEPT };
          // MiniSearch counts discarded postings until it sweeps them; searchPacked never does.
          const vacuumed = build(docs, discard);
          await vacuumed.vacuum();
          const expected = reference(vacuumed, specs, boostDocument, filter);
          expectSame(searchPacked(build(docs, discard), specs, options)!, expected);
          const packed = loadSearchState(saveSearchState(build(docs, discard)), OPTIONS)!;
          expectSame(searchPacked(packed, specs, options)!, expected);
          // From a file: the postings read into the kernel's memory, not into arrays of their own.
          if (withFile) {
            const fromFile = opened(build(docs, discard));
            const unread = unreadTerms(fromFile);
            expectSame(searchPacked(fromFile, specs, options)!, expected);
            expect(unreadTerms(fromFile)).toBe(unread);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives two searches of one query one kernel memory, each answering as alone, and their columns a merge can read in place', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryDoc, { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(30), { maxLength: 5 }),
        fc.array(arbitrarySpec, { minLength: 1, maxLength: 6 }),
        fc.array(arbitrarySpec, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (docs, discard, specs, more, withFns, withFile) => {
          const boostDocument = withFns ? (id: string) => (id.endsWith('1') ? 1.25 : id.endsWith('3') ? 0 : 1) : undefined;
          const options = { boost: BOOST, bm25: BM25, maxFuzzy: 2, boostDocument };
          const vacuumed = build(docs, discard);
          await vacuumed.vacuum();
          const packed = withFile ? opened(build(docs, discard)) : loadSearchState(saveSearchState(build(docs, discard)), OPTIONS)!;
          const arena = new KernelArena();
          const first = searchPacked(packed, specs, { ...options, uncounted: EXCEPT, arena })!;
          const second = searchPacked(packed, more, { ...options, arena })!;
          // The second reused the first's memory; the first's columns are still its own.
          expect(arena.holds(first.docs) && arena.holds(second.docs) && arena.holds(second.raw)).toBe(true);
          expectSame(first, reference(vacuumed, specs, boostDocument));
          expectSame(second, reference(vacuumed, more, boostDocument));
          // Merged in place (feedback's merge of the two), as merged in a memory of its own and as in JavaScript.
          const counts = first.queryTermCounts(EXCEPT);
          // Counted and scored in the arena (the coordination), as in JavaScript; only for the set the search counted.
          const coordinated = first.coordinated!(EXCEPT)!;
          expect(arena.holds(coordinated.scores) && arena.holds(coordinated.counts)).toBe(true);
          expect([...coordinated.counts]).toEqual([...counts]);
          expect([...coordinated.scores]).toEqual(Array.from(first.raw, (raw, i) => raw * Math.max(1, counts[i]!)));
          expect(first.coordinated!(new Set(EXCEPT))).toBeUndefined();
          const inPlace = mergeFeedback(first, counts, second, arena);
          expect(arena.holds(inPlace.docs)).toBe(true);
          // Its positions by document over the first pass's sums, which that pass no longer reads.
          expect(inPlace.firstAt.byteOffset).toBe(first.spare);
          const copied = mergeFeedback(first, counts, second);
          const slowly = mergeFeedbackSlowly(first, counts, second, second.queryTermCounts());
          for (const merged of [copied, slowly]) {
            expect([...inPlace.docs]).toEqual([...merged.docs]);
            expect([...inPlace.final]).toEqual([...merged.final]);
            expect([...inPlace.firstAt]).toEqual([...merged.firstAt]);
            expect([...inPlace.moreAt]).toEqual([...merged.moreAt]);
          }
          copied.release?.();
          // An arena with no room left: the merge copies into a memory of its own, the same merge.
          while (arena.take(65536) !== undefined);
          while (arena.take(8) !== undefined);
          const crowded = mergeFeedback(first, counts, second, arena);
          expect(arena.holds(crowded.docs)).toBe(false);
          expect([...crowded.docs]).toEqual([...inPlace.docs]);
          expect([...crowded.final]).toEqual([...inPlace.final]);
          expect([...crowded.firstAt]).toEqual([...inPlace.firstAt]);
          expect([...crowded.moreAt]).toEqual([...inPlace.moreAt]);
          crowded.release?.();
          // Another index (or other boosts): a memory of its own.
          const other = searchPacked(build(docs, discard), more, { ...options, arena })!;
          expect(arena.holds(other.docs)).toBe(false);
          expectSame(other, reference(vacuumed, more, boostDocument));
          other.release?.();
          arena.release();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scores documents added to a loaded index (kept beside the packed postings) as MiniSearch does', async () => {
    await fc.assert(
      fc.asyncProperty(laterDocuments, async ({ docs, discard, later, specs }) => {
        const options = { boost: BOOST, bm25: BM25, maxFuzzy: 2 };
        const replay = (ms: MiniSearch, add: (ms: MiniSearch, doc: object) => void) => replayLater(ms, later, add);
        const plain = replay(build(docs, discard), (ms, doc) => ms.add(doc));
        const packed = replay(loadSearchState(saveSearchState(build(docs, discard)), OPTIONS)!, addPacked);
        for (const word of WORDS) expect(termDocCount(packed, word)).toBe(termDocCount(plain, word));
        const vacuumed = replay(build(docs, discard), (ms, doc) => ms.add(doc));
        await vacuumed.vacuum();
        const expected = reference(vacuumed, specs);
        expectSame(searchPacked(packed, specs, options)!, expected);
        // Saved with the added postings and loaded again: the same results.
        expectSame(searchPacked(loadSearchState(saveSearchState(packed), OPTIONS)!, specs, options)!, expected);
        // Read as Maps (MiniSearch's own search unpacks them): the same as the plain index.
        const again = replay(loadSearchState(saveSearchState(build(docs, discard)), OPTIONS)!, addPacked);
        await again.vacuum();
        expectSame(reference(again, specs), expected);
      }),
      { numRuns: 200 },
    );
  });

  it('scores documents added to an index opened from its file: its postings read in place, the added ones copied after them', async () => {
    await fc.assert(
      fc.asyncProperty(laterDocuments, async ({ docs, discard, later, specs }) => {
        const fromFile = replayLater(opened(build(docs, discard)), later, addPacked);
        const vacuumed = replayLater(build(docs, discard), later, (ms, doc) => ms.add(doc));
        await vacuumed.vacuum();
        expectSame(searchPacked(fromFile, specs, { boost: BOOST, bm25: BM25, maxFuzzy: 2 })!, reference(vacuumed, specs));
      }),
      { numRuns: 80 },
    );
  });

  it("reads the postings of an index opened from its file into the kernel's memory, term by term", async () => {
    const docs = [
      { text: 'sqlite migration runner', summary: 'sqlite', tags: 'db' },
      { text: 'postgres migration', summary: 'migrate the cache', tags: '' },
      { text: 'retry policy for the runner', summary: 'retries', tags: 'policy' },
    ];
    const fromFile = opened(build(docs, [1]));
    expect(unreadTerms(fromFile)).toBeGreaterThan(5);
    const specs: TermSpec[] = [
      { term: 'migration', prefix: true, fuzzy: 0.2, boost: 1 },
      { term: 'sqlite', prefix: false, fuzzy: false, boost: 1 },
      { term: 'db', prefix: false, fuzzy: false, boost: 0.3 },
    ];
    const vacuumed = build(docs, [1]);
    await vacuumed.vacuum();
    const expected = reference(vacuumed, specs);
    const unread = unreadTerms(fromFile);
    expectSame(searchPacked(fromFile, specs, { boost: BOOST, bm25: BM25, maxFuzzy: 2 })!, expected);
    expect(unreadTerms(fromFile)).toBe(unread);
    // Damaged postings (a section longer than the term's postings) are an error, not a wrong answer.
    const data = (fromFile as unknown as { _index: { get(t: string): LazyTermData } })._index.get('sqlite');
    const real = data.unread()!;
    const damaged = { ...real, readInto: (into: Uint32Array) => (real.readInto(into), (into[2] = 1000)) };
    data.unread = () => damaged;
    expect(() => searchPacked(fromFile, specs, { boost: BOOST, bm25: BM25, maxFuzzy: 2 })).toThrow(/damaged/);
  });

  it('gives up (undefined) on an index whose internals are not the expected ones', () => {
    const ms = build([{ text: 'sqlite', summary: '', tags: '' }], []);
    (ms as unknown as { _index: unknown })._index = {};
    expect(searchPacked(ms, [{ term: 'sqlite', prefix: false, fuzzy: false, boost: 1 }], { boost: BOOST, bm25: BM25, maxFuzzy: 2 })).toBeUndefined();
  });
});
