/**
 * The vector cache, `.memory/vectors.bin`: embeddings keyed by the content hash of their
 * embedding text, so unchanged memories are never re-embedded and a model change
 * invalidates everything at once.
 *
 * File layout (little-endian), version 1:
 *
 * | offset | bytes | field |
 * |---|---|---|
 * | 0 | 5 | magic `CXVEC` |
 * | 5 | 1 | format version (1) |
 * | 6 | 2 | reserved (0) |
 * | 8 | 4 | dims (u32) |
 * | 12 | 4 | count (u32) |
 * | 16 | 4 | model id length in bytes (u32) |
 * | 20 | 4 | keys length in bytes (u32) |
 * | 24 | 4 | CRC-32 of everything after the header (u32) |
 * | 28 | 4 | reserved (0) |
 * | 32 | … | model id (UTF-8), then the keys (UTF-8, joined by `\n`), zero-padded to a multiple of 4 |
 * | … | count × dims × 4 | the vectors (float32), in key order |
 *
 * Keys are one block and vectors one aligned block so that loading is one read, one
 * string split and a Float32Array view with no per-float work: 10,000 × 384 loads in a
 * few milliseconds. Any mismatch or damage yields an empty cache, never an error: the
 * cache is rebuildable by definition.
 */
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import * as zlib from 'node:zlib';
import { InternalError, isErrnoCode } from '../errors.js';
import type { Embedder } from '../embed/embedder.js';

export const VECTOR_CACHE_MAGIC = 'CXVEC';
export const VECTOR_CACHE_VERSION = 1;
const HEADER_BYTES = 32;
const LITTLE_ENDIAN = endianness() === 'LE';
// zlib.crc32 arrived in Node 20.15; on older runtimes files are written with CRC 0 and not checked.
const crc32: ((data: Uint8Array) => number) | undefined = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** How the cache came to be: useful for `cortex doctor` and progress messages. */
export type VectorCacheStatus = 'new' | 'loaded' | 'missing' | 'stale' | 'corrupt';

export interface VectorCacheOptions {
  /** Identity of the embedder (`Embedder.model`); a file written for another is stale. */
  model: string;
  /** Expected vector length, when known; a file with another is stale. */
  dims: number | undefined;
}

export const DEFAULT_VECTOR_CACHE: VectorCacheOptions = { model: '', dims: undefined };

/** Module-private: only `saveVectorCache` may clear the dirty flag. */
const markSaved = Symbol('markSaved');

/**
 * Embeddings by content hash for one model. Vectors are owned by the cache once `set`
 * (don't mutate them afterwards); `get` returns the stored array itself, without a copy.
 *
 * @example
 * const cache = new VectorCache({ model: 'Xenova/all-MiniLM-L6-v2:q8' })
 * cache.set('9f86d081884c7d659a2feaa0c55ad015', vector)
 */
export class VectorCache {
  readonly model: string;
  readonly status: VectorCacheStatus;
  #dims: number | undefined;
  #vectors = new Map<string, Float32Array>();
  #dirty = false;

  constructor(options: Partial<VectorCacheOptions> & { status?: VectorCacheStatus } = {}) {
    const { model, dims } = { ...DEFAULT_VECTOR_CACHE, ...options };
    this.model = model;
    this.#dims = dims;
    this.status = options.status ?? 'new';
  }

  /** Vector length: fixed by the options, the loaded file, or the first `set`. */
  get dims(): number | undefined {
    return this.#dims;
  }

  get size(): number {
    return this.#vectors.size;
  }

  /** True when the cache differs from what was last loaded or saved. */
  get dirty(): boolean {
    return this.#dirty;
  }

  get(hash: string): Float32Array | undefined {
    return this.#vectors.get(hash);
  }

  has(hash: string): boolean {
    return this.#vectors.has(hash);
  }

