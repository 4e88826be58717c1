/**
 * The seam of the search code: what the use cases (`api/`), `services/` and `setup/` may
 * know of the keyword index, and the one way to open it. Everything else in
 * `src/cache/index/` is the engine's own (`test/architecture.test.ts` fails on an import of
 * it from outside this folder): the packed postings, the score kernel, MiniSearch's state.
 *
 * @example
 * const index = openSearchIndex(paths);
 * index.refresh(paths, { base: root });
 * index.query('which database', { limit: 5 }); // [{ id, score, terms, queryTerms }]
 */
import type { Memory, Scope } from '../../core/memory.js';
import type { RecallPlan } from '../../core/recall-rank.js';
import type { MemoryFileEntry, MemoryFileScan } from '../../store/memory-store.js';
import type { TierPaths } from '../../store/paths.js';
import type { DocFacets, DocTable, IndexedDoc } from './doc-table.js';
import { KeywordIndex, type RefreshReport, type SearchHit, type SearchOptions } from './keyword-index.js';
import type { LinkExtractor } from './prepare-file.js';

export type { DocFacets, IndexedDoc, LinkExtractor, RefreshReport, SearchHit, SearchOptions };
export { contentKeyOf } from './prepare-file.js';
export { FRESH_SWEEP_MS, setFreshSweepWindow } from './keyword-index.js';

/**
 * The memories indexed, by id, read on demand: their records, facets, `[[links]]` and the
 * fingerprint the graph cache is keyed by.
 */
export type DocumentTable = ReadonlyMap<string, IndexedDoc> & Pick<DocTable, 'allFacets' | 'linked' | 'fingerprint' | 'sessionNeighbours'>;

/** Options of {@link SearchIndex.refresh}. */
export interface RefreshOptions {
  /** Base for the paths shown to people. */
  base: string;
  links?: LinkExtractor;
  scan?: MemoryFileScan;
  /** State every memory file whatever the size of the tier. */
  sweep?: boolean;
  sweepBelow?: number;
  logRecordsFrom?: number;
  workerFrom?: number;
  now?: number;
}

/** One tier's keyword index, as the layers above the cache see it. */
export interface SearchIndex {
  /** The memories indexed. */
  readonly docs: DocumentTable;
  /** How many memories are indexed. */
  readonly size: number;
  /** Replaced or removed memories the search tree still holds postings for (see `compactIndexes`). */
  readonly discarded: number;
  /** True when the cache could not be used and this index was built from the files. */
  readonly rebuilt: boolean;
  /**
   * Ranked memories for a query, best first, ranked as core/recall-rank.ts says; a query
   * planned there once (`planRecall`) is searched as planned in every tier.
   */
  query(query: string | RecallPlan, options?: SearchOptions): SearchHit[];
  /** Memories passing the filters, without a query. */
  filter(options?: SearchOptions): IndexedDoc[];
  /** The memory with this content key, if any (duplicate detection). */
  findByContentKey(key: string): IndexedDoc | undefined;
  /** Memories with this topic and scope, superseded ones left out. */
  findByTopic(topic: string, scope: Scope): IndexedDoc[];
  /** The number of memories and, per analysed term, how many contain it. */
  termStats(terms: readonly string[]): { documents: number; docFreq: Map<string, number> };
  /** Each term's document frequency, remembered while the index is unchanged, and the number of memories. */
  rarity(): { docFreq: (term: string) => number; totalDocs: number };
  /** Brings the index up to date with the files of the memories directory. */
  refresh(paths: TierPaths, options: RefreshOptions): RefreshReport;
  /** Reads again the named files of the memories directory (names, not paths), without a sweep. */
  refreshFiles(names: readonly string[]): RefreshReport;
  /** Reads again the files of the memories about to be shown when they changed; true when one did. */
  verify(ids: readonly string[]): boolean;
  /** Records a memory this process just wrote, so the index need not read it again. */
  upsert(written: Memory, entry: MemoryFileEntry, text: string, options: { base: string; links?: LinkExtractor }): void;
  /** Forgets a memory whose file this process deleted. */
  remove(id: string): void;
  /** Saves the cache atomically when anything changed. */
  save(paths: TierPaths): void;
}

/**
 * Opens one tier's index from its cache (anything unusable gives an empty index, filled by
 * the first `refresh`); `{ empty: true }` ignores the cache, for a full rebuild.
 */
export function openSearchIndex(paths: TierPaths, options: { empty?: boolean } = {}): SearchIndex {
  return options.empty ? KeywordIndex.empty() : KeywordIndex.load(paths);
}

/** The path of a tier's index file (what `status` and `doctor` report). */
export function searchIndexPath(paths: TierPaths): string {
  return KeywordIndex.indexPath(paths);
}

/** Deletes a tier's index files no reader can still need; returns their paths. */
export function sweepStaleIndexFiles(paths: TierPaths): string[] {
  return KeywordIndex.sweepStale(paths);
}

