/**
 * `init`: make a repository ready for Cortex. Safe to re-run: it changes only what is missing.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { shellQuote } from '../core/shell.js';
import { CAPTURE_MODES, isCaptureMode } from '../core/model-capture.js';
import { CortexError, UsageError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import { assertRealDirectories } from '../store/safe-read.js';
import { findGitRoot, findProjectRoot, projectPaths } from '../store/paths.js';
import { project } from '../api/project.js';
import { contextFor, type OpenCortexOptions } from '../services/context.js';
import { setCaptureMode } from './capture-config.js';
import { setupClaude } from './claude-setup.js';
import { setUpGit } from './git-setup.js';
import { setupMcpJson } from './mcp-setup.js';
import { ensureLine, type InitStep } from './step.js';
import { executablePath } from '../executable.js';

export type { InitStep } from './step.js';

/** The `.gitignore` line for temporary files of interrupted writes (store/atomic.ts). */
export const TEMP_IGNORE = '.cortex/**/.*.tmp';

export interface InitOptions extends OpenCortexOptions {
  /** Also set up Claude Code for this repository (hooks, rules, slash commands, `.mcp.json`), as `cortex init --claude`. */
  claude?: boolean;
  /**
   * How git hooks and the merge driver run cortex, as a shell command (recorded as
   * `cortex.command` in the clone's git config). Default: this Node binary and this
   * package's CLI by absolute path, so it works without `cortex` on PATH.
   */
  cortexCommand?: string;
  /** Model capture to turn on (`capture.mode` in `.cortex/config.yaml`): `reflect`, `claude`, `endpoint` or `off`. */
  capture?: string;
}

export interface InitOutput {
  root: string;
  steps: InitStep[];
}

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
 * How git should run this very cortex: the Node binary and this package's CLI, by
 * absolute path (`cortex` when the CLI cannot be found, e.g. running from source).
 *
 * @example
 * defaultCortexCommand() // "/usr/bin/node /path/to/cortex/dist/cli.cjs"
 */
export function defaultCortexCommand(): string {
  try {
    return `${shellQuote(process.execPath)} ${shellQuote(realpathSync(executablePath()))}`;
  } catch {
    return 'cortex';
  }
}

/**
 * Makes a repository ready for Cortex; what `cortex init` runs, step for step. Creates
 * `.cortex/memories/` and `.cortex/edges/`, ignores `.memory/` in `.gitignore`, then (in a
 * git repository) declares the merge driver in `.gitattributes`, configures it in the
 * clone, installs the git hooks, generates the projections, and with `claude` sets up
 * Claude Code. Safe to re-run: it changes only what is missing. The root is the enclosing
 * project, else the git root, else `dir`.
 *
 * @example
 * await init({ dir: '/path/to/repo' }); // { root, steps: [{ target: '.gitattributes', action: 'created', … }, …] }
 * await init({ dir: '/path/to/repo', claude: true }); // also .claude/settings.json, .mcp.json …
 */
export async function init(options: InitOptions & Record<string, unknown> = {}): Promise<InitOutput> {
  // A wrong mode is refused before anything is written.
  if (options.capture !== undefined && !isCaptureMode(options.capture)) {
    throw new UsageError(`Unknown capture mode "${options.capture}".`, { hint: `Use one of: ${CAPTURE_MODES.join(', ')} (docs/claude-code.md, "Model capture").` });
  }
  const start = resolve(options.dir ?? process.cwd());
  const bare = findBareGitDir(start);
  if (bare !== undefined) {
    throw new CortexError('BARE_REPOSITORY', `${bare} is a bare git repository (or a git directory): it has no work tree to keep memories in.`, {
      hint: `Clone it and run \`cortex init\` in the clone: git clone ${bare} <dir> && cd <dir> && cortex init`,
    });
  }
  const root = findProjectRoot(start, options.env ?? process.env) ?? findGitRoot(start) ?? start;
  const paths = projectPaths(root);
  // A `.cortex` or `memories` that is a file (or a link a branch committed) is refused
  // before anything is written: one line naming it, and the fix.
  assertRealDirectories([paths.cortexDir, paths.memoriesDir, paths.edgesDir, paths.cacheDir], root);
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
  const ignoreCache = ensureLine(join(root, '.gitignore'), '.memory/', ['.memory', '/.memory/', '/.memory']);
  // A write interrupted by a crash leaves `.<name>.<pid>.<random>.tmp` beside the file:
  // ignored, so `git add -A` never commits one (lint names leftovers; writers remove them).
  const ignoreTemp = ensureLine(join(root, '.gitignore'), TEMP_IGNORE);
  const ignore = ignoreCache === 'created' ? 'created' : ignoreCache === 'updated' || ignoreTemp !== 'unchanged' ? 'updated' : 'unchanged';
  steps.push({ target: '.gitignore', action: ignore, detail: ignore === 'unchanged' ? '.memory/ already ignored' : 'ignores .memory/ (local cache) and interrupted writes under .cortex/' });
  const ctx = contextFor(root, options);
  // Every step, in order, for the CLI and the library alike.
  steps.push(...(await setUpGit(ctx, { cortexCommand: options.cortexCommand ?? defaultCortexCommand() })));
  // The projections exist from the start, so the first commit of a memory can include them.
  for (const f of (await project(ctx)).files) {
    steps.push({
      target: f.file,
      action: f.state === 'created' || f.state === 'updated' ? f.state : 'unchanged',
      detail: f.state === 'unchanged' ? 'projection up to date' : 'generated projection (commit it with .cortex/)',
    });
  }
  if (options.claude === true) {
    // `--claude`: hooks, rules and slash commands for Claude Code, and the MCP server in
    // .mcp.json (or the `claude mcp add` line when cortex is not on PATH).
    steps.push(...(await setupClaude({ root: ctx.root, env: ctx.env })));
    steps.push(await setupMcpJson({ root: ctx.root, env: ctx.env }));
  }
  if (options.capture !== undefined) steps.push(setCaptureMode(ctx, options.capture));
  return { root, steps };
}
