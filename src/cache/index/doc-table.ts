/**
 * The memories a keyword index knows, as saved in `.memory/index.v8`: each memory's record
 * ({@link IndexedDoc}) is kept as its JSON text and parsed only when something reads it,
 * beside the few fields that every query and graph walk needs (type, status, scope,
 * content key, topic, `[[links]]`), which are kept unpacked, all as columns. A query over 10,000 memories
 * then parses the records of the ten it returns, not all of them.
 */
import { addLine, emptyFingerprint, memoryLine, type FingerprintParts } from '../../core/fingerprint.js';
import { CodeColumn, StringColumn, isSavedCodes, isSavedStrings, type SavedCodes, type SavedStrings } from './columns.js';
import type { CodeColumnName, DocsFile, StringColumnName } from './docs-file.js';
import type { MemoryStatus, MemoryType, Scope } from '../../core/memory.js';
import { NumberColumn } from './number-column.js';

/** What the index keeps of each memory: enough to list and filter without reading files. */
export interface IndexedDoc {
  id: string;
  type: MemoryType;
  summary: string;
  status: MemoryStatus;
  scope: Scope;
  tags: string[];
  priority: number;
  confidence: number;
  pinned: boolean;
  topic?: string | undefined;
  created: string;
  updated: string;
  branch?: string | undefined;
  commit?: string | undefined;
  session?: string | undefined;
  files?: string[] | undefined;
  /** `[[id]]` links in the body. */
  links?: string[] | undefined;
  /** Hash of type, summary and body: equal content means a duplicate. */
  contentKey: string;
  /** Body length in characters. */
  bodyLength: number;
  /** First characters of the body, for previews. */
  preview: string;
  /** Path relative to the repository root (or absolute for the global tier). */
  file: string;
}

/** The fields of a memory that are kept unpacked. */
export type DocFacets = Pick<IndexedDoc, 'id' | 'type' | 'status' | 'scope' | 'contentKey' | 'topic' | 'links'>;

const DECODER = new TextDecoder();

/**
 * Where the records' bytes are read from: the records file of the index, read record by
 * record (see keyword-index.ts), or bytes in memory.
 */
export interface RecordSource {
  /** The bytes `[start, end)`. */
  read(start: number, end: number): Uint8Array;
  /** Total bytes (records lie below it). */
  readonly size: number;
}

/**
 * A records file being written (see `AtomicFileWriter`): a table that builds a new index
 * appends each record to it as it is set, rather than keeping 100,000 of them in memory.
 */
export interface RecordLog extends RecordSource {
  write(bytes: Uint8Array): void;
}

/**
 * A new records file as {@link DocTable.toSaved} lays it out: its bytes block by block (read
 * from the current records as they are asked for), or the table's {@link RecordLog}, which
 * holds exactly these records in this order.
 */
export type NewRecords = { blocks: Iterable<Uint8Array> } | { log: RecordLog };

/** Largest block of consecutive records read at once when records are copied to a new file. */
const COPY_BLOCK_BYTES = 1 << 20;

/**
 * Changes to a table since its saved columns: records set (JSON, with the file's size and mtime) and ids deleted.
 * `row` and `deletedRows` give each id's row in the saved columns (-1: not there), so a replay
 * finds none by binary search (at 100,000 memories a journal of 130 ids cut 2,200 ids out of
 * the file, and past 2,048 the 4.5 MB column was read whole); journals written before them
 * have none, and their ids are looked up.
 */
export interface DocJournal {
  set: { id: string; record: Uint8Array; size: number; mtimeMs: number; row?: number }[];
  deleted: string[];
  deletedRows?: number[];
}

/** True when `value` is a {@link DocJournal} (as read back from a file). */
export function isDocJournal(value: unknown): value is DocJournal {
  const j = value as DocJournal;
  return (
    typeof j === 'object' &&
    j !== null &&
    Array.isArray(j.deleted) &&
    j.deleted.every((id) => typeof id === 'string') &&
    Array.isArray(j.set) &&
    j.set.every((e) => typeof e?.id === 'string' && e.record instanceof Uint8Array && typeof e.size === 'number' && typeof e.mtimeMs === 'number' && (e.row === undefined || Number.isInteger(e.row))) &&
    (j.deletedRows === undefined || (Array.isArray(j.deletedRows) && j.deletedRows.length === j.deleted.length && j.deletedRows.every((row) => Number.isInteger(row))))
  );
}

/** Records in memory. */
export class BytesRecords implements RecordSource {
  constructor(private readonly bytes: Uint8Array) {}
  read(start: number, end: number): Uint8Array {
    return this.bytes.subarray(start, end);
  }
  get size(): number {
    return this.bytes.length;
  }
}

/**
 * Records kept in the index file rather than the records file, past this many bytes, make
 * the next save write a new records file: a `remember` adds its record to the index file
 * (small), and the records file (80 MB at 100,000 memories) is rewritten only now and then.
 */
export const RECORDS_JOURNAL_BYTES = 1 << 20;

