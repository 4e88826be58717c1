/**
 * The context every use case runs in: where the project is, its configuration,
 * the clock and randomness (injectable for tests), and the two memory tiers.
 */
import { appendFileSync, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadYaml } from '../core/lazy.js';
import { NotInitializedError, UsageError } from '../errors.js';
import { ENV, readCaptureEnv, readNowEnv } from '../env.js';
import { resolveConfig, type CortexConfig } from '../core/config.js';
import { CAPTURE_MODES, isCaptureMode } from '../core/model-capture.js';
import type { Diagnostic, Memory, Scope } from '../core/memory.js';
import type { Embedder } from '../embed/embedder.js';
import { findProjectRoot, globalPaths, localPaths, projectPaths, type ProjectPaths, type TierPaths } from '../store/paths.js';
import { assertRealDirectories, directoryProblem, readRegularFile } from '../store/safe-read.js';
import { describeMigration, migrateLegacyLocalTier } from '../store/local-tier.js';
import { CACHE_SUBDIRS, LOG_FILE } from '../cache/layout.js';
import { lsIndex } from '../git/cli.js';

export interface OpenCortexOptions {
  /** A directory inside the project (default: the working directory). */
  dir?: string;
  /** Environment (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Clock (default: `CORTEX_NOW` when set — reproducible runs and tests — else the system clock). */
  now?: () => Date;
  /** Random bytes for new ids (default: {@link idRandomBytes}). */
  randomBytes?: (n: number) => Uint8Array;
  /** Read the global tier (`$CORTEX_HOME`) too (default: true). */
  includeGlobal?: boolean;
  /** Configuration overrides applied over the config file (flags). */
  configOverrides?: (config: CortexConfig) => CortexConfig;
  /**
   * The embedder for semantic and hybrid recall (default: @huggingface/transformers with
   * the configured model, imported and loaded only when vectors are needed). Pass one to
   * reuse a loaded model across projects, or a deterministic one in tests.
   */
  embedder?: Embedder;
  /**
   * Replaces the graph's centrality (in-degree over active edges) for the briefing and the
   * lifecycle: a caller that computes it otherwise, or a test.
   */
  centrality?: CentralityProvider;
  /** Reality checks added to the missing-file check ("possibly outdated"), by memory id. */
  staleness?: StalenessProvider[];
  /**
   * Where write calls put the files they create for the next commit: a queue staged in
   * bursts (services/stage.ts `queueStaging`, what the MCP server passes). Default: each
   * write runs its own `git add` before it returns.
   */
  staging?: StagingQueue;
}

/**
 * Gathers the project files write calls create and stages them in bursts (services/stage.ts
 * `queueStaging`, what the MCP server uses): one `git add` per burst, not one per call.
 */
export interface StagingQueue {
  /** Gathers project files a write created (absolute, or relative to `ctx.root`). */
  add(ctx: Context, files: readonly string[]): void;
  /** Stages what is gathered now; resolves once git is done (true when every `git add` succeeded). */
  flush(): Promise<boolean>;
  /** `flush` without returning to the event loop (an exit handler); waits for a `git add` under way. */
  flushSync(): boolean;
  /** Files gathered and not yet handed to git. */
  readonly pending: number;
}

/** Centrality by memory id, 0..1 (absent ids count as 0). */
export type CentralityProvider = (ctx: Context, memories: readonly Memory[]) => Record<string, number>;

/** Reasons by memory id why a memory may be outdated; only ids with reasons need be present. */
export type StalenessProvider = (ctx: Context, memories: readonly Memory[]) => Record<string, string[]>;

export interface Context {
  root: string;
  paths: ProjectPaths;
  /** The private tier: `<git-common-dir>/cortex/local/` (`.cortex/local/` without git; store/local-tier.ts). */
  local: ProjectPaths;
  global: TierPaths;
  includeGlobal: boolean;
  config: CortexConfig;
  configDiagnostics: Diagnostic[];
  env: NodeJS.ProcessEnv;
  now: () => Date;
  randomBytes: (n: number) => Uint8Array;
  /** An injected embedder; `undefined` means the configured transformers model. */
  embedder: Embedder | undefined;
  /** A replacement for the graph's centrality; `undefined` means the graph's. */
  centrality: CentralityProvider | undefined;
  /** Reality checks beyond the missing-file check. */
  staleness: readonly StalenessProvider[];
  /** Gathers created files for one `git add` per burst; `undefined`: each write stages its own. */
  staging: StagingQueue | undefined;
}

