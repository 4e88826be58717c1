/**
 * Atomic file writes: a temporary file in the same directory, then rename, so a reader
 * (or a concurrent writer, or a crash) never sees a half-written file.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CortexError, isErrnoCode } from '../errors.js';
import { isProcessAlive } from './lock.js';

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
