/**
 * Whether single files are committed as they are on disk, read with isomorphic-git (no
 * `git` binary), so a command that rewrites files can refuse when git could not roll
 * them back. Compares HEAD's blob with the file's bytes, which works in linked worktrees
 * too (their index lives apart from the objects, so isomorphic-git's `status` cannot).
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { GitError } from '../errors.js';
import { findGitRoot } from '../store/paths.js';
import { blobOid } from './oid.js';
import { blobAt, gitReader, resolveCommit } from './repo.js';

export interface FileStatus {
  /** Path relative to the work tree root, with `/`. */
  path: string;
  /** `unmodified`, `modified` (differs from HEAD), `added` (not in HEAD) or `absent` (not on disk). */
  status: 'unmodified' | 'modified' | 'added' | 'absent';
  /** True when the file is committed at HEAD exactly as it is on disk. */
  clean: boolean;
}

/**
 * The status of each absolute path. `undefined` when `dir` is not in a git work tree.
 * Throws `GitError` when the repository cannot be read.
 *
 * @example
 * await fileStatuses('/repo', ['/repo/.cortex/memories/a.md']) // [{ path: '.cortex/memories/a.md', status: 'unmodified', clean: true }]
 */
export async function fileStatuses(dir: string, files: string[]): Promise<FileStatus[] | undefined> {
  const root = findGitRoot(dir);
  if (!root) return undefined;
  const r = gitReader(root);
  let head: string | undefined;
  try {
    head = await resolveCommit(r, 'HEAD');
  } catch {
    // An unborn branch: nothing is committed yet.
  }
  const trees = new Map();
  const out: FileStatus[] = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    let committed: string | null;
    try {
      committed = head === undefined ? null : await blobAt(r, head, path, trees);
    } catch (err) {
      throw new GitError(`Cannot read the git status of ${path}: ${(err as Error).message}`, { cause: err });
    }
    let onDisk: string | undefined;
    try {
      onDisk = blobOid(readFileSync(file));
    } catch {
      // Not on disk (or unreadable): git cannot have it as it is.
    }
    const status = onDisk === undefined ? 'absent' : committed === null ? 'added' : committed === onDisk ? 'unmodified' : 'modified';
    out.push({ path, status, clean: status === 'unmodified' });
  }
  return out;
}