  /** @throws RangeError for an empty key, a key with a newline, or a vector of the wrong length. */
  set(hash: string, vector: Float32Array): void {
    if (hash === '' || hash.includes('\n')) throw new RangeError(`invalid vector cache key ${JSON.stringify(hash)}`);
    if (this.#dims === undefined) {
      if (vector.length === 0) throw new RangeError('cannot cache an empty vector');
      this.#dims = vector.length;
    } else if (vector.length !== this.#dims) {
      throw new RangeError(`vector of length ${vector.length} in a cache of ${this.#dims} dimensions`);
    }
    this.#vectors.set(hash, vector);
    this.#dirty = true;
  }

  delete(hash: string): boolean {
    const removed = this.#vectors.delete(hash);
    if (removed) this.#dirty = true;
    return removed;
  }

  /** Drops every entry and forgets the dimensions. */
  clear(): void {
    if (this.#vectors.size > 0) this.#dirty = true;
    this.#vectors.clear();
    this.#dims = undefined;
  }

  /** Removes entries whose hash is not live; returns how many were removed. */
  prune(liveHashes: Iterable<string>): number {
    const live = liveHashes instanceof Set ? (liveHashes as Set<string>) : new Set(liveHashes);
    let removed = 0;
    for (const hash of this.#vectors.keys()) {
      if (!live.has(hash)) {
        this.#vectors.delete(hash);
        removed++;
      }
    }
    if (removed > 0) this.#dirty = true;
    return removed;
  }

  keys(): IterableIterator<string> {
    return this.#vectors.keys();
  }

  entries(): IterableIterator<[string, Float32Array]> {
    return this.#vectors.entries();
  }

  /** @internal used by `loadVectorCache` to fill without marking dirty. */
  static fromLoaded(model: string, dims: number | undefined, vectors: Map<string, Float32Array>): VectorCache {
    const cache = new VectorCache({ model, dims, status: 'loaded' });
    cache.#vectors = vectors;
    return cache;
  }

  [markSaved](): void {
    this.#dirty = false;
  }
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

function decodeVectors(buf: Buffer, offset: number, floats: number): Float32Array {
  const byteOffset = buf.byteOffset + offset;
  if (LITTLE_ENDIAN && byteOffset % 4 === 0) return new Float32Array(buf.buffer, byteOffset, floats);
  if (LITTLE_ENDIAN) return new Float32Array(buf.buffer.slice(byteOffset, byteOffset + floats * 4));
  const view = new DataView(buf.buffer, byteOffset, floats * 4);
  const out = new Float32Array(floats);
  for (let i = 0; i < floats; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function parseVectorFile(buf: Buffer, options: VectorCacheOptions): VectorCache {
  const corrupt = () => new VectorCache({ ...options, status: 'corrupt' });
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 5) !== VECTOR_CACHE_MAGIC) return corrupt();
  if (buf[5] !== VECTOR_CACHE_VERSION) return new VectorCache({ ...options, status: 'stale' });
  const dims = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  const modelBytes = buf.readUInt32LE(16);
  const keyBytes = buf.readUInt32LE(20);
  const crc = buf.readUInt32LE(24);
  const vectorOffset = pad4(HEADER_BYTES + modelBytes + keyBytes);
  if (buf.length !== vectorOffset + count * dims * 4 || (count > 0 && dims === 0)) return corrupt();
  if (crc !== 0 && crc32 !== undefined && crc32(buf.subarray(HEADER_BYTES)) !== crc) return corrupt();
  const model = buf.toString('utf8', HEADER_BYTES, HEADER_BYTES + modelBytes);
  if (model !== options.model || (options.dims !== undefined && count > 0 && dims !== options.dims)) {
    return new VectorCache({ ...options, status: 'stale' });
  }
  // The CRC covers the blocks, not the lengths in the header: a length off by a byte or two
  // can still land on the same padded offset. Keys never hold NUL and padding is all NUL,
  // so the key block must end exactly where the padding starts.
  const keyEnd = HEADER_BYTES + modelBytes + keyBytes;
  for (let i = keyEnd; i < vectorOffset; i++) if (buf[i] !== 0) return corrupt();
  const nul = buf.indexOf(0, HEADER_BYTES + modelBytes);
  if (nul !== -1 && nul < keyEnd) return corrupt();
  const keys = count === 0 ? [] : buf.toString('utf8', HEADER_BYTES + modelBytes, keyEnd).split('\n');
  if (keys.length !== count) return corrupt();
  const all = decodeVectors(buf, vectorOffset, count * dims);
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < count; i++) vectors.set(keys[i] as string, all.subarray(i * dims, (i + 1) * dims));
  if (vectors.size !== count) return corrupt(); // duplicate keys: not a file we wrote
  return VectorCache.fromLoaded(model, count > 0 ? dims : (options.dims ?? (dims > 0 ? dims : undefined)), vectors);
}

/**
 * Loads the vector cache. A missing file, a file for another model, format version or
 * dimension, and a corrupt or truncated file all yield an empty cache (see `status`);
 * only an unreadable file (permissions, I/O) throws.
 *
 * @example
 * const cache = await loadVectorCache('.memory/vectors.bin', { model: embedder.model, dims: embedder.dims })
 * cache.status // 'loaded' | 'missing' | 'stale' | 'corrupt'
 */
export async function loadVectorCache(file: string, options: Partial<VectorCacheOptions> = {}): Promise<VectorCache> {
  const opts = { ...DEFAULT_VECTOR_CACHE, ...options };
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return new VectorCache({ ...opts, status: 'missing' });
    if (isErrnoCode(err, 'EISDIR')) return new VectorCache({ ...opts, status: 'corrupt' });
    throw err;
  }
  return parseVectorFile(buf, opts);
}

