/**
 * The doc table's file (`.memory/index-docs-<hex>.v8`), read by position: a small header
 * (V8-serialized: the row count, the fingerprint, the records kept with the table, the code
 * columns' values and where each column lies), then every column as raw bytes. Opening it
 * reads the header; a column is read when something first needs it, and a string column's
 * values are cut out of the file one at a time until many are asked for. A query at 100,000
 * memories then reads the few kilobytes its results need, not the 20 MB of the whole table
 * (which V8's deserializer made into a copy of every column on every command).
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { OpenFile, readAt } from '../../store/safe-read.js';
import type { SavedCodes, SavedStrings, TextSource } from './columns.js';
import { NumberColumn } from './number-column.js';

/** The first bytes of the file: then the header's length (u32 LE), the header, padding to 8 bytes, the columns. */
const MAGIC = Buffer.from('CXD\u0001', 'latin1');

/** The string columns of a doc table, in file order. */
export const STRING_COLUMNS = ['ids', 'contentKeys', 'topics', 'links', 'sessions', 'created'] as const;
export type StringColumnName = (typeof STRING_COLUMNS)[number];
/** The code columns (a few distinct values and a code per row). */
export const CODE_COLUMNS = ['types', 'statuses', 'scopes'] as const;
export type CodeColumnName = (typeof CODE_COLUMNS)[number];

/** The columns a doc table saves (doc-table.ts's `SavedDocs`, which it reads back as such). */
export type DocColumns = Record<StringColumnName, SavedStrings> &
  Record<CodeColumnName, SavedCodes> & {
    order: Uint32Array;
    sessionOrder: Uint32Array;
    /** Written when given (a table saved now always has it); a file without it is read as before. */
    sessionAt?: Uint32Array;
    keyOrder: Uint32Array;
    spans: Float64Array;
    stats: Float64Array;
    fresh: Uint8Array[];
    fingerprint: [number, number, number];
  };

/** Where a column lies in the file: byte offset and length; for a text, its encoding and length in UTF-16 code units. */
type Section = [offset: number, bytes: number] | [offset: number, bytes: number, encoding: 'latin1' | 'utf16le', chars: number];

interface Header {
  rows: number;
  fingerprint: [number, number, number];
  fresh: Uint8Array[];
  values: Record<CodeColumnName, string[]>;
  sections: Record<string, Section>;
}

/** The table's columns in the file's layout. */
export function encodeDocs(saved: DocColumns): Buffer {
  const pieces: Uint8Array[] = [];
  writeDocs(saved, { write: (bytes) => pieces.push(bytes) });
  return Buffer.concat(pieces);
}

/**
 * Writes the bytes of {@link encodeDocs} to `out` piece by piece (the header, then each column
 * and its padding), without first joining them into one buffer (a fresh build at 100,000
 * memories: 20 MB held twice). `out.write` may keep the pieces.
 */
export function writeDocs(saved: DocColumns, out: { write(bytes: Uint8Array): void }): void {
  const parts: { name: string; bytes: Uint8Array; encoding?: 'latin1' | 'utf16le'; chars?: number }[] = [];
  const typed = (name: string, array: Uint32Array | Float64Array) => parts.push({ name, bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength) });
  for (const name of STRING_COLUMNS) {
    const column = saved[name];
    typed(`${name}.ends`, column.ends);
    // One byte per character when every character fits (ids, keys and dates always do).
    const encoding = /[^\u0000-\u00ff]/.test(column.text) ? 'utf16le' : 'latin1';
    parts.push({ name: `${name}.text`, bytes: Buffer.from(column.text, encoding), encoding, chars: column.text.length });
  }
  for (const name of CODE_COLUMNS) typed(`${name}.codes`, saved[name].codes);
  typed('order', saved.order);
  typed('sessionOrder', saved.sessionOrder);
  if (saved.sessionAt !== undefined) typed('sessionAt', saved.sessionAt);
  typed('keyOrder', saved.keyOrder);
  typed('spans', saved.spans);
  typed('stats', saved.stats);
  const sections: Record<string, Section> = {};
  let at = 0;
  for (const part of parts) {
    sections[part.name] = part.encoding ? [at, part.bytes.length, part.encoding, part.chars!] : [at, part.bytes.length];
    at = (at + part.bytes.length + 7) & ~7;
  }
  const header: Header = {
    rows: saved.ids.ends.length,
    fingerprint: saved.fingerprint,
    fresh: saved.fresh,
    values: { types: saved.types.values, statuses: saved.statuses.values, scopes: saved.scopes.values },
    sections,
  };
  const head = serialize(header);
  const start = (8 + head.length + 7) & ~7;
  const first = Buffer.alloc(start);
  MAGIC.copy(first, 0);
  first.writeUInt32LE(head.length, 4);
  head.copy(first, 8);
  out.write(first);
  let written = 0;
  for (const part of parts) {
    const offset = sections[part.name]![0];
    if (offset > written) out.write(new Uint8Array(offset - written));
    out.write(part.bytes);
    written = offset + part.bytes.length;
  }
  if (at > written) out.write(new Uint8Array(at - written));
}

