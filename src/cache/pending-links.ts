/**
 * Memories written without their auto-links yet, `.memory/pending-links`: one memory id per
 * line. The Stop hook writes what a turn captured and leaves the linking (an index query,
 * a score per candidate, edge files) to the detached session-end worker, so the hook
 * returns within its budget. The list outlives a worker that dies: the next one links
 * what is still listed, and linking twice adds nothing (existing edges are kept, queued
 * pairs are not queued again).
 *
 * The ids are those of memory files the store has just written: names the store derived
 * from summaries the redaction gate had already passed, and checked here to be safe ids,
 * so the list carries no text of its own. Callers hold the tier's write lock, as for any
 * memory file. Node built-ins only.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isErrnoCode } from '../errors.js';
import { isSafeId } from '../core/memory.js';
import { writeFileAtomic } from '../store/atomic.js';
import { PENDING_LINKS_FILE } from './layout.js';

/**
 * Where a tier's list lives.
 *
 * @example
 * pendingLinksPath('/repo/.memory') // '/repo/.memory/pending-links'
 */
export function pendingLinksPath(cacheDir: string): string {
  return join(cacheDir, PENDING_LINKS_FILE);
}

/**
 * The ids waiting for their links, oldest first, each once. A torn or foreign line is
 * skipped (and dropped at the next removal).
 *
 * @example
 * readPendingLinks('/repo/.memory') // ['use-wal-mode-k3f9qa']
 */
export function readPendingLinks(cacheDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(pendingLinksPath(cacheDir), 'utf8');
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR') || isErrnoCode(err, 'EISDIR')) return [];
    throw err;
  }
  return [...new Set(text.split('\n').filter((line) => line !== '' && isSafeId(line)))];
}

/**
 * Adds ids to the list (an id listed already stays once). The caller holds the tier's
 * write lock.
 *
 * @example
 * addPendingLinks('/repo/.memory', ['use-wal-mode-k3f9qa']);
 */
export function addPendingLinks(cacheDir: string, ids: readonly string[]): void {
  const safe = ids.filter(isSafeId);
  if (safe.length === 0) return;
  mkdirSync(cacheDir, { recursive: true });
  // One short append. A crash mid-line leaves a torn line, which the reader skips; the
  // leading newline keeps the next id from being glued to it (empty lines are skipped).
  appendFileSync(pendingLinksPath(cacheDir), `\n${safe.join('\n')}\n`);
}

/**
 * Takes ids off the list, once they are linked (or no longer exist). The caller holds the
 * tier's write lock.
 *
 * @example
 * removePendingLinks('/repo/.memory', ['use-wal-mode-k3f9qa']);
 */
export function removePendingLinks(cacheDir: string, ids: readonly string[]): void {
  const done = new Set(ids);
  const rest = readPendingLinks(cacheDir).filter((id) => !done.has(id));
  if (rest.length === 0) rmSync(pendingLinksPath(cacheDir), { force: true });
  else writeFileAtomic(pendingLinksPath(cacheDir), `${rest.join('\n')}\n`);
}
