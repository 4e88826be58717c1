/**
 * A directory's change stamp: its inode and mtime, which move whenever an entry is added,
 * removed or renamed in it (how git, cortex and most editors write files). Caches that
 * judge a directory by it (the edge cache, the keyword index) read no listing while it
 * holds. Node built-ins only.
 */
import { statSync } from 'node:fs';
import { isNumber, isPlainObject } from '../core/shape.js';

/**
 * The identity of a directory's listing. `racy` marks a stamp taken so soon after the
 * last change that another change within the same clock tick would leave the mtime
 * as it is: such a stamp is never trusted (git's "racily clean" problem).
 */
export interface DirStamp {
  exists: boolean;
  mtimeMs: number;
  ino: number;
  racy?: boolean;
}

/** Changes closer than this to "now" may share the directory's mtime (coarse kernel clock). */
export const RACY_WINDOW_MS = 100;

/** Stamp of a directory; a missing one is `{ exists: false }`. */
export function dirStamp(dir: string, now: number = Date.now()): DirStamp {
  try {
    const st = statSync(dir);
    const stamp: DirStamp = { exists: true, mtimeMs: st.mtimeMs, ino: st.ino };
    if (now - st.mtimeMs < RACY_WINDOW_MS) stamp.racy = true;
    return stamp;
  } catch {
    return { exists: false, mtimeMs: 0, ino: 0 };
  }
}

/**
 * True when the directory as it is now (`current`) still has the listing a cache
 * recorded (`stored`). A racy stored stamp is never trusted; whether `current` is racy
 * does not matter, it is only compared.
 */
export function sameStamp(current: DirStamp | undefined, stored: DirStamp | undefined): boolean {
  if (!current || !stored || stored.racy) return false;
  if (!current.exists || !stored.exists) return current.exists === stored.exists;
  return current.mtimeMs === stored.mtimeMs && current.ino === stored.ino;
}

/** True when `v` is a {@link DirStamp} (as read back from a file). */
export const isDirStamp = (v: unknown): v is DirStamp => isPlainObject(v) && typeof v.exists === 'boolean' && isNumber(v.mtimeMs) && isNumber(v.ino);
