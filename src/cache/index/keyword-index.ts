/**
 * The keyword index in `.memory/index.v8`: MiniSearch over every memory of one tier,
 * plus a stat cache (file → size, mtime, content hash) so a warm run re-reads only
 * the files that changed. A missing, corrupt or mismatched cache is rebuilt silently.
 *
 * Everything is saved with V8's serializer and laid out so that opening costs little
 * beyond what a command reads: file stats as columns, each memory's record as JSON parsed
 * on first read (doc-table.ts), and the search tree in its own file, loaded on the first
 * query, whose postings unpack term by term (search-state.ts).
 */
import { CortexError } from '../../errors.js';
import * as crypto from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readdirSync, rmSync, statSync, watch, type FSWatcher } from 'node:fs';
import { closeWhenCollected, readAt } from '../../store/safe-read.js';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import MiniSearch from 'minisearch';
import { MEMORY_TYPES, type Diagnostic, type Memory, type MemoryStatus, type MemoryType, type Scope } from '../../core/memory.js';
import { openDocs, writeDocs } from './docs-file.js';
import { DocTable, isDocJournal, type DocFacets, type DocJournal, type IndexedDoc, type NewRecords, type RecordSource } from './doc-table.js';
import { feedbackTerms } from '../../core/query.js';
import { DEFAULT_BM25, DEFAULT_FIELD_BOOSTS, DEFAULT_RECALL_FEEDBACK as FEEDBACK, DEFAULT_TYPE_HINT_BOOST, MAX_FUZZY_EDITS, feedbackTailScale, planRecall, type RecallPlan } from '../../core/recall-rank.js';
import { processTerm, tokenize } from '../../core/text.js';
import { detachString } from '../../core/detach-string.js';
import { FilePreparer, packPrepared, unpackPrepared, type PackedFile } from './parallel-prepare.js';
import { ANALYZER, INDEXED_FIELDS, NO_LINKS, indexedDocOf, prepareFile, searchDocOf, sha1, type LinkExtractor, type PreparedFile } from './prepare-file.js';
import { AtomicFileWriter, isTempFileName, removeStaleTempFiles, writeFileAtomic } from '../../store/atomic.js';
import { KernelArena } from './score-kernel.js';
import { DocNumbering, documentsWithTerm, packResults, ranksBefore, searchPacked, type PackedResults, type TermSpec } from './packed-search.js';
import { coordinate, mergeFeedback } from './ranking-passes.js';
import { LazyRanking } from './lazy-ranking.js';
import { FRAMES_MIN_BYTES, baseOf, isJournal, journalPart, packFrame, packIndexFile, unpackIndexFile, unpackIndexFileWithFrames, type IndexFile, type IndexFrame, type Journal } from './index-file.js';
import { PackedBuilder } from './packed-build.js';
import { addAnalyzed, analyzeDocument, knowSavedShortIds, loadSearchState, openSearchState, savedShortIdOf, saveSearchState, termDocCount, type AnalyzedDoc } from './search-state.js';
import { displayPath, readMemoryFile, scanEntry, scanMemoryFiles, type MemoryFileEntry, type MemoryFileScan } from '../../store/memory-store.js';
import { FileTable, type FileEntry } from './file-table.js';
import { dirStamp, isDirStamp, sameStamp, type DirStamp } from '../dir-stamp.js';
import type { TierPaths } from '../../store/paths.js';
import { DOCS_FILE, FILES_FILE, KEYWORD_INDEX_FILE, RECORDS_FILE, SEARCH_TREE_FILE, SESSION_ORDER_FILE, docsFileName, filesFileName, recordsFileName, searchTreeName } from '../layout.js';

/** Bump when the cache layout or the text analysis changes: old caches are rebuilt. */
// 6: `[[links]]` are indexed (graph), on top of 5 (field weights). 7: the search tree in its own file.
// 8: V8-serialized `index.v8` with records parsed on demand, postings unpacked on demand.
// 9: the memories' fingerprint (the graph cache's key) kept in the doc table; string columns
// saved as one string each (columns.ts); the search state's id map and field lengths as columns;
// the journal keeps memories analysed. 10: any language (CJK/Thai/Korean bigrams, diacritics folded,
// emoji and snake_case identifiers kept as words). 11: postings read from the search file term by term; ids as columns.
// 12: sessions, creation dates and the session order in the doc table (recall's conversation neighbours);
// the doc table's file read by position, column by column (docs-file.ts). 13: the rows in
// content-key order (a duplicate found by binary search, not by reading the key column whole).
export const INDEX_FORMAT_VERSION = 13;

export type { DocFacets, IndexedDoc };

/** The ranking's field weights (core/recall-rank.ts), one for each field the tree indexes. */
const FIELD_BOOSTS: Readonly<Record<(typeof INDEXED_FIELDS)[number], number>> = DEFAULT_FIELD_BOOSTS;
const FIELDS: string[] = [...INDEXED_FIELDS];

/** A memory as the search tree indexes it. */
type SearchDoc = ReturnType<typeof searchDocOf>;

/**
 * Changes to the search tree kept in the index's journal before the tree is written anew.
 * Rewriting the tree costs as much as the rest of a one-file refresh together (10,000
 * memories: a 6 MB file); replaying a journal costs adding its memories' terms (they are
 * kept analysed).
 */
export const JOURNAL_LIMIT = 48;

/**
 * The journal's limit for a tier of `memories`: {@link JOURNAL_LIMIT}, growing with the tier
 * (one memory in 40) up to 256. The tree's file grows with the tier (10,000 memories: 6 MB;
 * 100,000: 55 MB), and rewriting it every 48 `remember`s wrote 125 kB per `remember` at
 * 10,000; replaying a longer journal costs each replayed memory's terms (some microseconds)
 * on every load.
 */
export function journalLimit(memories: number): number {
  return Math.min(256, Math.max(JOURNAL_LIMIT, Math.floor(memories / 40)));
}

/** Changes kept in the doc table's journal (records included) before its columns are written anew. */
export const DOC_JOURNAL_LIMIT = 256;

/** Changes kept in the file table's journal before the table is written anew. */
export const FILE_JOURNAL_LIMIT = 256;

/**
 * Below this many memories every command stats every memory file (a few milliseconds), so
 * any change to any file is seen at once. From it on, listing and stating every file costs
 * more than the query (100,000 files: 340 ms, three times a whole recall's budget), and a
 * command sweeps only when the memories directory's change stamp moved: a file added,
 * removed or renamed (which is how git, `cortex` itself and most editors write files) —
 * see docs/design.md, "Knowing the index is current".
 */
export const SWEEP_ALWAYS_BELOW = 5_000;

/**
 * A fresh build that reads at least this many files writes their records to the new records
 * file as it reads them (see `DocTable.logTo`) instead of keeping them until the save: 80 MB
 * at 100,000 memories, and the largest thing a rebuild held.
 */
export const LOG_RECORDS_FROM = 5_000;

/**
 * A fresh build that reads at least this many files prepares most of them in a worker
 * thread (see parallel-prepare.ts), where there is a second core.
 */
export const PREPARE_IN_WORKER_FROM = 2_000;

/** Files per batch a worker prepares, and batches sent ahead of the one taken in. */
const WORKER_BATCH = 128;
const WORKER_AHEAD = 4;
/**
 * Batches this thread prepares ahead of their turn while it waits for the worker's. Few:
 * prepared files kept past a young-generation collection are promoted, and the old
 * generation then grew by hundreds of megabytes of them between its collections.
 */
const PREPARED_AHEAD = 2;

function sameIdentity(a: { ino: number; size: number } | undefined, b: { ino: number; size: number } | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size;
}

/**
 * The records file, read record by record by position: a query reads the records of the
 * memories it shows, not the file (80 MB at 100,000 memories). Open while the table lives;
 * a file replaced meanwhile is still read as it was.
 */
class FileRecords implements RecordSource {
  readonly size: number;

  private constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
    closeWhenCollected(this, fd);
  }

  static open(path: string): FileRecords {
    return new FileRecords(openSync(path, 'r'));
  }

  read(start: number, end: number): Uint8Array {
    const bytes = readAt(this.fd, start, end - start);
    if (bytes.length !== end - start) throw new RangeError('the records file is shorter than the index says');
    return bytes;
  }
}

/**
 * Within this long of its last sweep, a long-lived process (the MCP server, which sets it
 * with {@link setFreshSweepWindow}) that refreshes again does not stat every memory file
 * unless the memories directory's stamp moved (see `KeywordIndex.refresh`): a change by
 * another program is seen by every call at least this long after it.
 */
export const FRESH_SWEEP_MS = 100;

/** The window in force in this process: 0 (every refresh of a small tier sweeps) unless a long-lived process set one. */
let freshSweepWindow = 0;

/**
 * Sets how long after its last sweep this process's refreshes may skip the next one (see
 * {@link FRESH_SWEEP_MS}); 0 turns it off. For long-lived processes, once at start.
 *
 * @example
 * setFreshSweepWindow(FRESH_SWEEP_MS)
 */
