/**
 * What HEAD is: the current branch and commit, read with isomorphic-git (no `git` binary).
 * Every repository state is a value here, never an exception: not a repository,
 * an unborn branch (no commits yet), a detached HEAD.
 */
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { findGitRoot } from '../store/root.js';
import { commonGitDirOf, gitDirOf } from './dirs.js';

export interface HeadInfo {
  /** False when the directory is not inside a git work tree. */
  isRepo: boolean;
  /** The work tree root, when `isRepo`. */
  gitRoot?: string | undefined;
  /** Short branch name; undefined when detached or not a repository. */
  branch?: string | undefined;
  /** Full commit id of HEAD; undefined on an unborn branch. */
  commit?: string | undefined;
  detached: boolean;
  /** True when the branch has no commits yet. */
  unborn: boolean;
}

/**
 * Reads HEAD for the repository that contains `dir`.
 *
 * @example
 * const head = await readHead('/path/to/repo'); // { isRepo: true, branch: 'main', commit: '3f2a…', … }
 */
export async function readHead(dir: string): Promise<HeadInfo> {
  const gitRoot = findGitRoot(dir);
  if (!gitRoot) return { isRepo: false, detached: false, unborn: false };
  let branch: string | undefined;
  try {
    // A linked worktree has its own HEAD (in its git dir) and shares branches (in the common one).
    branch = (await git.currentBranch({ fs, dir: gitRoot, gitdir: gitDirOf(gitRoot), fullname: false })) ?? undefined;
  } catch {
    branch = undefined;
  }
  let commit: string | undefined;
  try {
    commit = branch
      ? await git.resolveRef({ fs, dir: gitRoot, gitdir: commonGitDirOf(gitRoot), ref: `refs/heads/${branch}` })
      : await git.resolveRef({ fs, dir: gitRoot, gitdir: gitDirOf(gitRoot), ref: 'HEAD' });
  } catch {
    commit = undefined;
  }
  return {
    isRepo: true,
    gitRoot,
    branch,
    commit,
    detached: branch === undefined && commit !== undefined,
    unborn: commit === undefined,
  };
}
