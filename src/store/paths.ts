/**
 * Where things live: locating the repository (the project root, the git work tree root,
 * the global tier's home), and the paths of a tier — `.cortex/` (tracked) and `.memory/`
 * (the local cache, whose inside `cache/layout.ts` names). The one place these are decided,
 * for every command, hook and the cached SessionStart path alike: node built-ins only.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cortexHome } from '../env.js';

/** The tracked directory of a project. */
export const CORTEX_DIR = '.cortex';
/** The local cache of a tier: gitignored, rebuildable (see `cache/layout.ts`). */
export const CACHE_DIR = '.memory';

// An unreadable entry (EACCES …) counts as absent: the walk goes on upwards.
function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  return existsSync(path);
}

/**
 * The global tier: `$CORTEX_HOME`, default `~/.cortex` (its cache is inside it).
 *
 * @example
 * globalHome({ CORTEX_HOME: '/tmp/h' }) // '/tmp/h'
 */
export function globalHome(env: NodeJS.ProcessEnv = process.env): string {
  return cortexHome(env);
}

/**
 * Finds the nearest directory at or above `start` that holds `.cortex/`. Stops at the
 * first git work tree root, so a stray `~/.cortex` (the global tier) is never mistaken
 * for a project.
 *
 * @example
 * findProjectRoot('/repo/src') // '/repo'
 */
export function findProjectRoot(start: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const globalDir = globalHome(env);
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, CORTEX_DIR);
    if (candidate !== globalDir && isDir(candidate)) return dir;
    if (exists(join(dir, '.git'))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The nearest git work tree root at or above `start`, if any.
 *
 * @example
 * findGitRoot('/repo/src/deep') // '/repo'
 */
export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (exists(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

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
  const home = globalHome(env);
  return tierPaths(home, join(home, CACHE_DIR));
}