export function setFreshSweepWindow(ms: number): void {
  freshSweepWindow = Math.max(0, ms);
}

/** Search-tree files older than this that no index points to are deleted on save. */
const STALE_SEARCH_FILE_MS = 60_000;

export const MINISEARCH_OPTIONS = {
  fields: FIELDS,
  idField: 'id',
  storeFields: [] as string[],
  tokenize: (text: string) => tokenize(text),
  // A shared, cached array for some words: MiniSearch only iterates it.
  processTerm: (term: string) => processTerm(term) as string | string[] | null,
  autoVacuum: false,
};

/** MiniSearch's field numbers for MINISEARCH_OPTIONS (what a fresh build saves). */
let fieldIdsOnce: Record<string, number> | undefined;
function fieldIds(): Record<string, number> {
  return (fieldIdsOnce ??= (new MiniSearch(MINISEARCH_OPTIONS) as unknown as { _fieldIds: Record<string, number> })._fieldIds);
}


/** What a saved index depends on besides its format version: the fields, the analysis, the text indexed. */
export const INDEX_OPTIONS = { fields: FIELDS, analysis: 'porter+stop+camel+irregular/v2', text: 'summary+body/v1' } as const;

/**
 * The first 12 hex digits of the SHA-1 of `JSON.stringify(INDEX_OPTIONS)`, written out (a test
 * checks it): computed at start-up it loaded `node:crypto` into every command that opens an
 * index, OpenSSL's configuration and certificate store with it (~8 ms of a warm recall).
 */
export const OPTIONS_HASH = '10b83ee78204';

export interface RefreshReport {
  added: number;
  updated: number;
  removed: number;
  /** Current problems of broken files (also for files unchanged since the last run). */
  diagnostics: Diagnostic[];
}

export interface SearchOptions {
  limit?: number;
  types?: MemoryType[];
  tags?: string[];
  /** Statuses to include; default `['active']`. */
  statuses?: MemoryStatus[];
  scope?: Scope;
  /** ISO date: only memories updated at or after it. */
  since?: string;
  /** Use the thesaurus (default true). */
  expand?: boolean;
  /** Widen the list below the first results with pseudo-relevance feedback (default true). */
  feedback?: boolean;
  /**
   * Match the query's words only as they are: no prefix or fuzzy matches (default false).
   * Auto-linking's query: what it ranks its candidates by is the words they share.
   */
  exact?: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Index terms that matched (what a prefix or fuzzy query term reached). */
  terms: string[];
  /** The query's own terms (analysed) this memory contains; empty for a feedback-only result. */
  queryTerms?: string[];
}

export const DEFAULT_SEARCH: Required<Omit<SearchOptions, 'types' | 'tags' | 'scope' | 'since'>> = {
  limit: 10,
  statuses: ['active'],
  expand: true,
  feedback: true,
  exact: false,
};


/**
 * The term data of a search tree by term, for addAnalyzed (valid for as long as the tree
 * lives: nothing here ever vacuums or removes, the only ways a term's data leaves a tree).
 */
const termCaches = new WeakMap<MiniSearch, NonNullable<Parameters<typeof addAnalyzed>[2]>>();

function termCacheOf(ms: MiniSearch): NonNullable<Parameters<typeof addAnalyzed>[2]> {
  let cache = termCaches.get(ms);
  if (!cache) termCaches.set(ms, (cache = new Map()));
  return cache;
}

/**
 * A full garbage collection, where V8 lets this process ask for one. Once a fresh build's
 * search state is written, its postings (50-60 MB at 100,000 memories, in long-lived typed
 * arrays) are garbage that V8 keeps until its next major collection, all through the save
 * and the graph that follow: asking for it then lowered the peak RSS of `index --rebuild`
 * at 100,000 memories from 425-430 to 386-394 MB (a few tens of milliseconds).
 */
function collectGarbage(): void {
  try {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch {
    // Not allowed here: V8 collects in its own time.
  }
}

/**
 * V8's heap growing factor (`--heap-growing-percent`) while a fresh build of at least
 * {@link LOG_RECORDS_FROM} files runs, until it is saved. By default V8 lets the old
 * generation grow to up to four times what was live after a major collection before the
 * next; a build of 100,000 memories promotes ~210 MB that soon dies (prepared files,
 * packed blocks) over ~70 MB that lives, and the old generation reached 120-160 MB. At 1.5
 * times it stays within ~90 MB (peak RSS ~40 MB lower), for a few more major collections
 * (tens of milliseconds each). A V8 flag is the process's: it is set back to 0 (V8's own
 * heuristics) once the build is saved.
 */
const BUILD_HEAP_GROWING_PERCENT = 50;

function setHeapGrowingPercent(percent: number): void {
  try {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  } catch {
    // Not allowed here: V8 grows the heap its own way.
  }
}

/** Writes the file at `path` atomically, piece by piece (see `AtomicFileWriter`). */
function writeStreamed(path: string, write: (out: AtomicFileWriter) => void): void {
  const out = new AtomicFileWriter(path);
  try {
    write(out);
    out.commit();
  } catch (err) {
    out.abort();
    throw err;
  }
}

/**
 * The search document of the memory in `entry`'s file, read again: what MiniSearch's own
 * `add` needs if its internals are not the expected ones (never with the version this
 * package pins), for a file that was prepared as analysed fields only.
 */
function searchDocAgain(entry: MemoryFileEntry): SearchDoc {
  const memory = readMemoryFile(entry, entry.path).memory;
  if (!memory) throw new Error(`${entry.path} changed while it was being indexed`);
  return searchDocOf(memory);
}

/** The kinds of files an index points to by name, each kept apart by the sweep. */
const INDEX_FILE_KINDS = [SEARCH_TREE_FILE, RECORDS_FILE, FILES_FILE, DOCS_FILE] as const;

/** Most files one sweep deletes: a directory full of orphans is emptied over a few calls, none of them slow. */
export const STALE_SWEEP_MAX = 256;

/**
 * Deletes the index files of `dir` that no index points to (`keep`), of every kind: those older
 * than {@link STALE_SEARCH_FILE_MS}, except the newest of each kind (what a concurrent reader
 * that loaded the previous index may be about to open), at most `max` of them. Returns the
 * names deleted. Best effort: never throws.
 */
export function removeStaleIndexFiles(dir: string, keep: ReadonlySet<string>, options: { now?: number; max?: number } = {}): string[] {
  const now = options.now ?? Date.now();
  let budget = options.max ?? STALE_SWEEP_MAX;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const pattern of INDEX_FILE_KINDS) {
    const others: { name: string; mtimeMs: number }[] = [];
    for (const name of names) {
      if (keep.has(name) || !pattern.test(name)) continue;
      try {
        others.push({ name, mtimeMs: statSync(join(dir, name)).mtimeMs });
      } catch {
        // Removed by another process meanwhile.
      }
    }
    others.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { name, mtimeMs } of others.slice(1)) {
      if (budget <= 0) return removed;
      if (now - mtimeMs <= STALE_SEARCH_FILE_MS) continue;
      try {
        rmSync(join(dir, name), { force: true });
        removed.push(name);
        budget--;
      } catch {
        // Best effort.
      }
    }
  }
  return removed;
}

export type { LinkExtractor };
export { contentKeyOf, fullText } from './prepare-file.js';

/**
 * One tier's keyword index, loaded from `.memory/index.v8` (or built fresh).
 */

