/**
 * Where a work tree's git directory is, read from the file system alone (no isomorphic-git
 * to load: the merge driver needs this on its fast path).
 */
import * as fs from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** The git directory of a work tree (`.git`, or where a `.git` file points, for worktrees). */
export function gitDirOf(root: string): string {
  const dotGit = join(root, '.git');
  try {
    if (fs.statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1];
      if (pointer !== undefined) return isAbsolute(pointer) ? pointer : resolve(root, pointer);
    }
  } catch {
    // Fall through to the usual layout.
  }
  return dotGit;
}

/** The common git directory (shared by linked worktrees): where hooks and config live. */
export function commonGitDirOf(root: string): string {
  const gitDir = gitDirOf(root);
  try {
    const common = fs.readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return isAbsolute(common) ? common : resolve(gitDir, common);
  } catch {
    return gitDir;
  }
}
