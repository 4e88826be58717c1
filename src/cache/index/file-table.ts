/**
 * The stat cache of a keyword index: per memory file, the size and mtime it had when it
 * was last read, the hash of its text, the memory it holds and its problems. Saved in
 * `.memory/index.v8` as columns and used as columns: a warm command looks up every file
 * of a listing, and an object per file (10,000 of them) was a tenth of a warm `recall`.
 *
 * Rows are kept in the order of the last directory listing, so a listing of an unchanged
 * directory finds each file at the row after the previous one; a name map is built only
 * when that guess fails (a file added, removed or renamed).
 */
import type { Diagnostic } from '../../core/memory.js';
import { StringColumn, isSavedStrings, type SavedStrings } from './columns.js';

/** What the index knows of one memory file. */
export interface FileEntry {
  size: number;
  mtimeMs: number;
  /** SHA-1 of the text; '' when it could not be read. */
  hash: string;
  /** The id of the memory the file holds; none for a broken file. */
  id?: string;
  diagnostics?: Diagnostic[];
}

/** The table as saved: one column per field, one row per memory file (see columns.ts). */
export interface FileColumns {
  names: SavedStrings;
  sizes: Float64Array;
  mtimes: Float64Array;
  /** SHA-1 of each text; '' when it could not be read. */
  hashes: SavedStrings;
  /** The id of the memory the file holds; '' when it holds none (a broken file). */
  ids: SavedStrings;
  /** Problems of broken files: the rows that have some, and theirs. */
  diagnosed: Uint32Array;
  diagnostics: Diagnostic[][];
}

function isFileColumns(value: unknown): value is FileColumns {
  const c = value as FileColumns;
  if (typeof c !== 'object' || c === null || !(c.sizes instanceof Float64Array)) return false;
  const n = c.sizes.length;
  return (
    c.mtimes instanceof Float64Array &&
    c.mtimes.length === n &&
    isSavedStrings(c.names, n) &&
    isSavedStrings(c.hashes, n) &&
    isSavedStrings(c.ids, n) &&
    c.diagnosed instanceof Uint32Array &&
    Array.isArray(c.diagnostics) &&
    c.diagnostics.length === c.diagnosed.length &&
    c.diagnosed.every((row) => row < n) &&
    c.diagnostics.every((list) => Array.isArray(list))
  );
}

/**
 * A Map-like table of file name → {@link FileEntry}, by row.
 *
 * @example
 * const files = FileTable.fromSaved(saved.files);
 * const row = files.rowOf('chose-sqlite-ab12cd.md');
 * if (row >= 0 && files.sizeAt(row) === st.size && files.mtimeAt(row) === st.mtimeMs) // unchanged
 */
export class FileTable {
  /** Row → file name. */
  private names = new StringColumn();
  /** Deleted rows (dropped when saved). */
  private readonly deleted = new Set<number>();
  private sizes: number[] | Float64Array = [];
  private mtimes: number[] | Float64Array = [];
  private hashes = new StringColumn();
  private ids = new StringColumn();
  /** Problems of broken files, by row (a few rows at most). */
  private diagnostics = new Map<number, Diagnostic[]>();
  /** Name → row, built on the first lookup whose guess fails. */
  private rows: Map<string, number> | undefined;
  private live = 0;
  /** The row after the one last found: where the next name of a listing usually is. */
  private next = 0;
  /**
   * Lookups whose guess failed since the last {@link startListing}. Counted per listing, not
   * per life of the table: a long-lived server that counted since load crossed any threshold
   * after a few dozen calls, and then every read marked the table for rewriting.
   */
  misses = 0;
  /** Rows in the order of the last listing ({@link listed}), for the saved order. */
  private order: number[] | undefined;

  /** A table from saved columns; throws when they are not (the caller rebuilds). */
  static fromSaved(saved: unknown): FileTable {
    if (!isFileColumns(saved)) throw new TypeError('not a saved file table');
    const table = new FileTable();
    table.names = StringColumn.fromSaved(saved.names);
    // Rows changed later are written in place: typed arrays hold the loaded ones as they are.
    table.sizes = saved.sizes;
    table.mtimes = saved.mtimes;
    table.hashes = StringColumn.fromSaved(saved.hashes);
    table.ids = StringColumn.fromSaved(saved.ids);
    saved.diagnosed.forEach((row, i) => table.diagnostics.set(row, saved.diagnostics[i]!));
    table.live = saved.sizes.length;
    return table;
  }

  get size(): number {
    return this.live;
  }

  /** Starts looking up the names of a new directory listing: guesses from row 0, misses from 0. */
  startListing(): void {
    this.next = 0;
    this.misses = 0;
  }

  /** The number of rows, deleted ones included: every row is below it. */
  get rowCount(): number {
    return this.names.length;
  }