export class KeywordIndex {
  /** The file table, loaded on first use (a sweep or a write): see {@link files}. */
  private filesTable: FileTable | undefined;
  /** The saved file table; undefined until the first save. */
  private filesFile: string | undefined;
  /** Changes to the file table since `filesFile` was written (see `IndexFile.fileJournal`). */
  private readonly fileJournal = new Map<string, FileEntry | null>();
  /** See `IndexFile.stamp`. */
  private stamp: DirStamp | null = null;
  /** See `IndexFile.diagnostics`. */
  private knownDiagnostics: Diagnostic[] = [];
  /**
   * This process's last refresh found the index current at a trusted (not racy) stamp: its
   * own writes since then ({@link upsert}, {@link remove}) move the stamp, and a save takes
   * the new one (see {@link save}).
   */
  private currentAtStamp = false;
  /** This process wrote or removed memory files since its refresh. */
  private ownWrites = false;
  /** Entries of the three journals changed since the last save: what the next frame holds. */
  private readonly unsavedFiles = new Set<string>();
  private readonly unsavedDocs = new Set<string>();
  private readonly unsavedSearch = new Set<string>();
  /** Sizes of the saved header and of the frames appended after it. */
  private headerBytes = 0;
  private frameBytes = 0;
  /** `index.v8` as this process last read or wrote it (inode, size): a frame is appended only to that file. */
  private written: { ino: number; size: number } | undefined;
  /** When this process last began a sweep (stat of every file), and the directory's stamp then, or after its own writes since. */
  private sweptAt: number | undefined;
  private liveStamp: DirStamp | undefined;
  /**
   * In a long-lived process (see {@link setFreshSweepWindow}): a watch on the memories
   * directory, and whether it reported a change (other than this process's own writes)
   * since the last sweep began. While it reported none, a refresh does not sweep.
   */
  private watcher: FSWatcher | undefined;
  private watchedDir: string | undefined;
  private changedSinceSweep = true;
  /** Files this process wrote or removed since its last sweep: their events are its own. */
  private readonly ownNames = new Set<string>();
  docs: DocTable;
  // Loading the MiniSearch tree is the largest cost of opening the index (10,000 memories:
  // tens of ms even from V8's serializer), and only a query needs it: list, status and
  // graph walks never do. It lives in its own file, read on first use.
  private searchIndex: MiniSearch | undefined;
  /** The saved search tree; undefined when the tree in memory is all there is (a fresh build). */
  private searchFile: string | undefined;
  /** The saved doc table's columns; undefined until the first save. */
  private docsFile: string | undefined;
  /** The saved records file; undefined until the first save. */
  private recordsFile: string | undefined;
  /**
   * Changes since `searchFile` was written, by memory id: `undefined` takes the memory out,
   * a search doc (re)adds it. Replayed onto the saved tree when it is loaded.
   */
  private journal = new Map<string, AnalyzedDoc | undefined>();
  /** Short ids in `searchFile` of ids in the journal (-1: none), as a save found them (see `Journal.saved`). */
  private savedShortIds = new Map<string, number>();
  /** The search file the tree in memory was opened from, while its ids are those of that file (see `savedShortIdOf`). */
  private openedFrom: string | undefined;
  private cacheDir: string | undefined;
  private lastRefresh: { paths: TierPaths; options: Parameters<KeywordIndex['refresh']>[1] } | undefined;
  private dirty: boolean;
  /** True when the cache could not be used and the index was built from scratch. */
  readonly rebuilt: boolean;

  private constructor(data: IndexFile | undefined, cacheDir?: string) {
    this.cacheDir = cacheDir;
    if (data) {
      this.filesFile = data.filesFile;
      for (const [name, entry] of data.fileJournal) this.fileJournal.set(name, entry);
      this.stamp = data.stamp;
      this.knownDiagnostics = data.diagnostics;
      this.docs = DocTable.open(openDocs(join(cacheDir!, data.docsFile)), FileRecords.open(join(cacheDir!, data.recordsFile)));
      this.docs.applyJournal(data.docJournal);
      this.docsFile = data.docsFile;
      this.recordsFile = data.recordsFile;
      this.searchFile = data.searchFile;
      for (const id of data.journal.removed) this.journal.set(id, undefined);
      for (const doc of data.journal.added) this.journal.set(doc.id, doc);
      for (const [id, shortId] of data.journal.saved ?? []) this.savedShortIds.set(id, shortId);
      this.dirty = false;
      this.rebuilt = false;
    } else {
      this.filesTable = new FileTable();
      this.docs = new DocTable();
      this.builder = new PackedBuilder(FIELDS);
      this.dirty = true;
      this.rebuilt = true;
    }
  }

  /** A fresh build's search state until it is saved or queried (see packed-build.ts). */
  private builder: PackedBuilder | undefined;
  /** A fresh build set V8's heap growing factor (see {@link BUILD_HEAP_GROWING_PERCENT}) until it is saved. */
  private heapTightened = false;
  /** The records file a fresh build writes as it reads (see {@link LOG_RECORDS_FROM}), until saved. */
  private recordLog: AtomicFileWriter | undefined;

  /** Starts writing the records of a fresh build to a new records file in `cacheDir`. */
  private logRecords(cacheDir: string): void {
    try {
      const log = new AtomicFileWriter(join(cacheDir, recordsFileName(crypto.randomBytes(6).toString('hex'))));
      this.docs.logTo(log);
      this.recordLog = log;
    } catch {
      // A directory that cannot be written: the records are kept in memory (and not saved).
    }
  }

  /** Forgets the records file a fresh build was writing (its table was cleared or saved otherwise). */
  private dropRecordLog(): void {
    this.recordLog?.abort();
    this.recordLog = undefined;
  }

  /** The fresh build as a MiniSearch (from here on, changes go to it). */
  private finishBuild(): MiniSearch {
    const bytes = this.builder!.encode({ fieldIds: fieldIds() });
    this.builder = undefined;
    const ms = loadSearchState(bytes, MINISEARCH_OPTIONS);
    if (!ms) throw new Error('the search state just built does not load: a bug in packed-build.ts');
    return ms;
  }

  private get search(): MiniSearch {
    if (this.builder) this.searchIndex = this.finishBuild();
    if (!this.searchIndex) {
      const path = this.cacheDir && this.searchFile ? join(this.cacheDir, this.searchFile) : undefined;
      let loaded: MiniSearch | undefined;
      try {
        loaded = path ? openSearchState(path, MINISEARCH_OPTIONS) : undefined;
      } catch {
        loaded = undefined;
      }
      if (loaded) knowSavedShortIds(loaded, this.savedShortIds);
      this.openedFrom = loaded ? this.searchFile : undefined;
      for (const [id, doc] of loaded ? this.journal : []) {
        if (loaded!.has(id)) loaded!.discard(id);
        if (doc && !addAnalyzed(loaded!, doc, termCacheOf(loaded!))) {
          loaded = undefined; // another MiniSearch: rebuild, below
          break;
        }
      }
      if (loaded) {
        this.searchIndex = loaded;
      } else {
        // The search file is gone or damaged (another process replaced it, a crash):
        // forget every file and index them all again now. Never fatal, never empty results.
        this.builder = new PackedBuilder(FIELDS);
        this.searchFile = undefined;
        this.journal.clear();
        this.savedShortIds.clear();
        this.filesTable = new FileTable();
        this.filesFile = undefined;
        this.fileJournal.clear();
        this.stamp = null;
        this.docs.clear();
        this.dropRecordLog();
        this.docsFile = undefined;
        this.dirty = true;
        if (this.lastRefresh) this.refresh(this.lastRefresh.paths, { ...this.lastRefresh.options, sweep: true });
        if (this.builder) this.searchIndex = this.finishBuild();
      }
    }
    return this.searchIndex!;
  }

  /**
   * The file table: read from its file with the journal applied, on first use. A damaged or
   * missing file gives an empty table, so the next sweep reads every file again.
   */
  private get files(): FileTable {
    if (this.filesTable === undefined) {
      let table: FileTable;
      try {
        table = FileTable.fromSaved(deserialize(readFileSync(join(this.cacheDir!, this.filesFile!))));
        for (const [name, entry] of this.fileJournal) {
          if (entry === null) table.delete(name);
          else table.set(name, entry);
        }
      } catch {
        table = new FileTable();
        this.filesFile = undefined;
        this.fileJournal.clear();
        this.stamp = null;
        this.dirty = true;
      }
      this.filesTable = table;
    }
    return this.filesTable;
  }

  /** Records a change to the file table (in the table when loaded, and in its journal when it is saved). */
  private setFile(name: string, entry: FileEntry | null, row?: number): number {
    if (this.filesFile !== undefined) {
      this.fileJournal.set(name, entry);
      this.unsavedFiles.add(name);
    }
    if (entry === null) {
      if (this.filesTable !== undefined || this.filesFile === undefined) this.files.delete(name);
      return -1;
    }
    if (this.filesTable === undefined && this.filesFile !== undefined) return -1;
    return this.files.set(name, entry, row);
  }

  /**
   * Takes a memory out of the search tree and adds `doc` (when given) in its place: in the
   * tree when it is loaded, and in the journal when the tree is saved, so that a refresh
   * never needs to load the tree.
   */
  private changeSearch(id: string, analyzed: AnalyzedDoc | undefined, doc: () => SearchDoc): void {
    // Analysed once, for the tree and for the journal (when the tree is saved).
    if (this.builder) {
      if (!this.builder.has(id)) {
        if (analyzed) this.builder.add(analyzed);
        this.dirty = true;
        return;
      }
      // A memory replaced or removed in the middle of a build (two files with one id): a
      // MiniSearch from here on.
      this.searchIndex = this.finishBuild();
    }
    if (this.searchIndex) {
      if (this.searchIndex.has(id)) this.searchIndex.discard(id);
      // addAnalyzed keeps a loaded tree's terms packed, and finds each term of a build in the
      // cache rather than walking the radix tree for every word of every memory.
      if (analyzed && !addAnalyzed(this.searchIndex, analyzed, termCacheOf(this.searchIndex))) this.searchIndex.add(doc());
    }
    if (this.searchFile !== undefined) {
      this.journal.set(id, analyzed);
      this.unsavedSearch.add(id);
    }
    this.dirty = true;
  }

  static indexPath(paths: TierPaths): string {
    return join(paths.cacheDir, KEYWORD_INDEX_FILE);
  }

