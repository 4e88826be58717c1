/**
 * The local review queue, `.memory/review.jsonl`: things a person should look at before
 * they reach git (DESIGN §2.2) — likely duplicates from auto-linking (`consolidate`),
 * low-confidence extraction candidates (`candidate`), pairs a person rejected
 * (`rejected`) … One JSON object per line. Personal and rebuildable: never tracked.
 * Writes take a lock and replace the file atomically; a torn or foreign line is skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CortexError, isErrnoCode } from '../errors.js';
import { redactDeep, stringsOf } from '../core/redact.js';
import { redactionGateStamp } from './gate-stamp.js';
import { writeFileAtomic } from '../store/atomic.js';
import { withLock } from '../store/lock.js';
import type { TierPaths } from '../store/paths.js';
import { REVIEW_QUEUE_FILE, lockPath } from './layout.js';

/** Known kinds; the queue accepts any string so new producers need no change here. */
export type ReviewKind = 'consolidate' | 'candidate' | 'rejected' | (string & {});

/** One queued item. `id` is unique in the queue: appending an id already queued is a no-op. */
export interface ReviewEntry {
  kind: ReviewKind;
  id: string;
  /** ISO-8601 UTC. */
  created: string;
  /** Stable number, given when queued (entries written before numbers get theirs when first read). */
  n?: number;
  [field: string]: unknown;
}

/**
 * Where a tier's queue lives.
 *
 * @example
 * reviewQueuePath(ctx.paths) // '/repo/.memory/review.jsonl'
 */
export function reviewQueuePath(paths: Pick<TierPaths, 'cacheDir'>): string {
  return join(paths.cacheDir, REVIEW_QUEUE_FILE);
}

function reviewLock(paths: Pick<TierPaths, 'cacheDir'>): string {
  return lockPath(paths.cacheDir, 'review');
}

function isEntry(value: unknown): value is ReviewEntry {
  const v = value as ReviewEntry;
  return typeof v === 'object' && v !== null && typeof v.kind === 'string' && typeof v.id === 'string' && typeof v.created === 'string';
}

interface Queue {
  entries: (ReviewEntry & { n: number })[];
  /** The number the next queued entry gets. */
  next: number;
  /** The strings of a file this same redaction gate wrote: no second scan (see `writeAll`). */
  clean?: () => ReadonlySet<string>;
  /**
   * The file's entry lines as they are, when they are exactly what `writeAll` would write of
   * `entries` (this gate wrote the file, every line an entry with its own number, none torn):
   * an append keeps them as they are rather than checking and serialising every entry again.
   */
  lines?: string[];
}

function isNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}

function readAll(paths: Pick<TierPaths, 'cacheDir'>): Queue {
  let text: string;
  try {
    text = readFileSync(reviewQueuePath(paths), 'utf8');
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return { entries: [], next: 1 };
    if (isErrnoCode(err, 'EISDIR')) {
      throw new CortexError('NOT_A_FILE', `${reviewQueuePath(paths)} is a directory, not the review queue.`, {
        hint: `Remove it (\`rm -r ${reviewQueuePath(paths)}\`): the queue is local state and starts empty again.`,
        cause: err,
      });
    }
    throw err;
  }
  const entries: ReviewEntry[] = [];
  const seen = new Set<string>();
  let next = 1;
  let gate: unknown;
  const lines: string[] = [];
  // As `writeAll` writes: a header first, then one entry per line.
  let verbatim = true;
  let headers = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (isEntry(value) && !seen.has(value.id)) {
        seen.add(value.id);
        entries.push(value);
        lines.push(line);
        if (headers !== 1) verbatim = false;
      } else if (typeof value === 'object' && value !== null && isNumber((value as { nextNumber?: unknown }).nextNumber)) {
        next = Math.max(next, (value as { nextNumber: number }).nextNumber);
        gate ??= (value as { gate?: unknown }).gate;
        if (++headers > 1 || entries.length > 0) verbatim = false;
      } else {
        verbatim = false;
      }
    } catch {
      // A torn line from a crash: skipped, and dropped at the next write.
      verbatim = false;
    }
  }
  const used = new Set<number>();
  for (const e of entries) if (isNumber(e.n) && !used.has(e.n)) used.add(e.n);
  for (const n of used) next = Math.max(next, n + 1);
  // Entries queued before numbers existed (or with a clashing one) get the next free ones, in order.
  const taken = new Set<number>();
  const numbered = entries.map((e) => {
    if (isNumber(e.n) && !taken.has(e.n)) {
      taken.add(e.n);
      return e as ReviewEntry & { n: number };
    }
    verbatim = false;
    const n = next++;
    taken.add(n);
    return { ...e, n };
  });
  // Entries read from a file the same gate wrote passed it already; a file an older or
  // another Cortex wrote (no stamp, or another one) is scanned whole at the next write.
  if (gate !== redactionGateStamp()) return { entries: numbered, next };
  return { entries: numbered, next, clean: () => stringsOf(entries), ...(verbatim ? { lines } : {}) };
}

