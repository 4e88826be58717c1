/**
 * Where things live: the repository root, `.cortex/` (tracked) and `.memory/` (local cache).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { checkIdSafety } from '../core/memory.js';

/** Paths of one memory tier: the project's `.cortex/` or the global `$CORTEX_HOME`. */
export interface TierPaths {
  /** `.cortex/` (project) or `$CORTEX_HOME` (global). */
  cortexDir: string;
  memoriesDir: string;
  edgesDir: string;
  configFile: string;
  /** Gitignored local state: the index, usage signals, locks, log. */
  cacheDir: string;
}

export interface ProjectPaths extends TierPaths {
  /** The directory that holds `.cortex/` (normally the repository root). */
  root: string;
}

export const CORTEX_DIR = '.cortex';
export const CACHE_DIR = '.memory';

export function tierPaths(cortexDir: string, cacheDir: string): TierPaths {
  return {
    cortexDir,
    memoriesDir: join(cortexDir, 'memories'),
    edgesDir: join(cortexDir, 'edges'),
    configFile: join(cortexDir, 'config.yaml'),
    cacheDir,
  };
}

export function projectPaths(root: string): ProjectPaths {
  const abs = resolve(root);
  return { root: abs, ...tierPaths(join(abs, CORTEX_DIR), join(abs, CACHE_DIR)) };
}

/** The private tier's directory inside `.cortex/`: gitignored by a `.gitignore` of its own. */
export const LOCAL_DIR = 'local';

/**
 * The project's private tier: `.cortex/local/` (memories/, edges/) with its cache in
 * `.memory/local/`. Same format as the project tier; never committed.
 */
export function localPaths(root: string): ProjectPaths & { local: true } {
  const abs = resolve(root);
  return { root: abs, local: true, ...tierPaths(join(abs, CORTEX_DIR, LOCAL_DIR), join(abs, CACHE_DIR, LOCAL_DIR)) };
}

/** True for the paths of a private tier (see {@link localPaths}). */
export function isLocalTier(paths: TierPaths): boolean {
  return (paths as TierPaths & { local?: boolean }).local === true;
}

/** The global tier: `$CORTEX_HOME`, default `~/.cortex`, with its cache inside it. */
export function globalPaths(env: NodeJS.ProcessEnv = process.env): TierPaths {
  const home = resolve(env.CORTEX_HOME || join(homedir(), '.cortex'));
  return tierPaths(home, join(home, CACHE_DIR));
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Finds the nearest directory at or above `start` that holds `.cortex/`.
 * Stops at the first git work tree root, so a stray `~/.cortex` (the global tier)
 * is never mistaken for a project.
 */
export function findProjectRoot(start: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const globalDir = globalPaths(env).cortexDir;
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, CORTEX_DIR);
    if (candidate !== globalDir && isDir(candidate)) return dir;
    if (existsSync(join(dir, '.git'))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The nearest git work tree root at or above `start`, if any. */
export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Checks an id from the user before it becomes a path. Throws a usage error (exit 2)
 * for anything that could leave `.cortex/`.
 */
export function assertSafeId(id: string, what = 'memory id'): string {
  const why = checkIdSafety(id);
  if (why !== undefined) {
    const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
    throw new UsageError(`Invalid ${what} ${shown}: it ${why}.`, {
      hint: 'Ids are lower-case words joined by dashes, e.g. chose-sqlite-over-postgres-k3f9qa; see `cortex list`.',
    });
  }
  return id;
}

export function memoryPath(paths: TierPaths, id: string): string {
  return join(paths.memoriesDir, `${assertSafeId(id)}.md`);
}