  /** Loads the cache; anything unusable (missing, corrupt, other version) gives an empty index. */
  static load(paths: TierPaths): KeywordIndex {
    let data: IndexFile | undefined;
    let frames: IndexFrame[] = [];
    let sizes = { headerBytes: 0, frameBytes: 0, fileBytes: 0, ino: 0 };
    try {
      // Stated and read through one descriptor: the identity is that of the bytes read.
      const fd = openSync(KeywordIndex.indexPath(paths), 'r');
      let bytes: Buffer;
      let ino: number;
      try {
        ino = fstatSync(fd).ino;
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
      const unpacked = unpackIndexFileWithFrames(bytes);
      const parsed = unpacked.header;
      frames = unpacked.frames;
      sizes = { headerBytes: unpacked.headerBytes, frameBytes: unpacked.frameBytes, fileBytes: bytes.length, ino };
      if (
        parsed?.version === INDEX_FORMAT_VERSION &&
        parsed.optionsHash === OPTIONS_HASH &&
        typeof parsed.docsFile === 'string' &&
        DOCS_FILE.test(parsed.docsFile) &&
        isDocJournal(parsed.docJournal) &&
        typeof parsed.searchFile === 'string' &&
        typeof parsed.recordsFile === 'string' &&
        typeof parsed.filesFile === 'string' &&
        FILES_FILE.test(parsed.filesFile) &&
        Array.isArray(parsed.fileJournal) &&
        (parsed.stamp === null || isDirStamp(parsed.stamp)) &&
        Array.isArray(parsed.diagnostics) &&
        isJournal(parsed.journal) &&
        SEARCH_TREE_FILE.test(parsed.searchFile) &&
        RECORDS_FILE.test(parsed.recordsFile) &&
        existsSync(join(paths.cacheDir, parsed.searchFile))
      ) {
        data = parsed;
      }
    } catch {
      data = undefined;
    }
    if (data) {
      try {
        const index = new KeywordIndex(data, paths.cacheDir);
        for (const frame of frames) index.applyFrame(frame);
        index.headerBytes = sizes.headerBytes;
        index.frameBytes = sizes.frameBytes;
        index.written = { ino: sizes.ino, size: sizes.fileBytes };
        return index;
      } catch {
        // A cache that parses as JSON but not as an index: rebuild.
      }
    }
    return new KeywordIndex(undefined, paths.cacheDir);
  }

  /** An empty index that ignores any cache (a full rebuild). */
  static empty(): KeywordIndex {
    return new KeywordIndex(undefined);
  }

  get size(): number {
    return this.docs.size;
  }

  /**
   * Documents the search tree still holds postings for although they were replaced or
   * removed (every edit leaves one; nothing vacuums the tree in place). Scoring skips them,
   * but they grow the tree's file and its per-query arrays until a rebuild.
   */
  get discarded(): number {
    return this.search.dirtCount;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /**
   * Brings the index up to date with the files on disk: stat every file, re-read only
   * those whose size or mtime changed, and parse only those whose content changed. From
   * {@link SWEEP_ALWAYS_BELOW} memories on, the files are stated only when the memories
   * directory's change stamp moved since the index last matched it (or `sweep` is set): see
   * {@link verify} for how the memories a command shows are checked all the same.
   */
  refresh(paths: TierPaths, options: { base: string; links?: LinkExtractor; scan?: MemoryFileScan; sweep?: boolean; sweepBelow?: number; logRecordsFrom?: number; workerFrom?: number; now?: number }): RefreshReport {
    const now = options.now ?? Date.now();
    const samePaths = this.lastRefresh?.paths.memoriesDir === paths.memoriesDir;
    this.lastRefresh = { paths, options: { base: options.base, ...(options.links ? { links: options.links } : {}) } };
    // Taken before the listing: a change while the sweep runs moves it, and the next refresh
    // sweeps again. A stamp taken within the racy window of a change is kept but never trusted.
    const stamp = options.scan ? null : dirStamp(paths.memoriesDir, now);
    const trusted = stamp !== null && sameStamp(stamp, this.stamp ?? undefined);
    // A refresh again within the window (FRESH_SWEEP_MS in a server) of this process's last sweep, the directory's
    // stamp as it was then (or as this process's own writes left it): no sweep. Whatever
    // changed since that sweep began is seen by every call FRESH_SWEEP_MS after the change,
    // since such a call sweeps; a file added, removed or renamed moves the stamp and is seen
    // at once. What a long-lived server pays per call instead of stating every file.
    const watching = stamp !== null && this.watchMemories(paths.memoriesDir);
    if (
      options.sweep !== true &&
      stamp !== null &&
      samePaths &&
      this.sweptAt !== undefined &&
      ((watching && !this.changedSinceSweep) || now - this.sweptAt < freshSweepWindow) &&
      this.liveStamp !== undefined &&
      stamp.exists === this.liveStamp.exists &&
      stamp.mtimeMs === this.liveStamp.mtimeMs &&
      stamp.ino === this.liveStamp.ino
    ) {
      this.currentAtStamp = trusted;
      return { added: 0, updated: 0, removed: 0, diagnostics: [...this.knownDiagnostics] };
    }
    this.currentAtStamp = false;
    if (options.sweep !== true && stamp !== null && trusted && this.docs.size >= (options.sweepBelow ?? SWEEP_ALWAYS_BELOW)) {
      this.currentAtStamp = true;
      return { added: 0, updated: 0, removed: 0, diagnostics: [...this.knownDiagnostics] };
    }
    if (stamp !== null) {
      this.sweptAt = now;
      this.liveStamp = stamp;
      // Before the listing: a change while it runs is reported again, and the next refresh sweeps.
      this.changedSinceSweep = false;
      this.ownNames.clear();
    }
    const links = options.links ?? NO_LINKS;
    const scan = options.scan ?? scanMemoryFiles(paths, options.base);
    // Entries that are not read at all (FIFOs, links out of the repository …): one
    // diagnostic each, on every refresh, so `lint` and `status` keep naming them.
    const report: RefreshReport = { added: 0, updated: 0, removed: 0, diagnostics: [...scan.skipped] };
    const files = this.files;
    files.startListing();
    const known = files.rowCount;
    const seen = new Uint8Array(known);
    /** The row of each listed file (-1 until known): the table is saved in listing order. */
    const rowAt = new Int32Array(scan.names.length).fill(-1);
    /** Listing positions of new files and of files whose size or mtime changed. */
    const changed: number[] = [];
    for (let i = 0; i < scan.names.length; i++) {
      const row = files.rowOf(scan.names[i]!);
      if (row < 0) {
        changed.push(i);
        continue;
      }
      seen[row] = 1;
      rowAt[i] = row;
      if (files.sizeAt(row) === scan.sizes[i] && files.mtimeAt(row) === scan.mtimes[i]) {
        const problems = files.diagnosticsAt(row);
        if (problems) report.diagnostics.push(...problems);
      } else {
        changed.push(i);
      }
    }
    // Read in name order, whatever the directory's order: memories are added to the search
    // tree in the same order on every machine (ties rank in that order).
    changed.sort((a, b) => (scan.names[a]! < scan.names[b]! ? -1 : scan.names[a]! > scan.names[b]! ? 1 : 0));
    if (this.builder && this.docs.size === 0 && !this.docs.logging && changed.length >= (options.logRecordsFrom ?? LOG_RECORDS_FROM)) {
      this.logRecords(paths.cacheDir);
      setHeapGrowingPercent(BUILD_HEAP_GROWING_PERCENT);
      this.heapTightened = true;
    }
    // A fresh build of many files: prepared in a worker as well (every file is new).
    const worker =
      this.builder && known === 0 && changed.length >= (options.workerFrom ?? PREPARE_IN_WORKER_FROM) && (links === NO_LINKS || links.inWorker === 'wikilinks')
        ? FilePreparer.start({ base: options.base, wikilinks: links !== NO_LINKS })
        : undefined;
    if (worker) {
      this.readWithWorker(worker, scan, changed, rowAt, options.base, links, report);
    } else {
      for (const i of changed) {
        rowAt[i] = this.readFile(scanEntry(scan, i), scan.names[i]!, rowAt[i]!, options.base, links, report);
      }
    }
    for (let row = 0; row < known; row++) {
      if (seen[row]) continue;
      const name = files.nameAt(row);
      if (name === undefined) continue;
      const gone = files.entryAt(row)!;
      if (gone.id !== undefined) {
        this.removeDoc(gone.id);
        report.removed++;
      }
      // Journaled like any other change: a file gone is one entry, not a new table.
      this.setFile(name, null);
      this.dirty = true;
    }
    files.listed(Array.from(rowAt).filter((row) => row >= 0));
    // Saved in another order than the directory lists (another machine, an older cache, files
    // added since): the table is saved in this order the next time it is written whole (past
    // its journal's limit), so that later runs find every file at its guess. Never a reason to
    // write by itself: a read writes nothing, and a write writes what it changed (a read-only
    // recall rewrote the whole table on every call once a server's misses had piled up).
    // In file order, whatever order the directory listed them in.
    report.diagnostics.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    if (JSON.stringify(stamp) !== JSON.stringify(this.stamp)) {
      this.stamp = stamp;
      this.dirty = true;
    }
    if (JSON.stringify(report.diagnostics) !== JSON.stringify(this.knownDiagnostics)) {
      this.knownDiagnostics = report.diagnostics;
      this.dirty = true;
    }
    this.currentAtStamp = stamp !== null && stamp.exists && stamp.racy !== true;
    return report;
  }

  /**
   * Reads one memory file whose size or mtime changed (or that is new: `row` -1) into the
   * index; returns its row in the file table.
   */
  private readFile(entry: MemoryFileEntry, name: string, row: number, base: string, links: LinkExtractor, report: RefreshReport, known?: FileEntry): number {
    // What the file held before: its row in the file table, or (without the table) `known`.
    const before = row < 0 ? known : this.files.entryAt(row);
    const prepared = prepareFile(entry, { base, links, ...(before !== undefined && before.hash !== '' ? { unchangedHash: before.hash } : {}) });
    return this.takeFile(prepared, entry, name, row, report, before);
  }

  /**
   * Reads the new files at `changed` (listing positions, in name order) of a fresh build, in
   * batches prepared by `worker` or here, and takes every batch in here, in order. The worker
   * is kept {@link WORKER_AHEAD} batches ahead; while the batch due is not back, this thread
   * prepares the next batch nobody has taken yet (so a busy machine shifts the work here).
   * A worker that fails leaves the rest to this thread.
   */
  private readWithWorker(worker: FilePreparer, scan: MemoryFileScan, changed: readonly number[], rowAt: Int32Array, base: string, links: LinkExtractor, report: RefreshReport): void {
    const batches = Math.ceil(changed.length / WORKER_BATCH);
    const entriesOf = (b: number) => changed.slice(b * WORKER_BATCH, (b + 1) * WORKER_BATCH).map((i) => scanEntry(scan, i));
    // Kept as posted (each field's terms one string) until taken in: small, short-lived objects.
    const prepareHere = (b: number) => entriesOf(b).map((entry) => packPrepared(prepareFile(entry, { base, links })));
    /** Batches prepared, until their turn; batches the worker has; the first batch nobody has. */
    const ready = new Map<number, PackedFile[]>();
    const atWorker = new Set<number>();
    let next = 0;
    let working = true;
    const stop = () => {
      if (working) worker.close();
      working = false;
      atWorker.clear();
    };
    const feed = () => {
      for (; working && atWorker.size < WORKER_AHEAD && next < batches; next++) {
        worker.send(next, entriesOf(next));
        atWorker.add(next);
      }
    };
    try {
      feed();
      for (let b = 0; b < batches; b++) {
        while (!ready.has(b)) {
          if (!atWorker.has(b)) {
            ready.set(b, prepareHere(b));
            next = Math.max(next, b + 1);
            continue;
          }
          const posted = worker.posted();
          const back = worker.poll();
          if (back) {
            if (back.files === undefined || !atWorker.has(back.id)) stop();
            else {
              atWorker.delete(back.id);
              ready.set(back.id, back.files);
            }
          } else if (next < batches && ready.size < PREPARED_AHEAD) {
            ready.set(next, prepareHere(next));
            next++;
          } else if (!worker.waitAfter(posted)) {
            stop();
          }
        }
        const prepared = ready.get(b)!;
        ready.delete(b);
        feed();
        const first = b * WORKER_BATCH;
        for (let k = 0; k < prepared.length; k++) {
          const i = changed[first + k]!;
          rowAt[i] = this.takeFile(unpackPrepared(prepared[k]!), scanEntry(scan, i), scan.names[i]!, rowAt[i]!, report, undefined);
        }
      }
    } finally {
      stop();
    }
  }

  /**
   * Takes in a file prepared by `prepareFile` (here or in a worker): `before` is what the
   * index held of it. Returns its row in the file table.
   */
  private takeFile(prepared: PreparedFile, entry: MemoryFileEntry, name: string, row: number, report: RefreshReport, before: FileEntry | undefined): number {
    const { hash, doc, analyzed } = prepared;
    this.dirty = true;
    if (before && before.hash === hash && hash !== '') {
      this.setFile(name, { ...before, size: entry.size, mtimeMs: entry.mtimeMs }, row);
      if (before.id !== undefined) {
        this.docs.setStat(before.id, entry.size, entry.mtimeMs);
        this.unsavedDocs.add(before.id);
      }
      if (before.diagnostics) report.diagnostics.push(...before.diagnostics);
      return row;
    }
    if (before?.id !== undefined) this.removeDoc(before.id);
    const fileEntry: FileEntry = { size: entry.size, mtimeMs: entry.mtimeMs, hash };
    if (prepared.diagnostics.length > 0) fileEntry.diagnostics = prepared.diagnostics;
    if (doc && analyzed) {
      if (this.docs.has(doc.id)) this.removeDoc(doc.id);
      this.docs.set(doc.id, doc);
      this.docs.setStat(doc.id, entry.size, entry.mtimeMs);
      this.unsavedDocs.add(doc.id);
      this.changeSearch(doc.id, analyzed, () => searchDocAgain(entry));
      fileEntry.id = doc.id;
      if (before) report.updated++;
      else report.added++;
    } else if (before?.id !== undefined) {
      report.removed++;
    }
    report.diagnostics.push(...prepared.diagnostics);
    return this.setFile(name, fileEntry, row);
  }

  /** File `name`'s row when the file table is at hand (-1 otherwise: 100,000 rows are not read for one file). */
  private rowIfLoaded(name: string): number {
    return this.filesTable !== undefined || this.filesFile === undefined ? this.files.rowOf(name) : -1;
  }

  /**
   * What the index knows of file `name` without its file table: the memory of the same name
   * whose record points at that file (a file named after its memory, as cortex writes them).
   */
  private knownFile(name: string): FileEntry | undefined {
    const id = name.slice(0, -3);
    const doc = this.docs.get(id);
    if (!doc || basename(doc.file) !== name) return undefined;
    const stat = this.docs.statOf(id)!;
    return { size: stat.size, mtimeMs: stat.mtimeMs, hash: '', id };
  }

  /**
   * Reads again the named files of the memories directory (`name.md`, as listed there): what
   * `cortex index <file>` and the hooks do for a file they know was edited, without a sweep.
   * A named file that is gone takes its memory out. Call after {@link refresh}.
   */
  refreshFiles(names: readonly string[]): RefreshReport {
    const last = this.lastRefresh;
    const report: RefreshReport = { added: 0, updated: 0, removed: 0, diagnostics: [] };
    if (last === undefined) return report;
    const dir = last.paths.memoriesDir;
    for (const name of [...new Set(names)].sort()) {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      const row = this.rowIfLoaded(name);
      const known = row >= 0 ? this.files.entryAt(row) : this.knownFile(name);
      if (!st?.isFile()) {
        if (known === undefined) continue;
        if (known.id !== undefined) {
          this.removeDoc(known.id);
          report.removed++;
        }
        this.setFile(name, null);
        this.dirty = true;
        continue;
      }
      if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) continue;
      this.readFile({ path, id: name.slice(0, -3), size: st.size, mtimeMs: st.mtimeMs }, name, row, last.options.base, last.options.links ?? NO_LINKS, report, row >= 0 ? undefined : known);
    }
    this.knownDiagnostics = [...this.knownDiagnostics.filter((d) => !names.some((n) => d.file.endsWith(`/${n}`) || d.file === n)), ...report.diagnostics];
    return report;
  }

  /**
   * Checks the files of memories about to be shown against the size and mtime they were
   * read with, and reads again any that changed or went away: a command that did not sweep
   * (see {@link refresh}) never shows a memory as it was before an edit in place. Returns
   * true when something changed (the caller asks again).
   */
  verify(ids: readonly string[]): boolean {
    const last = this.lastRefresh;
    if (last === undefined) return false;
    const report: RefreshReport = { added: 0, updated: 0, removed: 0, diagnostics: [] };
    let changed = false;
    for (const id of ids) {
      const doc = this.docs.get(id);
      const known = this.docs.statOf(id);
      if (!doc || !known) continue;
      const path = isAbsolute(doc.file) ? doc.file : join(last.options.base, doc.file);
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isFile() && st.size === known.size && st.mtimeMs === known.mtimeMs) continue;
      const name = basename(path);
      if (!st?.isFile()) {
        this.removeDoc(id);
        this.setFile(name, null);
        this.dirty = true;
        changed = true;
        continue;
      }
      // A file touched but not changed only gets its new stat: nothing to ask again.
      const row = this.rowIfLoaded(name);
      this.readFile({ path, id: name.slice(0, -3), size: st.size, mtimeMs: st.mtimeMs }, name, row, last.options.base, last.options.links ?? NO_LINKS, report, row >= 0 ? undefined : { ...known, hash: '', id });
    }
    return changed || report.added + report.updated + report.removed > 0;
  }

