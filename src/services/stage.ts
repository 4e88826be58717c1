/**
 * How Cortex files reach a commit, without intent-to-add entries (`git add -N`, which make
 * `git stash` and `git rebase --autostash` fail on git 2.39: "Cannot save the current
 * worktree state"):
 *
 * - A person's write command (`remember` and its auto-links, `link`, `review --accept`,
 *   `consolidate --merge`, `import`) stages the files it creates with a real `git add`
 *   (`markForCommit`, `startMarking`), in the background while it goes on. git decides
 *   whether there is anything to commit *before* its hooks run, so this is what lets
 *   `cortex remember … && git commit -am …` commit a memory when nothing else changed.
 * - The Claude Code hooks never touch the index (they run in the background while the person
 *   uses git). The pre-commit hook takes their files: in every commit of the whole tree
 *   (`git commit -a`, a plain `git commit`, `--amend`), every file under `.cortex/memories/`
 *   and `.cortex/edges/` (a memory or an edge by its name, not ignored by `.gitignore`) that
 *   is new, changed or deleted in the work tree while its index entry still equals HEAD's
 *   (`takeWorkTreeChanges`); nothing in a commit limited to paths (`git commit <paths>`,
 *   `--only`), as git does with any file the person did not name. Every such file, not only
 *   the ones Cortex wrote: captured memories are written by background processes, a
 *   teammate's file may be copied in, and a list kept in `.memory/` (a cache anyone may
 *   delete) would silently drop memories from commits. A file the person staged is left as
 *   staged; the private tier `.cortex/local/` is never taken.
 *
 * The previous release's intent-to-add entries become real staged entries
 * (`upgradeIntentToAdd`): `cortex init` does it, and so does the first write command after
 * the upgrade.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { addFiles, addFilesAsync, runGit } from '../git/cli.js';
import { isTempFileName } from '../store/atomic.js';
import { findGitRoot } from '../store/paths.js';
import type { Context, StagingQueue } from './context.js';
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

/** `git status --porcelain=v1 -z` of the memory and edge directories, every untracked file listed. */
export function statusOf(options: { cwd: string; env?: NodeJS.ProcessEnv }): string {
  return runGit(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all', '--', ...TAKEN_DIRS], options).toString('utf8');
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
  return stageFiles(filesToTake(parseStatus(statusOf(options))), options);
}

/** Stages the work tree's state of `paths` (added, changed or removed) in the index git uses; returns them. */
export function stageFiles(paths: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): string[] {
  if (paths.length > 0) runGit(['update-index', '--add', '--remove', '-z', '--stdin'], { ...options, input: `${paths.join('\0')}\0` });
  return [...paths];
}

/**
 * Stages, as real entries, the intent-to-add entries (`git add -N`) under `.cortex/` that
 * the previous release left in the index: `git commit -a` takes those files as before, and
 * `git stash` works again (a staged new file stashes and pops like any change). Returns the
 * paths; best effort (none outside git, or when the index is busy).
 *
 * @example
 * upgradeIntentToAdd({ cwd: root }) // ['.cortex/memories/use-wal-k3f9qa.md']
 */
export function upgradeIntentToAdd(options: { cwd: string; env?: NodeJS.ProcessEnv }): string[] {
  try {
    const out = runGit(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=no', '--', '.cortex/'], options);
    const paths = parseStatus(out.toString('utf8'))
      .filter((e) => e.x === ' ' && e.y === 'A')
      .map((e) => e.path);
    if (paths.length > 0) runGit(['add', '-A', '--', ...paths], options);
    return paths;
  } catch {
    return [];
  }
}

/**
 * Once per clone (a mark in `.memory/`): `upgradeIntentToAdd`. After the first run it costs
 * one `existsSync`.
 */
function upgradeOnce(ctx: Context, gitRoot: string): void {
  const mark = join(ctx.paths.cacheDir, UPGRADED_FILE);
  if (existsSync(mark)) return;
  upgradeIntentToAdd({ cwd: gitRoot });
  try {
    mkdirSync(ctx.paths.cacheDir, { recursive: true });
    writeFileSync(mark, 'The intent-to-add entries of an earlier Cortex were staged as real entries in this clone; see docs/git.md.\n');
  } catch {
    // Read-only cache: the check runs again next time, which only costs time.
  }
}

/** `files` relative to the repository root, with forward slashes; undefined when one is outside it. */
function gitPaths(ctx: Context, gitRoot: string, files: readonly string[]): string[] | undefined {
  const paths = files.map((f) => relative(gitRoot, isAbsolute(f) ? f : resolve(ctx.root, f)).split(sep).join('/'));
  return paths.some((p) => p.startsWith('..')) ? undefined : paths;
}

/**
 * Stages the project files a person's command created (absolute, or relative to the
 * repository root): `git commit -a` then takes them even when nothing else changed. Best
 * effort: outside a git repository, without git, or for ignored files it does nothing (the
 * pre-commit hook still takes new memory and edge files into a whole-tree commit).
 *
 * @example
 * markForCommit(ctx, ['.cortex/memories/chose-sqlite-k3f9qa.md']) // true
 */
export function markForCommit(ctx: Context, files: readonly string[]): boolean {
  if (files.length === 0) return true;
  const gitRoot = findGitRoot(ctx.root);
  if (!gitRoot) return false;
  upgradeOnce(ctx, gitRoot);
  const paths = gitPaths(ctx, gitRoot, files);
  return paths !== undefined && addFiles(paths, { cwd: gitRoot });
}

/** Files staged as they are written: see `startMarking`. */
export interface Marking {
  /** Stages these files (each once), after the files given before. */
  add(files: readonly string[]): void;
  /** Waits for git; true when every file was staged (as `markForCommit`). */
  done(): Promise<boolean>;
}

/**
 * `markForCommit` in the background, for files given as they are written: git stages the
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
      if (gitRoot === undefined) {
        gitRoot = findGitRoot(ctx.root) ?? false;
        if (gitRoot !== false) upgradeOnce(ctx, gitRoot);
      }
      const paths = gitRoot === false ? undefined : gitPaths(ctx, gitRoot, fresh);
      if (gitRoot === false || paths === undefined) {
        ok = false;
        return;
      }
      const cwd = gitRoot;
      const run = () => addFilesAsync(paths, { cwd });
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

/** When a {@link StagingQueue} stages: after this long without a new file, or this long after the first one waiting. */
export const DEFAULT_STAGING_DELAYS = { idleMs: 100, maxDelayMs: 2000 };

/** Most paths one `git add` is given (its command line stays far below the system's limit). */
const PATHS_PER_ADD = 500;

/**
 * A {@link StagingQueue}: the files a long-lived process's writes create (the MCP server),
 * staged with one `git add` per burst instead of one per call. Each `git add` rewrites git's
 * whole index (a list of every memory and edge file), so 1,000 stores staged one by one wrote
 * 665 MB. The gathered files are staged `idleMs` after the last `add` (no write for that
 * long), and at most `maxDelayMs` after the first file still waiting, however busy the
 * process; `flush` stages them now (the server calls it when its client closes the
 * connection) and `flushSync` from an exit handler. A `git commit -am` run after that (an
 * assistant's next step) takes them as it takes `cortex remember`'s; within the window, the
 * pre-commit hook still takes new memory and edge files into a whole-tree commit. Files gone
 * by then (forgotten meanwhile) are left out; the `git add` runs never overlap (two at once
 * would find the index locked).
 *
 * @example
 * const staging = queueStaging();
 * staging.add(ctx, ['.cortex/memories/chose-sqlite-k3f9qa.md']); // staged ~100 ms later
 * await staging.flush(); // true
 */
export function queueStaging(delays: Partial<typeof DEFAULT_STAGING_DELAYS> = {}): StagingQueue {
  const { idleMs, maxDelayMs } = { ...DEFAULT_STAGING_DELAYS, ...delays };
  /** Paths waiting, by git root (relative to it, forward slashes). */
  const waiting = new Map<string, Set<string>>();
  const roots = new Map<string, string | false>();
  let count = 0;
  let firstAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> = Promise.resolve(true);
  let busy = 0;

  const take = (): Array<[string, string[]]> => {
    const batches = [...waiting].map(([root, set]) => [root, [...set].filter((p) => existsSync(join(root, p)))] as [string, string[]]);
    waiting.clear();
    count = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    return batches.filter(([, paths]) => paths.length > 0);
  };
  const chunks = (paths: string[]): string[][] => {
    const out: string[][] = [];
    for (let i = 0; i < paths.length; i += PATHS_PER_ADD) out.push(paths.slice(i, i + PATHS_PER_ADD));
    return out;
  };
  const flush = (): Promise<boolean> => {
    const batches = take();
    if (batches.length === 0) return running;
    busy++;
    running = running.then(async (before) => {
      let ok = before;
      for (const [cwd, paths] of batches) for (const chunk of chunks(paths)) ok = (await addFilesAsync(chunk, { cwd })) && ok;
      busy--;
      return ok;
    });
    return running;
  };
  const schedule = (): void => {
    const now = Date.now();
    if (timer === undefined) firstAt = now;
    else clearTimeout(timer);
    timer = setTimeout(() => void flush(), Math.max(0, Math.min(idleMs, firstAt + maxDelayMs - now)));
    // A process about to exit is not kept alive by it: its exit handler calls flushSync.
    timer.unref();
  };
  return {
    add(ctx, files) {
      let root = roots.get(ctx.root);
      if (root === undefined) {
        root = findGitRoot(ctx.root) ?? false;
        roots.set(ctx.root, root);
        if (root !== false) upgradeOnce(ctx, root);
      }
      if (root === false) return;
      const paths = gitPaths(ctx, root, files);
      if (paths === undefined || paths.length === 0) return;
      let set = waiting.get(root);
      if (!set) waiting.set(root, (set = new Set()));
      for (const p of paths) {
        if (set.has(p)) continue;
        set.add(p);
        count++;
      }
      schedule();
    },
    flush,
    flushSync() {
      const batches = take();
      let ok = true;
      for (const [cwd, paths] of batches) {
        for (const chunk of chunks(paths)) {
          // A `git add` started by `flush` may still hold git's index: a few tries.
          let staged = addFiles(chunk, { cwd });
          for (let tries = 0; !staged && busy > 0 && tries < 20; tries++) {
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
            staged = addFiles(chunk, { cwd });
          }
          ok = staged && ok;
        }
      }
      return ok;
    },
    get pending() {
      return count;
    },
  };
}

/**
 * Stages the project files a write created: through `ctx.staging` when the process gathers
 * them (the MCP server, see {@link queueStaging}), else now with {@link markForCommit}.
 *
 * @example
 * stageCreated(ctx, ['.cortex/edges/a--relates_to--b.md']);
 */
export function stageCreated(ctx: Context, files: readonly string[]): void {
  if (files.length === 0) return;
  if (ctx.staging) ctx.staging.add(ctx, files);
  else markForCommit(ctx, files);
}
