/**
 * Columns of strings as the index saves them (`.memory/index.v8`): V8's deserializer makes
 * one heap string per array element, and 10,000 memories times a dozen string columns was
 * most of the time to load the index. A {@link StringColumn} is one string and the offsets
 * where each value ends (a value is cut out only when read); a {@link CodeColumn} is a few
 * distinct values and a number per row (types, statuses, scopes).
 */
import { detachString } from '../../core/detach-string.js';
import { NumberColumn } from './number-column.js';

/** A string column as saved: the values joined, and where each one ends. */
export interface SavedStrings {
  text: string;
  ends: Uint32Array;
}

/** A code column as saved: the distinct values, and each row's index among them. */
export interface SavedCodes {
  values: string[];
  codes: Uint32Array;
}

/**
 * A column's text where it is not one string in memory: cut out by position from a file
 * (see docs-file.ts). `length` is in UTF-16 code units, as the column's offsets are.
 */
export interface TextSource {
  readonly length: number;
  slice(start: number, end: number): string;
  /** The whole text (read once). */
  whole(): string;
}

/** True when `value` is a saved string column of `rows` rows. */
export function isSavedStrings(value: unknown, rows: number): value is SavedStrings {
  const v = value as SavedStrings;
  if (typeof v !== 'object' || v === null || typeof v.text !== 'string' || !(v.ends instanceof Uint32Array) || v.ends.length !== rows) return false;
  // The last offset only: checking every one costs a warm command milliseconds, and a
  // damaged offset can only give a wrong value, never a crash (the file is ours, and
  // V8's deserializer rejects damaged bytes).
  return (rows === 0 ? 0 : v.ends[rows - 1]) === v.text.length;
}

/** True when `value` is a saved code column of `rows` rows. */
export function isSavedCodes(value: unknown, rows: number): value is SavedCodes {
  const v = value as SavedCodes;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.values) || !v.values.every((s) => typeof s === 'string')) return false;
  // A code past the values reads as '' (see CodeColumn.at).
  return v.codes instanceof Uint32Array && v.codes.length === rows;
}

/** Rows appended to a {@link StringColumn} are packed into one string per this many. */
const BLOCK_ROWS = 256;

/**
 * Strings by row: the loaded ones in one string (or read by position from a file, see
 * docs-file.ts), cut out when read; those appended since
 * packed into one string per {@link BLOCK_ROWS} rows (a fresh build appends 100,000 ids, names
 * and hashes per table: a string each, with its header, was tens of megabytes); rows set again
 * since, one string each.
 *
 * @example
 * const ids = StringColumn.fromSaved(saved.ids); ids.at(3); ids.equals(3, 'a.md');
 */
export class StringColumn {
  /** The loaded rows' text, in memory or read by position from a file. */
  private text: string | TextSource = '';
  /** The loaded rows' offsets (in memory, or read by position from a file). */
  private ends: NumberColumn<Uint32Array> = NumberColumn.of(new Uint32Array(0));
  /** Rows loaded (those past it were appended since). */
  private loaded = 0;
  /** Rows set again since they were loaded or appended (one string each), by row. */
  private readonly changed = new Map<number, string>();
  /** The appended rows, packed: each block holds {@link BLOCK_ROWS} rows … */
  private readonly blocks: string[] = [];
  /** … and each appended row ends here in its block. */
  private blockEnds: Uint32Array = new Uint32Array(0);
  /** The appended rows not packed yet (fewer than {@link BLOCK_ROWS}). */
  private tail: string[] = [];
  private rows = 0;
  /** Where {@link spanOf} found a row's value: `spanText.slice(spanStart, spanEnd)`. */
  private spanText: string | TextSource = '';
  private spanStart = 0;
  private spanEnd = 0;

  static fromSaved(saved: SavedStrings): StringColumn {
    return StringColumn.lazy(saved.ends.length, saved.text, saved.ends);
  }