/** The table as saved: one column per field, one row per memory (see columns.ts). */
export interface SavedDocs {
  ids: SavedStrings;
  /** The rows sorted by id: an id is found by binary search, with no Map built at load. */
  order: Uint32Array;
  types: SavedCodes;
  statuses: SavedCodes;
  scopes: SavedCodes;
  contentKeys: SavedStrings;
  /** '' for none. */
  topics: SavedStrings;
  /** The `[[links]]`, space-separated; '' for none. */
  links: SavedStrings;
  /** `source.session`; '' for none. */
  sessions: SavedStrings;
  /** `created`: the order within a session. */
  created: SavedStrings;
  /**
   * The rows of the memories in a session, ordered as recall's conversation neighbours read
   * them (by session, then `created`, then id): a memory's neighbours are next to it here.
   */
  sessionOrder: Uint32Array;
  /**
   * Each row's place in `sessionOrder` ({@link NO_SESSION}: none), so that a memory's
   * neighbours are read next to it without a binary search over the sessions (20 results
   * cut 700 values out of three columns at 100,000 memories). Tables saved before it have
   * none, and search.
   */
  sessionAt?: Uint32Array;
  /**
   * The rows sorted by content key, then row: a duplicate (`remember`, capture) is found by
   * binary search, reading a few keys rather than the 4 MB column at 100,000 memories.
   */
  keyOrder: Uint32Array;
  /**
   * Where each row's record (UTF-8 JSON) is: `[start, end)` in the records file, or, when
   * `start` is -1, `fresh[end]`: records written since the records file, kept with the table.
   */
  spans: Float64Array;
  fresh: Uint8Array[];
  /** Each row's file size and mtime when it was read (`[size, mtimeMs]`; NaN: unknown), to check a shown memory without the file table. */
  stats: Float64Array;
  /** The fingerprint of the rows' memory lines (core/fingerprint.ts): count and the two lane sums. */
  fingerprint: [number, number, number];
}

function isSavedDocs(value: unknown): value is SavedDocs {
  const v = value as SavedDocs;
  if (typeof v !== 'object' || v === null || !isSavedStrings(v.ids, (v.ids as SavedStrings | undefined)?.ends?.length ?? -1)) return false;
  const n = v.ids.ends.length;
  if (!(v.order instanceof Uint32Array) || v.order.length !== n || !(v.spans instanceof Float64Array) || v.spans.length !== 2 * n) return false;
  if (!(v.stats instanceof Float64Array) || v.stats.length !== 2 * n) return false;
  if (!(v.sessionOrder instanceof Uint32Array) || v.sessionOrder.length > n || !isSavedStrings(v.sessions, n) || !isSavedStrings(v.created, n)) return false;
  if (!(v.keyOrder instanceof Uint32Array) || v.keyOrder.length !== n) return false;
  if (v.sessionAt !== undefined && (!(v.sessionAt instanceof Uint32Array) || v.sessionAt.length !== n)) return false;
  if (!Array.isArray(v.fresh) || !v.fresh.every((r) => r instanceof Uint8Array)) return false;
  if (!Array.isArray(v.fingerprint) || v.fingerprint.length !== 3 || v.fingerprint[0] !== n) return false;
  return isSavedCodes(v.types, n) && isSavedCodes(v.statuses, n) && isSavedCodes(v.scopes, n) && isSavedStrings(v.contentKeys, n) && isSavedStrings(v.topics, n) && isSavedStrings(v.links, n);
}

/** `SavedDocs.sessionAt` of a row in no session. */
export const NO_SESSION = 0xffffffff;

/** `SavedDocs.sessionAt` for a session order of `rows` rows. */
function sessionPlaces(order: Uint32Array, rows: number): Uint32Array {
  const at = new Uint32Array(rows).fill(NO_SESSION);
  for (let k = 0; k < order.length; k++) at[order[k]!] = k;
  return at;
}

/** Throws unless every span (see `SavedDocs.spans`) lies in the records or among the `fresh` ones. */
function checkSpans(spans: Float64Array, fresh: number, size: number): void {
  for (let row = 0; 2 * row < spans.length; row++) {
    const start = spans[2 * row]!;
    const end = spans[2 * row + 1]!;
    if (start === -1 ? !(end >= 0 && end < fresh) : !(start >= 0 && end >= start && end <= size)) {
      throw new TypeError('the records do not line up with the doc table');
    }
  }
}

/**
 * The positions (`position[row]`) of the rows `kept` and `added`, each in its order, merged
 * into one order: each added row goes among the kept ones by binary search (`before(k, a)`:
 * kept row `k` comes before added row `a`), so that saving after a few changes compares a
 * few rows rather than sorting 100,000.
 */
function mergeRows(kept: readonly number[], added: readonly number[], position: Int32Array, before: (keptRow: number, row: number) => boolean): Uint32Array {
  const out = new Uint32Array(kept.length + added.length);
  let k = 0;
  let j = 0;
  for (const row of added) {
    let lo = j;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(kept[mid]!, row)) lo = mid + 1;
      else hi = mid;
    }
    while (j < lo) out[k++] = position[kept[j++]!]!;
    out[k++] = position[row]!;
  }
  while (j < kept.length) out[k++] = position[kept[j++]!]!;
  return out;
}

/** The row of `id` among the `rows` saved rows sorted by id (`order`), by binary search. */
function findRow(ids: StringColumn, order: NumberColumn<Uint32Array>, rows: number, id: string): number | undefined {
  let lo = 0;
  let hi = rows - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const row = order.get(mid);
    const probe = ids.at(row);
    if (probe === id) return row;
    if (id < probe) hi = mid - 1;
    else lo = mid + 1;
  }
  return undefined;
}

/**
 * A read-only Map of id → record whose records are read and parsed on first use, plus the
 * unpacked facets, kept as columns. Opening it builds nothing per memory: an id is found by
 * binary search over the saved order, a record is read from the records file when asked for.
 *
 * @example
 * const docs = DocTable.fromSaved(saved, records); // saved: SavedDocs from the index file
 * docs.facets('db-choice-ab12cd')?.status  // 'active', nothing parsed
 * docs.get('db-choice-ab12cd')?.summary    // reads and parses this one record
 */
