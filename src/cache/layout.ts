/**
 * The layout of a tier's `.memory/` (the project's, or `$CORTEX_HOME/.memory/`): every file,
 * directory and lock Cortex keeps there, named once. Everything in it is a cache or personal
 * state; deleting it loses nothing that is tracked.
 *
 * ```
 * .memory/
 *   index.v8                     keyword index: stat cache, facets, records, journal (index/keyword-index.ts)
 *   index-search-<hex>.v8        its search tree (postings read term by term)
 *   index-docs-<hex>.v8          its memories' columns (ids, types, statuses …); changes since in index.v8
 *   index-records-<hex>.bin      its records, read record by record
 *   index-files-<hex>.v8         its stat cache (file → size, mtime, hash), read by sweeps and writes
 *   vectors.bin                  embedding vectors (vectors.ts)
 *   signals.json                 usage signals, as last compacted (signals.ts)
 *   signals.log                  usage log: accesses appended since (signals.ts)
 *   edges.json                   edge-file cache (edge-cache.ts)
 *   graph.v8                     graph and centrality (graph-cache.ts)
 *   projections.json             rendered projection entries (projection-cache.ts)
 *   anticipation.json            the prompt hook's small index (anticipation-cache.ts)
 *   staleness.json               reality checks from git (staleness.ts)
 *   code-index.json              symbol table and code-anchor states (code-index.ts, `cortex index-code`)
 *   file-anchors.json            the files memories are anchored to, for the file hook (file-anchors.ts)
 *   file-anchors-items.json      file → those memories (read only for a file in the list above)
 *   surface-cache/<variant>-<budget>.json   cached briefings (surface-cache.ts)
 *   review.jsonl                 the review queue (review-queue.ts)
 *   pending-links                memories captured by Stop, not auto-linked yet (pending-links.ts)
 *   transcripts/<session>.json   transcript checkpoints (checkpoint.ts)
 *   sessions/<session>.json      memory ids already in a session's context (session-state.ts)
 *   sessions/<session>.reflect.json   when capture.mode reflect last asked (reflection.ts)
 *   branches/<tree id>/          keyword indexes of other branches (recall --branch)
 *   trash/<time>-<command>/      copies kept for undo (trash.ts)
 *   hooks/session-end-*.json     hand-off files of the detached session-end worker
 *   locks/<name>.lock            cross-process locks (LOCKS)
 *   cortex.log                   hook and background errors (cortex.log.1: the previous one)
 * ```
 *
 * Node built-ins only: the cached SessionStart path computes its key from these names.
 */
import { join } from 'node:path';

export const KEYWORD_INDEX_FILE = 'index.v8';
/** The search trees the keyword index writes: `index-search-<12 hex digits>.v8`. */
export const SEARCH_TREE_FILE = /^index-search-[0-9a-f]+\.v8$/;

/** The records files the keyword index writes: `index-records-<12 hex digits>.bin`. */
export const RECORDS_FILE = /^index-records-[0-9a-f]+\.bin$/;

/** The file tables the keyword index writes: `index-files-<12 hex digits>.v8`. */
export const FILES_FILE = /^index-files-[0-9a-f]+\.v8$/;

/** The name of a file table's file, from its random hex part. */
export function filesFileName(hex: string): string {
  return `index-files-${hex}.v8`;
}

/** The doc tables the keyword index writes: `index-docs-<12 hex digits>.v8`. */
export const DOCS_FILE = /^index-docs-[0-9a-f]+\.v8$/;

/** The name of a doc table's file, from its random hex part. */
export function docsFileName(hex: string): string {
  return `index-docs-${hex}.v8`;
}

/** The name of a records file, from its random hex part. */
export function recordsFileName(hex: string): string {
  return `index-records-${hex}.bin`;
}

