/**
 * The surface cache: the rendered briefing in `.memory/surface-cache/`, and the fast path
 * that serves it. This is what the SessionStart hook runs, so it must cost little more
 * than starting node (DESIGN §10: ≤ 1.6 × `node -e 0`). It therefore imports **node
 * built-ins only** — no index, no markdown toolchain, no YAML, no git library, no
 * embeddings — and does a handful of `stat` calls and one small read. It never throws:
 * anything unexpected is a miss, and the caller builds the briefing the slow way.
 *
 * ## The key
 *
 * A cache entry is used only when its stored key equals the key computed now from:
 * - the format version, the variant (`full` | `compact`) and the requested budget
 *   (`--budget`, else `CORTEX_SURFACE_BUDGET`, else "from the config");
 * - the day (UTC) of `now`: decay and decision tiering move with the date;
 * - the branch, read from `.git/HEAD` as text (worktrees' `gitdir:` files and detached
 *   HEADs handled): the branch boost and provenance labels depend on it; and the commit it
 *   names (its ref file or `packed-refs`): the `[POSSIBLY OUTDATED]` markers depend on it;
 * - a fingerprint of the inputs: `stat` (mtime in ns, size, inode) of
 *   `.cortex/memories/` and `.cortex/edges/` (the directories), `.cortex/config.yaml`,
 *   `.memory/index.v8` (the keyword index's stat cache), `.memory/signals.json` (usage
 *   signals as last folded; not the usage log reads append to), `.memory/review.jsonl` (the briefing counts the review queue), `.memory/code-index.json` (code anchors), the same for the global tier (`$CORTEX_HOME`), and the briefing template
 *   and `package.json` shipped with Cortex (so an upgrade or reinstall invalidates).
 *
 * ## What is detected, and when
 *
 * Detected immediately: every change made by Cortex (it writes atomically — a temp file
 * renamed into place — and deletes files, which changes the directory's mtime); a git
 * checkout, merge, pull, reset or stash that adds, deletes or replaces memory or edge
 * files (git writes new files and renames them into place); new or deleted files however
 * they are made; any change to `config.yaml`; a branch switch; a new day. Not a recall or
 * show: they append to the usage log, which is folded into `signals.json` (and so reaches
 * the briefing) past 1 MB or by the lifecycle.
 *
 * Not detected immediately: an editor that saves an existing memory file *in place*
 * (truncate and write, without a rename) changes neither the directory nor the index.
 * That edit is caught by the next Cortex command that refreshes the index (recall, list,
 * status, index, remember, edit …: the index's stat cache notices the new mtime and
 * re-saves `.memory/index.v8`), by `cortex surface` (which always rebuilds), or the
 * next day. Whether a referenced source file still exists (`[POSSIBLY OUTDATED]`) is
 * checked when the briefing is built, not when it is served from the cache.
 *
 * On file systems with whole-second timestamps (HFS+, FAT) two changes within the same
 * second could share an mtime; an entry is not written while any fingerprinted mtime is
 * that coarse and less than two seconds old (git's "racy" rule).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBudgetEnv, readNowEnv } from '../env.js';
import { readHead } from '../git/head.js';
import { findProjectRoot, globalPaths, localPaths, projectPaths } from '../store/paths.js';
import { CODE_INDEX_FILE, KEYWORD_INDEX_FILE, REVIEW_QUEUE_FILE, SIGNALS_FILE, SURFACE_CACHE_DIR } from './layout.js';

/** Bump when the entry format or the key changes. */
export const SURFACE_CACHE_VERSION = 1;

export type SurfaceVariant = 'full' | 'compact';

export interface SurfaceCacheOptions {
  /** A directory inside the project (the project root is found from it). */
  root: string;
  /** Explicit token budget (`--budget`); `CORTEX_SURFACE_BUDGET` otherwise. */
  budget?: number | undefined;
  variant?: SurfaceVariant;
  /** Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Default: `CORTEX_NOW`, else the clock. */
  now?: Date;
  /** Whether the briefing includes the global tier (default true, as the API does). */
  includeGlobal?: boolean;
}

