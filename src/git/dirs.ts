/**
 * Where a work tree's git directory is, read from the file system alone (no isomorphic-git
 * to load: the merge driver needs this on its fast path).
 */
import * as fs from 'node:fs';
import { join } from 'node:path';

/** The git directory of a work tree (`.git`, or where a `.git` file points, for worktrees). */
export function gitDirOf(root: string): string {
  const dotGit = join(root, '.git');
  try {
    if (fs.statSync(dotGit).isFile()) {
      const line = fs.readFileSync(dotGit, 'utf8').trim();
      const m = /^gitdir:\s*(.+)$/.exec(line);
      if (m) return m[1]!.startsWith('/') || /^[A-Za-z]:/.test(m[1]!) ? m[1]! : join(root, m[1]!);
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
    return common.startsWith('/') ? common : join(gitDir, common);
  } catch {
    return gitDir;
  }
}