export class DocTable implements ReadonlyMap<string, IndexedDoc> {
  private ids = new StringColumn();
  /** The number of rows loaded (rows past it were added since). */
  private loadedRows = 0;
  /** The saved rows sorted by id (rows added since are in `changedRows`). */
  private order: NumberColumn<Uint32Array> = NumberColumn.of(new Uint32Array(0));
  /** Rows added or re-pointed since the load, by id (`undefined`: the id was deleted). */
  private readonly changedRows = new Map<string, number | undefined>();
  /** Ids deleted and then set again since the load (a new row each): the journal deletes their loaded row. */
  private readonly readded = new Set<string>();
  /** Loaded rows found by id, -1 for an id with none (see `loadedRowOf`). */
  private readonly found = new Map<string, number>();
  /** Rows of deleted memories (dropped when saved). */
  private readonly dead = new Set<number>();
  private live = 0;
  private types = new CodeColumn();
  private statuses = new CodeColumn();
  private scopes = new CodeColumn();
  private contentKeys = new StringColumn();
  private topics = new StringColumn();
  private links = new StringColumn();
  private sessions = new StringColumn();
  private created = new StringColumn();
  /** See `SavedDocs.sessionOrder`: the loaded rows (rows set since are found through `fresh`). */
  private sessionOrder: NumberColumn<Uint32Array> = NumberColumn.of(new Uint32Array(0));
  /** See `SavedDocs.sessionAt`: the loaded rows' places in `sessionOrder` (undefined: not saved, search). */
  private sessionAt: NumberColumn<Uint32Array> | undefined;
  /** How many rows `sessionOrder` holds. */
  private sessionRows = 0;
  /** See `SavedDocs.keyOrder`: the loaded rows (rows set since are found through `fresh`). */
  private keyOrder: NumberColumn<Uint32Array> = NumberColumn.of(new Uint32Array(0));
  private source: RecordSource = new BytesRecords(new Uint8Array(0));
  /** Where records set are appended (see {@link logTo}); the source then. */
  private log: RecordLog | undefined;
  /** Rows' spans (see `SavedDocs.spans`): the loaded rows', then those of rows logged since. */
  private spans: NumberColumn<Float64Array> = NumberColumn.of(new Float64Array(0));
  /** Rows with a span: `spans` may be longer. */
  private spanned = 0;
  /** The first rows, loaded from a file, whose spans have not been checked (see {@link checkedSpans}). */
  private uncheckedSpans = 0;
  /** Rows' file stats (see `SavedDocs.stats`): the loaded ones, then rows set since (NaN: unknown). */
  private stats: NumberColumn<Float64Array> = NumberColumn.of(new Float64Array(0), Number.NaN);
  private freshLoaded: Uint8Array[] = [];
  /**
   * Rows whose record was set since the table was loaded (its JSON is not in the source),
   * with their JSON once encoded: a long-lived process (the MCP server) saves after every
   * write, and encoding every record it ever wrote again on each save made `remember` slower.
   */
  private readonly fresh = new Map<number, Uint8Array | undefined>();
  /** Parsed records, by row. */
  private parsed: (IndexedDoc | undefined)[] = [];
  /** The fingerprint of the live rows, kept up to date by `set` and `delete`. */
  private print: FingerprintParts = emptyFingerprint();

  // The columns of a table opened from its file are read by position (see number-column.ts).

  /** The spans in memory, those loaded checked to lie in the records (see {@link checkSpans}). */
  private checkedSpans(): Float64Array {
    const spans = this.spans.whole(2 * this.spanned);
    if (this.uncheckedSpans > 0) {
      checkSpans(spans.subarray(0, 2 * this.uncheckedSpans), this.freshLoaded.length, this.source.size);
      this.uncheckedSpans = 0;
    }
    return spans;
  }

  /**
   * A table reading its columns from its file by position (see docs-file.ts): opening it
   * reads nothing per memory. Throws when the records do not fit (the caller rebuilds).
   */
  static open(file: DocsFile, records: RecordSource): DocTable {
    const table = new DocTable();
    const n = file.rows;
    const strings = (name: StringColumnName) => {
      const { text, ends } = file.strings(name);
      return StringColumn.lazy(n, text, ends);
    };
    const codes = (name: CodeColumnName) => {
      const { values, codes } = file.codes(name);
      return CodeColumn.lazy(n, values, codes);
    };
    table.ids = strings('ids');
    table.loadedRows = n;
    table.order = file.u32('order');
    table.live = n;
    table.types = codes('types');
    table.statuses = codes('statuses');
    table.scopes = codes('scopes');
    table.contentKeys = strings('contentKeys');
    table.topics = strings('topics');
    table.links = strings('links');
    table.sessions = strings('sessions');
    table.created = strings('created');
    table.sessionOrder = file.u32('sessionOrder');
    table.sessionAt = file.sessionAt();
    table.sessionRows = file.sessionRows;
    table.keyOrder = file.u32('keyOrder');
    table.source = records;
    // Every record must lie in the records file: a row's span is checked when its record is
    // read, all of them before a save copies them (a recall reads a few of 100,000).
    table.spanned = n;
    table.spans = file.f64('spans', 0);
    table.uncheckedSpans = n;
    table.stats = file.f64('stats', Number.NaN);
    table.freshLoaded = file.fresh;
    table.parsed = new Array<IndexedDoc | undefined>(n);
    const [count, a, b] = file.fingerprint;
    table.print = { count, a, b };
    return table;
  }

