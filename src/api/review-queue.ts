/**
 * The local review queue, `.memory/review.jsonl`: things an automatic process was not
 * sure enough about to write into `.cortex/` (low-confidence extraction candidates,
 * suggested links …), waiting for a person. One JSON object per line, generic
 * `{ kind, id, created, … }`; local and personal, never in git.
 */
import { join } from 'node:path';
import { readFileIfExists, writeFileAtomic } from '../store/atomic.js';
import { withLock } from '../store/lock.js';
import type { Context } from './context.js';

/** One queued item. `kind` says who can act on it; `id` is unique within the queue. */
export interface ReviewEntry {
  kind: string;
  id: string;
  /** ISO-8601. */
  created: string;
  [key: string]: unknown;
}

/** Hooks must never wait long for the queue: another writer holds it only for a rewrite. */
export const DEFAULT_REVIEW_QUEUE = { lockTimeoutMs: 2_000 };

/**
 * Where the queue lives: `.memory/review.jsonl`.
 *
 * @example
 * reviewQueuePath(ctx) // '/repo/.memory/review.jsonl'
 */
export function reviewQueuePath(ctx: Pick<Context, 'paths'>): string {
  return join(ctx.paths.cacheDir, 'review.jsonl');
}

function lockPath(ctx: Pick<Context, 'paths'>): string {
  return join(ctx.paths.cacheDir, 'locks', 'review.lock');
}

function isEntry(value: unknown): value is ReviewEntry {
  const e = value as ReviewEntry | null;
  return typeof e === 'object' && e !== null && !Array.isArray(e) && typeof e.kind === 'string' && typeof e.id === 'string' && typeof e.created === 'string';
}

function parseQueue(text: string): ReviewEntry[] {
  const out: ReviewEntry[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A torn or hand-damaged line costs that entry, never the queue.
      continue;
    }
    if (isEntry(value) && !seen.has(value.id)) {
      seen.add(value.id);
      out.push(value);
    }
  }
  return out;
}

function render(entries: readonly ReviewEntry[]): string {
  return entries.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/**
 * The queued entries, oldest first (optionally of one kind).
 *
 * @example
 * listReviewQueue(ctx) // [{ kind: 'memory', id: 'm-3f9a2c1d', created: '2026-11-21T10:00:00Z', candidate: {…} }]
 */
export function listReviewQueue(ctx: Pick<Context, 'paths'>, options: { kind?: string } = {}): ReviewEntry[] {
  const text = readFileIfExists(reviewQueuePath(ctx))?.toString('utf8') ?? '';
  const all = parseQueue(text);
  return options.kind === undefined ? all : all.filter((e) => e.kind === options.kind);
}

/**
 * Rewrites the queue under its lock: `fn` gets the current entries and returns the new list.
 * The file is replaced atomically, so a reader never sees half a queue.
 */
async function updateQueue<T>(ctx: Pick<Context, 'paths'>, fn: (entries: ReviewEntry[]) => { entries: ReviewEntry[]; result: T }): Promise<T> {
  return withLock(
    lockPath(ctx),
    () => {
      const before = listReviewQueue(ctx);
      const { entries, result } = fn(before);
      if (entries !== before) writeFileAtomic(reviewQueuePath(ctx), render(entries));
      return result;
    },
    { timeoutMs: DEFAULT_REVIEW_QUEUE.lockTimeoutMs },
  );
}

/**
 * Appends entries whose id is not queued yet; returns the ones added.
 *
 * @example
 * await appendReviewQueue(ctx, [{ kind: 'memory', id: 'm-3f9a2c1d', created: '2026-11-21T10:00:00Z', candidate }]);
 */
export async function appendReviewQueue(ctx: Pick<Context, 'paths'>, entries: readonly ReviewEntry[]): Promise<ReviewEntry[]> {
  if (entries.length === 0) return [];
  return updateQueue(ctx, (current) => {
    const ids = new Set(current.map((e) => e.id));
    const added: ReviewEntry[] = [];
    for (const e of entries) {
      if (ids.has(e.id)) continue;
      ids.add(e.id);
      added.push(e);
    }
    return { entries: added.length === 0 ? current : [...current, ...added], result: added };
  });
}

/**
 * Removes the entries with these ids; returns the ones removed.
 *
 * @example
 * await removeReviewQueue(ctx, ['m-3f9a2c1d']); // [{ kind: 'memory', id: 'm-3f9a2c1d', … }]
 */
export async function removeReviewQueue(ctx: Pick<Context, 'paths'>, ids: readonly string[]): Promise<ReviewEntry[]> {
  if (ids.length === 0) return [];
  const drop = new Set(ids);
  return updateQueue(ctx, (current) => {
    const removed = current.filter((e) => drop.has(e.id));
    return { entries: removed.length === 0 ? current : current.filter((e) => !drop.has(e.id)), result: removed };
  });
}