export const DEFAULT_SURFACE_CACHE: Required<Pick<SurfaceCacheOptions, 'variant' | 'includeGlobal'>> = {
  variant: 'full',
  includeGlobal: true,
};

export interface SurfaceCacheKey {
  /** The project root. */
  root: string;
  /** The entry's file. */
  file: string;
  /** The key string stored in, and compared with, the entry. */
  key: string;
  /** True when a fingerprinted file's whole-second mtime is too recent to trust. */
  racy: boolean;
}

export interface SurfaceCacheEntry {
  version: number;
  key: string;
  text: string;
  tokens: number;
  chars: number;
  /**
   * Ids of the memories the text shows: anticipatory recall (UserPromptSubmit) does not
   * repeat what the briefing already put into the session.
   */
  ids?: string[] | undefined;
  /** When the entry was written (wall clock, for people reading the file). */
  builtAt: string;
}

/** stat signature: mtime (ns), size, inode; `-` when absent. */
function signature(path: string, coarse: { recent: boolean }): string {
  let st;
  try {
    st = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return '?';
  }
  if (!st) return '-';
  if (st.mtimeNs % 1_000_000_000n === 0n && Date.now() - Number(st.mtimeMs) < 2_000) coarse.recent = true;
  return `${st.mtimeNs}.${st.size}.${st.ino}`;
}

/**
 * Shipped files whose change invalidates every entry: the briefing template and
 * package.json (a new version, a reinstall). Paths are the same from `src/` and `dist/`.
 */
const PACKAGE_FILES = ['../../templates/surface.md', '../../package.json'];

/**
 * The cache key for a briefing request, or `undefined` when there is no project or the
 * environment is invalid (the slow path reports that).
 *
 * @example
 * surfaceCacheKey({ root: '/repo' })?.file // '/repo/.memory/surface-cache/full-config.json'
 */
export function surfaceCacheKey(options: SurfaceCacheOptions): SurfaceCacheKey | undefined {
  const { root: start, variant, includeGlobal } = { ...DEFAULT_SURFACE_CACHE, ...options };
  const env = options.env ?? process.env;
  const root = findProjectRoot(start, env);
  if (!root) return undefined;
  let budget = options.budget;
  if (budget === undefined) {
    const fromEnv = readBudgetEnv(env);
    if (fromEnv.error) return undefined;
    budget = fromEnv.budget;
  }
  if (budget !== undefined && !Number.isFinite(budget)) return undefined;
  let now = options.now;
  if (now === undefined) {
    const fromEnv = readNowEnv(env);
    if (fromEnv.error) return undefined;
    now = fromEnv.now ?? new Date();
  }
  if (Number.isNaN(now.getTime())) return undefined;

  // HEAD and the commit it names (one small read): `[POSSIBLY OUTDATED]` markers compare the
  // memories' files with this commit, so a new commit on the same branch is another briefing.
  const head = readHead(root);
  const coarse = { recent: false };
  const project = projectPaths(root);
  const local = localPaths(root);
  const parts = [
    `v${SURFACE_CACHE_VERSION}`,
    variant,
    budget === undefined ? 'config' : String(budget),
    now.toISOString().slice(0, 10),
    head.branch !== undefined ? `branch:${head.branch}@${head.commit ?? 'unborn'}` : head.commit !== undefined ? `detached:${head.commit}` : 'no-git',
    // The code anchors' states (`cortex index-code`) decide markers too.
    `code-index=${signature(join(project.cacheDir, CODE_INDEX_FILE), coarse)}`,
    `memories=${signature(project.memoriesDir, coarse)}`,
    `edges=${signature(project.edgesDir, coarse)}`,
    // The private tier (.git/cortex/local/) is briefed too.
    `local.memories=${signature(local.memoriesDir, coarse)}`,
    `local.edges=${signature(local.edgesDir, coarse)}`,
    `local.signals=${signature(join(local.cacheDir, SIGNALS_FILE), coarse)}`,
    `config=${signature(project.configFile, coarse)}`,
    `index=${signature(join(project.cacheDir, KEYWORD_INDEX_FILE), coarse)}`,
    `signals=${signature(join(project.cacheDir, SIGNALS_FILE), coarse)}`,
    // The briefing says how many captured candidates wait for review.
    `review=${signature(join(project.cacheDir, REVIEW_QUEUE_FILE), coarse)}`,
  ];
  if (includeGlobal) {
    const global = globalPaths(env);
    parts.push(
      `global=${global.cortexDir}`,
      `global.memories=${signature(global.memoriesDir, coarse)}`,
      `global.edges=${signature(global.edgesDir, coarse)}`,
      `global.index=${signature(join(global.cacheDir, KEYWORD_INDEX_FILE), coarse)}`,
      `global.signals=${signature(join(global.cacheDir, SIGNALS_FILE), coarse)}`,
    );
  } else parts.push('global=off');
  for (const file of PACKAGE_FILES) {
    let path: string;
    try {
      path = fileURLToPath(new URL(file, import.meta.url));
    } catch {
      continue;
    }
    // Code stamps say nothing about the repository: they must not make an entry racy.
    parts.push(`code=${signature(path, { recent: false })}`);
  }
  const file = join(project.cacheDir, SURFACE_CACHE_DIR, `${variant}-${budget === undefined ? 'config' : budget}.json`);
  return { root, file, key: JSON.stringify(parts), racy: coarse.recent };
}

