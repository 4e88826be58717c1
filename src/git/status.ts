/**
 * Working-tree status of single files, read with isomorphic-git (no `git` binary), so a
 * command that rewrites files can refuse when git could not roll them back.
 */
import * as fs from 'node:fs';
import { relative, sep } from 'node:path';
import git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { findGitRoot } from '../store/paths.js';

export interface FileStatus {
  /** Path relative to the work tree root, with `/`. */
  path: string;
  /** isomorphic-git's status word: `unmodified`, `*modified`, `*added`, `absent` … */
  status: string;
  /** True when the file is committed exactly as it is on disk and in the index. */
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
  const out: FileStatus[] = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    let status: string;
    try {
      status = await git.status({ fs, dir: root, filepath: path });
    } catch (err) {
      throw new GitError(`Cannot read the git status of ${path}: ${(err as Error).message}`, { cause: err });
    }
    out.push({ path, status, clean: status === 'unmodified' });
  }
  return out;
}