/** A doc table file opened for reading by position (see {@link openDocs}). */
export interface DocsFile {
  rows: number;
  /** How many rows the `sessionOrder` column holds (those of memories in a session). */
  sessionRows: number;
  fingerprint: [number, number, number];
  fresh: Uint8Array[];
  /** A string column: its text and its offsets, both read by position (see number-column.ts). */
  strings(name: StringColumnName): { text: TextSource; ends: NumberColumn<Uint32Array> };
  codes(name: CodeColumnName): { values: string[]; codes: NumberColumn<Uint32Array> };
  u32(name: 'order' | 'sessionOrder' | 'keyOrder'): NumberColumn<Uint32Array>;
  /** The `sessionAt` column (doc-table.ts's `SavedDocs.sessionAt`), when the file has one. */
  sessionAt(): NumberColumn<Uint32Array> | undefined;
  /** `fill`: what an index past the column reads as. */
  f64(name: 'spans' | 'stats', fill: number): NumberColumn<Float64Array>;
}

/**
 * Opens a doc table file, reading its header only; throws when the file is not one or its
 * columns do not fit it (the caller rebuilds the index). The file stays open while the table
 * reading it lives.
 */
export function openDocs(path: string): DocsFile {
  const fd = openSync(path, 'r');
  try {
    return new FileColumns(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function isHeader(value: unknown): value is Header {
  const h = value as Header;
  return (
    typeof h === 'object' &&
    h !== null &&
    Number.isInteger(h.rows) &&
    h.rows >= 0 &&
    Array.isArray(h.fingerprint) &&
    h.fingerprint.length === 3 &&
    h.fingerprint[0] === h.rows &&
    Array.isArray(h.fresh) &&
    h.fresh.every((r) => r instanceof Uint8Array) &&
    typeof h.values === 'object' &&
    h.values !== null &&
    CODE_COLUMNS.every((c) => Array.isArray(h.values[c]) && h.values[c].every((v) => typeof v === 'string')) &&
    typeof h.sections === 'object' &&
    h.sections !== null
  );
}

class FileColumns implements DocsFile {
  readonly rows: number;
  readonly sessionRows: number;
  readonly fingerprint: [number, number, number];
  readonly fresh: Uint8Array[];
  private readonly values: Record<CodeColumnName, string[]>;
  private readonly sections: Record<string, Section>;
  /** Byte position of the first column. */
  private readonly start: number;

  private readonly file: OpenFile;

  constructor(fd: number) {
    const prefix = readAt(fd, 0, 8);
    if (prefix.length !== 8 || !prefix.subarray(0, 4).equals(MAGIC)) throw new TypeError('not a doc table file');
    const length = prefix.readUInt32LE(4);
    const size = fstatSync(fd).size;
    if (8 + length > size) throw new TypeError('truncated doc table file');
    const header = deserialize(readAt(fd, 8, length)) as unknown;
    if (!isHeader(header)) throw new TypeError('not a doc table file');
    this.rows = header.rows;
    this.fingerprint = header.fingerprint;
    this.fresh = header.fresh;
    this.values = header.values;
    this.sections = header.sections;
    this.start = (8 + length + 7) & ~7;
    // Every column must lie in the file and hold a value per row: a damaged or foreign file
    // is refused here, not half-way through a query.
    const fits = (name: string, bytes?: number): boolean => {
      const s = this.sections[name];
      return Array.isArray(s) && Number.isInteger(s[0]) && Number.isInteger(s[1]) && s[0] >= 0 && s[1] >= 0 && this.start + s[0] + s[1] <= size && (bytes === undefined || s[1] === bytes);
    };
    const n = this.rows;
    const ok =
      STRING_COLUMNS.every((c) => {
        const text = this.sections[`${c}.text`];
        return fits(`${c}.ends`, 4 * n) && fits(`${c}.text`) && (text?.[2] === 'latin1' ? text[1] === text[3] : text?.[2] === 'utf16le' && text[1] === 2 * text[3]!);
      }) &&
      CODE_COLUMNS.every((c) => fits(`${c}.codes`, 4 * n)) &&
      fits('order', 4 * n) &&
      fits('keyOrder', 4 * n) &&
      fits('sessionOrder') &&
      this.sections.sessionOrder![1] <= 4 * n &&
      this.sections.sessionOrder![1] % 4 === 0 &&
      fits('spans', 16 * n) &&
      fits('stats', 16 * n) &&
      (this.sections.sessionAt === undefined || fits('sessionAt', 4 * n));
    if (!ok) throw new TypeError('the doc table file does not hold its columns');
    this.sessionRows = this.sections.sessionOrder![1] / 4;
    // Closed once neither this nor a column's text reading it is left.
    this.file = new OpenFile(fd);
  }

  /** Column `name` of `bytes` bytes, read by position (see number-column.ts). */
  private numbers<K extends 'u32' | 'f64'>(kind: K, name: string, fill = 0) {
    const [offset, bytes] = this.sections[name]!;
    return NumberColumn.file(kind, { file: this.file, position: this.start + offset, count: bytes / (kind === 'u32' ? 4 : 8) }, fill);
  }

  strings(name: StringColumnName): { text: TextSource; ends: NumberColumn<Uint32Array> } {
    const [offset, , encoding, chars] = this.sections[`${name}.text`] as [number, number, 'latin1' | 'utf16le', number];
    const rows = this.rows;
    const ends = this.numbers('u32', `${name}.ends`);
    // The last offset is the text's length: one read tells a column that does not line up.
    if (rows > 0 && ends.get(rows - 1) !== chars) throw new RangeError('the doc table file does not line up');
    return { text: new FileText(this.file, this.start + offset, encoding, chars), ends };
  }

  codes(name: CodeColumnName): { values: string[]; codes: NumberColumn<Uint32Array> } {
    return { values: this.values[name], codes: this.numbers('u32', `${name}.codes`) };
  }

  u32(name: 'order' | 'sessionOrder' | 'keyOrder'): NumberColumn<Uint32Array> {
    return this.numbers('u32', name);
  }

  sessionAt(): NumberColumn<Uint32Array> | undefined {
    return this.sections.sessionAt === undefined ? undefined : this.numbers('u32', 'sessionAt');
  }

  f64(name: 'spans' | 'stats', fill: number): NumberColumn<Float64Array> {
    return this.numbers('f64', name, fill);
  }
}

/**
 * A column's text in the file, cut out value by value; past {@link WHOLE_AFTER} reads (a scan,
 * a type boost over thousands of matches) it is read whole once.
 */
export class FileText implements TextSource {
  /** The whole text, once read. */
  private text: string | undefined;
  private reads = 0;

  constructor(
    /** Held open while this text may be read. */
    private readonly file: OpenFile,
    private readonly position: number,
    private readonly encoding: 'latin1' | 'utf16le',
    readonly length: number,
  ) {}

  whole(): string {
    if (this.text === undefined) {
      const width = this.encoding === 'latin1' ? 1 : 2;
      const bytes = readAt(this.file.fd, this.position, this.length * width);
      if (bytes.length !== this.length * width) throw new RangeError('the doc table file is shorter than its header says');
      this.text = bytes.toString(this.encoding);
    }
    return this.text;
  }

  slice(start: number, end: number): string {
    if (this.text !== undefined) return this.text.slice(start, end);
    const width = this.encoding === 'latin1' ? 1 : 2;
    // Past as many reads as the column has 2 kB (a read of a value costs about what reading
    // and decoding that much of the whole does: 5 µs against 12 ms for the 4.5 MB of ids at
    // 100,000 memories), at least 4 and at most WHOLE_AFTER, the column is read whole.
    if (++this.reads > Math.min(WHOLE_AFTER, Math.max(4, (this.length * width) >>> 11))) return this.whole().slice(start, end);
    if (!(start >= 0 && end >= start && end <= this.length)) throw new RangeError('a value past the end of its column');
    const bytes = readAt(this.file.fd, this.position + start * width, (end - start) * width);
    if (bytes.length !== (end - start) * width) throw new RangeError('the doc table file is shorter than its header says');
    return bytes.toString(this.encoding);
  }
}

/** Values cut out of one column by position, at most, before the column's text is read whole. */
export const WHOLE_AFTER = 2048;