/**
 * The cached briefing for this request when it is fresh (see the module comment), else
 * `undefined`. Node built-ins only; never throws. What the SessionStart hook calls.
 *
 * @example
 * const text = readCachedSurface({ root: process.cwd(), variant: 'full' });
 * if (text === undefined) {
 *   // build it: (await import('../api/surface.js')).surface(ctx, { … })
 * }
 */
export function readCachedSurface(options: SurfaceCacheOptions): string | undefined {
  return readCachedSurfaceEntry(options)?.text;
}

/**
 * Like `readCachedSurface`, with the ids of the memories the briefing shows (`undefined`
 * for an entry written without them). Node built-ins only; never throws.
 *
 * @example
 * readCachedSurfaceEntry({ root: process.cwd(), variant: 'compact' }) // { text: '<!-- CORTEX_MEMORY_START -->…', ids: ['chose-sqlite-k3f9qa', …] }
 */
export function readCachedSurfaceEntry(options: SurfaceCacheOptions): { text: string; ids: string[] | undefined } | undefined {
  try {
    const key = surfaceCacheKey(options);
    if (!key) return undefined;
    const entry = JSON.parse(readFileSync(key.file, 'utf8')) as Partial<SurfaceCacheEntry>;
    if (entry?.version !== SURFACE_CACHE_VERSION || entry.key !== key.key || typeof entry.text !== 'string') return undefined;
    const ids = Array.isArray(entry.ids) ? entry.ids.filter((id): id is string => typeof id === 'string') : undefined;
    return { text: entry.text, ids };
  } catch {
    return undefined;
  }
}

/**
 * Stores a briefing under a key computed *before* it was built (so a change made while
 * building makes the entry stale rather than wrong). Atomic; never throws. Returns
 * false when nothing was written (racy key, read-only disk …).
 */
export function writeSurfaceCache(
  key: SurfaceCacheKey,
  rendered: { text: string; tokens: number; chars: number; items?: readonly { id: string }[] | undefined },
): boolean {
  if (key.racy) return false;
  const entry: SurfaceCacheEntry = {
    version: SURFACE_CACHE_VERSION,
    key: key.key,
    text: rendered.text,
    tokens: rendered.tokens,
    chars: rendered.chars,
    ids: rendered.items?.map((i) => i.id),
    builtAt: new Date().toISOString(),
  };
  const tmp = join(dirname(key.file), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    mkdirSync(dirname(key.file), { recursive: true });
    writeFileSync(tmp, `${JSON.stringify(entry)}\n`);
    renameSync(tmp, key.file);
    return true;
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do: the cache is an optimisation.
    }
    return false;
  }
}
