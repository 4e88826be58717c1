/**
 * How Cortex files reach a commit. No command and no Claude Code hook touches the git
 * index: the pre-commit hook takes the work tree's memory and edge files into every commit
 * of the whole tree (`git commit -a`, a plain `git commit`, `--amend`), and leaves them out
 * of a commit limited to paths (`git commit <paths>`, `--only`), as git does with any file
 * the person did not name (`takeWorkTreeChanges`).
 *
 * What is taken: every file under `.cortex/memories/` and `.cortex/edges/` (a memory or an
 * edge by its name, not ignored by `.gitignore`) that is new, changed or deleted in the
 * work tree while its index entry still equals HEAD's. Not only the files Cortex wrote:
 * captured memories are written by background hooks, a teammate's file may be copied in,
 * and a list kept in `.memory/` (a cache anyone may delete) would silently drop memories
 * from commits. A file the person staged themselves is left as staged; the private tier
 * `.cortex/local/` is never taken.
 *
 * The release before this one marked new files intent-to-add (`git add -N`), which makes
 * `git stash` and `git rebase --autostash` fail on git 2.39 ("Cannot save the current
 * worktree state"). `dropIntentToAdd` removes those entries (the files stay, untracked);
 * `cortex init` runs it, and so does the first write command (`remember`, `link` …) after
 * the upgrade (`markForCommit`, `startMarking`).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/cli.js';
import { isTempFileName } from '../store/atomic.js';
import { findGitRoot } from '../store/paths.js';
import type { Context } from './context.js';
import type { Scope } from '../core/memory.js';

/** The directories whose files a whole-tree commit takes. */
export const TAKEN_DIRS = ['.cortex/memories/', '.cortex/edges/'] as const;

/** Written in `.memory/` once this clone has no intent-to-add entries of the previous release. */
const UPGRADED_FILE = 'intent-to-add-dropped';

/** One entry of `git status --porcelain=v1`: X (index vs HEAD), Y (work tree vs index), path. */
export interface StatusEntry {
  x: string;
  y: string;
  path: string;
}

/**
 * Parses `git status --porcelain=v1 -z --no-renames` output.
 *
 * @example
 * parseStatus('?? .cortex/memories/a.md\0 M src/x.ts\0') // [{ x: '?', y: '?', path: '.cortex/memories/a.md' }, { x: ' ', y: 'M', path: 'src/x.ts' }]
 */
export function parseStatus(out: string): StatusEntry[] {
  return out
    .split('\0')
    .filter((r) => r.length > 3)
    .map((r) => ({ x: r[0]!, y: r[1]!, path: r.slice(3) }));
}

/** A memory or edge file by its name: `<dir><name>.md`, no sub-directory, no dot file, no temporary file. */
export function isTakenPath(path: string): boolean {
  const dir = TAKEN_DIRS.find((d) => path.startsWith(d));
  if (dir === undefined) return false;
  const name = path.slice(dir.length);
  return name.endsWith('.md') && !name.includes('/') && !name.startsWith('.') && !isTempFileName(name);
}

/**
 * The entries a whole-tree commit takes from the work tree: a memory or edge file that is
 * untracked (`??`), intent-to-add (` A`), changed (` M`, ` T`) or deleted (` D`) while its
 * index entry equals HEAD's. Anything the person staged (X not blank) stays as staged;
 * conflicts stay for the person to resolve.
 *
 * @example
 * filesToTake([{ x: '?', y: '?', path: '.cortex/memories/a.md' }, { x: 'M', y: 'M', path: '.cortex/memories/b.md' }]) // ['.cortex/memories/a.md']
 */
export function filesToTake(entries: readonly StatusEntry[]): string[] {
  return entries
    .filter((e) => ((e.x === '?' && e.y === '?') || (e.x === ' ' && 'AMTD'.includes(e.y))) && isTakenPath(e.path))
    .map((e) => e.path)
    .sort();
}