  /** A table from saved columns; throws when they are not (the caller rebuilds). */
  static fromSaved(saved: unknown, records: RecordSource | Uint8Array): DocTable {
    if (!isSavedDocs(saved)) throw new TypeError('not a saved doc table');
    const source = records instanceof Uint8Array ? new BytesRecords(records) : records;
    const n = saved.ids.ends.length;
    checkSpans(saved.spans, saved.fresh.length, source.size);
    const table = new DocTable();
    table.ids = StringColumn.fromSaved(saved.ids);
    table.loadedRows = n;
    table.order = NumberColumn.of(saved.order);
    table.live = n;
    table.types = CodeColumn.fromSaved(saved.types);
    table.statuses = CodeColumn.fromSaved(saved.statuses);
    table.scopes = CodeColumn.fromSaved(saved.scopes);
    table.contentKeys = StringColumn.fromSaved(saved.contentKeys);
    table.topics = StringColumn.fromSaved(saved.topics);
    table.links = StringColumn.fromSaved(saved.links);
    table.sessions = StringColumn.fromSaved(saved.sessions);
    table.created = StringColumn.fromSaved(saved.created);
    table.sessionOrder = NumberColumn.of(saved.sessionOrder);
    table.sessionAt = saved.sessionAt && NumberColumn.of(saved.sessionAt);
    table.sessionRows = saved.sessionOrder.length;
    table.keyOrder = NumberColumn.of(saved.keyOrder);
    table.source = source;
    table.spans = NumberColumn.of(saved.spans);
    table.spanned = n;
    table.stats = NumberColumn.of(saved.stats, Number.NaN);
    table.freshLoaded = saved.fresh;
    table.parsed = new Array<IndexedDoc | undefined>(n);
    const [count, a, b] = saved.fingerprint;
    table.print = { count, a, b };
    return table;
  }

  /**
   * What changed since the saved columns were loaded (see {@link DocJournal}): a save that
   * keeps the columns writes only this, and {@link applyJournal} replays it after a load.
   */
  journal(): DocJournal {
    const journal: DocJournal = { set: [], deleted: [], deletedRows: [] };
    const set: { row: number; entry: DocJournal['set'][number] }[] = [];
    const entry = (id: string, row: number, loaded: number) => ({ row, entry: { id, record: this.recordBytes(row), size: this.stats.get(2 * row), mtimeMs: this.stats.get(2 * row + 1), row: loaded } });
    for (const [id, row] of this.changedRows) {
      // Deleted, or deleted and added again (as a new row, after the others): gone from its
      // loaded row, if it had one. (Not looked for otherwise: a journal of 256 new memories
      // made 4,000 cuts of ids, which read the 4.5 MB column whole at 100,000.)
      const loaded = row === undefined || this.readded.has(id) ? (this.loadedRowOf(id) ?? -1) : -1;
      if (loaded !== -1) {
        journal.deleted.push(id);
        journal.deletedRows!.push(loaded);
      }
      if (row !== undefined) set.push(entry(id, row, loaded));
    }
    for (const row of this.fresh.keys()) {
      if (row >= this.loadedRows || this.dead.has(row)) continue; // added, or deleted: above
      set.push(entry(this.ids.at(row), row, row));
    }
    // In row order: replayed, the rows added come back in the order they had (the first of
    // two duplicates stays the first).
    journal.set = set.sort((a, b) => a.row - b.row).map((s) => s.entry);
    return journal;
  }

  /** Replays a journal saved by {@link journal} onto the columns it was taken from. */
  applyJournal(journal: DocJournal): void {
    // The saved rows of the journal's ids, as the save found them: no binary searches.
    journal.deletedRows?.forEach((row, i) => this.knowLoadedRow(journal.deleted[i]!, row));
    for (const e of journal.set) if (e.row !== undefined) this.knowLoadedRow(e.id, e.row);
    for (const id of journal.deleted) this.delete(id);
    for (const e of journal.set) {
      this.set(e.id, JSON.parse(DECODER.decode(e.record)) as IndexedDoc);
      this.setStat(e.id, e.size, e.mtimeMs);
    }
  }

  /**
   * Replays a part of a journal (the ids changed between two saves, as {@link journal} lists
   * them) onto a table that may hold earlier parts already: a row set anew (`row` -1) or after
   * a delete replaces the one an earlier part set, at the end, as the writer's table did.
   */
  applyJournalPart(journal: DocJournal): void {
    journal.deletedRows?.forEach((row, i) => {
      if (!this.changedRows.has(journal.deleted[i]!)) this.knowLoadedRow(journal.deleted[i]!, row);
    });
    const deleted = new Set(journal.deleted);
    for (const id of journal.deleted) this.delete(id);
    for (const e of journal.set) {
      if (e.row !== undefined && e.row >= 0 && !deleted.has(e.id) && !this.changedRows.has(e.id)) this.knowLoadedRow(e.id, e.row);
      else if (this.has(e.id)) this.delete(e.id);
      this.set(e.id, JSON.parse(DECODER.decode(e.record)) as IndexedDoc);
      this.setStat(e.id, e.size, e.mtimeMs);
    }
  }

  /**
   * From now on, records set are appended to `log` rather than kept in memory, and read back
   * from it (an empty table only: a fresh build). A save then takes the log as the records
   * file when it holds exactly the live records (see {@link toSaved}).
   */
  logTo(log: RecordLog): void {
    if (this.ids.length > 0) throw new Error('a table logs its records from its first row');
    this.log = log;
    this.source = log;
  }

  /** True when records set are appended to a log (see {@link logTo}). */
  get logging(): boolean {
    return this.log !== undefined;
  }

  /** The number of changes {@link journal} would list. */
  get journalSize(): number {
    let n = this.changedRows.size;
    for (const row of this.fresh.keys()) if (row < this.loadedRows && !this.dead.has(row)) n++;
    return n;
  }

  /**
   * The row of `id`, if it is in the table. `hint`: a row it may be at (a search's document
   * number: a fresh build numbers both alike), checked with one read before a binary search.
   * A loaded row found is remembered: a query's results are looked up several times each.
   */
  private rowOf(id: string, hint?: number): number | undefined {
    if (this.changedRows.has(id)) return this.changedRows.get(id);
    // Loaded rows never move; a deleted or re-added id is in `changedRows`, asked first.
    return this.loadedRowOf(id, hint);
  }

