/**
 * A small cross-process lock: a lock file holding its owner's pid and process start time,
 * created whole (written to a temporary file, then hard-linked into place, which fails
 * when the lock exists), so a lock file is never seen empty or half-written.
 *
 * A lock is broken when its owner is gone: the pid is not running, or it is running but
 * started at another time (the pid was reused), or the file is older than `staleMs`, or it
 * is empty or unreadable for longer than a writer could take (a crash of an older version).
 * Breaking is safe against two waiters breaking at once: the lock is renamed aside, and if
 * what was renamed is not the file judged stale, it is put back.
 */
import { closeSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { LockError, isErrnoCode } from '../errors.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock older than this (ms) is considered abandoned. */
  staleMs?: number;
}

export const DEFAULT_LOCK: Required<LockOptions> = { timeoutMs: 15_000, staleMs: 30_000 };

/** An empty or unreadable lock older than this was left by a crash (no writer takes this long). */
const TORN_GRACE_MS = 1_000;

interface LockOwner {
  pid: number;
  /** Random per acquisition: the holder removes the lock only while it is still its own. */
  token?: string | undefined;
  /** The owner's start time as the OS records it (`/proc/<pid>/stat` field 22), when known. */
  start?: string | undefined;
  at: number;
}

/** Start time of a process in clock ticks since boot (Linux), or `undefined` elsewhere. */
function processStart(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

let ownStart: string | undefined | null = null;

/** Whether a process with this pid is running (one we may not signal counts). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isErrnoCode(err, 'EPERM');
  }
}

/** Whether the lock's owner is gone (dead, or its pid now names another process). */
function ownerGone(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return false;
  if (!isProcessAlive(owner.pid)) return true;
  if (owner.start === undefined) return false;
  const now = processStart(owner.pid);
  return now !== undefined && now !== owner.start;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v !== 'object' || v === null || !Number.isSafeInteger(v.pid) || (v.pid as number) <= 0) return undefined;
    return { pid: v.pid as number, start: typeof v.start === 'string' ? v.start : undefined, at: typeof v.at === 'number' ? v.at : 0 };
  } catch {
    return undefined;
  }
}

/** Creates the lock file whole; returns its content when this process now holds it. */
function createWhole(path: string): string | undefined {
  if (ownStart === null) ownStart = processStart('self');
  const token = Math.random().toString(36).slice(2, 12);
  const content = JSON.stringify({ pid: process.pid, token, ...(ownStart !== undefined ? { start: ownStart } : {}), at: Date.now() });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    const fd = openSync(tmp, 'wx');
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
      return content;
    } catch (err) {
      if (isErrnoCode(err, 'EEXIST')) return undefined;
      // No hard links here (some network or FAT file systems): create in place instead.
      if (!isErrnoCode(err, 'EPERM') && !isErrnoCode(err, 'ENOTSUP') && !isErrnoCode(err, 'EOPNOTSUPP')) throw err;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, content);
    closeSync(fd);
    return content;
  } catch (err) {
    if (isErrnoCode(err, 'EEXIST')) return undefined;
    throw err;
  }
}

/**
 * Removes the lock if it is still ours: a holder that outlived `staleMs` may have had its
 * lock broken and taken by another process, whose lock must not be removed.
 */
function release(path: string, content: string): void {
  try {
    if (readFileSync(path, 'utf8') === content) rmSync(path, { force: true });
  } catch {
    // Already gone.
  }
}

/** Removes the lock at `path` if it is still the file (inode) judged stale. */
function breakStale(path: string, ino: number): void {
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) return; // another waiter broke it first
    throw err;
  }
  try {
    if (lstatSync(aside).ino !== ino) {
      // Between the judgement and the rename, another waiter broke the stale lock and took
      // a fresh one: that is what was moved. Put it back, unless yet another process has
      // taken the place meanwhile (then that one holds the lock).
      try {
        linkSync(aside, path);
      } catch {
        // Taken again: nothing to restore.
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

function tryAcquire(path: string, staleMs: number): string | undefined {
  const mine = createWhole(path);
  if (mine !== undefined) return mine;
  // Held: break it if the owner is gone, the file is torn, or it is too old.
  try {
    const st = lstatSync(path);
    if (!st.isFile()) {
      // Not a lock any version of Cortex makes (a FIFO would block the read below).
      rmSync(path, { recursive: true, force: true });
      return undefined;
    }
    const age = Date.now() - st.mtimeMs;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (!isErrnoCode(err, 'ENOENT')) throw err;
      return undefined;
    }
    const owner = parseOwner(text);
    const stale = age > staleMs || (owner === undefined ? age > TORN_GRACE_MS : age > 50 && ownerGone(owner));
    if (stale) breakStale(path, st.ino);
  } catch (err) {
    if (!isErrnoCode(err, 'ENOENT')) throw err;
  }
  return undefined;
}

function timeoutError(path: string): LockError {
  return new LockError(`Another cortex process holds ${path}.`, {
    hint: 'Wait for it to finish; if no cortex process is running, delete the lock file.',
  });
}

/**
 * Runs `fn` while holding the lock at `path`.
 * Throws `LockError` when the lock cannot be had within `timeoutMs`.
 */
export async function withLock<T>(path: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const { timeoutMs, staleMs } = { ...DEFAULT_LOCK, ...options };
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  let mine: string | undefined;
  while ((mine = tryAcquire(path, staleMs)) === undefined) {
    if (Date.now() >= deadline) throw timeoutError(path);
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await fn();
  } finally {
    release(path, mine);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Sleeps the thread without spinning the CPU (synchronous callers only). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Synchronous `withLock`, for short critical sections on paths that are synchronous
 * (recording usage signals from `get`). Same lock files, so it excludes `withLock` holders.
 * Throws `LockError` after `timeoutMs`; callers that must not fail catch it and skip.
 */
export function withLockSync<T>(path: string, fn: () => T, options: LockOptions = {}): T {
  const { timeoutMs, staleMs } = { ...DEFAULT_LOCK, ...options };
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  let mine: string | undefined;
  while ((mine = tryAcquire(path, staleMs)) === undefined) {
    if (Date.now() >= deadline) throw timeoutError(path);
    sleepSync(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return fn();
  } finally {
    release(path, mine);
  }
}
