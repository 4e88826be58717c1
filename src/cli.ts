#!/usr/bin/env node
/**
 * The `cortex` executable. It runs the CLI (main.ts) from `cli.bundle.cjs`, one file holding
 * main.ts and everything it imports (scripts/bundle.mjs makes it at build time), compiled
 * with V8's code cache: the compiled code of the functions a command ran is kept on disk
 * after its first run, so that the next run of that command skips parsing and compiling
 * them. For a process that lives a fifth of a second that is a third of its time: loading
 * sixty ES modules and compiling them cost a warm `recall` about 75 ms (bench/README.md,
 * "Start-up"). Node 22 does the same for ES modules (`module.enableCompileCache`); Node 20,
 * which Cortex supports, does not.
 *
 * Anything unusual — no bundle (a build without it), no V8 support, `CORTEX_CODE_CACHE=off`,
 * a cache that cannot be read or written — falls back to less: the bundle without a cache,
 * or main.ts as ES modules. A cache is only ever a copy of what V8 compiled from the
 * bundle itself, keyed by the bundle's size and time, Node's version and the command; V8
 * rejects one made by another version or with other flags, and it is then made again.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

interface Main {
  start(argv: string[]): void;
  /** The SessionStart hook's handler (what the cached SessionStart's bundle calls on a miss). */
  sessionStartHook(h: unknown): Promise<string>;
}

/** The cached SessionStart's bundle (src/start.ts). */
interface Start {
  startSession(loadFull: () => Promise<Main>): Promise<void>;
}

/**
 * The bundles scripts/bundle.mjs makes: the CLI, the cached SessionStart alone, and the MCP
 * SDK and zod (which only `cortex mcp` runs), loaded by the CLI's bundle when it needs them.
 */
type BundleName = 'cli' | 'start' | 'mcp';

/** Bundles a bundle asked for (see `bundleOf` in {@link loadBundle}), once each. */
const otherBundles = new Map<BundleName, object | undefined>();

/** `CORTEX_CODE_CACHE`: a directory for the code cache, or `off` (also `0`, `false`) for none. */
export const CODE_CACHE_ENV = 'CORTEX_CODE_CACHE';

/** Commands whose second word picks what runs (`hook stop`, `git-hook post-merge`): each gets a cache of its own. */
const WITH_EVENT: ReadonlySet<string> = new Set(['hook', 'git-hook']);

/** Hook events that set V8 flags (commands/hook.ts): set before compiling, so that the cache's flags match. */
const REGEXP_EAGER: ReadonlySet<string> = new Set(['hook stop', 'hook pre-compact', 'hook session-end']);

/** Global options that may come before the command (term/args.ts, `hoistGlobalOptions`), and whether each takes a value. */
const GLOBAL_OPTIONS: ReadonlyMap<string, boolean> = new Map([
  ['-C', true],
  ['--dir', true],
  ['--json', false],
  ['--quiet', false],
  ['-q', false],
]);

/**
 * The name a command's cache is kept under: the command word (and the event, for hooks),
 * after any global options; `undefined` for anything else (no command, help, an unknown
 * option, odd characters).
 *
 * @example
 * cacheKeyOf(['recall', 'sqlite migration']) // 'recall'
 * cacheKeyOf(['-C', '../repo', 'hook', 'stop']) // 'hook stop'
 */
export function cacheKeyOf(argv: readonly string[]): string | undefined {
  const word = /^[a-z][a-z-]{0,30}$/;
  let at = 0;
  while (at < argv.length && argv[at]!.startsWith('-')) {
    const arg = argv[at]!;
    const takesValue = GLOBAL_OPTIONS.get(arg);
    if (takesValue === undefined && !arg.startsWith('--dir=')) return undefined;
    at += takesValue === true ? 2 : 1;
  }
  const command = argv[at];
  const event = argv[at + 1];
  if (command === undefined || !word.test(command) || command === 'help') return undefined;
  if (WITH_EVENT.has(command)) return event !== undefined && word.test(event) ? `${command} ${event}` : command;
  return command;
}

/**
 * The directory of the code cache: `CORTEX_CODE_CACHE`, else the user's cache directory
 * (`$XDG_CACHE_HOME`, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows, `~/.cache`)
 * under `cortex/code`; `undefined` when turned off.
 *
 * @example
 * codeCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/a') // '/c/cortex/code'
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  const set = env[CODE_CACHE_ENV]?.trim();
  if (set !== undefined && set !== '') return /^(off|0|false|no)$/i.test(set) ? undefined : set;
  const base =
    env.XDG_CACHE_HOME?.trim() ||
    (platform === 'darwin' ? join(home, 'Library', 'Caches') : platform === 'win32' ? env.LOCALAPPDATA?.trim() || join(home, 'AppData', 'Local') : join(home, '.cache'));
  return join(base, 'cortex', 'code');
}

/**
 * The stamp of one build of bundle `name` under one Node: caches of other stamps of that
 * bundle are stale. The content hash is on the bundle's first line (`// cortex bundle
 * <hash>`); npm gives every installed file the same time, and V8 checks only a source's length.
 */
function stampOf(name: BundleName, source: string, bundle: Stats): string | undefined {
  const hash = /^\/\/ cortex bundle ([0-9a-f]{16})\n/.exec(source.slice(0, 40))?.[1];
  return hash === undefined ? undefined : `${process.version}-${process.arch}-${name}-${hash}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}`;
}