/**
 * Stages what a whole-tree commit takes (`filesToTake`) in the index git is committing
 * (`GIT_INDEX_FILE` in `env`, as git sets it for its hooks) and returns the paths staged.
 * Called by the pre-commit hook, never in a commit limited to paths.
 *
 * @example
 * takeWorkTreeChanges({ cwd: root }) // ['.cortex/memories/use-wal-k3f9qa.md']
 */
export function takeWorkTreeChanges(options: { cwd: string; env?: NodeJS.ProcessEnv }): string[] {
  const out = runGit(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all', '--', ...TAKEN_DIRS], options);
  const paths = filesToTake(parseStatus(out.toString('utf8')));
  if (paths.length > 0) runGit(['update-index', '--add', '--remove', '-z', '--stdin'], { ...options, input: `${paths.join('\0')}\0` });
  return paths;
}

/**
 * Removes the intent-to-add entries (`git add -N`) under `.cortex/` that the previous
 * release left in the index: the files stay in the work tree, untracked, and the next
 * whole-tree commit takes them. Returns the paths; best effort (none outside git, or when
 * the index is busy).
 *
 * @example
 * dropIntentToAdd({ cwd: root }) // ['.cortex/memories/use-wal-k3f9qa.md']
 */
export function dropIntentToAdd(options: { cwd: string; env?: NodeJS.ProcessEnv }): string[] {
  try {
    const out = runGit(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=no', '--', '.cortex/'], options);
    const paths = parseStatus(out.toString('utf8'))
      .filter((e) => e.x === ' ' && e.y === 'A')
      .map((e) => e.path);
    if (paths.length > 0) runGit(['rm', '--cached', '-q', '--', ...paths], options);
    return paths;
  } catch {
    return [];
  }
}

/**
 * Once per clone (a mark in `.memory/`): `dropIntentToAdd`. What the write commands call
 * where they used to mark their new files intent-to-add; after the first run it costs one
 * `existsSync`.
 */
function upgradeOnce(ctx: Context): void {
  const mark = join(ctx.paths.cacheDir, UPGRADED_FILE);
  if (existsSync(mark)) return;
  const gitRoot = findGitRoot(ctx.root);
  if (!gitRoot) return;
  dropIntentToAdd({ cwd: gitRoot });
  try {
    mkdirSync(ctx.paths.cacheDir, { recursive: true });
    writeFileSync(mark, 'The intent-to-add entries of an earlier Cortex were removed from this clone; see docs/git.md.\n');
  } catch {
    // Read-only cache: the check runs again next time, which only costs time.
  }
}

/**
 * A write command's files, ready for the next commit. Nothing to do for them any more (the
 * pre-commit hook takes them): runs the one-time upgrade (`dropIntentToAdd`). Kept so the
 * write commands keep one call where their files become part of the next commit.
 *
 * @example
 * markForCommit(ctx, ['.cortex/memories/chose-sqlite-k3f9qa.md']) // true
 */
export function markForCommit(ctx: Context, files: readonly string[]): boolean {
  if (files.length > 0) upgradeOnce(ctx);
  return true;
}

/** Files made ready for commit as they are written: see `startMarking`. */
export interface Marking {
  /** Notes these files (the first call runs the one-time upgrade). */
  add(files: readonly string[]): void;
  /** True: every file is ready for the next whole-tree commit. */
  done(): Promise<boolean>;
}

/**
 * `markForCommit` for files given as they are written (`remember`: the memory, then its
 * auto-links).
 *
 * @example
 * const marking = startMarking(ctx);
 * marking.add(['.cortex/memories/chose-sqlite-k3f9qa.md']);
 * await marking.done(); // true
 */
export function startMarking(ctx: Context): Marking {
  let upgraded = false;
  return {
    add(files) {
      if (upgraded || files.length === 0) return;
      upgraded = true;
      upgradeOnce(ctx);
    },
    async done() {
      return true;
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
