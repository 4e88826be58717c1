/**
 * Where things live: the repository root, `.cortex/` (tracked) and `.memory/` (local cache).
 */
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { checkIdSafety } from '../core/memory.js';
import { CORTEX_DIR, globalHome } from './root.js';

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

/** The global tier: `$CORTEX_HOME`, default `~/.cortex`, with its cache inside it. */
export function globalPaths(env: NodeJS.ProcessEnv = process.env): TierPaths {
  const home = globalHome(env);
  return tierPaths(home, join(home, CACHE_DIR));
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