  /**
   * A column of `rows` rows over `text` and the offsets where its values end (`rows` of them,
   * the last one `text.length`), either of which may be read by position.
   */
  static lazy(rows: number, text: string | TextSource, ends: Uint32Array | NumberColumn<Uint32Array>): StringColumn {
    const column = new StringColumn();
    column.text = text;
    column.ends = ends instanceof Uint32Array ? NumberColumn.of(ends) : ends;
    column.loaded = rows;
    column.rows = rows;
    return column;
  }

  /** The saved form of `values`. */
  static save(values: readonly string[]): SavedStrings {
    const ends = new Uint32Array(values.length);
    let end = 0;
    for (let i = 0; i < values.length; i++) ends[i] = end += values[i]!.length;
    return { text: values.join(''), ends };
  }

  get length(): number {
    return this.rows;
  }

  /**
   * True when row `row`'s value lies in a packed text (the loaded text or a block), which
   * {@link spanText}, {@link spanStart} and {@link spanEnd} then name; false for a row set
   * again or not packed yet.
   */
  private spanOf(row: number): boolean {
    if (row >= this.rows || (this.changed.size > 0 && this.changed.has(row))) return false;
    if (row < this.loaded) {
      const ends = this.ends;
      this.spanText = this.text;
      this.spanStart = row === 0 ? 0 : ends.get(row - 1);
      this.spanEnd = ends.get(row);
      return true;
    }
    const a = row - this.loaded;
    const block = Math.floor(a / BLOCK_ROWS);
    if (block >= this.blocks.length) return false;
    this.spanText = this.blocks[block]!;
    this.spanStart = a % BLOCK_ROWS === 0 ? 0 : this.blockEnds[a - 1]!;
    this.spanEnd = this.blockEnds[a]!;
    return true;
  }

  /** The value of a row that {@link spanOf} does not find in a packed text. */
  private loose(row: number): string {
    if (row >= this.rows) return '';
    return this.changed.get(row) ?? this.tail[row - this.loaded - this.blocks.length * BLOCK_ROWS] ?? '';
  }

  at(row: number): string {
    return this.spanOf(row) ? this.spanText.slice(this.spanStart, this.spanEnd) : this.loose(row);
  }

  /** True when row `row` holds '', without cutting its value out. */
  isEmpty(row: number): boolean {
    return this.spanOf(row) ? this.spanEnd === this.spanStart : this.loose(row) === '';
  }

  /** The value row `row` was loaded with ('' for a row added since), whatever was set since. */
  loadedAt(row: number): string {
    if (row >= this.loaded) return '';
    const ends = this.ends;
    return this.text.slice(row === 0 ? 0 : ends.get(row - 1), ends.get(row));
  }

  /** True when row `row` holds `value`, without cutting the row's value out (when its text is in memory). */
  equals(row: number, value: string): boolean {
    if (!this.spanOf(row)) return this.loose(row) === value;
    if (this.spanEnd - this.spanStart !== value.length) return false;
    const text = this.spanText;
    return typeof text === 'string' ? text.startsWith(value, this.spanStart) : text.slice(this.spanStart, this.spanEnd) === value;
  }

  /**
   * Sets row `row` (at most one past the last). The column keeps a copy of the value: one
   * cut from a file's text (an id, a topic) would keep that whole text alive.
   */
  set(row: number, value: string): void {
    if (row > this.rows) throw new RangeError(`row ${row} is past the end (${this.rows})`);
    const a = row - this.loaded - this.blocks.length * BLOCK_ROWS;
    if (row === this.rows) {
      // Appended: copied when its block is packed.
      this.tail.push(value);
      this.rows++;
      if (this.tail.length === BLOCK_ROWS) this.pack();
    } else if (a >= 0) {
      this.tail[a] = value;
    } else {
      this.changed.set(row, detachString(value));
    }
  }

