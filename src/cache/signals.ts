/**
 * Usage signals in `.memory/signals.json`: how often and when each memory was last
 * accessed (recall results, show/get). Personal and noisy, so never in tracked files
 * (DESIGN §2.2). A missing, corrupt or other-version file reads as "no signals".
 *
 * File shape: `{ "version": 1, "signals": { "<id>": { "accessCount": 3, "lastAccess": "<ISO>" } } }`.
 */
import { join } from 'node:path';
import type { UsageSignal } from '../core/rank.js';
import { readFileIfExists, writeFileAtomic } from '../store/atomic.js';
import { withLockSync, type LockOptions } from '../store/lock.js';
import type { TierPaths } from '../store/paths.js';
import { SIGNALS_FILE, lockPath } from './layout.js';

export const SIGNALS_VERSION = 1;

export interface SignalsFile {
  version: number;
  signals: Record<string, UsageSignal>;
}

export function signalsPath(paths: Pick<TierPaths, 'cacheDir'>): string {
  return join(paths.cacheDir, SIGNALS_FILE);
}

export function signalsLockPath(paths: Pick<TierPaths, 'cacheDir'>): string {
  return lockPath(paths.cacheDir, 'signals');
}

/** Keeps only well-formed entries, in an object without a prototype (ids such as `constructor`). */
function sanitize(raw: unknown): Record<string, UsageSignal> {
  const out = Object.create(null) as Record<string, UsageSignal>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return out;
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const { accessCount, lastAccess } = value as { accessCount?: unknown; lastAccess?: unknown };
    if (typeof accessCount !== 'number' || !Number.isFinite(accessCount) || accessCount < 0) continue;
    const signal: UsageSignal = { accessCount: Math.floor(accessCount) };
    if (typeof lastAccess === 'string' && !Number.isNaN(Date.parse(lastAccess))) signal.lastAccess = lastAccess;
    out[id] = signal;
  }
  return out;
}

/** Reads a tier's signals; never throws (a broken file is rebuilt by the next update). */
export function readSignals(paths: Pick<TierPaths, 'cacheDir'>): Record<string, UsageSignal> {
  try {
    const text = readFileIfExists(signalsPath(paths));
    if (text === undefined) return sanitize(undefined);
    const parsed = JSON.parse(text.toString('utf8')) as Partial<SignalsFile>;
    return parsed?.version === SIGNALS_VERSION ? sanitize(parsed.signals) : sanitize(undefined);
  } catch {
    return sanitize(undefined);
  }
}

/** Serialised with ids sorted, so the file is stable for the same signals. */
export function renderSignals(signals: Record<string, UsageSignal>): string {
  const sorted: Record<string, UsageSignal> = {};
  for (const id of Object.keys(signals).sort()) {
    const s = signals[id] as UsageSignal;
    Object.defineProperty(sorted, id, {
      value: s.lastAccess === undefined ? { accessCount: s.accessCount } : { accessCount: s.accessCount, lastAccess: s.lastAccess },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return `${JSON.stringify({ version: SIGNALS_VERSION, signals: sorted })}\n`;
}

/**
 * Read-modify-write of a tier's signals under its lock, atomically. `change` edits the
 * record in place and returns whether anything changed. Throws `LockError` on timeout.
 */
export function updateSignals(
  paths: Pick<TierPaths, 'cacheDir'>,
  change: (signals: Record<string, UsageSignal>) => boolean,
  options: LockOptions = {},
): void {
  withLockSync(
    signalsLockPath(paths),
    () => {
      const signals = readSignals(paths);
      if (change(signals)) writeFileAtomic(signalsPath(paths), renderSignals(signals));
    },
    options,
  );
}
