/**
 * A small cross-process lock: a lock file created with O_EXCL holding the owner's pid.
 * A lock whose owner is dead, or that is older than `staleMs`, is broken.
 */
import { mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { LockError, isErrnoCode } from '../errors.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock older than this (ms) is considered abandoned. */
  staleMs?: number;
}

export const DEFAULT_LOCK: Required<LockOptions> = { timeoutMs: 15_000, staleMs: 30_000 };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isErrnoCode(err, 'EPERM');
  }
}

function tryAcquire(path: string, staleMs: number): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
    closeSync(fd);
    return true;
  } catch (err) {
    if (!isErrnoCode(err, 'EEXIST')) throw err;
  }
  // Held: break it if the owner is gone or it is too old.
  try {
    const age = Date.now() - statSync(path).mtimeMs;
    let pid = 0;
    try {
      pid = (JSON.parse(readFileSync(path, 'utf8')) as { pid?: number }).pid ?? 0;
    } catch {
      // Being written right now, or torn: judge by age alone.
    }
    if (age > staleMs || (pid > 0 && pid !== process.pid && !isAlive(pid) && age > 50)) {
      rmSync(path, { force: true });
    }
  } catch (err) {
    if (!isErrnoCode(err, 'ENOENT')) throw err;
  }
  return false;
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
  while (!tryAcquire(path, staleMs)) {
    if (Date.now() >= deadline) {
      throw new LockError(`Another cortex process holds ${path}.`, {
        hint: 'Wait for it to finish; if no cortex process is running, delete the lock file.',
      });
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
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
  while (!tryAcquire(path, staleMs)) {
    if (Date.now() >= deadline) {
      throw new LockError(`Another cortex process holds ${path}.`, {
        hint: 'Wait for it to finish; if no cortex process is running, delete the lock file.',
      });
    }
    sleepSync(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return fn();
  } finally {
    rmSync(path, { force: true });
  }
}
