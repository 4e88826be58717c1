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
import type { Diagnostic } from '../core/memory.js';

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

/** The table as saved: one column per field, one row per memory file. */
export interface FileColumns {
  names: string[];
  sizes: Float64Array;
  mtimes: Float64Array;
  hashes: string[];
  /** The id of the memory the file holds; '' when it holds none (a broken file). */
  ids: string[];
  /** Problems of broken files, by file name. */
  diagnostics: Record<string, Diagnostic[]>;
}

function isFileColumns(value: unknown): value is FileColumns {
  const c = value as FileColumns;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.names)) return false;
  const n = c.names.length;
  return (
    c.sizes instanceof Float64Array &&
    c.mtimes instanceof Float64Array &&
    c.sizes.length === n &&
    c.mtimes.length === n &&
    Array.isArray(c.hashes) &&
    c.hashes.length === n &&
    Array.isArray(c.ids) &&
    c.ids.length === n &&
    typeof c.diagnostics === 'object' &&
    c.diagnostics !== null
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
  /** Row → file name; undefined for a deleted row (dropped when saved). */
  private names: (string | undefined)[] = [];
  private sizes: number[] | Float64Array = [];
  private mtimes: number[] | Float64Array = [];
  private hashes: string[] = [];
  private ids: string[] = [];
  private diagnostics: Record<string, Diagnostic[]> = Object.create(null) as Record<string, Diagnostic[]>;
  /** Name → row, built on the first lookup whose guess fails. */
  private rows: Map<string, number> | undefined;
  private live = 0;
  /** The row after the one last found: where the next name of a listing usually is. */
  private next = 0;
  /** Rows in the order of the last listing ({@link listed}), for the saved order. */
  private order: number[] | undefined;

  /** A table from saved columns; throws when they are not (the caller rebuilds). */
  static fromSaved(saved: unknown): FileTable {
    if (!isFileColumns(saved)) throw new TypeError('not a saved file table');
    const table = new FileTable();
    table.names = saved.names;
    // Rows changed later are written in place: typed arrays hold the loaded ones as they are.
    table.sizes = saved.sizes;
    table.mtimes = saved.mtimes;
    table.hashes = saved.hashes;
    table.ids = saved.ids;
    table.diagnostics = Object.assign(Object.create(null) as Record<string, Diagnostic[]>, saved.diagnostics);
    table.live = saved.names.length;
    return table;
  }

  get size(): number {
    return this.live;
  }

  /** The number of rows, deleted ones included: every row is below it. */
  get rowCount(): number {
    return this.names.length;
  }

  /** The row of file `name`, or -1. */
  rowOf(name: string): number {
    const guess = this.next;
    if (guess < this.names.length && this.names[guess] === name) {
      this.next = guess + 1;
      return guess;
    }
    if (!this.rows) {
      this.rows = new Map();
      for (let row = 0; row < this.names.length; row++) if (this.names[row] !== undefined) this.rows.set(this.names[row]!, row);
    }
    const row = this.rows.get(name) ?? -1;
    if (row >= 0) this.next = row + 1;
    return row;
  }

  has(name: string): boolean {
    return this.rowOf(name) >= 0;
  }

  nameAt(row: number): string | undefined {
    return this.names[row];
  }

  sizeAt(row: number): number {
    return this.sizes[row]!;
  }

  mtimeAt(row: number): number {
    return this.mtimes[row]!;
  }

  /** The problems of the file at `row` (none for most). */
  diagnosticsAt(row: number): Diagnostic[] | undefined {
    const name = this.names[row];
    return name === undefined ? undefined : this.diagnostics[name];
  }

  entryAt(row: number): FileEntry | undefined {
    const name = this.names[row];
    if (name === undefined) return undefined;
    const entry: FileEntry = { size: this.sizes[row]!, mtimeMs: this.mtimes[row]!, hash: this.hashes[row]! };
    if (this.ids[row] !== '') entry.id = this.ids[row]!;
    const problems = this.diagnostics[name];
    if (problems) entry.diagnostics = problems;
    return entry;
  }

  get(name: string): FileEntry | undefined {
    const row = this.rowOf(name);
    return row < 0 ? undefined : this.entryAt(row);
  }

  set(name: string, entry: FileEntry): void {
    let row = this.rowOf(name);
    if (row < 0) {
      row = this.names.length;
      this.names.push(name);
      this.rows?.set(name, row);
      this.live++;
      if (!Array.isArray(this.sizes)) {
        this.sizes = Array.from(this.sizes);
        this.mtimes = Array.from(this.mtimes);
      }
    }
    this.sizes[row] = entry.size;
    this.mtimes[row] = entry.mtimeMs;
    this.hashes[row] = entry.hash;
    this.ids[row] = entry.id ?? '';
    if (entry.diagnostics && entry.diagnostics.length > 0) this.diagnostics[name] = entry.diagnostics;
    else delete this.diagnostics[name];
  }

  /** Records a new size and mtime for a file whose text did not change. */
  touch(row: number, size: number, mtimeMs: number): void {
    this.sizes[row] = size;
    this.mtimes[row] = mtimeMs;
  }

  delete(name: string): boolean {
    const row = this.rowOf(name);
    if (row < 0) return false;
    this.names[row] = undefined;
    this.rows?.delete(name);
    delete this.diagnostics[name];
    this.live--;
    return true;
  }

  /** The names of the files, in row order. */
  *keys(): IterableIterator<string> {
    for (const name of this.names) if (name !== undefined) yield name;
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
      if (this.names[row] === undefined || taken[row]) continue;
      taken[row] = 1;
      rows.push(row);
    }
    for (let row = 0; row < this.names.length; row++) if (this.names[row] !== undefined && !taken[row]) rows.push(row);
    const cols: FileColumns = {
      names: rows.map((r) => this.names[r]!),
      sizes: Float64Array.from(rows, (r) => this.sizes[r]!),
      mtimes: Float64Array.from(rows, (r) => this.mtimes[r]!),
      hashes: rows.map((r) => this.hashes[r]!),
      ids: rows.map((r) => this.ids[r]!),
      diagnostics: {},
    };
    for (const name of cols.names) if (this.diagnostics[name]) cols.diagnostics[name] = this.diagnostics[name];
    return cols;
  }
}