  private removeDoc(id: string): void {
    if (!this.docs.has(id)) return;
    this.docs.delete(id);
    this.unsavedDocs.add(id);
    this.changeSearch(id, undefined, () => {
      throw new Error('no document to add');
    });
  }

  /** Records a memory just written by this process, so the index need not re-read it. */
  upsert(written: Memory, entry: MemoryFileEntry, text: string, options: { base: string; links?: LinkExtractor }): void {
    // The id as a copy, as `readFile` keeps it.
    const memory = { ...written, id: detachString(written.id) };
    const name = `${entry.id}.md`;
    // The memory the file held before, when the table is at hand (a file whose id differs
    // from its name, rare: a shown memory is checked by `verify` otherwise).
    const known = this.filesTable?.get(name);
    if (known?.id !== undefined) this.removeDoc(known.id);
    this.removeDoc(memory.id);
    const shown = displayPath(entry.path, options.base);
    this.docs.set(memory.id, indexedDocOf(memory, shown, (options.links ?? NO_LINKS)(memory.body)));
    this.docs.setStat(memory.id, entry.size, entry.mtimeMs);
    this.unsavedDocs.add(memory.id);
    const search = searchDocOf(memory);
    this.changeSearch(memory.id, analyzeDocument(search, ANALYZER), () => search);
    this.setFile(name, { size: entry.size, mtimeMs: entry.mtimeMs, hash: sha1(text), id: memory.id });
    this.ownNames.add(name);
    this.ownWrites = true;
  }

