/**
 * Atomic file writes: a temporary file in the same directory, then rename, so a reader
 * (or a concurrent writer, or a crash) never sees a half-written file.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isErrnoCode } from '../errors.js';

/** Temp names start with `.` and end with `.tmp`: listings skip them. */
export function tempPathFor(path: string): string {
  // pid + random: unique among concurrent writers; no node:crypto, which the cached
  // session-start path cannot afford to load.
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
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