  /** The row of file `name`, or -1. */
  rowOf(name: string): number {
    const guess = this.next;
    if (guess < this.names.length && this.names.equals(guess, name) && !this.deleted.has(guess)) {
      this.next = guess + 1;
      return guess;
    }
    this.misses++;
    if (!this.rows) {
      this.rows = new Map();
      for (let row = 0; row < this.names.length; row++) if (!this.deleted.has(row)) this.rows.set(this.names.at(row), row);
    }
    const row = this.rows.get(name) ?? -1;
    if (row >= 0) this.next = row + 1;
    return row;
  }

  nameAt(row: number): string | undefined {
    return row >= this.names.length || this.deleted.has(row) ? undefined : this.names.at(row);
  }

  sizeAt(row: number): number {
    return this.sizes[row]!;
  }

  mtimeAt(row: number): number {
    return this.mtimes[row]!;
  }

  /** The problems of the file at `row` (none for most). */
  diagnosticsAt(row: number): Diagnostic[] | undefined {
    return this.diagnostics.size === 0 || this.deleted.has(row) ? undefined : this.diagnostics.get(row);
  }

  entryAt(row: number): FileEntry | undefined {
    const name = this.nameAt(row);
    if (name === undefined) return undefined;
    const entry: FileEntry = { size: this.sizes[row]!, mtimeMs: this.mtimes[row]!, hash: this.hashes.at(row) };
    const id = this.ids.at(row);
    if (id !== '') entry.id = id;
    const problems = this.diagnostics.get(row);
    if (problems) entry.diagnostics = problems;
    return entry;
  }

  get(name: string): FileEntry | undefined {
    const row = this.rowOf(name);
    return row < 0 ? undefined : this.entryAt(row);
  }

  /**
   * Records file `name`; returns its row. A caller that knows the row (or -1 for a new
   * file) passes it: looking a name up out of listing order builds the name map.
   */
  set(name: string, entry: FileEntry, knownRow: number = this.rowOf(name)): number {
    let row = knownRow;
    if (row < 0) {
      row = this.names.length;
      this.names.set(row, name);
      this.rows?.set(name, row);
      this.live++;
      if (!Array.isArray(this.sizes)) {
        this.sizes = Array.from(this.sizes);
        this.mtimes = Array.from(this.mtimes);
      }
    }
    this.sizes[row] = entry.size;
    this.mtimes[row] = entry.mtimeMs;
    this.hashes.set(row, entry.hash);
    this.ids.set(row, entry.id ?? '');
    if (entry.diagnostics && entry.diagnostics.length > 0) this.diagnostics.set(row, entry.diagnostics);
    else this.diagnostics.delete(row);
    return row;
  }

  /** Records a new size and mtime for a file whose text did not change. */
  touch(row: number, size: number, mtimeMs: number): void {
    this.sizes[row] = size;
    this.mtimes[row] = mtimeMs;
  }

  delete(name: string): boolean {
    const row = this.rowOf(name);
    if (row < 0) return false;
    this.deleted.add(row);
    this.rows?.delete(name);
    this.diagnostics.delete(row);
    this.live--;
    return true;
  }

  /** The names of the files, in row order. */
  *keys(): IterableIterator<string> {
    for (let row = 0; row < this.names.length; row++) if (!this.deleted.has(row)) yield this.names.at(row);
  }

  /**
   * The rows of a directory listing, in its order: saved in that order, so that the next
   * listing of the same directory finds every file at its guess.
   */
  listed(rows: number[]): void {
    this.order = rows;
  }

  /** The live rows as columns: in the order of the last listing, then the others. */
  toSaved(): FileColumns {
    const rows: number[] = [];
    const taken = new Uint8Array(this.names.length);
    for (const row of this.order ?? []) {
      if (this.deleted.has(row) || taken[row]) continue;
      taken[row] = 1;
      rows.push(row);
    }
    for (let row = 0; row < this.names.length; row++) if (!this.deleted.has(row) && !taken[row]) rows.push(row);
    const cols: FileColumns = {
      names: this.names.saveRows(rows),
      sizes: Float64Array.from(rows, (r) => this.sizes[r]!),
      mtimes: Float64Array.from(rows, (r) => this.mtimes[r]!),
      hashes: this.hashes.saveRows(rows),
      ids: this.ids.saveRows(rows),
      diagnosed: new Uint32Array(0),
      diagnostics: [],
    };
    const diagnosed: number[] = [];
    rows.forEach((row, i) => {
      const problems = this.diagnostics.get(row);
      if (!problems) return;
      diagnosed.push(i);
      cols.diagnostics.push(problems);
    });
    cols.diagnosed = Uint32Array.from(diagnosed);
    return cols;
  }
}
