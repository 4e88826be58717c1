/**
 * The `git` binary, used by code that git itself runs (the merge driver and the git
 * hooks), where git is certainly installed and its view of the repository is the truth:
 * the index being committed, the commits of a merge in progress. Everything else reads
 * the repository with isomorphic-git (repo.ts), asking git only to resolve revision syntax.
 *
 * `git cat-file --batch` reads thousands of blobs in one process, which is what makes the
 * driver and the pre-commit check fast on 10,000 memories.
 */
import { spawn, spawnSync } from 'node:child_process';
import { GitError } from '../errors.js';

export interface GitRunOptions {
  cwd: string;
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
}

/** Runs git and returns stdout; a non-zero exit is a `GitError` with git's message. */
export function runGit(args: string[], options: GitRunOptions): Buffer {
  const r = spawnSync('git', args, {
    cwd: options.cwd,
    input: options.input ?? '',
    env: options.env ?? process.env,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (r.error) throw new GitError(`Cannot run git: ${r.error.message}`, { cause: r.error });
  if (r.status !== 0) {
    throw new GitError(`git ${args[0]} failed: ${r.stderr.toString('utf8').trim().split('\n')[0] ?? ''}`, { data: { args, status: r.status } });
  }
  return r.stdout;
}

/** Like `runGit`, but undefined instead of an error (for lookups that may fail). */
export function tryGit(args: string[], options: GitRunOptions): string | undefined {
  try {
    return runGit(args, options).toString('utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Reads many objects at once (`git cat-file --batch`). `names` are anything git accepts:
 * blob ids, `<commit>:<path>`, `:<path>` for the index. Missing objects are absent from
 * the result.
 */
export function catFileBatch(names: readonly string[], options: GitRunOptions): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (names.length === 0) return out;
  const stdout = runGit(['cat-file', '--batch'], { ...options, input: `${names.join('\n')}\n` });
  let at = 0;
  for (const name of names) {
    const eol = stdout.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = stdout.subarray(at, eol).toString('utf8');
    at = eol + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) continue;
    const size = Number(header.split(' ')[2]);
    out.set(name, stdout.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

/** `<path>` → blob id for every file under `prefix` in a tree-ish (`git ls-tree -r`). */
export function lsTree(treeish: string, prefix: string, options: GitRunOptions): Map<string, string> {
  const out = new Map<string, string>();
  const stdout = runGit(['ls-tree', '-r', '-z', '--full-tree', treeish, '--', prefix], options).toString('utf8');
  for (const record of stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [, type, oid] = record.slice(0, tab).split(' ');
    if (type === 'blob' && oid) out.set(record.slice(tab + 1), oid);
  }
  return out;
}

/** `<path>` → blob id for every staged file under `prefix` (`git ls-files -s`). */
export function lsIndex(prefix: string, options: GitRunOptions): Map<string, string> {
  const out = new Map<string, string>();
  const stdout = runGit(['ls-files', '-s', '-z', '--', prefix], options).toString('utf8');
  for (const record of stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [, oid, stage] = record.slice(0, tab).split(' ');
    // Stages 1–3 are an unresolved conflict; stage 0 is what will be committed.
    if (oid && stage === '0') out.set(record.slice(tab + 1), oid);
  }
  return out;
}

/** Object ids of many names at once (`git cat-file --batch-check`); missing names are absent. */
export function batchCheck(names: readonly string[], options: GitRunOptions): Map<string, string> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  const lines = runGit(['cat-file', '--batch-check'], { ...options, input: `${names.join('\n')}\n` }).toString('utf8').split('\n');
  names.forEach((name, i) => {
    const [oid, type] = (lines[i] ?? '').split(' ');
    if (type !== 'missing' && type !== 'ambiguous' && oid && /^[0-9a-f]{40,64}$/.test(oid)) out.set(name, oid);
  });
  return out;
}

/** The empty blob: what `git add --intent-to-add` stages for a file it has not added yet. */
export const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** Writes `text` as a blob into the object database (`git hash-object -w`); returns its id. */
export function writeBlob(text: string, options: GitRunOptions): string {
  return runGit(['hash-object', '-w', '--stdin'], { ...options, input: text }).toString('utf8').trim();
}

/** Stages a blob at `path` in the index git is using (`GIT_INDEX_FILE` in a hook). */
export function stageBlob(path: string, oid: string, options: GitRunOptions): void {
  runGit(['update-index', '--add', '--cacheinfo', `100644,${oid},${path}`], options);
}

/**
 * Stages files (`git add`), so `git commit -a` and a plain `git commit` take them even when
 * nothing else changed (git decides whether there is anything to commit before its hooks
 * run). Best effort: returns false (and changes nothing) when git is missing, a file is
 * ignored, or the index is busy; the pre-commit hook still takes the files then.
 */
export function addFiles(paths: readonly string[], options: GitRunOptions): boolean {
  if (paths.length === 0) return true;
  try {
    runGit(['add', '-A', '--', ...paths], options);
    return true;
  } catch {
    return false;
  }
}

/**
 * `addFiles` without waiting: git runs while the caller goes on (a `remember` links the new
 * memory meanwhile; at 100,000 memories `git add` reads the whole directory, ~40 ms).
 * Resolves to what `addFiles` returns; never rejects.
 *
 * @example
 * const staged = addFilesAsync(['.cortex/memories/use-wal-k3f9qa.md'], { cwd: root });
 * // … other work …
 * await staged; // true
 */
export function addFilesAsync(paths: readonly string[], options: Pick<GitRunOptions, 'cwd' | 'env'>): Promise<boolean> {
  if (paths.length === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    try {
      const child = spawn('git', ['add', '-A', '--', ...paths], { cwd: options.cwd, env: options.env ?? process.env, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('close', (code) => resolve(code === 0));
    } catch {
      resolve(false);
    }
  });
}
