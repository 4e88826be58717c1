/**
 * A synchronous peek at the header of `.memory/vectors.bin` (format in `vectors.ts`).
 *
 * Recall decides between keyword and hybrid search from it on every run, so it must stay
 * cheap and import-light: one open, one small read, no vector decoding, and nothing but
 * `node:fs` (the keyword path never loads `vectors.ts` or the embedding library).
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** What the header says; the vectors themselves are not read or checked. */
export interface VectorFileHeader {
  version: number;
  dims: number;
  count: number;
  model: string;
}

const MAGIC = 'CXVEC';
const HEADER_BYTES = 32;
/** Model ids are short; a longer length field means a file we did not write. */
const MAX_MODEL_BYTES = 4096;

/**
 * Reads the header of a vector cache file; `undefined` when the file is missing,
 * unreadable, too short or not a vector cache. The CRC is not checked here: a damaged
 * file is found (and rebuilt) when the vectors are actually loaded.
 *
 * @example
 * readVectorFileHeader('.memory/vectors.bin') // { version: 1, dims: 384, count: 10000, model: 'Xenova/all-MiniLM-L6-v2:q8' }
 */
export function readVectorFileHeader(file: string): VectorFileHeader | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, head, 0, HEADER_BYTES, 0) !== HEADER_BYTES || head.toString('latin1', 0, 5) !== MAGIC) return undefined;
    const modelBytes = head.readUInt32LE(16);
    if (modelBytes > MAX_MODEL_BYTES) return undefined;
    const model = Buffer.alloc(modelBytes);
    if (readSync(fd, model, 0, modelBytes, HEADER_BYTES) !== modelBytes) return undefined;
    return { version: head[5] ?? 0, dims: head.readUInt32LE(8), count: head.readUInt32LE(12), model: model.toString('utf8') };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