  /** Forgets a memory whose file was deleted by this process. */
  remove(id: string): void {
    this.removeDoc(id);
    this.setFile(`${id}.md`, null);
    this.ownNames.add(`${id}.md`);
    this.ownWrites = true;
    this.dirty = true;
  }

  /**
   * Saves the cache atomically when anything changed. The search tree's file is written only
   * for a fresh build or when the journal is past {@link journalLimit} (the tree then
   * includes it); otherwise the index alone is written, with the journal. Readers that
   * loaded the previous index keep a valid search file for a while; older ones are removed.
   */
  save(paths: TierPaths): void {
    try {
      this.saveChanges(paths);
    } finally {
      if (this.heapTightened) {
        setHeapGrowingPercent(0);
        this.heapTightened = false;
      }
    }
  }

  private saveChanges(paths: TierPaths): void {
    if (!this.dirty) return;
    const newTree = this.searchFile === undefined || this.journal.size > journalLimit(this.docs.size);
    if (newTree) {
      const name = searchTreeName(crypto.randomBytes(6).toString('hex'));
      const path = join(paths.cacheDir, name);
      if (this.builder) {
        // A fresh build not queried yet is written straight from its builder, term by term.
        const builder = this.builder;
        this.builder = undefined;
        writeStreamed(path, (out) => builder.encodeTo(out, { fieldIds: fieldIds() }));
        if (builder.size >= LOG_RECORDS_FROM) collectGarbage();
      } else {
        writeFileAtomic(path, saveSearchState(this.search));
      }
      this.searchFile = name;
      this.journal.clear();
      this.savedShortIds.clear();
    }
    const journal: Journal = { removed: [], added: [], saved: [] };
    for (const [id, doc] of this.journal) {
      journal.removed.push(id);
      if (doc) journal.added.push(doc);
      const shortId = this.savedShortIds.get(id) ?? (this.searchIndex && this.openedFrom === this.searchFile ? savedShortIdOf(this.searchIndex, id) : undefined);
      if (shortId !== undefined) {
        this.savedShortIds.set(id, shortId);
        journal.saved!.push([id, shortId]);
      }
    }
    const moved = this.cacheDir !== paths.cacheDir;
    // The doc table's columns are written anew only now and then (a fresh build, a long
    // journal): a `remember` at 100,000 memories writes its record and a few ids.
    const newDocs = this.docsFile === undefined || moved || this.docs.journalSize > DOC_JOURNAL_LIMIT;
    let newRecords = false;
    let docJournal: DocJournal = { set: [], deleted: [] };
    if (newDocs) {
      const docs = this.docs.toSaved({ rewrite: this.recordsFile === undefined || moved });
      if (docs.records) {
        this.recordsFile = this.writeRecords(docs.records, paths.cacheDir);
        newRecords = true;
      }
      const name = docsFileName(crypto.randomBytes(6).toString('hex'));
      // Written column by column (not joined into one buffer first).
      writeStreamed(join(paths.cacheDir, name), (out) => writeDocs(docs.saved, out));
      this.docsFile = name;
      // The table as saved, reading the records file it now points to.
      this.docs = DocTable.fromSaved(docs.saved, FileRecords.open(join(paths.cacheDir, this.recordsFile!)));
      this.dropRecordLog();
    } else {
      docJournal = this.docs.journal();
    }
    const newFiles = this.filesFile === undefined || moved || this.fileJournal.size > FILE_JOURNAL_LIMIT;
    if (newFiles) {
      const name = filesFileName(crypto.randomBytes(6).toString('hex'));
      writeFileAtomic(join(paths.cacheDir, name), serialize(this.files.toSaved()));
      this.filesFile = name;
      this.fileJournal.clear();
    }
    // This process's own writes moved the directory's stamp: when its refresh found the index
    // current at a trusted stamp, the new stamp is that of those writes, and is trusted although
    // it is fresh (the write lock keeps other cortex writers out; a change by another program
    // in the same moments is missed until the next sweep) — as the edge cache adopts its own.
    if (this.ownWrites && this.currentAtStamp) {
      const adopted = dirStamp(paths.memoriesDir);
      delete adopted.racy;
      this.stamp = adopted;
    }
    // In this process, its own writes do not call for a sweep (see refresh): the stamp they
    // left is the one the next refresh compares with, racy or not, within FRESH_SWEEP_MS of
    // the last sweep (a change by another process in the same clock tick is found by the
    // sweep after that).
    if (this.ownWrites && this.liveStamp !== undefined) this.liveStamp = dirStamp(paths.memoriesDir);
    this.ownWrites = false;
    const indexPath = KeywordIndex.indexPath(paths);
    // A save whose tables are all kept appends its changes to index.v8 (a frame) instead of
    // writing the header with every journal again: what a `remember` writes is proportional
    // to the memory, at every size of the tier. Only onto the file this process last read or
    // wrote (another process may have replaced it), and while the frames are small beside the
    // header (FRAMES_MIN_BYTES).
    const whole =
      newTree ||
      newDocs ||
      newFiles ||
      moved ||
      this.written === undefined ||
      this.frameBytes > Math.max(FRAMES_MIN_BYTES, this.headerBytes) ||
      !sameIdentity(KeywordIndex.fileIdentity(paths), this.written);
    if (!whole) {
      const frame: IndexFrame = {
        base: baseOf({ filesFile: this.filesFile!, docsFile: this.docsFile!, searchFile: this.searchFile!, recordsFile: this.recordsFile! }),
        files: [...this.unsavedFiles].map((name): [string, FileEntry | null] => [name, this.fileJournal.get(name) ?? null]),
        docs: this.docJournalPart(docJournal),
        search: journalPart(journal, this.unsavedSearch),
        stamp: this.stamp,
        diagnostics: this.knownDiagnostics,
      };
      const bytes = packFrame(frame);
      const fd = openSync(indexPath, 'a');
      try {
        appendFileSync(fd, bytes);
        const st = fstatSync(fd);
        this.written = { ino: st.ino, size: st.size };
      } finally {
        closeSync(fd);
      }
      this.frameBytes += bytes.length;
      this.clearUnsaved();
      this.dirty = false;
      return;
    }
    const data: IndexFile = {
      version: INDEX_FORMAT_VERSION,
      optionsHash: OPTIONS_HASH,
      filesFile: this.filesFile!,
      fileJournal: [...this.fileJournal],
      stamp: this.stamp,
      diagnostics: this.knownDiagnostics,
      docsFile: this.docsFile!,
      docJournal,
      searchFile: this.searchFile!,
      recordsFile: this.recordsFile!,
      journal,
    };
    const packed = packIndexFile(data);
    writeFileAtomic(indexPath, packed);
    this.headerBytes = packed.length;
    this.frameBytes = 0;
    this.written = KeywordIndex.fileIdentity(paths);
    this.clearUnsaved();
    this.cacheDir = paths.cacheDir;
    // Every header written sweeps files of every kind no index points to (a bounded number),
    // not only the kinds it replaced: orphans left by an older version or an interrupted run go too.
    removeStaleIndexFiles(paths.cacheDir, this.savedFiles());
    // A build interrupted before its save leaves the records file it was writing.
    if (newRecords) removeStaleTempFiles(paths.cacheDir, { now: Date.now() });
    rmSync(join(paths.cacheDir, 'index.json'), { force: true }); // the cache of format ≤ 7
    if (newDocs) rmSync(join(paths.cacheDir, SESSION_ORDER_FILE), { force: true }); // the session order of format ≤ 11
    this.dirty = false;
  }

  private clearUnsaved(): void {
    this.unsavedFiles.clear();
    this.unsavedDocs.clear();
    this.unsavedSearch.clear();
  }