/** Serialises a cache into the version-1 file format (keys sorted, so equal caches give equal bytes). */
export function renderVectorCache(cache: VectorCache): Buffer {
  const keys = [...cache.keys()].sort();
  const dims = keys.length === 0 ? (cache.dims ?? 0) : (cache.dims as number);
  const model = Buffer.from(cache.model, 'utf8');
  const keyBlock = Buffer.from(keys.join('\n'), 'utf8');
  const vectorOffset = pad4(HEADER_BYTES + model.length + keyBlock.length);
  const buf = Buffer.alloc(vectorOffset + keys.length * dims * 4);
  buf.write(VECTOR_CACHE_MAGIC, 0, 'latin1');
  buf[5] = VECTOR_CACHE_VERSION;
  buf.writeUInt32LE(dims, 8);
  buf.writeUInt32LE(keys.length, 12);
  buf.writeUInt32LE(model.length, 16);
  buf.writeUInt32LE(keyBlock.length, 20);
  model.copy(buf, HEADER_BYTES);
  keyBlock.copy(buf, HEADER_BYTES + model.length);
  // A fresh Buffer.alloc of this size is not pool-backed, so the vector block is 4-byte aligned.
  const floats = LITTLE_ENDIAN ? new Float32Array(buf.buffer, buf.byteOffset + vectorOffset, keys.length * dims) : undefined;
  const view = floats ? undefined : new DataView(buf.buffer, buf.byteOffset + vectorOffset);
  keys.forEach((key, i) => {
    const vector = cache.get(key) as Float32Array;
    if (floats) floats.set(vector, i * dims);
    else for (let j = 0; j < dims; j++) view?.setFloat32((i * dims + j) * 4, vector[j] ?? 0, true);
  });
  if (crc32 !== undefined) buf.writeUInt32LE(crc32(buf.subarray(HEADER_BYTES)), 24);
  return buf;
}

let tempCounter = 0;

/**
 * Saves the cache atomically: writes a temporary file in the same directory and renames
 * it over the target, so readers see the old or the new file, never half of one.
 * No fsync: a torn write after a power cut is detected as corrupt and re-embedded.
 *
 * @example
 * await saveVectorCache('.memory/vectors.bin', cache)
 */
export async function saveVectorCache(file: string, cache: VectorCache): Promise<void> {
  const bytes = renderVectorCache(cache);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  cache[markSaved]();
}

