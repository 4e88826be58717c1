/**
 * New files a person's command writes under `.cortex/` (a memory from `remember`, its
 * auto-links, a `link`, an accepted review candidate, a merged memory) are marked
 * intent-to-add (`git add -N`), as if tracked: `git commit -a` then commits them with the
 * projections the pre-commit hook regenerates, and `git status` lists them as new files to
 * commit. Files the Claude Code hooks write are not marked: the hooks run in the
 * background, and must never hold the index while the person runs git.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { intentToAdd, intentToAddAsync } from '../git/cli.js';
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
  const paths = gitPaths(ctx, gitRoot, files);
  return paths !== undefined && intentToAdd(paths, { cwd: gitRoot });
}

/** `files` relative to the repository root, with forward slashes; undefined when one is outside it. */
function gitPaths(ctx: Context, gitRoot: string, files: readonly string[]): string[] | undefined {
  const paths = files.map((f) => relative(gitRoot, isAbsolute(f) ? f : resolve(ctx.root, f)).split(sep).join('/'));
  return paths.some((p) => p.startsWith('..')) ? undefined : paths;
}

/** Files marked for commit as they are written: see `startMarking`. */
export interface Marking {
  /** Marks these files (each once), after the files given before. */
  add(files: readonly string[]): void;
  /** Waits for git; true when every file was marked (as `markForCommit`). */
  done(): Promise<boolean>;
}

/**
 * `markForCommit` in the background, for files given as they are written: git marks the
 * first while the caller goes on (`remember` links the new memory meanwhile), and each
 * later batch after the one before (two `git add` at once would find the index locked).
 * The caller awaits `done()` before it returns.
 *
 * @example
 * const marking = startMarking(ctx);
 * marking.add(['.cortex/memories/chose-sqlite-k3f9qa.md']);
 * // … link it …
 * marking.add(edgeFiles);
 * await marking.done(); // true
 */
export function startMarking(ctx: Context): Marking {
  const given = new Set<string>();
  let gitRoot: string | false | undefined;
  let chain: Promise<boolean> | undefined;
  let ok = true;
  return {
    add(files) {
      const fresh = files.filter((f) => !given.has(f));
      if (fresh.length === 0) return;
      fresh.forEach((f) => given.add(f));
      gitRoot ??= findGitRoot(ctx.root) ?? false;
      const paths = gitRoot === false ? undefined : gitPaths(ctx, gitRoot, fresh);
      if (gitRoot === false || paths === undefined) {
        ok = false;
        return;
      }
      const cwd = gitRoot;
      const run = () => intentToAddAsync(paths, { cwd });
      chain = chain === undefined ? run() : chain.then((before) => run().then((now) => before && now));
    },
    async done() {
      return (await (chain ?? Promise.resolve(true))) && ok;
    },
  };
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
