/**
 * The npm package as a user gets it: `npm pack`, then the tarball installed into an empty
 * directory, with and without the optional embedding stack, and the installed `cortex` run
 * with npx in a fresh git repository. Installs prefer npm's local cache (`--prefer-offline`),
 * so a warm machine needs no network; with no registry and no cache the install tests skip
 * and say why. The size budgets are the ones in bench/README.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { gitEnv, REPO_ROOT } from '../helpers/repo.js';

/** bench/README.md, "Package size". */
export const BUDGET = {
  tarballBytes: 1_700_000,
  unpackedBytes: 5_800_000,
  keywordInstallBytes: 60_000_000,
  keywordInstallPackages: 200,
};

const INSTALL_TIMEOUT_MS = 240_000;
/** What npm prints when the registry cannot be reached and the cache does not have it. */
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENOTCACHED|ENETUNREACH|network request/i;

interface Packed {
  tarball: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let work: string;
let packed: Packed | { error: string };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cortex-pack-'));
  // dist/ is built by `npm run test:e2e`; --ignore-scripts keeps prepack from rebuilding it
  // under the other end-to-end tests that run it.
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) {
    packed = { error: `npm pack failed: ${r.stderr.trim().split('\n').slice(-5).join(' ')}` };
    return;
  }
  const [info] = JSON.parse(r.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
  packed = { tarball: join(work, info!.filename), size: info!.size, unpackedSize: info!.unpackedSize, files: info!.files };
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

function packedOrFail(): Packed {
  if ('error' in packed) throw new Error(packed.error);
  return packed;
}

/** Bytes on disk under `dir` (regular files; links counted once as links). */
function diskBytes(dir: string): number {
  let total = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else total += st.size;
    }
  };
  walk(dir);
  return total;
}

function countPackages(nodeModules: string): number {
  let n = 0;
  for (const name of readdirSync(nodeModules)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) n += readdirSync(join(nodeModules, name)).length;
    else n++;
  }
  return n;
}

/**
 * The warnings npm printed that come from the package (or its dependencies), not from the
 * machine's own npm configuration (an unknown key in ~/.npmrc is not ours).
 */
function packageWarnings(output: string, ignore: RegExp[] = []): string[] {
  return output
    .split('\n')
    .filter((l) => /^npm (warn|WARN)/.test(l))
    .filter((l) => !/Unknown (user|global|builtin|env) config/.test(l))
    .filter((l) => !ignore.some((re) => re.test(l)));
}

interface Installed {
  dir: string;
  output: string;
  ms: number;
}

