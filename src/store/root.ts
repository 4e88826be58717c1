/**
 * Locating the repository: the project root (the directory holding `.cortex/`), the git
 * work tree root and the global tier's home. The one place these are decided, for every
 * command, hook and the cached SessionStart path alike: node built-ins only.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cortexHome } from '../env.js';

/** The tracked directory of a project. */
export const CORTEX_DIR = '.cortex';

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