  /** The row `id` has in the loaded columns, if any (found once, then remembered: see {@link rowOf}). */
  private loadedRowOf(id: string, hint?: number): number | undefined {
    let row = this.found.get(id);
    if (row !== undefined) return row === -1 ? undefined : row;
    row = hint !== undefined && hint < this.loadedRows && this.ids.equals(hint, id) ? hint : findRow(this.ids, this.order, this.loadedRows, id);
    this.found.set(id, row ?? -1);
    return row;
  }

  /** Remembers the loaded row of `id` (-1: none) as a saved journal gives it, when it is one a loaded table can have. */
  private knowLoadedRow(id: string, row: number): void {
    if (row === -1 || (row >= 0 && row < this.loadedRows)) this.found.set(id, row);
  }

  /** The live rows, in row order. */
  private *liveRows(): IterableIterator<number> {
    for (let row = 0; row < this.ids.length; row++) if (!this.dead.has(row)) yield row;
  }

  /**
   * The live rows as columns. Their records stay where they are (in the records file, or
   * kept with the table) unless those kept with the table pass {@link RECORDS_JOURNAL_BYTES}
   * or `rewrite` is set (or the table logs): then `records` is a new records file holding them all (see
   * {@link NewRecords}; its blocks are read as they are asked for, before the table changes).
   */
  toSaved(options: { rewrite?: boolean } = {}): { saved: SavedDocs; records: NewRecords | undefined } {
    // Every span is copied or read below.
    const allSpans = this.checkedSpans();
    const rows = [...this.liveRows()];
    let kept = 0;
    for (const row of rows) if (this.isKept(row)) kept += this.recordBytes(row).length;
    // A log is not a records file until a save takes it: a logging table always writes one.
    const rewrite = options.rewrite === true || kept > RECORDS_JOURNAL_BYTES || this.log !== undefined;
    let spans = new Float64Array(2 * rows.length);
    const fresh: Uint8Array[] = [];
    let records: NewRecords | undefined;
    if (rewrite && this.log !== undefined && this.isWholeLog(rows)) {
      // A fresh build: the log is the records file, in row order, nothing replaced.
      spans = allSpans.slice(0, 2 * rows.length);
      records = { log: this.log };
    } else if (rewrite) {
      let end = 0;
      rows.forEach((row, i) => {
        const length = this.isKept(row) ? this.recordBytes(row).length : allSpans[2 * row + 1]! - allSpans[2 * row]!;
        spans[2 * i] = end;
        spans[2 * i + 1] = end += length;
      });
      records = { blocks: this.recordBlocks(rows) };
    } else {
      rows.forEach((row, i) => {
        if (this.isKept(row)) {
          spans[2 * i] = -1;
          spans[2 * i + 1] = fresh.length;
          fresh.push(this.recordBytes(row));
        } else {
          spans[2 * i] = allSpans[2 * row]!;
          spans[2 * i + 1] = allSpans[2 * row + 1]!;
        }
      });
    }
    const order = this.savedOrder(rows);
    const sessionOrder = this.savedSessionOrder(rows);
    const saved: SavedDocs = {
      ids: this.ids.saveRows(rows),
      order,
      types: this.types.saveRows(rows),
      statuses: this.statuses.saveRows(rows),
      scopes: this.scopes.saveRows(rows),
      contentKeys: this.contentKeys.saveRows(rows),
      topics: this.topics.saveRows(rows),
      links: this.links.saveRows(rows),
      sessions: this.sessions.saveRows(rows),
      created: this.created.saveRows(rows),
      sessionOrder,
      sessionAt: sessionPlaces(sessionOrder, rows.length),
      keyOrder: this.savedKeyOrder(rows),
      spans,
      fresh,
      stats: this.statsOf(rows),
      fingerprint: [this.print.count, this.print.a, this.print.b],
    };
    return { saved, records };
  }

  /** True when the log holds exactly the records of `rows` (every row, in order, none replaced). */
  private isWholeLog(rows: readonly number[]): boolean {
    if (this.fresh.size > 0 || rows.length !== this.spanned || rows.length !== this.ids.length) return false;
    let end = 0;
    for (let row = 0; row < rows.length; row++) {
      if (this.spans.get(2 * row) !== end) return false;
      end = this.spans.get(2 * row + 1);
    }
    return end === this.log!.size;
  }

  /**
   * The records of `rows`, in order, as blocks: consecutive records of the source are read
   * together, up to {@link COPY_BLOCK_BYTES} at a time.
   */
  private *recordBlocks(rows: readonly number[]): Generator<Uint8Array> {
    let blockFrom = -1;
    let blockTo = -1;
    for (const row of rows) {
      if (this.isKept(row)) {
        if (blockFrom >= 0) yield this.source.read(blockFrom, blockTo);
        blockFrom = -1;
        yield this.recordBytes(row);
        continue;
      }
      const start = this.spans.get(2 * row);
      const end = this.spans.get(2 * row + 1);
      if (blockFrom >= 0 && start === blockTo && end - blockFrom <= COPY_BLOCK_BYTES) {
        blockTo = end;
        continue;
      }
      if (blockFrom >= 0) yield this.source.read(blockFrom, blockTo);
      blockFrom = start;
      blockTo = end;
    }
    if (blockFrom >= 0) yield this.source.read(blockFrom, blockTo);
  }

