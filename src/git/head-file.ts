/**
 * HEAD read straight from the `.git` files with node builtins only: the hooks run on
 * every turn of a session, and loading isomorphic-git costs more than the whole
 * incremental extraction. Anything unusual (a ref only reachable through a reftable,
 * a corrupt file) gives `undefined`, and the caller falls back to `readHead`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGitRoot } from '../store/root.js';
import { commonGitDirOf, gitDirOf } from './dirs.js';

export interface HeadFileInfo {
  /** Short branch name; undefined when detached. */
  branch?: string | undefined;
  /** Full commit id; undefined on an unborn branch. */
  commit?: string | undefined;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

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
 * Branch and commit of the repository containing `dir` (`{}` outside a repository), or
 * `undefined` when they cannot be read this way (an unknown layout).
 *
 * @example
 * readHeadFile('/path/to/repo') // { branch: 'main', commit: '3f2a…' }
 */
export function readHeadFile(dir: string): HeadFileInfo | undefined {
  const root = findGitRoot(dir);
  if (root === undefined) return {};
  const gitDir = gitDirOf(root);
  const head = read(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return undefined;
  if (SHA.test(head)) return { commit: head };
  const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  // A reftable repository keeps a placeholder in refs/heads: not ours to read.
  if (read(join(gitDir, 'refs', 'heads')) !== undefined) return undefined;
  const commit = resolveRef(root, gitDir, ref);
  if (commit === null) return undefined;
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  return { branch, commit };
}
