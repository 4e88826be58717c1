/**
 * Test helpers: real temporary git repositories and runs of the built `cortex` binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(REPO_ROOT, 'dist', 'cli.cjs');
/**
 * `../shared` beside the checkout (real transcripts, bench data, models); a git worktree
 * one level deeper finds it one level further up. `CORTEX_SHARED` overrides both.
 */
export const SHARED =
  [process.env.CORTEX_SHARED, resolve(REPO_ROOT, '..', 'shared'), resolve(REPO_ROOT, '..', '..', 'shared')].find(
    (p): p is string => p !== undefined && p !== '' && existsSync(p),
  ) ?? resolve(REPO_ROOT, '..', 'shared');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TempRepo {
  dir: string;
  /** Isolated `$CORTEX_HOME` for this repo's runs. */
  home: string;
  /** Runs the built CLI in the repo. */
  cortex(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): RunResult;
  /** Runs the built CLI asynchronously (for concurrency tests). */
  cortexAsync(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  git(args: string[], options?: { env?: NodeJS.ProcessEnv }): RunResult;
  write(path: string, text: string): void;
  read(path: string): string;
  list(path: string): string[];
  env: NodeJS.ProcessEnv;
}

/** Git identity and isolation so tests never read the developer's config. */
export function gitEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
    HOME: home,
    CORTEX_HOME: join(home, 'cortex-home'),
    // One code cache for the whole run (cli.ts): shared by every test's processes, as a
    // user's is by all their repositories.
    CORTEX_CODE_CACHE: process.env.CORTEX_CODE_CACHE ?? join(tmpdir(), 'cortex-test-code-cache'),
    NO_COLOR: '1',
    FORCE_COLOR: '',
    EDITOR: '',
    VISUAL: '',
  };
}

/**
 * A fresh git repository (branch `main`) with `files` written into it, removed when the test ends.
 *
 * @example
 * const repo = tempRepo({ 'README.md': '# x' });
 */
export function tempRepo(files: Record<string, string> = {}, options: { git?: boolean } = {}): TempRepo {
  const base = mkdtempSync(join(tmpdir(), 'cortex-test-'));
  // Retried: a hook's detached worker may still be writing .memory/ when the test ends (ENOTEMPTY).
  onTestFinished(() => rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'gitconfig'), '[init]\n\tdefaultBranch = main\n');
  const env = gitEnv(home);
  const run = (cmd: string, args: string[], o: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): RunResult => {
    const r = spawnSync(cmd, args, { cwd: o.cwd ?? dir, env: { ...env, ...o.env }, input: o.input ?? '', encoding: 'utf8', timeout: 60_000 });
    return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  };
  if (options.git !== false) run('git', ['init', '-q', '-b', 'main']);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return {
    dir,
    home,
    env,
    cortex: (args, o = {}) => run(process.execPath, [CLI, ...args], o),
    cortexAsync: (args, o = {}) =>
      new Promise((resolvePromise) => {
        const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...env, ...o.env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
        child.stdin.end(o.input ?? '');
      }),
    git: (args, o = {}) => run('git', args, o),
    write: (path, text) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    list: (path) => {
      try {
        return readdirSync(join(dir, path)).filter((n) => !n.startsWith('.')).sort();
      } catch {
        return [];
      }
    },
  };
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = Record<string, unknown>>(r: RunResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
}

/** `r`, or an error naming `what` with the output when it did not exit 0. */
export function ok(r: RunResult, what: string): RunResult {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** A temporary repository with `cortex init` run and everything committed. */
export function initRepo(): TempRepo {
  const repo = tempRepo({ 'README.md': '# test\n' });
  ok(repo.cortex(['init']), 'init');
  ok(repo.git(['add', '-A']), 'add');
  ok(repo.git(['commit', '-q', '-m', 'init']), 'commit');
  return repo;
}

/** Every file under the repository's .cortex/, with its text (to show a command wrote nothing there). */
export function cortexTree(repo: TempRepo): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(repo.dir, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else out[rel] = readFileSync(join(repo.dir, rel), 'utf8');
    }
  };
  walk('.cortex');
  return out;
}
