/**
 * Where things live: locating the repository (the project root, the git work tree root,
 * the global tier's home), and the paths of a tier — `.cortex/` (tracked) and `.memory/`
 * (the local cache, whose inside `cache/layout.ts` names). The one place these are decided,
 * for every command, hook and the cached SessionStart path alike: node built-ins only.
 */
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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

/** The private tier's directory: `local` inside the git directory's `cortex/` (or, without git, inside `.cortex/`). */
export const LOCAL_DIR = 'local';

/** Where the private tier lives under the git directory: `<git-common-dir>/cortex/`. */
export const GIT_CORTEX_DIR = 'cortex';

// A `.git` file is a few dozen bytes: anything longer is not one git wrote.
const MAX_GIT_FILE_BYTES = 4096;

function readSmallText(path: string): string | undefined {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || st.size > MAX_GIT_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const commonDirs = new Map<string, string | undefined>();

/**
 * The git directory shared by all work trees of the repository whose work tree root is
 * `gitRoot` — what `git rev-parse --git-common-dir` prints, found from the files git keeps
 * (no process started: the hooks' fast paths call this): `.git` when it is a directory; for
 * a linked work tree (or a submodule) the `gitdir:` a `.git` file names, and from there
 * its `commondir` file. `undefined` when there is no git directory.
 *
 * @example
 * gitCommonDir('/repo') // '/repo/.git'
 * gitCommonDir('/wt/feature') // '/repo/.git' (a linked work tree of /repo)
 */
export function gitCommonDir(gitRoot: string): string | undefined {
  const abs = resolve(gitRoot);
  if (commonDirs.has(abs)) return commonDirs.get(abs);
  const dotGit = join(abs, '.git');
  let found: string | undefined;
  let st;
  try {
    st = statSync(dotGit, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) found = dotGit;
  else if (st?.isFile()) {
    const line = /^gitdir: *(.+?)\s*$/m.exec(readSmallText(dotGit) ?? '')?.[1];
    if (line !== undefined) {
      const gitDir = resolve(abs, line);
      const common = readSmallText(join(gitDir, 'commondir'))?.trim();
      found = common ? resolve(gitDir, common) : gitDir;
      if (!isDir(found)) found = undefined;
    }
  }
  commonDirs.set(abs, found);
  return found;
}

/**
 * Where the project at `root` keeps its private tier, and where it kept it before (the
 * work tree's `.cortex/local/`, which a branch could replace: see local-tier.ts).
 *
 * In a git repository: `<git-common-dir>/cortex/local/` — inside the git directory, which
 * no checkout, reset, merge or `git clean` touches, shared by the linked work trees (a
 * worktree's own git directory is deleted by `git worktree remove`), and moved or deleted
 * with the clone. A project below the work tree root (a `.cortex/` in `packages/app/`)
 * gets `<git-common-dir>/cortex/sub/packages/app/local/`. Without git, `.cortex/local/`
 * stays where it is: no branch exists that could replace it.
 *
 * @example
 * localTierDir('/repo') // { dir: '/repo/.git/cortex/local', legacy: '/repo/.cortex/local', inGitDir: true }
 */
export function localTierDir(root: string): { dir: string; legacy: string; inGitDir: boolean } {
  const abs = resolve(root);
  const legacy = join(abs, CORTEX_DIR, LOCAL_DIR);
  const gitRoot = findGitRoot(abs);
  const common = gitRoot === undefined ? undefined : gitCommonDir(gitRoot);
  if (gitRoot === undefined || common === undefined) return { dir: legacy, legacy, inGitDir: false };
  const rel = relative(gitRoot, abs);
  const dir = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? join(common, GIT_CORTEX_DIR, LOCAL_DIR) : join(common, GIT_CORTEX_DIR, 'sub', ...rel.split(sep), LOCAL_DIR);
  return { dir, legacy, inGitDir: true };
}

/**
 * The project's private tier (memories/, edges/; see {@link localTierDir} for where), with
 * its cache in `.memory/local/`. Same format as the project tier; never committed.
 */
export function localPaths(root: string): ProjectPaths & { local: true } {
  const abs = resolve(root);
  return { root: abs, local: true, ...tierPaths(localTierDir(abs).dir, join(abs, CACHE_DIR, LOCAL_DIR)) };
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