/** One thing to embed: the content hash keys the cache, the text is what the model sees. */
export interface EmbedItem {
  hash: string;
  text: string;
}

export interface EmbedProgress {
  phase: 'embed';
  done: number;
  total: number;
}

export interface EmbedMissingOptions {
  items: EmbedItem[];
  cache: VectorCache;
  embedder: Embedder;
  /** Texts per `embedder.embed` call, and the unit of resumable progress. */
  batchSize: number;
  /** Called with `done: 0` before the first batch and after every batch. */
  onProgress: ((progress: EmbedProgress) => void) | undefined;
  /** Stops between batches; what was embedded so far is kept (and checkpointed). */
  signal: AbortSignal | undefined;
  /** Persists the cache, normally `() => saveVectorCache(file, cache)`; runs after every `checkpointEvery` batches and after the last. */
  checkpoint: (() => Promise<void> | void) | undefined;
  checkpointEvery: number;
}

export const DEFAULT_EMBED_MISSING: Omit<EmbedMissingOptions, 'items' | 'cache' | 'embedder'> = {
  batchSize: 32,
  onProgress: undefined,
  signal: undefined,
  checkpoint: undefined,
  checkpointEvery: 1,
};

export interface EmbedMissingResult {
  /** Distinct hashes asked for. */
  total: number;
  /** Already in the cache before this call. */
  cached: number;
  /** Embedded by this call. */
  embedded: number;
  /** True when the signal stopped the run before every missing hash was embedded. */
  aborted: boolean;
}

/**
 * Embeds the items whose hash is not cached yet, in batches, checkpointing after each
 * batch so an interrupted backfill resumes where it stopped. Duplicate hashes are
 * embedded once. A cache whose dimensions differ from the embedder's is cleared first.
 *
 * @throws EmbedUnavailableError from the embedder; batches finished before it are kept.
 * @example
 * const result = await embedMissing({ items, cache, embedder, checkpoint: () => saveVectorCache(file, cache) })
 * result.embedded // 0 on a warm cache
 */
export async function embedMissing(
  options: Pick<EmbedMissingOptions, 'items' | 'cache' | 'embedder'> & Partial<EmbedMissingOptions>,
): Promise<EmbedMissingResult> {
  const { items, cache, embedder, batchSize, onProgress, signal, checkpoint, checkpointEvery } = { ...DEFAULT_EMBED_MISSING, ...options };
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  if (embedder.dims !== undefined && cache.dims !== undefined && embedder.dims !== cache.dims) cache.clear();

  const texts = new Map<string, string>();
  for (const item of items) if (!texts.has(item.hash)) texts.set(item.hash, item.text);
  const missing = [...texts.keys()].filter((hash) => !cache.has(hash));
  const result: EmbedMissingResult = { total: texts.size, cached: texts.size - missing.length, embedded: 0, aborted: false };
  if (missing.length === 0) return result;

  onProgress?.({ phase: 'embed', done: 0, total: missing.length });
  let sinceCheckpoint = 0;
  for (let start = 0; start < missing.length; start += batchSize) {
    if (signal?.aborted) {
      result.aborted = true;
      break;
    }
    const batch = missing.slice(start, start + batchSize);
    const vectors = await embedder.embed(batch.map((hash) => texts.get(hash) as string));
    if (vectors.length !== batch.length) {
      throw new InternalError(`embedder ${embedder.model} returned ${vectors.length} vectors for ${batch.length} texts`);
    }
    batch.forEach((hash, i) => cache.set(hash, vectors[i] as Float32Array));
    result.embedded += batch.length;
    if (++sinceCheckpoint >= checkpointEvery || result.embedded === missing.length) {
      sinceCheckpoint = 0;
      await checkpoint?.();
    }
    onProgress?.({ phase: 'embed', done: result.embedded, total: missing.length });
  }
  if (result.aborted && sinceCheckpoint > 0) await checkpoint?.();
  return result;
}