  /**
   * The positions in `rows` sorted by id: the loaded order with the deleted rows left out,
   * merged with the rows added since (sorted among themselves), so that a save after one
   * `remember` compares a few ids rather than sorting 100,000.
   */
  private savedOrder(rows: readonly number[]): Uint32Array {
    const position = new Int32Array(this.ids.length).fill(-1);
    rows.forEach((row, i) => (position[row] = i));
    const loaded = this.loadedRows;
    const order = this.order.whole();
    const added = rows.filter((row) => row >= loaded).sort((x, y) => {
      const a = this.ids.at(x);
      const b = this.ids.at(y);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    // Where each added id goes among the loaded ones: a binary search each (the loaded ids
    // are not cut out one by one: 100,000 slices were most of a save).
    const insertAt = added.map((row) => {
      const id = this.ids.at(row);
      let lo = 0;
      let hi = loaded;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.ids.at(order[mid]!) < id) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    });
    const out = new Uint32Array(rows.length);
    let k = 0;
    let j = 0;
    for (let i = 0; i < loaded; i++) {
      while (j < added.length && insertAt[j]! <= i) out[k++] = position[added[j++]!]!;
      const at = position[order[i]!]!;
      if (at !== -1) out[k++] = at;
    }
    while (j < added.length) out[k++] = position[added[j++]!]!;
    return out;
  }

  /** Orders rows as `SavedDocs.sessionOrder` does: by session, then created, then id. */
  private compareInSession(x: number, y: number): number {
    const a = this.sessions.at(x);
    const b = this.sessions.at(y);
    if (a !== b) return a < b ? -1 : 1;
    const ca = this.created.at(x);
    const cb = this.created.at(y);
    if (ca !== cb) return ca < cb ? -1 : 1;
    const ia = this.ids.at(x);
    const ib = this.ids.at(y);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  }

  /**
   * For a saved order of the loaded rows (its first `count` entries): each row's position in
   * `rows` (-1: not saved), which rows changed since the load, and the loaded order without
   * the rows deleted or changed since.
   */
  private keptOf(rows: readonly number[], order: NumberColumn<Uint32Array>, count: number): { position: Int32Array; changed: (row: number) => boolean; kept: number[] } {
    const position = new Int32Array(this.ids.length).fill(-1);
    rows.forEach((row, i) => (position[row] = i));
    const loaded = this.loadedRows;
    const changed = (row: number) => row >= loaded || this.fresh.has(row);
    const kept: number[] = [];
    for (const row of order.whole().subarray(0, count)) if (position[row] !== -1 && !changed(row)) kept.push(row);
    return { position, changed, kept };
  }

  /**
   * `SavedDocs.sessionOrder` for the positions in `rows`: the loaded order without the rows
   * deleted or set since, merged with the rows set since (sorted among themselves), as
   * {@link savedOrder} does, so that a save after one `remember` does not sort 100,000 rows.
   */
  private savedSessionOrder(rows: readonly number[]): Uint32Array {
    const { position, changed, kept } = this.keptOf(rows, this.sessionOrder, this.sessionRows);
    // Each row's values cut out once (a rebuild sorts them all).
    const added = rows
      .filter((row) => changed(row) && this.sessions.at(row) !== '')
      .map((row) => ({ row, session: this.sessions.at(row), created: this.created.at(row), id: this.ids.at(row) }))
      .sort((a, b) => (a.session !== b.session ? (a.session < b.session ? -1 : 1) : a.created !== b.created ? (a.created < b.created ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((a) => a.row);
    return mergeRows(kept, added, position, (keptRow, row) => this.compareInSession(keptRow, row) < 0);
  }

  /**
   * `SavedDocs.keyOrder` for the positions in `rows`: the loaded order without the rows
   * deleted or set since, merged with the rows set since (sorted among themselves), as
   * {@link savedOrder} does.
   */
  private savedKeyOrder(rows: readonly number[]): Uint32Array {
    const { position, changed, kept } = this.keptOf(rows, this.keyOrder, this.loadedRows);
    // (key, row) orders as (key, position): positions follow rows.
    const before = (x: { key: string; row: number }, y: { key: string; row: number }) => (x.key !== y.key ? x.key < y.key : x.row < y.row);
    // Each added row's key cut out once.
    const added = rows
      .filter(changed)
      .map((row) => ({ row, key: this.contentKeys.at(row) }))
      .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const keyOf = new Map(added.map((a) => [a.row, a.key]));
    return mergeRows(
      kept,
      added.map((a) => a.row),
      position,
      (keptRow, row) => before({ key: this.contentKeys.at(keptRow), row: keptRow }, { key: keyOf.get(row)!, row }),
    );
  }

  /**
   * The memories within `width` places of `id` in its session (by `created`, then id), nearest
   * first (before, then after, at each distance); none for a memory in no session. Reads the
   * session's rows, found by binary search in the saved order, and the rows set since the load.
   *
   * @example
   * docs.sessionNeighbours('fence-answer-bbbbbb', 1) // ['fence-question-aaaaaa', 'tea-after-cccccc']
   */
  sessionNeighbours(id: string, width: number): string[] {
    const row = this.rowOf(id);
    if (row === undefined) return [];
    const session = this.sessions.at(row);
    if (session === '') return [];
    const order = this.sessionOrder;
    const loadedMember = (r: number) => !this.fresh.has(r) && !this.dead.has(r);
    // Loaded members, in session order: by the row's own place when it has one saved (its
    // nearest `width` members each way: no member farther can be nearer once the rows set
    // since are counted in), else the whole session, found by binary search.
    const members: number[] = [];
    const place = row < this.loadedRows && !this.fresh.has(row) && this.sessionAt !== undefined ? this.sessionAt.get(row) : NO_SESSION;
    if (place !== NO_SESSION && place < this.sessionRows && order.get(place) === row) {
      const before: number[] = [];
      for (let k = place - 1; k >= 0 && before.length < width; k--) {
        const r = order.get(k);
        if (this.sessions.loadedAt(r) !== session) break;
        if (loadedMember(r)) before.push(r);
      }
      members.push(...before.reverse(), row);
      for (let k = place + 1, after = 0; k < this.sessionRows && after < width; k++) {
        const r = order.get(k);
        if (this.sessions.loadedAt(r) !== session) break;
        if (loadedMember(r)) {
          members.push(r);
          after++;
        }
      }
    } else {
      let lo = 0;
      let hi = this.sessionRows;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.sessions.loadedAt(order.get(mid)) < session) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < this.sessionRows && this.sessions.loadedAt(order.get(k)) === session; k++) {
        const r = order.get(k);
        if (loadedMember(r)) members.push(r);
      }
    }
    // Rows set since the load (new, or changed: their session may be another now), placed
    // among the loaded ones by date and id (each member's cut out once).
    const set: number[] = [];
    for (const r of this.setSinceLoad()) if (!this.dead.has(r) && this.sessions.at(r) === session) set.push(r);
    let ordered = members;
    if (set.length > 0) {
      ordered = [...members, ...set]
        .map((r) => ({ row: r, created: this.created.at(r), id: this.ids.at(r) }))
        .sort((a, b) => (a.created !== b.created ? (a.created < b.created ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((m) => m.row);
    }
    const at = ordered.indexOf(row);
    const out: string[] = [];
    for (let d = 1; d <= width; d++) {
      if (at - d >= 0) out.push(this.ids.at(ordered[at - d]!));
      if (at + d < ordered.length) out.push(this.ids.at(ordered[at + d]!));
    }
    return out;
  }

  /** The rows' stats, as saved. */
  private statsOf(rows: readonly number[]): Float64Array {
    const out = new Float64Array(2 * rows.length);
    const stats = this.stats.whole(2 * this.ids.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      out[2 * i] = stats[2 * row]!;
      out[2 * i + 1] = stats[2 * row + 1]!;
    }
    return out;
  }

  /** True when the row's record is not in the records file (set since the load, or kept with the table). */
  private isKept(row: number): boolean {
    return this.fresh.has(row) || row >= this.spanned || this.spans.get(2 * row) === -1;
  }

  get size(): number {
    return this.live;
  }

  /**
   * The fingerprint of the memories' scopes, ids and `[[links]]` (see `memoryLine`),
   * without reading them: the graph cache's key.
   */
  fingerprint(): FingerprintParts {
    return { ...this.print };
  }

  private lineAt(row: number): string {
    return memoryLine(this.scopes.at(row), this.ids.at(row), this.links.at(row));
  }

  has(id: string): boolean {
    return this.rowOf(id) !== undefined;
  }

  /** The memory's type, without parsing its record. */
  typeOf(id: string): MemoryType | undefined {
    const row = this.rowOf(id);
    return row === undefined ? undefined : (this.types.at(row) as MemoryType);
  }

  private facetsAt(row: number): DocFacets {
    const facets: DocFacets = {
      id: this.ids.at(row),
      type: this.types.at(row) as MemoryType,
      status: this.statuses.at(row) as MemoryStatus,
      scope: this.scopes.at(row) as Scope,
      contentKey: this.contentKeys.at(row),
    };
    const topic = this.topics.at(row);
    if (topic !== '') facets.topic = topic;
    const links = this.links.at(row);
    if (links !== '') facets.links = links.split(' ');
    return facets;
  }

  /** The memory's type, status and scope (what the filters of a search read), from three code columns. */
  filterFacets(id: string, hint?: number): Pick<DocFacets, 'type' | 'status' | 'scope'> | undefined {
    const row = this.rowOf(id, hint);
    if (row === undefined) return undefined;
    return { type: this.types.at(row) as MemoryType, status: this.statuses.at(row) as MemoryStatus, scope: this.scopes.at(row) as Scope };
  }

  /** The unpacked fields of a memory, without parsing its record. */
  facets(id: string): DocFacets | undefined {
    const row = this.rowOf(id);
    return row === undefined ? undefined : this.facetsAt(row);
  }

  /** Every memory's unpacked fields. */
  *allFacets(): IterableIterator<DocFacets> {
    for (const row of this.liveRows()) yield this.facetsAt(row);
  }

  /** The `[[links]]` of the memories that have any, by id (one column scanned, only those rows read). */
  *linked(): IterableIterator<[string, string[]]> {
    for (let row = 0; row < this.ids.length; row++) {
      if (this.links.isEmpty(row) || this.dead.has(row)) continue;
      yield [this.ids.at(row), this.links.at(row).split(' ')];
    }
  }

  /** The id of the first memory (in row order) whose content key is `key`, if any: a binary search of the key order. */
  idWithContentKey(key: string): string | undefined {
    let row = this.firstLoadedWithKey(key);
    // Rows set since the load (their key may be another now, or new).
    for (const r of this.setSinceLoad()) if (!this.dead.has(r) && (row === -1 || r < row) && this.contentKeys.at(r) === key) row = r;
    return row === -1 ? undefined : this.ids.at(row);
  }

  /**
   * The first loaded row (in row order) that holds `key` as it was loaded and is neither
   * deleted nor set since (rows set since are the caller's to check), or -1.
   */
  private firstLoadedWithKey(key: string): number {
    const order = this.keyOrder;
    const keys = this.contentKeys;
    let lo = 0;
    let hi = this.loadedRows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys.loadedAt(order.get(mid)) < key) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.loadedRows; k++) {
      const row = order.get(k);
      if (keys.loadedAt(row) !== key) break;
      if (!this.dead.has(row) && !this.fresh.has(row)) return row;
    }
    return -1;
  }

  /**
   * The rows set since the load: loaded rows set again (in `fresh`) and every row added since,
   * whether its record is in `fresh` or was written to the log (see {@link logTo}).
   */
  private *setSinceLoad(): IterableIterator<number> {
    for (const r of this.fresh.keys()) if (r < this.loadedRows) yield r;
    for (let r = this.loadedRows; r < this.ids.length; r++) yield r;
  }

  private recordBytes(row: number): Uint8Array {
    if (this.fresh.has(row) || row >= this.spanned) {
      let bytes = this.fresh.get(row);
      if (bytes === undefined) this.fresh.set(row, (bytes = Buffer.from(JSON.stringify(this.parsed[row]))));
      return bytes;
    }
    const start = this.spans.get(2 * row);
    const end = this.spans.get(2 * row + 1);
    if (row < this.uncheckedSpans) checkSpans(Float64Array.of(start, end), this.freshLoaded.length, this.source.size);
    return start === -1 ? this.freshLoaded[end]! : this.source.read(start, end);
  }

  /** The memory's record (see {@link rowOf} for `hint`). */
  get(id: string, hint?: number): IndexedDoc | undefined {
    const row = this.rowOf(id, hint);
    if (row === undefined) return undefined;
    let doc = this.parsed[row];
    if (doc === undefined) doc = this.parsed[row] = JSON.parse(DECODER.decode(this.recordBytes(row))) as IndexedDoc;
    return doc;
  }

  /**
   * Sets the record of memory `id`. The id is kept as given: one cut from a file's text
   * keeps that text alive (see `detachString`).
   */
  set(id: string, doc: IndexedDoc): void {
    let row = this.rowOf(id);
    if (row === undefined) {
      if (this.changedRows.has(id)) this.readded.add(id);
      row = this.ids.length;
      this.changedRows.set(id, row);
      this.live++;
    } else {
      addLine(this.print, this.lineAt(row), -1);
    }
    this.ids.set(row, id);
    this.types.set(row, doc.type);
    this.statuses.set(row, doc.status);
    this.scopes.set(row, doc.scope);
    this.contentKeys.set(row, doc.contentKey);
    this.topics.set(row, doc.topic ?? '');
    this.links.set(row, doc.links?.join(' ') ?? '');
    this.sessions.set(row, doc.session ?? '');
    this.created.set(row, doc.created);
    addLine(this.print, this.lineAt(row));
    // Kept encoded, not as the object: a rebuild sets 100,000 records (as objects, hundreds of
    // megabytes), and a save needs their bytes anyway; `get` parses one again when asked.
    // A new row of a logging table goes to the log (not kept in memory at all).
    const bytes = Buffer.from(JSON.stringify(doc));
    if (this.log !== undefined && row === this.spanned) {
      this.spanAt(row, this.log.size, this.log.size + bytes.length);
      this.log.write(bytes);
      this.fresh.delete(row);
    } else {
      this.fresh.set(row, bytes);
    }
    this.parsed[row] = undefined;
    this.setStatAt(row, Number.NaN, Number.NaN);
  }

  /** Gives the next row its span in the log. */
  private spanAt(row: number, start: number, end: number): void {
    this.spans.set(2 * row, start);
    this.spans.set(2 * row + 1, end);
    this.spanned = row + 1;
  }

  private setStatAt(row: number, size: number, mtimeMs: number): void {
    this.stats.set(2 * row, size);
    this.stats.set(2 * row + 1, mtimeMs);
  }

  /** Records the size and mtime of the memory's file as it was read. */
  setStat(id: string, size: number, mtimeMs: number): void {
    const row = this.rowOf(id);
    if (row === undefined) return;
    // A loaded row whose stat changes is a change to save (in the journal, with its record).
    if (!this.fresh.has(row) && row < this.loadedRows) this.fresh.set(row, this.recordBytes(row));
    this.setStatAt(row, size, mtimeMs);
  }

  /** The size and mtime of the memory's file when it was read (NaN when unknown). */
  statOf(id: string): { size: number; mtimeMs: number } | undefined {
    const row = this.rowOf(id);
    if (row === undefined) return undefined;
    return { size: this.stats.get(2 * row), mtimeMs: this.stats.get(2 * row + 1) };
  }

  delete(id: string): boolean {
    const row = this.rowOf(id);
    if (row === undefined) return false;
    addLine(this.print, this.lineAt(row), -1);
    this.changedRows.set(id, undefined);
    this.dead.add(row);
    this.live--;
    this.parsed[row] = undefined;
    if (this.fresh.has(row)) this.fresh.set(row, undefined);
    return true;
  }

  clear(): void {
    this.found.clear();
    this.ids = new StringColumn();
    this.loadedRows = 0;
    this.order = NumberColumn.of(new Uint32Array(0));
    this.changedRows.clear();
    this.readded.clear();
    this.dead.clear();
    this.live = 0;
    this.types = new CodeColumn();
    this.statuses = new CodeColumn();
    this.scopes = new CodeColumn();
    this.contentKeys = new StringColumn();
    this.topics = new StringColumn();
    this.links = new StringColumn();
    this.sessions = new StringColumn();
    this.created = new StringColumn();
    this.sessionOrder = NumberColumn.of(new Uint32Array(0));
    this.sessionAt = undefined;
    this.sessionRows = 0;
    this.keyOrder = NumberColumn.of(new Uint32Array(0));
    this.source = new BytesRecords(new Uint8Array(0));
    this.log = undefined;
    this.spans = NumberColumn.of(new Float64Array(0));
    this.uncheckedSpans = 0;
    this.spanned = 0;
    this.stats = NumberColumn.of(new Float64Array(0), Number.NaN);
    this.freshLoaded = [];
    this.fresh.clear();
    this.parsed = [];
    this.print = emptyFingerprint();
  }

  *keys(): MapIterator<string> {
    for (const row of this.liveRows()) yield this.ids.at(row);
  }

  *values(): MapIterator<IndexedDoc> {
    for (const id of this.keys()) yield this.get(id)!;
  }

  *entries(): MapIterator<[string, IndexedDoc]> {
    for (const id of this.keys()) yield [id, this.get(id)!];
  }

  [Symbol.iterator](): MapIterator<[string, IndexedDoc]> {
    return this.entries();
  }

  forEach(fn: (value: IndexedDoc, key: string, map: ReadonlyMap<string, IndexedDoc>) => void, thisArg?: unknown): void {
    for (const [id, doc] of this.entries()) fn.call(thisArg, doc, id, this);
  }
}