/** The name of a search tree file, from its random hex part. */
export function searchTreeName(hex: string): string {
  return `index-search-${hex}.v8`;
}
export const VECTORS_FILE = 'vectors.bin';
export const SIGNALS_FILE = 'signals.json';
/** The usage log: accesses appended since `signals.json` was last written (signals.ts). */
export const USAGE_LOG_FILE = 'signals.log';
export const EDGE_CACHE_FILE = 'edges.json';
export const GRAPH_CACHE_FILE = 'graph.v8';
/** The session order of index format ≤ 11 (now a column of the doc table): deleted with the derived caches. */
export const SESSION_ORDER_FILE = 'session-order.txt';
export const PROJECTION_CACHE_FILE = 'projections.json';
export const ANTICIPATION_FILE = 'anticipation.json';
export const STALENESS_FILE = 'staleness.json';
export const CODE_INDEX_FILE = 'code-index.json';
export const FILE_ANCHORS_FILE = 'file-anchors.json';
export const FILE_ANCHORS_ITEMS_FILE = 'file-anchors-items.json';
export const SURFACE_CACHE_DIR = 'surface-cache';
export const REVIEW_QUEUE_FILE = 'review.jsonl';
export const PENDING_LINKS_FILE = 'pending-links';
export const TRANSCRIPTS_DIR = 'transcripts';
export const SESSIONS_DIR = 'sessions';
export const BRANCHES_DIR = 'branches';
export const TRASH_DIR = 'trash';
export const HOOK_PAYLOADS_DIR = 'hooks';
export const LOG_FILE = 'cortex.log';
export const LOCKS_DIR = 'locks';
/** Where the hooks remember deliveries they handled (hooks/dedupe.ts). */
export const DELIVERIES_DIR = 'deliveries';
/**
 * Every directory Cortex keeps inside `.memory/`: each is refused when it is a link or not
 * a directory (a branch can commit one under the ignored folder), like `.memory` itself.
 *
 * @example
 * CACHE_SUBDIRS.includes('sessions') // true
 */
export const CACHE_SUBDIRS: readonly string[] = [SURFACE_CACHE_DIR, TRANSCRIPTS_DIR, SESSIONS_DIR, BRANCHES_DIR, TRASH_DIR, HOOK_PAYLOADS_DIR, LOCKS_DIR, DELIVERIES_DIR];

/**
 * The cross-process locks of a tier, by what they guard:
 * - `write`: the tier's memory and edge files and the keyword index written with them
 *   (remember, edit, forget, link, lifecycle, consolidate, project);
 * - `signals`: `signals.json`; `review`: `review.jsonl`;
 * - `extract`: one transcript capture at a time (the Stop, PreCompact and SessionEnd hooks).
 */
export const LOCKS = { write: 'write.lock', signals: 'signals.lock', review: 'review.lock', extract: 'extract.lock' } as const;
export type LockName = keyof typeof LOCKS;

/**
 * The path of a lock in a tier's `.memory/`.
 *
 * @example
 * lockPath('/repo/.memory', 'write') // '/repo/.memory/locks/write.lock'
 */
export function lockPath(cacheDir: string, lock: LockName): string {
  return join(cacheDir, LOCKS_DIR, LOCKS[lock]);
}

/**
 * The caches derived from the files and rebuilt on demand: what `cortex index --rebuild`
 * deletes so every one of them is rebuilt from scratch (with the search trees, matched by
 * `SEARCH_TREE_FILE`). Not in the list: personal state (usage signals, the review queue,
 * transcript checkpoints, sessions, the memories waiting for their links), locks and the log, and the embedding vectors, which
 * cost a model run to rebuild (`cortex index --embed --rebuild` recomputes those).
 */
export const DERIVED_CACHES = [
  KEYWORD_INDEX_FILE,
  STALENESS_FILE,
  GRAPH_CACHE_FILE,
  SESSION_ORDER_FILE,
  EDGE_CACHE_FILE,
  PROJECTION_CACHE_FILE,
  ANTICIPATION_FILE,
  FILE_ANCHORS_FILE,
  FILE_ANCHORS_ITEMS_FILE,
  SURFACE_CACHE_DIR,
] as const;

/**
 * Whether a `.memory/` entry is a derived cache (see `DERIVED_CACHES`).
 *
 * @example
 * isDerivedCache('index-search-3f2a9c1d04e7.v8') // true
 * isDerivedCache('signals.json') // false
 */
export function isDerivedCache(name: string): boolean {
  return (DERIVED_CACHES as readonly string[]).includes(name) || SEARCH_TREE_FILE.test(name) || RECORDS_FILE.test(name) || FILES_FILE.test(name) || DOCS_FILE.test(name);
}