/** Larger than any real configuration: the file is refused, not read. */
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * Random bytes for the suffix of a new memory's id, from `Math.random` (V8 seeds it from the
 * system's entropy): an id must differ from the others, which the caller checks, not be hard
 * to guess, and `node:crypto` costs a `remember` ~6 ms to load.
 */
export function idRandomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

/** Reads and validates `.cortex/config.yaml`; a broken file gives diagnostics and defaults. */
export function loadConfig(paths: ProjectPaths): { config: CortexConfig; diagnostics: Diagnostic[] } {
  const file = '.cortex/config.yaml';
  if (lstatSync(paths.configFile, { throwIfNoEntry: false }) === undefined) return resolveConfig(undefined, file);
  // A committed config may be a link to /dev/zero or a FIFO: read only a regular file in
  // the repository, and no more than a config file could sensibly be.
  const read = readRegularFile(paths.configFile, { boundary: paths.root, maxBytes: MAX_CONFIG_BYTES });
  if ('problem' in read) {
    const result = resolveConfig(undefined, file);
    result.diagnostics.push({ file, reason: `${read.problem.reason}; the defaults are used`, ruleId: 'config-unreadable', severity: 'error', hint: 'Make .cortex/config.yaml a regular YAML file, or delete it.' });
    return result;
  }
  let raw: unknown;
  try {
    raw = loadYaml().parse(read.buffer.toString('utf8'));
  } catch (err) {
    const result = resolveConfig(undefined, file);
    const e = err as { message?: string; linePos?: { line: number; col: number }[] };
    result.diagnostics.push({
      file,
      line: e.linePos?.[0]?.line,
      column: e.linePos?.[0]?.col,
      reason: `invalid YAML: ${(e.message ?? String(err)).split('\n')[0]}`,
      ruleId: 'config-yaml',
      severity: 'error',
      hint: 'Fix the YAML syntax; until then the defaults are used.',
    });
    return result;
  }
  return resolveConfig(raw, file);
}

/**
 * Opens the project that contains `dir`.
 * Throws `NotInitializedError` when there is no `.cortex/` at or above it.
 */
export function openContext(options: OpenCortexOptions = {}): Context {
  const env = options.env ?? process.env;
  const start = resolve(options.dir ?? process.cwd());
  const root = findProjectRoot(start, env);
  if (!root) throw new NotInitializedError(start);
  return contextFor(root, options);
}

/** `CORTEX_NOW` (an ISO date) fixes the clock; an invalid value is a usage error naming it. */
function clockOf(env: NodeJS.ProcessEnv): () => Date {
  const { now, error } = readNowEnv(env);
  if (error) throw new UsageError(`${error}.`, { hint: `Unset ${ENV.now} to use the system clock.` });
  return now ? () => new Date(now.getTime()) : () => new Date();
}

/**
 * `CORTEX_CAPTURE_MODE` and `CORTEX_CAPTURE_COMMAND` override `capture.mode` and
 * `capture.claudeCommand` for one run (env before the config file, as for every setting):
 * a benchmark replaying recorded model answers, or a person trying a mode out.
 */
function captureFromEnv(config: CortexConfig, env: NodeJS.ProcessEnv, diagnostics: Diagnostic[]): CortexConfig {
  const { mode, command } = readCaptureEnv(env);
  if (mode === undefined && command === undefined) return config;
  const capture = { ...config.capture };
  if (mode !== undefined) {
    if (isCaptureMode(mode)) capture.mode = mode;
    else diagnostics.push({ file: ENV.captureMode, reason: `is "${mode}"; allowed: ${CAPTURE_MODES.join(', ')}`, ruleId: 'config-range', severity: 'error', hint: 'Unset it, or set one of the modes.' });
  }
  if (command !== undefined) capture.claudeCommand = command;
  return { ...config, capture };
}