  /** `index.v8`'s inode and size now (undefined when it cannot be stated). */
  private static fileIdentity(paths: TierPaths): { ino: number; size: number } | undefined {
    try {
      const st = statSync(KeywordIndex.indexPath(paths));
      return { ino: st.ino, size: st.size };
    } catch {
      return undefined;
    }
  }

  /**
   * The entries of the doc table's journal changed since the last save. A memory added and
   * removed again since the saved columns has no entry in the journal at all: it is listed
   * as deleted, for a frame before this one may have set it.
   */
  private docJournalPart(full: DocJournal): DocJournal {
    const part: DocJournal = { set: full.set.filter((e) => this.unsavedDocs.has(e.id)), deleted: [], deletedRows: [] };
    full.deleted.forEach((id, i) => {
      if (!this.unsavedDocs.has(id)) return;
      part.deleted.push(id);
      part.deletedRows!.push(full.deletedRows?.[i] ?? -1);
    });
    const listed = new Set([...part.deleted, ...part.set.map((e) => e.id)]);
    for (const id of this.unsavedDocs) {
      if (listed.has(id) || this.docs.has(id)) continue;
      part.deleted.push(id);
      part.deletedRows!.push(-1);
    }
    return part;
  }

  /** Applies a frame appended after the header (see {@link IndexFrame}), in the order they were appended. */
  private applyFrame(frame: IndexFrame): void {
    for (const [name, entry] of frame.files) this.fileJournal.set(name, entry);
    this.docs.applyJournalPart(frame.docs);
    for (const id of frame.search.removed) this.journal.set(id, undefined);
    for (const doc of frame.search.added) this.journal.set(doc.id, doc);
    for (const [id, shortId] of frame.search.saved ?? []) this.savedShortIds.set(id, shortId);
    this.stamp = frame.stamp;
    this.knownDiagnostics = frame.diagnostics;
  }

