/**
 * `.memory/session-order.txt`: each session's memories in the order they were made, for
 * recall's conversation neighbours (core/neighbours.ts). The first line names the format and
 * the index's fingerprint of its memory ids; the rest is core's text (`renderSessionOrder`).
 *
 * A warm recall whose memories have not changed reads this one file and looks up its first
 * results in the text. When memories were added or removed, the order is brought up to date
 * reading only the records of the memories added and of the sessions they join; a missing or
 * unreadable file is rebuilt from every record, once. A session or date edited by hand in a
 * memory's frontmatter is taken up by `cortex index --rebuild` (the file is a derived cache).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintText } from '../core/fingerprint.js';
import { parseSessionOrder, renderSessionOrder, sessionLookup, updateSessionOrder } from '../core/neighbours.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { KeywordIndex } from './index/keyword-index.js';
import { SESSION_ORDER_FILE } from './layout.js';
import { FileMemo, fileSignature } from './file-memo.js';

/** Bump when the layout changes: an older file is rebuilt. */
export const SESSION_ORDER_VERSION = 1;
const MAGIC = 'cortex-session-order';

export function sessionOrderPath(cacheDir: string): string {
  return join(cacheDir, SESSION_ORDER_FILE);
}

/**
 * The neighbour lookup of one tier (see `sessionLookup`), from the cache when it is current,
 * else updated and saved. Failing to save never fails the recall.
 *
 * @example
 * const around = loadSessionOrder(tier.index, tier.paths.cacheDir);
 * around('chose-sqlite-k3f9qa', 2) // the two memories before and after it in its session
 */
export function loadSessionOrder(index: Pick<KeywordIndex, 'docs'>, cacheDir: string): (id: string, width: number) => string[] {
  const fingerprint = fingerprintText(index.docs.fingerprint());
  const header = `${MAGIC} ${SESSION_ORDER_VERSION} ${fingerprint}\n`;
  // A long-lived process keeps the lookup (and the index it builds) while the memories and
  // the file are unchanged.
  const path = sessionOrderPath(cacheDir);
  const signature = fileSignature(path);
  const kept = lookups.get(path, signature, header);
  if (kept) return kept;
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = undefined;
  }
  if (text?.startsWith(header)) return lookups.set(path, signature, header, sessionLookup(text.slice(header.length)));
  // Stale or missing: update what it had (same version), reading only what is new.
  const previous = text?.startsWith(`${MAGIC} ${SESSION_ORDER_VERSION} `) ? parseSessionOrder(text.slice(text.indexOf('\n') + 1)) : undefined;
  const ids: string[] = [];
  for (const facets of index.docs.allFacets()) ids.push(facets.id);
  const next = updateSessionOrder(previous, ids, (id) => {
    const doc = index.docs.get(id);
    return doc ? { id, session: doc.session, created: doc.created } : undefined;
  });
  const body = renderSessionOrder(next.order, next.none);
  try {
    writeFileAtomic(path, header + body);
  } catch {
    // A read-only checkout: rebuilt next time.
  }
  return lookups.set(path, fileSignature(path), header, sessionLookup(body));
}

/** The lookups this process made, by file, for the header (memories) they were made for. */
const lookups = new FileMemo<string, (id: string, width: number) => string[]>((a, b) => a === b);
