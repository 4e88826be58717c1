/**
 * New files a person's command writes under `.cortex/` (a memory from `remember`, its
 * auto-links, a `link`, an accepted review candidate, a merged memory) are marked
 * intent-to-add (`git add -N`), as if tracked: `git commit -a` then commits them with the
 * projections the pre-commit hook regenerates, and `git status` lists them as new files to
 * commit. Files the Claude Code hooks write are not marked: the hooks run in the
 * background, and must never hold the index while the person runs git.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { intentToAdd } from '../git/cli.js';
import { findGitRoot } from '../store/paths.js';
import type { Context } from './context.js';
import type { Scope } from '../core/memory.js';

/**
 * Marks project files (absolute, or relative to the repository root) intent-to-add.
 * Best effort: outside a git repository, without git, or for ignored files it does nothing.
 *
 * @example
 * markForCommit(ctx, ['.cortex/memories/chose-sqlite-k3f9qa.md']) // true
 */
export function markForCommit(ctx: Context, files: readonly string[]): boolean {
  if (files.length === 0) return true;
  const gitRoot = findGitRoot(ctx.root);
  if (!gitRoot) return false;
  const paths = files.map((f) => relative(gitRoot, isAbsolute(f) ? f : resolve(ctx.root, f)).split(sep).join('/'));
  if (paths.some((p) => p.startsWith('..'))) return false;
  return intentToAdd(paths, { cwd: gitRoot });
}

/** What `createdFiles` reads of a `RememberResult` (api/remember.ts). */
export interface WriteResult {
  action: string;
  memory: { scope: Scope };
  file: string;
  links?: { edges: readonly { file: string }[] } | undefined;
}

/**
 * The project files a `remember` created: the memory file and its new auto-link edges.
 *
 * @example
 * createdFiles(await remember(ctx, { text: 'Use WAL' })) // ['.cortex/memories/use-wal-k3f9qa.md', …]
 */
export function createdFiles(results: readonly WriteResult[]): string[] {
  return results.flatMap((r) =>
    r.memory.scope !== 'project' ? [] : [...(r.action === 'created' ? [r.file] : []), ...(r.links?.edges.map((e) => e.file) ?? [])],
  );
}