  /**
   * Watches the memories directory (a long-lived process only): any event but those of this
   * process's own writes (their final names and every temporary file) means the next refresh
   * sweeps. False when not watching (off, or the platform refuses: the time window alone then).
   */
  private watchMemories(dir: string): boolean {
    if (freshSweepWindow === 0) return false;
    if (this.watcher !== undefined && this.watchedDir === dir) return true;
    this.watcher?.close();
    this.watcher = undefined;
    this.changedSinceSweep = true;
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        const file = typeof name === 'string' ? name : undefined;
        if (file !== undefined && (isTempFileName(file) || this.ownNames.has(file))) return;
        this.changedSinceSweep = true;
      });
      watcher.on('error', () => {
        watcher.close();
        if (this.watcher === watcher) this.watcher = undefined;
        this.changedSinceSweep = true;
      });
      this.watcher = watcher;
      this.watchedDir = dir;
      return true;
    } catch {
      return false;
    }
  }

  /** The names of the files the saved index points to. */
  private savedFiles(): Set<string> {
    return new Set([this.searchFile, this.recordsFile, this.filesFile, this.docsFile].filter((n): n is string => n !== undefined));
  }

  /**
   * Deletes the index files in the tier's `.memory/` that its saved index does not point to
   * (see {@link removeStaleIndexFiles}): what a long-lived process does when it starts, so the
   * orphans an older version left behind go without waiting for a write. Nothing without a
   * readable index (a rebuild replaces them all). Returns the names deleted; never throws.
   *
   * @example
   * KeywordIndex.sweepStale(paths) // ['index-files-3f2a….v8', …]
   */
  static sweepStale(paths: TierPaths, options: { now?: number; max?: number } = {}): string[] {
    try {
      const header = unpackIndexFile(readFileSync(KeywordIndex.indexPath(paths)));
      const keep = new Set([header.searchFile, header.recordsFile, header.filesFile, header.docsFile].filter((n) => typeof n === 'string'));
      if (keep.size < 4) return [];
      return removeStaleIndexFiles(paths.cacheDir, keep, options);
    } catch {
      return [];
    }
  }

  /**
   * Writes a new records file in `cacheDir` (see `DocTable.toSaved`); returns its name. A
   * fresh build's log that holds them is the file, renamed into place.
   */
  private writeRecords(records: NewRecords, cacheDir: string): string {
    const log = this.recordLog;
    if ('log' in records && log !== undefined && records.log === log && dirname(log.path) === cacheDir) {
      log.commit();
      this.recordLog = undefined;
      return basename(log.path);
    }
    const name = recordsFileName(crypto.randomBytes(6).toString('hex'));
    writeStreamed(join(cacheDir, name), (out) => {
      if ('blocks' in records) {
        for (const block of records.blocks) out.write(block);
        return;
      }
      for (let at = 0; at < records.log.size; at += 1 << 20) out.write(records.log.read(at, Math.min(records.log.size, at + (1 << 20))));
    });
    return name;
  }

  /** The filters on unpacked fields (status, type, scope). */
  private static matchesFacets(doc: Pick<DocFacets, 'type' | 'status' | 'scope'>, options: SearchOptions): boolean {
    const statuses = options.statuses ?? DEFAULT_SEARCH.statuses;
    if (!statuses.includes(doc.status)) return false;
    if (options.types && options.types.length > 0 && !options.types.includes(doc.type)) return false;
    if (options.scope && doc.scope !== options.scope) return false;
    return true;
  }

  /** The filters that need the whole record (tags, date). */
  private static matchesRecord(doc: IndexedDoc, options: SearchOptions): boolean {
    if (options.tags && options.tags.length > 0 && !options.tags.every((t) => doc.tags.includes(t))) return false;
    if (options.since && Date.parse(doc.updated) < Date.parse(options.since)) return false;
    return true;
  }

  private static needsRecord(options: SearchOptions): boolean {
    return (options.tags !== undefined && options.tags.length > 0) || options.since !== undefined;
  }

  /**
   * True when the memory `id` passes the filters, reading its record only when a filter needs
   * it; `doc`: its number in the search tree, where the doc table may well have it too.
   */
  private passes(id: string, options: SearchOptions, needsRecord: boolean, doc?: number): boolean {
    const facets = this.docs.filterFacets(id, doc);
    if (facets === undefined || !KeywordIndex.matchesFacets(facets, options)) return false;
    return !needsRecord || KeywordIndex.matchesRecord(this.docs.get(id)!, options);
  }

  /**
   * Keyword search: BM25+ with field boosts, prefix and fuzzy matching, thesaurus
   * expansions at a lower weight, and a boost for the types the question hints at.
   * Then pseudo-relevance feedback widens the rest of the list (see `FEEDBACK`).
   */
  query(text: string | RecallPlan, options: SearchOptions = {}): SearchHit[] {
    // The passes' columns are views into kernel memories, given back once the hits are made.
    const held: { release?(): void }[] = [];
    try {
      return this.rank(text, options, held);
    } catch (err) {
      // A file of the index read by position turned out damaged where its header could not
      // show it (postings that do not fit their term, a file shorter than it says): the
      // memories themselves are untouched, and one command rebuilds the cache from them.
      if (err instanceof RangeError && this.cacheDir !== undefined) {
        throw new CortexError('INDEX_DAMAGED', `The keyword index in ${this.cacheDir} is damaged: ${err.message}.`, {
          hint: 'Run `cortex index --rebuild`: it is rebuilt from the memory files, which are not affected.',
          cause: err,
        });
      }
      throw err;
    } finally {
      for (const h of held) h.release?.();
    }
  }

  /** {@link query}, holding in `held` what is to be given back when the hits are made. */
  private rank(query: string | RecallPlan, options: SearchOptions, held: { release?(): void }[]): SearchHit[] {
    const opts = { ...DEFAULT_SEARCH, ...options };
    // Planned by the caller once for every tier, or here.
    const plan = typeof query === 'string' ? planRecall(query, { expand: opts.expand, exact: opts.exact }) : query;
    if (plan.terms.length === 0) return [];
    const expansions = new Set(plan.expansions);
    const hinted = new Set(plan.typeHints);
    const needsRecord = KeywordIndex.needsRecord(opts);
    const all = plan.specs.map((s) => s.term);
    const specs = plan.specs;
    // Filters are applied as the ranked lists are read (they do not change the order of
    // what passes), so a question matching thousands of memories checks only the head.
    const passes = (id: string, doc?: number) => this.passes(id, opts, needsRecord, doc);
    const boostDocument =
      // Skipped when the question hints at no type.
      hinted.size === 0
        ? undefined
        : (id: string) => {
            const type = this.docs.typeOf(id);
            return type !== undefined && hinted.has(type) ? DEFAULT_TYPE_HINT_BOOST : 1;
          };
    // The same by document number, from the postings of the `type` field (no id is looked up
    // per matched memory: a question with a type hint matches tens of thousands).
    const boostMask = hinted.size === 0 ? undefined : this.typeBoost(hinted);
    const numbering = new DocNumbering();
    // One kernel memory for both searches and their merge (see KernelArena).
    const arena = new KernelArena();
    held.push(arena);
    const first = this.run(specs, boostDocument, numbering, expansions, boostMask, arena);
    held.push(first);
    const ranked = coordinate(first, expansions, arena);
    /** The first `n` results of the first pass that pass the filters. */
    const firstHits = (n: number): SearchHit[] => {
      const out: SearchHit[] = [];
      for (let k = 0; k < ranked.order.length && out.length < n; k++) {
        const i = ranked.order.at(k)!;
        const id = first.id(first.docs[i]!);
        if (passes(id, first.docs[i])) out.push({ id, score: ranked.scores[i]!, terms: first.terms(i), queryTerms: first.queryTerms(i) });
      }
      return out;
    };
    const head = firstHits(Math.max(FEEDBACK.docs, FEEDBACK.keep + 1));
    if (!opts.feedback || opts.limit <= FEEDBACK.keep || head.length <= FEEDBACK.keep) return firstHits(opts.limit);

    const added = feedbackTerms(
      head.slice(0, FEEDBACK.docs).map((h) => ({ text: this.feedbackText(h.id), score: h.score })),
      { exclude: new Set(all), docFreq: (t) => this.docFreq(t), totalDocs: this.search.documentCount, terms: FEEDBACK.terms, weight: FEEDBACK.weight },
    );
    if (added.size === 0) return firstHits(opts.limit);
    // Only the added terms are searched again: term scores add up, so the query's own part of
    // the second ranking is the first pass's, and the whole costs one cheap exact-match search.
    const more = this.run(
      [...added].map(([term, weight]) => ({ term, prefix: false, fuzzy: false, boost: weight })),
      boostDocument,
      numbering,
      undefined,
      boostMask,
      arena,
    );
    held.push(more);
    const merged = mergeFeedback(first, ranked.counts, more, arena);
    held.push(merged);
    const { docs, final, firstAt, moreAt } = merged;
    // Best first; ties: the first pass's results in its ranking, then feedback's own in its.
    const tieBefore = (x: number, y: number): boolean => {
      const a = docs[x]!;
      const b = docs[y]!;
      const fa = firstAt[a]!;
      const fb = firstAt[b]!;
      if (fa !== -1 && fb !== -1) {
        const e = ranked.scores[fb]! - ranked.scores[fa]!;
        if (e) return e < 0;
        return ranksBefore(first, fa, fb);
      }
      if (fa !== -1 || fb !== -1) return fa !== -1;
      return ranksBefore(more, moreAt[a]!, moreAt[b]!);
    };
    const ranking = new LazyRanking(docs.length, final, tieBefore, arena);
    // The head stays as the query ranked it; the feedback ranking fills the tail, its scores
    // scaled below the head so that scores still order the list (tiers are merged by score).
    const kept = head.slice(0, FEEDBACK.keep);
    const seen = new Set(kept.map((h) => h.id));
    const floor = kept[kept.length - 1]?.score ?? 0;
    const out: SearchHit[] = [...kept];
    let scale: number | undefined;
    for (let k = 0; k < ranking.length && out.length < opts.limit; k++) {
      const x = ranking.at(k)!;
      const doc = docs[x]!;
      const id = (firstAt[doc] !== -1 ? first : more).id(doc);
      if (!passes(id, doc)) continue;
      // Scaled against the best result that passes the filters, as if only those were ranked.
      scale ??= feedbackTailScale(floor, final[x]!);
      if (seen.has(id)) continue;
      const at = firstAt[doc]!;
      out.push({ id, score: final[x]! * scale, terms: at !== -1 ? first.terms(at) : [], queryTerms: at !== -1 ? first.queryTerms(at) : [] });
    }
    return out;
  }

  /**
   * The OR query of `specs`, unfiltered, from the packed postings (MiniSearch's own search if
   * its internals are not as expected).
   */
  private run(
    specs: TermSpec[],
    boostDocument: ((id: string) => number) | undefined,
    numbering: DocNumbering,
    uncounted?: ReadonlySet<string>,
    boostMask?: { docs: Uint8Array; factor: number },
    arena?: KernelArena,
  ): PackedResults {
    const packed = searchPacked(this.search, specs, { boost: FIELD_BOOSTS, bm25: DEFAULT_BM25, maxFuzzy: MAX_FUZZY_EDITS, boostDocument, boostMask, uncounted, arena });
    if (packed) return packed;
    return packResults(
      this.search.search({ combineWith: 'OR', queries: specs.map((s) => ({ queries: [s.term], prefix: s.prefix, fuzzy: s.fuzzy, boostTerm: () => s.boost })) } as never, {
        boost: FIELD_BOOSTS,
        bm25: DEFAULT_BM25,
        maxFuzzy: MAX_FUZZY_EDITS,
        tokenize: (t: string) => [t],
        processTerm: (t: string) => t,
        ...(boostDocument ? { boostDocument: (id: unknown) => boostDocument(id as string) } : {}),
      }),
      numbering,
    );
  }

  /**
   * {@link DEFAULT_TYPE_HINT_BOOST} for the memories of the `hinted` types, by document number: the
   * documents with the analysed type name in the search tree's `type` field, which holds the
   * memory's type. Only when the analysis tells the types apart (each hinted type has a term
   * that no other type's name gives); `undefined` otherwise, and the caller looks up each
   * document's type in the doc table.
   */
  private typeBoost(hinted: ReadonlySet<string>): { docs: Uint8Array; factor: number } | undefined {
    const termsOf = (type: string): string[] =>
      ANALYZER.tokenize(type).flatMap((word) => {
        const t = ANALYZER.processTerm(word);
        return typeof t === 'string' ? [t] : Array.isArray(t) ? [...(t as string[])] : [];
      });
    const boosted = new Uint8Array((this.search as unknown as { _nextId: number })._nextId);
    for (const type of hinted) {
      const own = termsOf(type).find((term) => MEMORY_TYPES.every((other) => hinted.has(other) || !termsOf(other).includes(term)));
      if (own === undefined || documentsWithTerm(this.search, own, 'type', boosted) === undefined) return undefined;
    }
    return { docs: boosted, factor: DEFAULT_TYPE_HINT_BOOST };
  }

  /** What feedback reads of a memory: its summary and the start of its body, the summary once. */
  private feedbackText(id: string): string {
    const doc = this.docs.get(id);
    if (!doc) return '';
    return doc.preview.startsWith(doc.summary.replace(/…$/, '')) ? doc.preview : `${doc.summary} ${doc.preview}`;
  }

  /**
   * Number of memories containing an analysed term: its largest count in one field (the
   * `text` field holds summary and body, so that is nearly always the exact figure, without
   * building a union). MiniSearch has no public accessor; its term index is a documented
   * `protected` member. If that ever changes this returns 0, which turns feedback off rather
   * than failing (a test guards that it works).
   */
  private docFreq(term: string): number {
    return termDocCount(this.search, term) ?? 0;
  }

  /**
   * How rare analysed terms are in this index: each term's document frequency (see
   * `docFreq`) and the number of memories indexed. Auto-linking weights words by it.
   */
  rarity(): { docFreq: (term: string) => number; totalDocs: number } {
    // Each term once: auto-linking compares a memory with 20 others, asking again for the
    // terms they share (a term's count reads its postings' headers when memories were added
    // to it since the load: 16 ms at 10,000 memories). Valid while the index does not change,
    // which is how long a caller keeps it.
    const known = new Map<string, number>();
    const docFreq = (term: string): number => {
      let n = known.get(term);
      if (n === undefined) known.set(term, (n = this.docFreq(term)));
      return n;
    };
    return { docFreq, totalDocs: this.search.documentCount };
  }

  /**
   * The number of memories indexed and, per analysed term, how many contain it: what
   * recall needs to weigh the words of a query on one scale across tiers.
   */
  termStats(terms: readonly string[]): { documents: number; docFreq: Map<string, number> } {
    return { documents: this.search.documentCount, docFreq: new Map(terms.map((t) => [t, this.docFreq(t)])) };
  }

  /** Documents passing the filters, without a query. */
  filter(options: SearchOptions = {}): IndexedDoc[] {
    const needsRecord = KeywordIndex.needsRecord(options);
    const out: IndexedDoc[] = [];
    for (const facets of this.docs.allFacets()) {
      if (this.passes(facets.id, options, needsRecord)) out.push(this.docs.get(facets.id)!);
    }
    return out;
  }

  /** The doc with this content key, if any (duplicate detection). */
  findByContentKey(key: string): IndexedDoc | undefined {
    const id = this.docs.idWithContentKey(key);
    return id === undefined ? undefined : this.docs.get(id);
  }

  /** Docs with this topic and scope, excluding superseded ones. */
  findByTopic(topic: string, scope: Scope): IndexedDoc[] {
    const out: IndexedDoc[] = [];
    for (const f of this.docs.allFacets()) {
      if (f.topic === topic && f.scope === scope && f.status !== 'superseded') out.push(this.docs.get(f.id)!);
    }
    return out;
  }
}