/**
 * The name of a cache file {@link cacheFileName} makes, of any build or Node, and the bundle
 * it is of (none in the names of versions before there were two bundles).
 */
const OWN_CACHE = /^v\d+\.\d+\.\d+[^-]*-[a-z0-9]+-(?:([a-z]+)-)?[0-9a-f]{16}-\d+-\d+-[a-z][a-z.-]*\.bin$/;

function cacheFileName(stamp: string, key: string): string {
  return `${stamp}-${key.replace(' ', '.')}.bin`;
}

/** Writes the cache atomically and removes the caches of the bundle's other stamps; never throws. */
function saveCache(script: vm.Script, dir: string, name: BundleName, stamp: string, key: string): void {
  try {
    const data = script.createCachedData();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, cacheFileName(stamp, key));
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
    // Only caches of ours (the directory may be one a user named for other things too).
    for (const file of readdirSync(dir)) {
      const own = OWN_CACHE.exec(file);
      if (own && (own[1] === undefined || own[1] === name) && !file.startsWith(`${stamp}-`)) unlinkSync(join(dir, file));
    }
  } catch {
    // No cache: the next run compiles, as this one did.
  }
}

/**
 * Bundle `name` (`<name>.bundle.cjs`: the CLI, or the cached SessionStart), compiled with the
 * code cache where there is one; `undefined` when it cannot be used.
 */
function loadBundle<T extends object>(here: string, name: BundleName, argv: readonly string[]): T | undefined {
  // Node ≥ 20.? (21.7): without it, import() in the bundle (of the optional packages) could not run.
  const loader = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (loader === undefined) return undefined;
  const bundle = join(here, `${name}.bundle.cjs`);
  let stat: Stats;
  let source: string;
  try {
    stat = statSync(bundle);
    // The bundle is ASCII (scripts/bundle.mjs checks): latin1 is the cheapest exact decoding.
    source = readFileSync(bundle, 'latin1');
  } catch {
    return undefined;
  }
  const key = cacheKeyOf(argv);
  if (key !== undefined && REGEXP_EAGER.has(key)) {
    try {
      // Set before compiling: V8 keeps the flags a cache was made with and rejects it under others.
      (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString('--no-regexp-tier-up');
    } catch {
      // The default tiering.
    }
  }
  const stamp = stampOf(name, source, stat);
  const dir = key === undefined || stamp === undefined ? undefined : codeCacheDir(process.env, process.platform, safeHome());
  let cachedData: Buffer | undefined;
  if (dir !== undefined) {
    try {
      cachedData = readFileSync(join(dir, cacheFileName(stamp!, key!)));
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(source, { filename: bundle, cachedData, importModuleDynamically: loader });
  const rejected = cachedData !== undefined && script.cachedDataRejected === true;
  if (process.env.CORTEX_DEBUG) process.stderr.write(`cortex: code cache ${dir === undefined ? 'off' : cachedData === undefined ? 'missing' : rejected ? 'rejected' : 'used'} (${name} bundle)\n`);
  if (dir !== undefined && (cachedData === undefined || rejected)) {
    // After the command ran, so that the cache holds every function it compiled; only
    // after a success (a typo's usage error is not worth a file).
    process.once('exit', (code) => {
      if (code === 0) saveCache(script, dir, name, stamp!, key!);
    });
  }
  const module = { exports: {} as T };
  // The bundle's import() of the packages outside it (scripts/bundle.mjs) is this module's.
  const load = (specifier: string, options?: ImportCallOptions): Promise<unknown> => import(specifier, options);
  // Another bundle of dist/, with its own code cache (`undefined` when it cannot be loaded).
  const bundleOf = (other: BundleName): object | undefined => {
    if (!otherBundles.has(other)) otherBundles.set(other, loadBundle(here, other, argv));
    return otherBundles.get(other);
  };
  (script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string, i: typeof load, b: typeof bundleOf) => void)(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    here,
    load,
    bundleOf,
  );
  return module.exports;
}

function safeHome(): string {
  try {
    return homedir();
  } catch {
    return tmpdir();
  }
}

function off(env: NodeJS.ProcessEnv): boolean {
  return env.CORTEX_BUNDLE === '0';
}

const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

/**
 * True for `cortex hook session-start` as Claude Code runs it (no options): served from a
 * bundle of its own when the briefing is cached, a twentieth of the CLI's (src/start.ts).
 */
function isSessionStart(argv: readonly string[]): boolean {
  return argv.length === 2 && argv[0] === 'hook' && argv[1] === 'session-start';
}

if (invokedDirectly) {
  const here = dirname(fileURLToPath(import.meta.url));
  const argv = process.argv.slice(2);
  const bundled = !off(process.env);
  const start = bundled && isSessionStart(argv) ? loadBundle<Start>(here, 'start', argv) : undefined;
  const cli = (): Main | undefined => (bundled ? loadBundle<Main>(here, 'cli', argv) : undefined);
  // No top-level await: scripts/bundle.mjs makes the CommonJS executable (dist/cli.cjs) of this module.
  const modules = (): Promise<Main> => import('./main.js');
  if (start) void start.startSession(async () => cli() ?? (await modules()));
  else {
    const main = cli();
    if (main) main.start(argv);
    else void modules().then((m) => m.start(argv));
  }
}
