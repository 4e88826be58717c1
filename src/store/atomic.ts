/**
 * Atomic file writes: a temporary file in the same directory, then rename, so a reader
 * (or a concurrent writer, or a crash) never sees a half-written file.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CortexError, isErrnoCode } from '../errors.js';
import { isProcessAlive } from './lock.js';
import { closeWhenCollected } from './safe-read.js';

/** Temp names start with `.` and end with `.tmp`: listings skip them. */
export function tempPathFor(path: string): string {
  // pid + random: unique among concurrent writers; no node:crypto, which the cached
  // session-start path cannot afford to load.
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

/**
 * Creates the directory a file goes in. A file where a directory should be (a committed
 * `.cortex/memories` file, say) is an error that names it, not a crash.
 */
function makeParent(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    if (!isErrnoCode(err, 'ENOTDIR') && !isErrnoCode(err, 'EEXIST')) throw err;
    let blocker = dirname(path);
    while (dirname(blocker) !== blocker && lstatSync(blocker, { throwIfNoEntry: false }) === undefined) blocker = dirname(blocker);
    throw new CortexError('NOT_A_DIRECTORY', `Cannot write ${path}: ${blocker} is not a directory.`, {
      hint: `Move ${blocker} away (a directory belongs there), then run the command again.`,
      cause: err,
    });
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  makeParent(path);
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Bytes an {@link AtomicFileWriter} gathers before each write to its file. */
const WRITE_CHUNK = 1 << 20;

/** Temporary files of writers not yet committed or aborted: removed if the process exits first. */
const openWriters = new Set<AtomicFileWriter>();
let exitHook = false;

/**
 * A file written piece by piece, for data too large to hold whole (a rebuild's records and
 * postings at 100,000 memories: 80 and 50 MB): pieces are gathered into chunks and written to
 * a temporary file in the target's directory, which {@link commit} renames into place, so a
 * reader never sees a half-written file. What was written can be read back meanwhile.
 * The temporary file is removed by {@link abort}, when the process exits before either, or
 * by `removeStaleTempFiles` after a crash.
 *
 * @example
 * const out = new AtomicFileWriter('/repo/.memory/index-records-ab12.bin');
 * out.write(bytes); out.read(0, 4); out.commit();
 */
export class AtomicFileWriter {
  private readonly tmp: string;
  private fd: number | undefined;
  /** Renamed into place: read-only from here on (the descriptor stays open for reads). */
  private committed = false;
  private chunk = Buffer.allocUnsafeSlow(WRITE_CHUNK);
  /** Bytes in `chunk`, not yet in the file. */
  private pending = 0;
  /** Bytes in the file. */
  private written = 0;

  constructor(readonly path: string) {
    makeParent(path);
    this.tmp = tempPathFor(path);
    this.fd = openSync(this.tmp, 'wx+');
    openWriters.add(this);
    if (!exitHook) {
      exitHook = true;
      process.on('exit', () => {
        for (const writer of openWriters) writer.abort();
      });
    }
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written + this.pending;
  }

  write(bytes: Uint8Array): void {
    if (this.fd === undefined || this.committed) throw new Error(`${this.path} was already committed or aborted`);
    if (this.pending + bytes.length > this.chunk.length) this.flush();
    if (bytes.length > this.chunk.length) {
      this.writeAll(bytes);
      return;
    }
    this.chunk.set(bytes, this.pending);
    this.pending += bytes.length;
  }

  /** The bytes `[start, end)` written so far (also once committed). */
  read(start: number, end: number): Uint8Array {
    if (this.fd === undefined) throw new Error(`${this.path} was aborted`);
    if (end > this.size) throw new RangeError(`${this.path} has ${this.size} bytes, not ${end}`);
    if (end > this.written) this.flush();
    const out = Buffer.allocUnsafe(end - start);
    let filled = 0;
    while (filled < out.length) {
      const n = readSync(this.fd, out, filled, out.length - filled, start + filled);
      if (n === 0) throw new RangeError(`${this.path} is shorter than what was written to it`);
      filled += n;
    }
    return out;
  }

  /**
   * Writes what is pending and renames the file into place. It can still be read: the
   * descriptor is closed when the writer is garbage-collected.
   */
  commit(): void {
    if (this.fd === undefined || this.committed) throw new Error(`${this.path} was already committed or aborted`);
    try {
      this.flush();
      renameSync(this.tmp, this.path);
    } catch (err) {
      this.abort();
      throw err;
    }
    this.committed = true;
    openWriters.delete(this);
    this.chunk = Buffer.alloc(0);
    closeWhenCollected(this, this.fd);
  }

  /** Closes and removes the temporary file (nothing happens once committed). */
  abort(): void {
    if (this.committed) return;
    openWriters.delete(this);
    this.chunk = Buffer.alloc(0);
    this.pending = 0;
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closed already.
    }
    this.fd = undefined;
    rmSync(this.tmp, { force: true });
  }

  private flush(): void {
    if (this.pending === 0) return;
    const pending = this.pending;
    this.pending = 0;
    this.writeAll(this.chunk.subarray(0, pending));
  }

  private writeAll(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, this.written + done);
    this.written += bytes.length;
  }
}

/** Reads a file, or `undefined` when it does not exist. */
export function readFileIfExists(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return undefined;
    throw err;
  }
}

/**
 * Writes only when the bytes differ, so an unchanged file keeps its mtime and shows no diff.
 * Returns what happened.
 */
export function writeIfChanged(path: string, data: string): 'created' | 'updated' | 'unchanged' {
  const existing = readFileIfExists(path);
  if (existing !== undefined && existing.toString('utf8') === data) return 'unchanged';
  writeFileAtomic(path, data);
  return existing === undefined ? 'created' : 'updated';
}

/** `tempPathFor`'s names: `.<file>.<pid>.<random>.tmp`. */
const TEMP_NAME = /^\..+\.(\d+)\.[a-z0-9]+\.tmp$/;

/** Whether a directory entry is a temporary file of an atomic write. */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Removes the temporary files that interrupted writes left in `dir`: those whose writer is
 * no longer running, or older than `maxAgeMs` (a pid may have been reused). Returns the
 * names removed. Best effort: never throws.
 *
 * @example
 * removeStaleTempFiles('/repo/.cortex/memories', { now: Date.now() }) // ['.x.md.4242.k3f9qa1b.tmp']
 */
export function removeStaleTempFiles(dir: string, options: { now: number; maxAgeMs?: number }): string[] {
  const maxAgeMs = options.maxAgeMs ?? 3_600_000;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      if (Number(m[1]) === process.pid || (isProcessAlive(Number(m[1])) && options.now - st.mtimeMs < maxAgeMs)) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}