/** A context for `root` whether or not it is initialised (used by `init`). */
export function contextFor(root: string, options: OpenCortexOptions = {}): Context {
  const env = options.env ?? process.env;
  const paths = projectPaths(root);
  const local = localPaths(paths.root);
  // The local caches are written by every command: never through a link a branch committed.
  assertRealDirectories([paths.cacheDir, local.cacheDir], paths.root);
  // The directories inside .memory/ too, when one is a link (a branch can commit one under
  // the ignored folder). A file in one's place is left to the writers, which fail on it
  // alone and carry on (the briefing is still given when session state cannot be written).
  assertRealDirectories(CACHE_SUBDIRS.map((d) => join(paths.cacheDir, d)).filter((d) => lstatSync(d, { throwIfNoEntry: false })?.isSymbolicLink() === true), paths.root);
  movePrivateTier(paths.root, paths.cacheDir);
  const loaded = loadConfig(paths);
  const configured = captureFromEnv(loaded.config, env, loaded.diagnostics);
  const config = options.configOverrides ? options.configOverrides(configured) : configured;
  return {
    root: paths.root,
    paths,
    local,
    global: globalPaths(env),
    includeGlobal: options.includeGlobal ?? true,
    config,
    configDiagnostics: loaded.diagnostics,
    env,
    now: options.now ?? clockOf(env),
    randomBytes: options.randomBytes ?? idRandomBytes,
    embedder: options.embedder,
    centrality: options.centrality,
    staleness: options.staleness ?? [],
    staging: options.staging,
  };
}

/**
 * Moves an old `.cortex/local/` out of the work tree into the git directory (store/local-tier.ts),
 * once: says so on stderr and in `.memory/cortex.log`, with the undo. Files git tracks there
 * (a branch's, not private memories) stay.
 */
function movePrivateTier(root: string, cacheDir: string): void {
  // The common case costs one lstat: no old directory, nothing to do.
  if (lstatSync(join(root, '.cortex', 'local'), { throwIfNoEntry: false })?.isDirectory() !== true) return;
  const migration = migrateLegacyLocalTier(root, {
    tracked: () => {
      const out = new Set<string>();
      let listed: Map<string, string>;
      try {
        listed = lsIndex('.cortex/local', { cwd: root });
      } catch {
        return out; // no git binary: nothing is known to be tracked
      }
      for (const path of listed.keys()) {
        const parts = path.replace(/^\.cortex\/local\//, '').split('/');
        for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('/'));
      }
      return out;
    },
  });
  if (migration === undefined) return;
  const line = describeMigration(migration, root);
  process.stderr.write(`${line}\n`);
  if (directoryProblem(cacheDir) !== undefined) return;
  try {
    mkdirSync(cacheDir, { recursive: true });
    appendFileSync(join(cacheDir, LOG_FILE), `${new Date().toISOString()} migrate ${line}\n`);
  } catch {
    // No .memory/ yet (or read-only): stderr said it.
  }
}

/**
 * The paths of a tier by its scope.
 *
 * @example
 * scopePaths(ctx, 'local').memoriesDir // '/repo/.cortex/local/memories'
 */
export function scopePaths(ctx: Pick<Context, 'paths' | 'local' | 'global'>, scope: Scope): TierPaths {
  return scope === 'project' ? ctx.paths : scope === 'local' ? ctx.local : ctx.global;
}

/**
 * Where an edge between memories of these scopes is stored: the private tier when either
 * end is private (a committed edge must not name a memory nobody else has), the global
 * tier when both ends are global, else the project tier.
 *
 * @example
 * edgeScopeOf('project', 'local') // 'local'
 */
export function edgeScopeOf(a: Scope, b: Scope): Scope {
  if (a === 'local' || b === 'local') return 'local';
  return a === 'global' && b === 'global' ? 'global' : 'project';
}

/**
 * The tiers that hold memories, in the order they are read (project first, then the
 * private tier, then the global one): the project tier always, the others when they exist
 * (and, for the global tier, when it is wanted).
 *
 * @example
 * presentScopes(ctx) // ['project', 'local']
 */
export function presentScopes(ctx: Pick<Context, 'local' | 'global' | 'includeGlobal'>): Scope[] {
  return [
    'project',
    ...(existsSync(ctx.local.memoriesDir) ? (['local'] as const) : []),
    ...(ctx.includeGlobal && existsSync(ctx.global.memoriesDir) ? (['global'] as const) : []),
  ];
}
