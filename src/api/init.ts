/**
 * `init`: make a repository ready for Cortex. Safe to re-run: it changes only what is missing.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CortexError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import { findGitRoot, findProjectRoot, projectPaths } from '../store/paths.js';
import { contextFor, type Context, type OpenCortexOptions } from './context.js';

export interface InitStep {
  /** What was checked, e.g. `.gitignore`. */
  target: string;
  action: 'created' | 'updated' | 'unchanged';
  detail: string;
}

export interface InitOutput {
  root: string;
  steps: InitStep[];
}

/** More setup contributed by other modules (git attributes and hooks, Claude settings …). */
export type InitStepFn = (ctx: Context, options: Record<string, unknown>) => InitStep[] | Promise<InitStep[]>;
const extraSteps: InitStepFn[] = [];

export function registerInitStep(fn: InitStepFn): void {
  if (!extraSteps.includes(fn)) extraSteps.push(fn);
}

/** Adds `line` to a line-based file (like .gitignore) unless an equivalent line is there. */
export function ensureLine(path: string, line: string, equivalents: string[] = []): InitStep['action'] {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const lines = (existing ?? '').split(/\r?\n/).map((l) => l.trim());
  if ([line, ...equivalents].some((l) => lines.includes(l))) return 'unchanged';
  const prefix = existing === undefined || existing === '' || existing.endsWith('\n') ? existing ?? '' : `${existing}\n`;
  writeFileAtomic(path, `${prefix}${line}\n`);
  return existing === undefined ? 'created' : 'updated';
}

/** The .gitignore line that keeps interrupted writes' temporary files out of commits. */
export const TEMP_FILE_IGNORE = '.cortex/**/.*.tmp';

/**
 * The git directory at or above `start` that has no work tree around it — a bare
 * repository, or the inside of a `.git` directory — if `start` is in one.
 */
function findBareGitDir(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return undefined;
    if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')) && existsSync(join(dir, 'refs'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Creates `.cortex/memories/`, `.cortex/edges/` and ignores `.memory/` in `.gitignore`,
 * then runs the registered steps. The root is the enclosing project, else the git root,
 * else `dir`.
 *
 * @example
 * await init({ dir: '/path/to/repo' }); // { root, steps: [...] }
 */
export async function init(options: OpenCortexOptions & Record<string, unknown> = {}): Promise<InitOutput> {
  const start = resolve(options.dir ?? process.cwd());
  const bare = findBareGitDir(start);
  if (bare !== undefined) {
    throw new CortexError('BARE_REPOSITORY', `${bare} is a bare git repository (or a git directory): it has no work tree to keep memories in.`, {
      hint: `Clone it and run \`cortex init\` in the clone: git clone ${bare} <dir> && cd <dir> && cortex init`,
    });
  }
  const root = findProjectRoot(start, options.env ?? process.env) ?? findGitRoot(start) ?? start;
  const paths = projectPaths(root);
  const steps: InitStep[] = [];
  for (const dir of [paths.memoriesDir, paths.edgesDir]) {
    const target = `.cortex/${dir === paths.memoriesDir ? 'memories' : 'edges'}/`;
    if (existsSync(dir)) steps.push({ target, action: 'unchanged', detail: 'exists' });
    else {
      mkdirSync(dir, { recursive: true });
      // Empty directories are not tracked by git: a .gitkeep keeps them in a fresh clone.
      writeFileAtomic(join(dir, '.gitkeep'), '');
      steps.push({ target, action: 'created', detail: 'directory' });
    }
  }
  const ignore = ensureLine(join(root, '.gitignore'), '.memory/', ['.memory', '/.memory/', '/.memory']);
  steps.push({ target: '.gitignore', action: ignore, detail: ignore === 'unchanged' ? '.memory/ already ignored' : 'ignores .memory/ (local cache)' });
  // A write interrupted by a crash leaves `.<name>.<pid>.<random>.tmp` beside the file:
  // ignored, so `git add -A` never commits one (lint names leftovers; writers remove them).
  const temps = ensureLine(join(root, '.gitignore'), TEMP_FILE_IGNORE);
  steps.push({ target: '.gitignore', action: temps, detail: temps === 'unchanged' ? 'temporary files already ignored' : 'ignores interrupted writes under .cortex/' });
  const ctx = contextFor(root, options);
  for (const step of extraSteps) steps.push(...(await step(ctx, options)));
  return { root, steps };
}