/** Every string of every entry passes the redaction gate: candidates quote the session. */
function writeAll(paths: Pick<TierPaths, 'cacheDir'>, queue: Queue, added: ReviewEntry[] = []): void {
  const header = { nextNumber: queue.next, gate: redactionGateStamp() };
  // The file's own lines as they are, and the entries added, through the gate.
  const kept = queue.lines?.map((line) => `${line}\n`) ?? redactDeep(queue.entries, {}, queue.clean?.()).value.map((e) => `${JSON.stringify(e)}\n`);
  const more = redactDeep(added).value.map((e) => `${JSON.stringify(e)}\n`);
  writeFileAtomic(reviewQueuePath(paths), [`${JSON.stringify(header)}\n`, ...kept, ...more].join(''));
}

/**
 * The queued entries, oldest first, optionally of one kind.
 *
 * @example
 * listReview(ctx.paths, { kind: 'consolidate' }).map((e) => e.id)
 */
export function listReview(paths: Pick<TierPaths, 'cacheDir'>, options: { kind?: ReviewKind } = {}): (ReviewEntry & { n: number })[] {
  const all = readAll(paths).entries;
  return options.kind === undefined ? all : all.filter((e) => e.kind === options.kind);
}

/**
 * The queued entries, as `listReview` reads them, passed through the redaction gate this
 * process runs unless the file says that same gate wrote it: what a hook or `recall` may show
 * of the queue, even before the queue's next write scans it again (a rule added by an upgrade
 * applies at once).
 *
 * @example
 * listReviewRedacted(ctx.paths, { kind: 'candidate' })[0]?.candidate.body // '… [REDACTED:github-token] …'
 */
export function listReviewRedacted(paths: Pick<TierPaths, 'cacheDir'>, options: { kind?: ReviewKind } = {}): (ReviewEntry & { n: number })[] {
  const queue = readAll(paths);
  const all = options.kind === undefined ? queue.entries : queue.entries.filter((e) => e.kind === options.kind);
  return redactDeep(all, {}, queue.clean?.()).value;
}

/**
 * The ids of the queued entries of `kind`, reading only the lines that name it (auto-linking
 * asks for the rejected pairs on every `remember`: the whole queue parsed took 13 ms at 1,300
 * entries). The same ids as {@link listReview}'s.
 *
 * @example
 * queuedIds(tier.paths, 'rejected').has(pairId('rejected', a, b))
 */
export function queuedIds(paths: Pick<TierPaths, 'cacheDir'>, kind: ReviewKind): Set<string> {
  let text: string;
  try {
    text = readFileSync(reviewQueuePath(paths), 'utf8');
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR') || isErrnoCode(err, 'EISDIR')) return new Set();
    throw err;
  }
  const names = new RegExp(`"kind"\\s*:\\s*${JSON.stringify(kind).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const ids = new Set<string>();
  let at = 0;
  for (const line of text.split('\n')) {
    const start = at;
    at += line.length + 1;
    if (!names.test(line)) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (!isEntry(value) || value.kind !== kind) continue;
      // An id that appears earlier in the file may be an earlier entry's, which listReview
      // keeps instead (first one wins): asked of the whole queue then (never so in a file
      // this module wrote).
      if (text.lastIndexOf(JSON.stringify(value.id), start) !== -1) return new Set(listReview(paths, { kind }).map((e) => e.id));
      ids.add(value.id);
    } catch {
      // A torn line: not an entry (as listReview reads it).
    }
  }
  return ids;
}

/**
 * Appends entries whose ids are not queued yet; returns how many were added.
 *
 * @example
 * await appendReview(ctx.paths, [{ kind: 'candidate', id: 'candidate:3f2a', created: '2026-11-21T10:00:00Z', text: '…' }]);
 */
export async function appendReview(paths: Pick<TierPaths, 'cacheDir'>, entries: ReviewEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  return withLock(reviewLock(paths), () => {
    const queue = readAll(paths);
    const ids = new Set(queue.entries.map((e) => e.id));
    const added: ReviewEntry[] = [];
    for (const entry of entries) {
      if (!isEntry(entry) || ids.has(entry.id)) continue;
      ids.add(entry.id);
      added.push({ ...entry, n: queue.next++ });
    }
    if (added.length > 0) writeAll(paths, queue, added);
    return added.length;
  });
}

/**
 * Removes the entries with these ids (or matching the predicate); returns how many.
 *
 * @example
 * await removeReview(ctx.paths, ['consolidate:a-k3f9qa:b-p2x81d']);
 */
export async function removeReview(paths: Pick<TierPaths, 'cacheDir'>, which: string[] | ((entry: ReviewEntry) => boolean)): Promise<number> {
  const drop = Array.isArray(which) ? ((ids: Set<string>) => (e: ReviewEntry) => ids.has(e.id))(new Set(which)) : which;
  return withLock(reviewLock(paths), () => {
    const queue = readAll(paths);
    const kept = queue.entries.filter((e) => !drop(e));
    if (kept.length !== queue.entries.length) writeAll(paths, { entries: kept, next: queue.next, ...(queue.clean ? { clean: queue.clean } : {}) });
    return queue.entries.length - kept.length;
  });
}

/**
 * The queue id of a pair of memories, the same whichever comes first.
 *
 * @example
 * pairId('consolidate', 'b', 'a') // 'consolidate:a:b'
 */
export function pairId(kind: string, a: string, b: string): string {
  return a < b ? `${kind}:${a}:${b}` : `${kind}:${b}:${a}`;
}
