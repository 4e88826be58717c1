/**
 * `index.v8`, the keyword index's own file: a V8-serialized header naming the four files it
 * points to, with the journals of their changes since they were written, then the frames
 * later saves appended (the changes since the previous save). See docs/design.md, "The
 * keyword index's layout"; keyword-index.ts reads and writes it.
 */
import { deserialize, serialize } from 'node:v8';
import type { Diagnostic } from '../../core/memory.js';
import { isDirStamp, type DirStamp } from '../dir-stamp.js';
import { isDocJournal, type DocJournal } from './doc-table.js';
import type { FileEntry } from './file-table.js';
import { isAnalyzedDoc, type AnalyzedDoc } from './search-state.js';

/**
 * Changes to the search tree since its file was written: memories to take out of it and
 * memories to add. Applied when the tree is loaded; folded into a new file past
 * {@link JOURNAL_LIMIT} changes.
 */
export interface Journal {
  removed: string[];
  /** Analysed as the tree analyses them: a replay adds them without analysing them again. */
  added: AnalyzedDoc[];
  /**
   * The short ids the tree's file gives the `removed` ids, as far as the save knew them (-1:
   * none), so a replay looks none up (a binary search that cuts a dozen ids out of the file).
   */
  saved?: [string, number][];
}

export interface IndexFile {
  version: number;
  optionsHash: string;
  /** Name of the file in `.memory/` that holds the file table (see file-table.ts), read only by a sweep or a write. */
  filesFile: string;
  /** Changes to the file table since `filesFile` was written: an entry, or null for a file gone. */
  fileJournal: [string, FileEntry | null][];
  /** The memories directory's change stamp when the file table last matched it (see dir-stamp.ts); null: sweep next time. */
  stamp: DirStamp | null;
  /** The problems of broken files found by the last sweep (reported again without one). */
  diagnostics: Diagnostic[];
  /** Name of the file in `.memory/` that holds the doc table's columns (see doc-table.ts). */
  docsFile: string;
  /** Changes to the doc table since `docsFile` was written. */
  docJournal: DocJournal;
  /** Name of the file in `.memory/` that holds the search tree (see search-state.ts). */
  searchFile: string;
  /** Name of the file in `.memory/` that holds the records (see doc-table.ts), read record by record. */
  recordsFile: string;
  journal: Journal;
}

/**
 * What one save appended to `index.v8` after its header, instead of writing the header anew:
 * the changes since the previous save (the entries of the three journals that changed, as
 * they are now), the stamp and the diagnostics. Applied in order after the header when the
 * index is loaded, and only onto the files it was taken against (`base`: another process may
 * have written a new header meanwhile, which then wins).
 */
export interface IndexFrame {
  base: string;
  files: [string, FileEntry | null][];
  docs: DocJournal;
  search: Journal;
  stamp: DirStamp | null;
  diagnostics: Diagnostic[];
}

/** The files a header points to, as one string: what a frame must have been taken against. */
export function baseOf(h: Pick<IndexFile, 'filesFile' | 'docsFile' | 'searchFile' | 'recordsFile'>): string {
  return `${h.filesFile} ${h.docsFile} ${h.searchFile} ${h.recordsFile}`;
}

export function isIndexFrame(value: unknown): value is IndexFrame {
  const f = value as IndexFrame;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.base === 'string' &&
    Array.isArray(f.files) &&
    isDocJournal(f.docs) &&
    isJournal(f.search) &&
    (f.stamp === null || isDirStamp(f.stamp)) &&
    Array.isArray(f.diagnostics)
  );
}

/**
 * Appended frames past which a save writes the header anew (with every change folded in):
 * at least this many bytes, and at least the header's own size, so that what the frames
 * cost to write stays proportional to the changes (the header is written again only after
 * as many bytes of changes as it holds), and what they cost to read stays small.
 */
export const FRAMES_MIN_BYTES = 64 * 1024;

/** The first bytes of `index.v8`: then the header's length (u32 LE) and the header, then appended frames (see {@link IndexFrame}). */
const INDEX_MAGIC = Buffer.from('CXI\u0002', 'latin1');

/** `index.v8`: a V8-serialized header (the records are in their own file). */
export function packIndexFile(header: IndexFile): Buffer {
  const head = serialize(header);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([INDEX_MAGIC, length, head]);
}

/** The entries of a search journal for the ids in `ids`. */
export function journalPart(journal: Journal, ids: ReadonlySet<string>): Journal {
  return {
    removed: journal.removed.filter((id) => ids.has(id)),
    added: journal.added.filter((doc) => ids.has(doc.id)),
    saved: (journal.saved ?? []).filter(([id]) => ids.has(id)),
  };
}

/** One frame as appended: its length (u32 LE), then the frame V8-serialized. */
export function packFrame(frame: IndexFrame): Buffer {
  const body = serialize(frame);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  return Buffer.concat([length, body]);
}

/** The index file's header; throws when the bytes are not one (the caller rebuilds). */
export function unpackIndexFile(bytes: Buffer): IndexFile {
  return unpackIndexFileWithFrames(bytes).header;
}

/**
 * An index file's header and the frames after it that apply to it, as a load reads them
 * (tests take them apart and put them back with {@link packIndexBytes}).
 */
export function unpackIndexParts(bytes: Buffer): { header: IndexFile; frames: IndexFrame[] } {
  const { header, frames } = unpackIndexFileWithFrames(bytes);
  return { header, frames };
}

/** An index file of this header and these frames. */
export function packIndexBytes(header: IndexFile, frames: readonly IndexFrame[]): Buffer {
  return Buffer.concat([packIndexFile(header), ...frames.map(packFrame)]);
}

/**
 * The header and the frames appended after it that apply to it. A frame cut short (a save
 * interrupted mid-append) or that does not parse ends the list: what it held is found again
 * by the next sweep, as the files' stats no longer match.
 */
export function unpackIndexFileWithFrames(bytes: Buffer): { header: IndexFile; headerBytes: number; frames: IndexFrame[]; frameBytes: number } {
  if (bytes.length < 8 || !bytes.subarray(0, 4).equals(INDEX_MAGIC)) throw new TypeError('not an index file');
  const length = bytes.readUInt32LE(4);
  if (8 + length > bytes.length) throw new TypeError('truncated index file');
  const header = deserialize(bytes.subarray(8, 8 + length)) as IndexFile;
  if (typeof header !== 'object' || header === null) throw new TypeError('not an index file');
  const frames: IndexFrame[] = [];
  const base = baseOf(header);
  let at = 8 + length;
  while (at + 4 <= bytes.length) {
    const size = bytes.readUInt32LE(at);
    if (at + 4 + size > bytes.length) break;
    let frame: unknown;
    try {
      frame = deserialize(bytes.subarray(at + 4, at + 4 + size));
    } catch {
      break;
    }
    if (!isIndexFrame(frame)) break;
    at += 4 + size;
    if (frame.base === base) frames.push(frame);
  }
  return { header, headerBytes: 8 + length, frames, frameBytes: at - 8 - length };
}

export function isJournal(value: unknown): value is Journal {
  const j = value as Journal;
  return (
    typeof j === 'object' &&
    j !== null &&
    Array.isArray(j.removed) &&
    j.removed.every((id) => typeof id === 'string') &&
    Array.isArray(j.added) &&
    j.added.every(isAnalyzedDoc) &&
    (j.saved === undefined || (Array.isArray(j.saved) && j.saved.every((e) => Array.isArray(e) && typeof e[0] === 'string' && Number.isInteger(e[1]))))
  );
}