/** Installs the tarball into a new empty project; skips the test when npm cannot reach its packages. */
async function install(ctx: TestContext, name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Installed> {
  const tarball = packedOrFail().tarball;
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `consumer-${name}`, private: true })}\n`);
  const started = Date.now();
  // Asynchronous, so the two installs run side by side.
  const r = await new Promise<{ status: number | null; output: string; error?: Error }>((resolve) => {
    const child = spawn('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args, tarball], {
      cwd: dir,
      env: { ...process.env, npm_config_update_notifier: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
    child.on('error', (error) => resolve({ status: null, output, error }));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
  const output = r.output;
  if (r.status !== 0) {
    if (r.error || OFFLINE.test(output)) ctx.skip(`npm install of the tarball could not reach its dependencies (no registry, not in the npm cache): ${(r.error?.message ?? output).trim().split('\n').slice(-3).join(' ')}`);
    throw new Error(`npm install ${args.join(' ')} failed (exit ${r.status}):\n${output}`);
  }
  return { dir, output, ms: Date.now() - started };
}

/** `npx cortex …` in the installed project, which is made a git repository of its own. */
function npxCortex(dir: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const home = join(dir, '.home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'gitconfig'), '[init]\n\tdefaultBranch = main\n');
  const r = spawnSync('npx', ['--no-install', 'cortex', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...gitEnv(home), npm_config_update_notifier: 'false' } });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function initRememberRecall(dir: string): void {
  expect(spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir }).status).toBe(0);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n.home/\n');
  const init = npxCortex(dir, ['init']);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toMatch(/Cortex is set up/);
  const remember = npxCortex(dir, ['remember', 'Chose SQLite over PostgreSQL because zero-config matters most', '--type', 'decision', '--json']);
  expect(remember.code, remember.stderr).toBe(0);
  const { id } = JSON.parse(remember.stdout) as { id: string };
  const recall = npxCortex(dir, ['recall', 'why sqlite', '--json']);
  expect(recall.code, recall.stderr).toBe(0);
  expect((JSON.parse(recall.stdout) as { results: { id: string }[] }).results.map((x) => x.id)).toContain(id);
  expect(readFileSync(join(dir, '.cortex', 'memories', `${id}.md`), 'utf8')).toMatch(/^type: decision$/m);
}

describe('the npm package', () => {
  it('packs dist, templates, the git hooks and the plugin, nothing else, within the size budget; bin, exports and engines point into it', () => {
    const p = packedOrFail();
    const paths = p.files.map((f) => f.path);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      exports: Record<string, unknown>;
      engines: { node: string };
      main: string;
      types: string;
    };
    expect(new Set(paths.map((f) => f.split('/')[0]))).toEqual(new Set(['dist', 'templates', 'hooks', 'plugin', 'package.json', 'README.md', 'LICENSE']));
    expect(paths.filter((f) => /\.(map|ts)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    expect(paths.filter((f) => /\.test\.|(^|\/)test\//.test(f))).toEqual([]);
    for (const f of ['plugin/.claude-plugin/plugin.json', 'plugin/hooks/hooks.json', 'plugin/skills/recall/SKILL.md', 'templates/claude/settings.json', 'hooks/git/pre-commit']) {
      expect(paths).toContain(f);
    }
    expect(pkg.bin).toEqual({ cortex: 'dist/cli.cjs' });
    expect(paths).toContain(pkg.bin.cortex);
    expect(readFileSync(join(REPO_ROOT, 'dist/cli.cjs'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' });
    for (const f of [pkg.main, pkg.types]) expect(paths).toContain(f.replace(/^\.\//, ''));
    expect(pkg.engines.node).toBe('>=20');
    expect(p.size).toBeLessThan(BUDGET.tarballBytes);
    expect(p.unpackedSize).toBeLessThan(BUDGET.unpackedBytes);
    console.info(`[e2e] tarball: ${p.size} bytes packed, ${p.unpackedSize} unpacked, ${p.files.length} files`);
  });

  describe.concurrent('installed from the tarball into an empty directory', () => {
    it('keyword-only (--omit=optional): no warnings, npx cortex init, remember and recall work, within the size budget', async (ctx) => {
      const got = await install(ctx, 'keyword', ['--omit=optional']);
      expect(packageWarnings(got.output)).toEqual([]);
      const nodeModules = join(got.dir, 'node_modules');
      expect(existsSync(join(nodeModules, '@huggingface', 'transformers'))).toBe(false);
      const bytes = diskBytes(nodeModules);
      const packages = countPackages(nodeModules);
      console.info(`[e2e] keyword-only install: ${bytes} bytes, ${packages} top-level packages, ${got.ms} ms`);
      expect(bytes).toBeLessThan(BUDGET.keywordInstallBytes);
      expect(packages).toBeLessThan(BUDGET.keywordInstallPackages);
      // The figure docs/install.md and the README give for this very command stays true (within 15 %).
      for (const doc of ['docs/install.md', 'README.md']) {
        const figure = /Keyword-only\*{0,2}[^(]*\((\d+) MB installed/.exec(readFileSync(join(REPO_ROOT, doc), 'utf8'));
        expect(figure, `${doc} states the keyword-only size`).not.toBeNull();
        expect(Math.abs(bytes / 1e6 - Number(figure![1])) / Number(figure![1]), `${doc}: ${figure![1]} MB stated, ${(bytes / 1e6).toFixed(1)} MB measured`).toBeLessThan(0.15);
      }
      initRememberRecall(got.dir);
      // Code indexing's tree-sitter is optional too: one clear error naming the fix, no "bug" text.
      writeFileSync(join(got.dir, 'pool.ts'), 'export function acquire(): void {}\n');
      const indexCode = npxCortex(got.dir, ['index-code']);
      expect(indexCode.code, indexCode.stderr).toBe(1);
      expect(indexCode.stderr).toMatch(/^error: Code indexing needs tree-sitter/m);
      expect(indexCode.stderr).toMatch(/^hint: .*--omit=optional/m);
      expect(indexCode.stderr).not.toMatch(/bug in cortex/);
    });

    it('with the embedding stack (ONNXRUNTIME_NODE_INSTALL=skip, as docs/install.md says): it installs and loads', async (ctx) => {
      const got = await install(ctx, 'full', [], { ONNXRUNTIME_NODE_INSTALL: 'skip' });
      // npm ≥ 11.19 lists dependencies whose install scripts the installing project has not
      // reviewed (its own allowScripts policy); the package cannot answer for the project.
      expect(packageWarnings(got.output, [/^npm warn install-scripts/])).toEqual([]);
      // …but none of those scripts is the package's own (a `prepare` would be: npm runs it for
      // a tarball or git install).
      expect(got.output.split('\n').filter((l) => l.includes('cortex-memory@'))).toEqual([]);
      const nodeModules = join(got.dir, 'node_modules');
      expect(existsSync(join(nodeModules, '@huggingface', 'transformers', 'package.json'))).toBe(true);
      const load = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('@huggingface/transformers'); console.log('loaded')"], { cwd: got.dir, encoding: 'utf8', timeout: 60_000 });
      expect(load.stdout.trim(), load.stderr).toBe('loaded');
      console.info(`[e2e] full install: ${diskBytes(nodeModules)} bytes, ${countPackages(nodeModules)} top-level packages, ${got.ms} ms`);
      initRememberRecall(got.dir);
      // With the optional packages, code indexing parses the project's source.
      writeFileSync(join(got.dir, 'pool.ts'), 'export function acquire(): void {}\n');
      const indexCode = npxCortex(got.dir, ['index-code', '--json']);
      expect(indexCode.code, indexCode.stderr).toBe(0);
      expect(indexCode.stdout).toContain('"files"');
    });
  });
});