  /** Packs the tail into a block (joined: a copy of its own). */
  private pack(): void {
    const first = this.blocks.length * BLOCK_ROWS;
    if (this.blockEnds.length < first + BLOCK_ROWS) {
      const grown = new Uint32Array(Math.max(first + BLOCK_ROWS, this.blockEnds.length * 2));
      grown.set(this.blockEnds);
      this.blockEnds = grown;
    }
    let end = 0;
    for (let i = 0; i < BLOCK_ROWS; i++) this.blockEnds[first + i] = end += this.tail[i]!.length;
    this.blocks.push(this.tail.join(''));
    this.tail = [];
  }

  /**
   * The values of `rows`, saved. Runs of consecutive rows of one packed text (the loaded
   * text, a block) are copied as one slice of it, so saving after a small change costs a few
   * slices, not one per row.
   */
  saveRows(rows: readonly number[]): SavedStrings {
    const parts: string[] = [];
    const ends = new Uint32Array(rows.length);
    let end = 0;
    let runText: string | TextSource | undefined;
    let runFrom = 0;
    let runTo = 0;
    const flush = () => {
      if (runText !== undefined) parts.push(runText.slice(runFrom, runTo));
      runText = undefined;
    };
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (this.spanOf(row)) {
        if (runText === this.spanText && this.spanStart === runTo) {
          runTo = this.spanEnd;
        } else {
          flush();
          runText = this.spanText;
          runFrom = this.spanStart;
          runTo = this.spanEnd;
        }
        end += this.spanEnd - this.spanStart;
      } else {
        flush();
        const value = this.loose(row);
        parts.push(value);
        end += value.length;
      }
      ends[i] = end;
    }
    flush();
    return { text: parts.join(''), ends };
  }
}

/**
 * Strings from a small set by row (a type, a status): a number per row.
 *
 * @example
 * const types = CodeColumn.fromSaved({ values: ['decision'], codes: Uint32Array.of(0) }); types.at(0) // 'decision'
 */
export class CodeColumn {
  private values: string[] = [];
  /** The rows' codes (in memory, where the array may be longer than the column, or read by position from a file). */
  private codes: NumberColumn<Uint32Array> = NumberColumn.of(new Uint32Array(0));
  private count = 0;
  private index: Map<string, number> | undefined;

  static fromSaved(saved: SavedCodes): CodeColumn {
    return CodeColumn.lazy(saved.codes.length, saved.values, saved.codes);
  }

  /** A column of `rows` rows whose codes (`rows` of them) may be read by position. */
  static lazy(rows: number, values: string[], codes: Uint32Array | NumberColumn<Uint32Array>): CodeColumn {
    const column = new CodeColumn();
    column.values = values;
    column.codes = codes instanceof Uint32Array ? NumberColumn.of(codes) : codes;
    column.count = rows;
    return column;
  }

  get length(): number {
    return this.count;
  }

  at(row: number): string {
    return row < this.count ? (this.values[this.codes.get(row)] ?? '') : '';
  }

  /** Sets row `row` (at most one past the last). */
  set(row: number, value: string): void {
    if (row > this.count) throw new RangeError(`row ${row} is past the end (${this.count})`);
    if (!this.index) this.index = new Map(this.values.map((v, i) => [v, i]));
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.index.set(value, code);
    }
    // Appended rows grow a typed array (a copy to a JS array of 100,000 numbers cost more than
    // the rest of replaying a journal), or wait beside a column still in its file.
    if (row === this.length) this.count++;
    this.codes.set(row, code);
  }

  /** The values of `rows`, saved. */
  saveRows(rows: readonly number[]): SavedCodes {
    const values: string[] = [];
    const recoded = new Map<number, number>();
    const codes = new Uint32Array(rows.length);
    const all = this.codes.whole(this.count);
    rows.forEach((r, i) => {
      const old = all[r]!;
      let code = recoded.get(old);
      if (code === undefined) {
        code = values.length;
        values.push(this.values[old]!);
        recoded.set(old, code);
      }
      codes[i] = code;
    });
    return { values, codes };
  }
}
