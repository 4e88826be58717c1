/**
 * The surface cache and its fast path (`src/cache/surface-cache.ts`): what the SessionStart
 * hook serves. Identical text, the invalidations the module documents, HEAD read as
 * text, and a check that the cached path loads no heavy module.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCachedSurface, surfaceCacheKey } from '../src/cache/surface-cache.js';
import { fixtureRepo } from './helpers/fixture-repo.js';
import { CLI, REPO_ROOT, json } from './helpers/repo.js';

const NOW = '2026-12-01T09:00:00Z';

function setup() {
  const f = fixtureRepo('surface-basic');
  const env = { ...f.repo.env, ...f.env };
  const cached = (extra: NodeJS.ProcessEnv = {}, variant: 'full' | 'compact' = 'full') =>
    readCachedSurface({ root: f.dir, env: { ...env, ...extra }, variant });
  return { ...f, env, cached };
}

describe('the surface cache', () => {
  it('serves exactly the briefing `cortex surface` printed, for both variants', () => {
    const { repo, env, cached } = setup();
    expect(cached()).toBeUndefined();
    const built = repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } });
    expect(built.code).toBe(0);
    expect(cached()).toBe(built.stdout);
    const viaCli = repo.cortex(['surface', '--cached'], { env: { CORTEX_NOW: NOW } });
    expect(viaCli.stdout).toBe(built.stdout);
    expect(viaCli.stderr).toBe('');
    // The compact variant was stored beside it, for the SessionStart after a compaction.
    const compact = repo.cortex(['surface', '--compact'], { env: { CORTEX_NOW: NOW } }).stdout;
    expect(cached({}, 'compact')).toBe(compact);
    expect(readdirSync(join(repo.dir, '.memory/surface-cache')).sort()).toEqual(['compact-config.json', 'full-config.json']);
    expect(env.CORTEX_NOW).toBe(NOW);
  });

  it('is invalidated by a remember, and the cached path then rebuilds it', () => {
    const { repo, cached } = setup();
    const before = repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } }).stdout;
    expect(cached()).toBe(before);
    const r = repo.cortex(['remember', 'Hooks must exit 0 even when the index is corrupt', '--type', 'gotcha', '--priority', '10'], { env: { CORTEX_NOW: NOW } });
    expect(r.code, r.stderr).toBe(0);
    expect(cached()).toBeUndefined();
    const after = repo.cortex(['surface', '--cached'], { env: { CORTEX_NOW: NOW } }).stdout;
    expect(after).toContain('Hooks must exit 0 even when the index is corrupt');
    expect(cached()).toBe(after);
  });

  it('is keyed by the day, the branch, the budget, the config and the usage signals as last folded', () => {
    const { repo, cached } = setup();
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-qm', 'fixture']).code).toBe(0);
    repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } });
    expect(cached()).toBeDefined();
    expect(cached({ CORTEX_NOW: '2026-12-01T23:59:59Z' })).toBeDefined();
    expect(cached({ CORTEX_NOW: '2026-12-02T00:00:01Z' })).toBeUndefined();
    expect(cached({ CORTEX_SURFACE_BUDGET: '300' })).toBeUndefined();

    expect(repo.git(['checkout', '-q', '-b', 'feat/other']).code).toBe(0);
    expect(cached()).toBeUndefined();
    expect(repo.git(['checkout', '-q', 'main']).code).toBe(0);
    expect(cached()).toBeDefined();

    // An in-place edit of config.yaml (no rename) still changes its own mtime and size.
    const config = join(repo.dir, '.cortex/config.yaml');
    writeFileSync(config, 'surface:\n  targetTokens: 300\n');
    expect(cached()).toBeUndefined();
    repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } });
    expect(cached()).toBeDefined();

    // A show counts as an access, appended to the usage log: the cached briefing stays valid
    // (a read writes nothing else). The log folded into signals.json (the lifecycle, or past
    // 1 MB) may change the ranking, so the cache does.
    expect(repo.cortex(['show', 'team-of-three-f8g9hh'], { env: { CORTEX_NOW: NOW } }).code).toBe(0);
    expect(repo.read('.memory/signals.log')).toContain('team-of-three-f8g9hh');
    expect(cached()).toBeDefined();
    writeFileSync(join(repo.dir, '.memory/signals.json'), `${JSON.stringify({ version: 1, signals: { 'team-of-three-f8g9hh': { accessCount: 1, lastAccess: NOW } } })}\n`);
    expect(cached()).toBeUndefined();
  });

  it('misses an in-place memory edit until the next command refreshes the index (documented)', () => {
    const { repo, cached } = setup();
    repo.cortex(['list'], { env: { CORTEX_NOW: NOW } });
    const before = repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } }).stdout;
    // A memory the briefing shows whatever the ranking details (the graph's centrality moves others).
    const file = join(repo.dir, '.cortex/memories/core-is-pure-shell-does-io-a7c2mm.md');
    expect(before).toContain('passes plain data in');
    writeFileSync(file, readFileSync(file, 'utf8').replace('passes plain data in', 'passes plain values in'));
    expect(cached()).toBe(before);
    repo.cortex(['list'], { env: { CORTEX_NOW: NOW } });
    expect(cached()).toBeUndefined();
    expect(repo.cortex(['surface', '--cached'], { env: { CORTEX_NOW: NOW } }).stdout).toContain('passes plain values in');
  });

  it('is not written while a fingerprinted whole-second mtime is too recent to trust', () => {
    const { repo } = setup();
    const whole = Math.floor(Date.now() / 1000);
    utimesSync(join(repo.dir, '.cortex/memories'), whole, whole);
    expect(surfaceCacheKey({ root: repo.dir, env: { ...repo.env, CORTEX_NOW: NOW } })?.racy).toBe(true);
    expect(json<{ cached: boolean }>(repo.cortex(['surface', '--json'], { env: { CORTEX_NOW: NOW } })).cached).toBe(false);
    utimesSync(join(repo.dir, '.cortex/memories'), whole - 10, whole - 10);
    expect(json<{ cached: boolean }>(repo.cortex(['surface', '--json'], { env: { CORTEX_NOW: NOW } })).cached).toBe(true);
  });

  it('loads no index, markdown toolchain, YAML, git library or embeddings on a hit', () => {
    const { repo } = setup();
    repo.cortex(['surface'], { env: { CORTEX_NOW: NOW } });
    const log = join(repo.home, 'loaded.txt');
    const hooks = join(repo.home, 'hooks.mjs');
    const register = join(repo.home, 'register.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, CLI, 'surface', '--cached'], {
      cwd: repo.dir,
      // The ES modules in dist/ rather than the bundle (src/cli.ts), whose lazily initialised
      // modules follow the same import() lines.
      env: { ...repo.env, CORTEX_NOW: NOW, CORTEX_BUNDLE: '0' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((u) => !u.startsWith('node:'))
      .map((u) => u.replace(`${pathToFileURL(REPO_ROOT).href}/`, ''));
    expect(loaded.every((u) => u.startsWith('dist/'))).toBe(true);
    expect([...new Set(loaded)].sort()).toEqual([
      // The names of the files in .memory/; node built-ins only.
      'dist/cache/layout.js',
      'dist/cache/surface-cache.js',
      // The executable, then the CLI's ES modules (CORTEX_BUNDLE=0).
      'dist/cli.cjs',
      'dist/commands/surface.js',
      // Did-you-mean for the argument parser; imports nothing.
      'dist/core/suggest.js',
      // The environment variables (CORTEX_HOME, CORTEX_NOW, CORTEX_SURFACE_BUDGET); node built-ins only.
      'dist/env.js',
      'dist/errors.js',
      // HEAD read as text (the branch is part of the key); node built-ins only.
      'dist/git/head.js',
      // The CLI itself.
      'dist/main.js',
      // The project root finder and the global home; node built-ins only.
      'dist/store/paths.js',
      'dist/term/args.js',
      'dist/term/color.js',
      // Writing to the descriptors and telling a terminal; node built-ins only.
      'dist/term/fd.js',
      // Reading stdin from its descriptor; node built-ins only.
      'dist/term/stdin.js',
    ]);
  });
});
