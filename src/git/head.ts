/**
 * Where a work tree's git directory is, and what HEAD is — read straight from the `.git`
 * files with node built-ins only. The one HEAD reader: the hooks run on every turn of a
 * session and the cached SessionStart path reads the branch, and loading isomorphic-git
 * costs more than either. Every repository state is a value here, never an exception:
 * not a repository, an unborn branch (no commits yet), a detached HEAD, a HEAD this code
 * cannot read (a reftable repository, a corrupt file: no branch, no commit).
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { findGitRoot } from '../store/paths.js';

/** The git directory of a work tree (`.git`, or where a `.git` file points, for worktrees). */
export function gitDirOf(root: string): string {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
      if (pointer !== undefined) return isAbsolute(pointer) ? pointer : resolve(root, pointer);
    }
  } catch {
    // Fall through to the usual layout.
  }
  return dotGit;
}

/** The common git directory (shared by linked worktrees): where hooks, config and refs live. */
export function commonGitDirOf(root: string): string {
  const gitDir = gitDirOf(root);
  try {
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return isAbsolute(common) ? common : resolve(gitDir, common);
  } catch {
    return gitDir;
  }
}

export interface HeadInfo {
  /** False when the directory is not inside a git work tree. */
  isRepo: boolean;
  /** The work tree root, when `isRepo`. */
  gitRoot?: string | undefined;
  /** Short branch name (also of an unborn branch); undefined when detached or not a repository. */
  branch?: string | undefined;
  /** Full commit id of HEAD; undefined on an unborn branch (or when not resolved, see `resolve`). */
  commit?: string | undefined;
  detached: boolean;
  /** True when the branch has no commits yet (or HEAD cannot be read). */
  unborn: boolean;
}

export interface ReadHeadOptions {
  /**
   * Resolve the branch to its commit through the loose and packed refs (default true).
   * `false` reads HEAD alone: the branch, or the commit of a detached HEAD.
   */
  resolve?: boolean;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The commit a ref names: `undefined` when no ref has it (unborn), `null` when unreadable. */
function resolveRef(root: string, gitDir: string, ref: string): string | undefined | null {
  // Linked worktrees keep their own HEAD but share refs with the main repository.
  const common = commonGitDirOf(root);
  const dirs = common === gitDir ? [gitDir] : [gitDir, common];
  for (const dir of dirs) {
    const loose = read(join(dir, ref))?.trim();
    if (loose !== undefined) return SHA.test(loose) ? loose : null;
  }
  for (const dir of dirs) {
    const packed = read(join(dir, 'packed-refs'));
    if (packed === undefined) continue;
    for (const line of packed.split('\n')) {
      const [sha, name] = line.split(' ');
      if (name?.trim() === ref && sha !== undefined && SHA.test(sha)) return sha;
    }
  }
  // No such ref anywhere: an unborn branch (or a ref format we do not read).
  return undefined;
}

/**
 * Reads HEAD for the repository that contains `dir`.
 *
 * @example
 * readHead('/path/to/repo') // { isRepo: true, gitRoot: '/path/to/repo', branch: 'main', commit: '3f2a…', detached: false, unborn: false }
 * readHead('/path/to/repo', { resolve: false }).branch // 'main' (HEAD read alone)
 */
export function readHead(dir: string, options: ReadHeadOptions = {}): HeadInfo {
  const gitRoot = findGitRoot(dir);
  if (gitRoot === undefined) return { isRepo: false, detached: false, unborn: false };
  const unreadable: HeadInfo = { isRepo: true, gitRoot, detached: false, unborn: true };
  const gitDir = gitDirOf(gitRoot);
  const head = read(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return unreadable;
  if (SHA.test(head)) return { isRepo: true, gitRoot, commit: head, detached: true, unborn: false };
  const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
  if (ref === undefined) return unreadable;
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  if (options.resolve === false) return { isRepo: true, gitRoot, branch, detached: false, unborn: false };
  // A reftable repository keeps a placeholder in refs/heads: its refs are not ours to read.
  const commit = read(join(gitDir, 'refs', 'heads')) !== undefined ? undefined : resolveRef(gitRoot, gitDir, ref);
  return { isRepo: true, gitRoot, branch, commit: commit ?? undefined, detached: false, unborn: commit === undefined || commit === null };
}
