/**
 * Usage signals in `.memory/`: how often and when each memory was last accessed (recall
 * results, show/get). Personal and noisy, so never in tracked files (DESIGN §2.2).
 *
 * Two files:
 * - `signals.log`, the usage log: one line appended per access (`<ISO time>\t<id> <id> …`),
 *   with a single `O_APPEND` write and no lock, so a read such as a recall costs one small
 *   append and rewrites nothing (it used to read, change and rewrite the whole record, and
 *   every recall invalidated the cached briefing, whose key stats `signals.json`).
 * - `signals.json`, the snapshot the log is folded into ("compacted") once the log passes
 *   {@link USAGE_LOG_COMPACT_BYTES}, and by every {@link updateSignals} (the lifecycle's
 *   pruning): `{ "version": 1, "signals": { "<id>": { "accessCount": 3, "lastAccess": "<ISO>" } } }`.
 *
 * The signals are the snapshot plus the log. A missing, corrupt or other-version snapshot
 * reads as "no signals"; a log line that does not parse (a torn write) is skipped.
 */
import { appendFileSync, closeSync, fstatSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageSignal } from '../core/rank.js';
import { readFileIfExists, writeFileAtomic } from '../store/atomic.js';
import { withLockSync, type LockOptions } from '../store/lock.js';
import type { TierPaths } from '../store/paths.js';
import { SIGNALS_FILE, USAGE_LOG_FILE, lockPath } from './layout.js';

export const SIGNALS_VERSION = 1;

/**
 * The usage log is folded into `signals.json` when an append leaves it this long (about
 * 5,000 recalls of ten results). Reading a log this size costs a few milliseconds, paid only
 * by what reads the signals (a briefing built anew, the lifecycle), never by a recall.
 */
export const USAGE_LOG_COMPACT_BYTES = 1 << 20;

export interface SignalsFile {
  version: number;
  signals: Record<string, UsageSignal>;
}

export function signalsPath(paths: Pick<TierPaths, 'cacheDir'>): string {
  return join(paths.cacheDir, SIGNALS_FILE);
}

export function usageLogPath(paths: Pick<TierPaths, 'cacheDir'>): string {
  return join(paths.cacheDir, USAGE_LOG_FILE);
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

function readSnapshot(paths: Pick<TierPaths, 'cacheDir'>): Record<string, UsageSignal> {
  try {
    const text = readFileIfExists(signalsPath(paths));
    if (text === undefined) return sanitize(undefined);
    const parsed = JSON.parse(text.toString('utf8')) as Partial<SignalsFile>;
    return parsed?.version === SIGNALS_VERSION ? sanitize(parsed.signals) : sanitize(undefined);
  } catch {
    return sanitize(undefined);
  }
}

/** One line of the usage log: the time, a tab, the ids separated by spaces. */
export function renderUsageLine(at: string, ids: readonly string[]): string {
  return `${at}\t${ids.join(' ')}\n`;
}

const ID = /^[^\s]+$/;

/**
 * Adds the accesses of a usage log's text to `signals` (in place): one access per line that
 * names an id (an id named twice on a line counts once). Lines that do not parse are skipped.
 *
 * @example
 * foldUsageLog(Object.create(null), '2026-12-01T10:00:00Z\tchose-sqlite-k3f9qa\n')
 * // { 'chose-sqlite-k3f9qa': { accessCount: 1, lastAccess: '2026-12-01T10:00:00Z' } }
 */
export function foldUsageLog(signals: Record<string, UsageSignal>, text: string): Record<string, UsageSignal> {
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const at = line.slice(0, tab);
    if (Number.isNaN(Date.parse(at))) continue;
    for (const id of new Set(line.slice(tab + 1).split(' '))) {
      if (!ID.test(id)) continue;
      const previous = signals[id];
      const lastAccess = previous?.lastAccess !== undefined && previous.lastAccess > at ? previous.lastAccess : at;
      signals[id] = { accessCount: (previous?.accessCount ?? 0) + 1, lastAccess };
    }
  }
  return signals;
}

function readUsageLog(paths: Pick<TierPaths, 'cacheDir'>): string {
  try {
    return readFileIfExists(usageLogPath(paths))?.toString('utf8') ?? '';
  } catch {
    return '';
  }
}

/** Reads a tier's signals (the snapshot plus the usage log); never throws. */
export function readSignals(paths: Pick<TierPaths, 'cacheDir'>): Record<string, UsageSignal> {
  return foldUsageLog(readSnapshot(paths), readUsageLog(paths));
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
 * Appends one access of each of `ids` at `at` to the tier's usage log: one `O_APPEND` write,
 * no lock, nothing else written. Folds the log into the snapshot once it passes
 * {@link USAGE_LOG_COMPACT_BYTES} (under the lock; skipped when the lock is busy). Throws
 * on a write error (the caller decides; recording is best effort).
 */
export function appendUsage(paths: Pick<TierPaths, 'cacheDir'>, ids: readonly string[], at: string, options: LockOptions & { compactBytes?: number } = {}): void {
  const usable = ids.filter((id) => ID.test(id));
  if (usable.length === 0) return;
  const log = usageLogPath(paths);
  const fd = openSync(log, 'a');
  let size: number;
  try {
    appendFileSync(fd, renderUsageLine(at, usable));
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  if (size >= (options.compactBytes ?? USAGE_LOG_COMPACT_BYTES)) {
    try {
      updateSignals(paths, () => true, options);
    } catch {
      // Busy: the next append past the limit tries again.
    }
  }
}

/**
 * Read-modify-write of a tier's signals under its lock: the usage log is folded in, `change`
 * edits the record in place and returns whether anything changed, and the snapshot is
 * written atomically (always when a log was folded, which is then removed). Throws
 * `LockError` on timeout.
 */
export function updateSignals(
  paths: Pick<TierPaths, 'cacheDir'>,
  change: (signals: Record<string, UsageSignal>) => boolean,
  options: LockOptions = {},
): void {
  withLockSync(
    signalsLockPath(paths),
    () => {
      // The log is moved aside first: an append that lands meanwhile starts a new log, and an
      // append into the moved file after it was read is lost (one access; recording is best effort).
      const log = usageLogPath(paths);
      const folding = `${log}.folding`;
      let folded = '';
      try {
        renameSync(log, folding);
        folded = readFileIfExists(folding)?.toString('utf8') ?? '';
      } catch {
        folded = '';
      }
      const signals = foldUsageLog(readSnapshot(paths), folded);
      if (change(signals) || folded !== '') writeFileAtomic(signalsPath(paths), renderSignals(signals));
      rmSync(folding, { force: true });
    },
    options,
  );
}

