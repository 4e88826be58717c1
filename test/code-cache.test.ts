/**
 * The `cortex` executable (src/cli.ts): the bundled CLI and V8's code cache, run as a user
 * runs it (`node dist/cli.js …`, built by `npm test`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKeyOf, codeCacheDir } from '../src/cli.js';
import { REPO_ROOT } from './helpers/repo.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.cjs');
const BUNDLE = join(REPO_ROOT, 'dist', 'cli.bundle.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'cortex-code-cache-'));
/** A set-up repository the commands run in (a command that fails writes no cache). */
const repo = join(scratch, 'repo');
const baseEnv = { HOME: join(scratch, 'home'), CORTEX_HOME: join(scratch, 'cortex-home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(scratch, 'gitconfig'), NO_COLOR: '1' };
beforeAll(() => {
  spawnSync('git', ['init', '-q', repo]);
  const init = spawnSync(process.execPath, [CLI, 'init'], { cwd: repo, encoding: 'utf8', env: { ...process.env, ...baseEnv, CORTEX_CODE_CACHE: 'off' } });
  expect(init.status, init.stderr).toBe(0);
  spawnSync(process.execPath, [CLI, 'index'], { cwd: repo, env: { ...process.env, ...baseEnv, CORTEX_CODE_CACHE: 'off' } });
  // For the copies of dist/ below: their imports find the packages here, as in an install.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(scratch, 'node_modules'), 'junction');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cortex(args: string[], env: NodeJS.ProcessEnv, cli = CLI): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: repo,
    env: { ...process.env, ...baseEnv, CORTEX_DEBUG: '1', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What the executable said about the cache (`cortex: code cache used` with CORTEX_DEBUG). */
function cacheState(stderr: string): string | undefined {
  return /cortex: code cache (\w+)/.exec(stderr)?.[1];
}

describe('cacheKeyOf', () => {
  it('names the command, and the event of a hook', () => {
    expect(cacheKeyOf(['recall', 'sqlite migration', '--limit', '3'])).toBe('recall');
    expect(cacheKeyOf(['hook', 'stop'])).toBe('hook stop');
    expect(cacheKeyOf(['git-hook', 'post-merge', '1'])).toBe('git-hook post-merge');
    expect(cacheKeyOf(['hook'])).toBe('hook');
  });

  it('skips the global options before the command', () => {
    expect(cacheKeyOf(['-C', '../repo', 'status'])).toBe('status');
    expect(cacheKeyOf(['--dir=../repo', '--json', '-q', 'list'])).toBe('list');
    expect(cacheKeyOf(['--dir', '--json', 'list'])).toBe('list');
  });

  it('gives no key to help, an unknown option or an odd word', () => {
    for (const argv of [[], ['--help'], ['help', 'recall'], ['--version'], ['--frobnicate', 'list'], ['Recall'], ['../../etc'], ['hook', '../x'], ['-C']]) {
      const key = cacheKeyOf(argv);
      if (argv[0] === 'hook') expect(key).toBe('hook');
      else expect(key, JSON.stringify(argv)).toBeUndefined();
    }
  });
});

describe('codeCacheDir', () => {
  it('follows CORTEX_CODE_CACHE, then the platform cache directory', () => {
    expect(codeCacheDir({ CORTEX_CODE_CACHE: '/c/x' }, 'linux', '/h')).toBe('/c/x');
    for (const off of ['off', 'OFF', '0', 'false', 'no']) expect(codeCacheDir({ CORTEX_CODE_CACHE: off }, 'linux', '/h')).toBeUndefined();
    expect(codeCacheDir({ CORTEX_CODE_CACHE: '  ' }, 'linux', '/h')).toBe(join('/h', '.cache', 'cortex', 'code'));
    expect(codeCacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/h')).toBe(join('/xdg', 'cortex', 'code'));
    expect(codeCacheDir({}, 'darwin', '/h')).toBe(join('/h', 'Library', 'Caches', 'cortex', 'code'));
    expect(codeCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\h')).toBe(join('C:\\L', 'cortex', 'code'));
  });
});

describe('the bundled executable', () => {
  it('is one ASCII function expression whose first line names its content hash, its local names made short', () => {
    const text = readFileSync(BUNDLE, 'latin1');
    // The wrapper's seven parameters (exports, require, module, __filename, __dirname,
    // __cortexImport, __cortexBundle), renamed.
    expect(text).toMatch(/^\/\/ cortex bundle [0-9a-f]{16}\n\(function\((\w+,){6}\w+\)\{"use strict";/);
    expect(text.endsWith('})')).toBe(true);
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    // Short local names, kept function names: a failure's stack still names its functions.
    expect(text).toContain('function keywordResults(');
    // The MCP SDK and zod are left to their own bundle, which `cortex mcp` loads.
    expect(text.length).toBeLessThan(1_500_000);
    expect(text).toContain('__cortexMcpDeps(`@modelcontextprotocol/sdk/server/mcp.js`)');
    expect(readFileSync(join(REPO_ROOT, 'dist', 'mcp.bundle.cjs'), 'latin1')).toMatch(/^\/\/ cortex bundle [0-9a-f]{16}\n\(function\(/);
  });

  it('runs `cortex mcp` from the MCP bundle with a code cache of its own, and answers as from node_modules without it', async () => {
    const dir = join(scratch, 'cache-mcp');
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
    const ask = (cli: string) => spawnSync(process.execPath, [cli, 'mcp'], { cwd: repo, input: request, encoding: 'utf8', env: { ...process.env, ...baseEnv, CORTEX_CODE_CACHE: dir } });
    const first = ask(CLI);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout.split('\n')[0]!).result.serverInfo.name).toBeTruthy();
    // Each bundle wrote its own cache for the command.
    expect(readdirSync(dir).map((f) => f.replace(/^v[^-]+-[^-]+-(\w+)-.*-(\w+)\.bin$/, '$1 $2')).sort()).toEqual(['cli mcp', 'mcp mcp']);
    // Without the MCP bundle (a copy of dist/ missing it), the packages come from node_modules.
    const copy = join(scratch, 'dist-no-mcp');
    cpSync(join(REPO_ROOT, 'dist'), copy, { recursive: true });
    rmSync(join(copy, 'mcp.bundle.cjs'));
    const alone = ask(join(copy, 'cli.cjs'));
    expect(alone.status, alone.stderr).toBe(0);
    // (The copy has no package.json beside it to read the version from.)
    const answer = (stdout: string) => ({ ...JSON.parse(stdout.split('\n')[0]!), version: undefined }) as { result: { serverInfo: { version?: string } } };
    const [a, b] = [answer(first.stdout), answer(alone.stdout)];
    delete a.result.serverInfo.version;
    delete b.result.serverInfo.version;
    expect(b).toEqual(a);
  });

  it('makes a cache on the first run of a command, uses it on the next, and prints the same', () => {
    const dir = join(scratch, 'cache-a');
    const first = cortex(['status', '--json'], { CORTEX_CODE_CACHE: dir });
    expect(cacheState(first.stderr)).toBe('missing');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^v\d+\.\d+\.\d+-[a-z0-9]+-cli-[0-9a-f]{16}-\d+-\d+-status\.bin$/);
    const second = cortex(['status', '--json'], { CORTEX_CODE_CACHE: dir });
    expect(cacheState(second.stderr)).toBe('used');
    expect(second.stdout).toBe(first.stdout);
    expect(second.status).toBe(first.status);
    // Another command has a cache of its own.
    cortex(['list'], { CORTEX_CODE_CACHE: dir });
    expect(readdirSync(dir).sort().map((f) => f.replace(/^.*-(\w+)\.bin$/, '$1'))).toEqual(['list', 'status']);
  });

  it('uses the user cache directory by default (under $HOME, private to the user)', () => {
    const home = join(scratch, 'home-default');
    cortex(['list'], { HOME: home, XDG_CACHE_HOME: '', CORTEX_CODE_CACHE: '' });
    const dir = join(home, '.cache', 'cortex', 'code');
    expect(readdirSync(dir)).toHaveLength(1);
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('rejects a damaged cache, still runs correctly, and makes it again', () => {
    const dir = join(scratch, 'cache-b');
    const clean = cortex(['list'], { CORTEX_CODE_CACHE: dir });
    const [file] = readdirSync(dir);
    const bytes = readFileSync(join(dir, file!));
    bytes.fill(0x5a, 16, 64);
    writeFileSync(join(dir, file!), bytes);
    const damaged = cortex(['list'], { CORTEX_CODE_CACHE: dir });
    expect(cacheState(damaged.stderr)).toBe('rejected');
    expect(damaged.stdout).toBe(clean.stdout);
    expect(cacheState(cortex(['list'], { CORTEX_CODE_CACHE: dir }).stderr)).toBe('used');
    // A file that is not a cache at all.
    writeFileSync(join(dir, file!), 'not a code cache');
    const garbage = cortex(['list'], { CORTEX_CODE_CACHE: dir });
    expect(cacheState(garbage.stderr)).toBe('rejected');
    expect(garbage.status).toBe(clean.status);
  });

  it('writes nothing when turned off, after a failed command, or when the directory cannot be made', () => {
    const off = cortex(['list'], { CORTEX_CODE_CACHE: 'off' });
    expect(cacheState(off.stderr)).toBe('off');
    const dir = join(scratch, 'cache-c');
    const typo = cortex(['recal', 'x'], { CORTEX_CODE_CACHE: dir });
    expect(typo.status).toBe(2);
    expect(existsSync(dir)).toBe(false);
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, '');
    const blocked = cortex(['list'], { CORTEX_CODE_CACHE: join(blocker, 'cache') });
    expect(blocked.status).toBe(0);
    expect(blocked.stderr).not.toMatch(/error/i);
  });

  it('keeps only the caches of the current build: a rebuilt bundle makes its own and the stale ones go', () => {
    const dir = join(scratch, 'cache-d');
    const copy = join(scratch, 'dist-copy');
    cpSync(join(REPO_ROOT, 'dist'), copy, { recursive: true, filter: (src) => !src.includes('viewer') });
    // The package.json the copied modules read their version from.
    cpSync(join(REPO_ROOT, 'package.json'), join(scratch, 'package.json'));
    const cli = join(copy, 'cli.cjs');
    expect(cacheState(cortex(['list'], { CORTEX_CODE_CACHE: dir }, cli).stderr)).toBe('missing');
    const [before] = readdirSync(dir);
    // Files that are not caches of ours stay, whatever their names.
    writeFileSync(join(dir, 'notes.bin'), 'mine');
    // A new build of the same length (what npm's fixed file times would not tell apart).
    const bundle = join(copy, 'cli.bundle.cjs');
    const text = readFileSync(bundle, 'latin1');
    writeFileSync(bundle, text.replace(/^\/\/ cortex bundle [0-9a-f]{16}/, '// cortex bundle 0123456789abcdef'), 'latin1');
    expect(cacheState(cortex(['list'], { CORTEX_CODE_CACHE: dir }, cli).stderr)).toBe('missing');
    const after = readdirSync(dir).filter((f) => f !== 'notes.bin');
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(readFileSync(join(dir, 'notes.bin'), 'utf8')).toBe('mine');
  });

  it('runs the ES modules when there is no bundle (a build without it), and with CORTEX_BUNDLE=0', () => {
    const copy = join(scratch, 'dist-nobundle');
    cpSync(join(REPO_ROOT, 'dist'), copy, { recursive: true, filter: (src) => !src.includes('viewer') && !src.endsWith('cli.bundle.cjs') });
    const withBundle = cortex(['list', '--json'], { CORTEX_CODE_CACHE: 'off' });
    const without = cortex(['list', '--json'], {}, join(copy, 'cli.cjs'));
    expect(cacheState(without.stderr)).toBeUndefined();
    expect(without.stdout).toBe(withBundle.stdout);
    const modules = cortex(['list', '--json'], { CORTEX_BUNDLE: '0' });
    expect(cacheState(modules.stderr)).toBeUndefined();
    expect(modules.stdout).toBe(withBundle.stdout);
  });

  it('imports the packages outside the bundle from a cached function (tree-sitter for index-code)', () => {
    const dir = join(scratch, 'cache-e');
    writeFileSync(join(repo, 'a.ts'), 'export function first(): number {\n  return 1;\n}\n');
    const first = cortex(['index-code', '--json'], { CORTEX_CODE_CACHE: dir });
    expect(first.status, first.stderr).toBe(0);
    expect(cacheState(first.stderr)).toBe('missing');
    writeFileSync(join(repo, 'a.ts'), 'export function first(): number {\n  return 1;\n}\nexport function second(): number {\n  return 2;\n}\n');
    const second = cortex(['index-code', '--json'], { CORTEX_CODE_CACHE: dir });
    expect(second.status, second.stderr).toBe(0);
    expect(cacheState(second.stderr)).toBe('used');
    expect(JSON.parse(second.stdout)).toMatchObject({ symbols: 2 });
  });

  it('finds the shipped files from each module, not from the bundle (version, templates, hooks)', () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(cortex(['--version'], {}).stdout.trim()).toBe(version);
    // init read the templates (the projections) and wrote git hooks that run this executable.
    expect(readFileSync(join(repo, '.cortex', 'decisions.md'), 'utf8')).toMatch(/decision/i);
    expect(readFileSync(join(repo, '.git', 'hooks', 'pre-commit'), 'utf8')).toContain('git-hook pre-commit');
  });
});
