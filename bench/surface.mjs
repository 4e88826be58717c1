#!/usr/bin/env node
/**
 * Surface benchmark (DESIGN §10), whole-process, in one run so the ratios compare like
 * with like on a shared machine:
 *   - cached briefing (`cortex surface --cached`, what SessionStart runs) ≤ 1.6 × `node -e 0`
 *   - cold briefing (`cortex surface` with no .memory/ at all) ≤ 1.5 s
 * at 10,000 memories generated deterministically with the real `renderMemory`.
 * Also measured: a script that only imports the fast cache module (the floor), and the
 * list of modules the cached path loads.
 *
 * Usage: npm run build && node bench/surface.mjs [--memories 10000] [--rounds 9] [--json]
 * Exit code 1 when a budget is missed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 as prng } from './lib/random.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli.cjs');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const N = opt('memories', 10_000);
const ROUNDS = opt('rounds', 9);
const JSON_OUT = args.includes('--json');

const { renderMemory } = await import(pathToFileURL(join(DIST, 'core/memory-format.js')).href);

const TYPES = ['architecture', 'decision', 'rejected', 'pattern', 'gotcha', 'preference', 'plan', 'progress', 'context', 'code_description', 'code'];
const WORDS = 'index cache storage sqlite hooks merge driver branch session token budget briefing decay rank graph edge recall query embedding vector transcript lock atomic write config yaml markdown remark template lifecycle archive prune plan progress gotcha pattern'.split(' ');
const NOW = Date.parse('2026-12-01T09:00:00Z');

function corpus(dir) {
  const rand = prng(42);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const memDir = join(dir, '.cortex', 'memories');
  mkdirSync(memDir, { recursive: true });
  mkdirSync(join(dir, '.cortex', 'edges'), { recursive: true });
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  for (let i = 0; i < N; i++) {
    const type = pick(TYPES);
    const summary = `${words(3 + Math.floor(rand() * 6))} ${i}`;
    const suffix = Array.from({ length: 6 }, () => alphabet[Math.floor(rand() * 32)]).join('');
    const id = `${summary.split(' ').slice(0, 4).join('-')}-${suffix}`;
    const updated = new Date(NOW - Math.floor(rand() * 400) * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const body =
      type === 'plan'
        ? `Plan ${i}.\n\n${Array.from({ length: 6 }, (_, k) => `- [${k < 2 ? 'x' : ' '}] ${words(4)}`).join('\n')}`
        : `${words(20 + Math.floor(rand() * 40))}.\n\n${words(30)}.`;
    const memory = {
      id,
      type,
      summary,
      scope: 'project',
      priority: 1 + Math.floor(rand() * 10),
      confidence: Math.round((0.3 + rand() * 0.7) * 100) / 100,
      pinned: rand() < 0.01,
      status: rand() < 0.85 ? 'active' : rand() < 0.7 ? 'archived' : 'superseded',
      tags: [pick(WORDS), pick(WORDS)].filter((t, k, a) => a.indexOf(t) === k),
      created: updated,
      updated,
      source: { kind: 'extraction', layer: 'keyword', session: Math.floor(rand() * 0xffffffff).toString(16).padStart(8, 'a'), branch: rand() < 0.5 ? 'main' : `feat/${pick(WORDS)}`, files: rand() < 0.3 ? [`src/${pick(WORDS)}.ts`] : undefined },
      body,
      extra: {},
    };
    if (!memory.source.files) delete memory.source.files;
    writeFileSync(join(memDir, `${id}.md`), renderMemory(memory));
  }
}

/**
 * Where GNU time exists, children also report their CPU time (user + sys): on a shared,
 * loaded machine wall time mostly measures the queue for a core, CPU time the work.
 */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const CPU_MARK = '@@cpu ';

function run(argv, cwd, env) {
  const started = process.hrtime.bigint();
  const r = TIME
    ? spawnSync(TIME, ['-f', `${CPU_MARK}%U %S`, process.execPath, ...argv], { cwd, env, encoding: 'utf8' })
    : spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  let stderr = r.stderr;
  let cpuMs = Number.NaN;
  const at = stderr.lastIndexOf(CPU_MARK);
  if (at !== -1) {
    const [user, sys] = stderr.slice(at + CPU_MARK.length).trim().split(/\s+/).map(Number);
    cpuMs = (user + sys) * 1000;
    stderr = stderr.slice(0, at);
  }
  return { ms, cpuMs, stdout: r.stdout, stderr };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const base = mkdtempSync(join(tmpdir(), 'cortex-bench-surface-'));
try {
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), CORTEX_NOW: '2026-12-01T09:00:00Z', NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, 'gitconfig') };
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  const t0 = Date.now();
  corpus(dir);
  const generateMs = Date.now() - t0;

  // The floor: a script that imports only the fast cache module and prints the entry.
  const floor = join(base, 'fast-only.mjs');
  writeFileSync(
    floor,
    `import { readCachedSurface } from ${JSON.stringify(pathToFileURL(join(DIST, 'cache/surface-cache.js')).href)};\n` +
      `const text = readCachedSurface({ root: process.cwd() });\nif (text === undefined) process.exit(3);\nprocess.stdout.write(text);\n`,
  );
  // A loader hook that records every module the cached path loads.
  const hooks = join(base, 'hooks.mjs');
  const register = join(base, 'register.mjs');
  const loadLog = join(base, 'loaded.txt');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); if (!r.url.startsWith('node:')) appendFileSync(process.env.CORTEX_BENCH_LOG, r.url + '\\n'); return r; }\n`);
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

  const samples = { nodeBare: [], cached: [], fastOnly: [], cold: [] };
  const cpu = { nodeBare: [], cached: [], fastOnly: [], cold: [] };
  const loadBefore = loadavg()[0];
  let cachedText;
  let coldText;
  for (let round = 0; round < ROUNDS; round++) {
    rmSync(join(dir, '.memory'), { recursive: true, force: true });
    const cold = run([CLI, 'surface'], dir, env);
    coldText = cold.stdout;
    const bare = run(['-e', '0'], dir, env);
    const cached = run([CLI, 'surface', '--cached'], dir, env);
    cachedText = cached.stdout;
    const fastOnly = run([floor], dir, env);
    for (const [k, r] of [['cold', cold], ['nodeBare', bare], ['cached', cached], ['fastOnly', fastOnly]]) {
      samples[k].push(r.ms);
      cpu[k].push(r.cpuMs);
    }
  }
  if (cachedText !== coldText) throw new Error('the cached briefing differs from the one just built');

  rmSync(loadLog, { force: true });
  run(['--import', pathToFileURL(register).href, CLI, 'surface', '--cached'], dir, { ...env, CORTEX_BENCH_LOG: loadLog });
  const loaded = readFileSync(loadLog, 'utf8').trim().split('\n').map((u) => u.replace(pathToFileURL(ROOT).href + '/', ''));

  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const c = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
  const round1 = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  const result = {
    memories: N,
    rounds: ROUNDS,
    generateMs,
    cores: cpus().length,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    medianMs: round1(m),
    minMs: round1(Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, Math.min(...v)]))),
    medianCpuMs: round1(c),
    ratios: { cachedOverNode: m.cached / m.nodeBare, fastOnlyOverNode: m.fastOnly / m.nodeBare },
    cpuRatios: { cachedOverNode: c.cached / c.nodeBare, fastOnlyOverNode: c.fastOnly / c.nodeBare },
    budgets: { cachedOverNode: 1.6, coldMs: 1500 },
    pass: { cached: m.cached / m.nodeBare <= 1.6, cold: m.cold <= 1500 },
    briefingChars: cachedText.length,
    cachedPathModules: loaded,
  };
  mkdirSync(join(ROOT, 'bench', '.out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', '.out', 'surface.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (JSON_OUT) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const r2 = (x) => x.toFixed(2);
    const cpuNote = (k) => (Number.isNaN(c[k]) ? '' : `   cpu ${c[k].toFixed(0)} ms`);
    console.log(`surface benchmark: ${N} memories, ${ROUNDS} rounds (medians, whole process); ${result.cores} cores, load average ${loadBefore.toFixed(1)} → ${result.loadAverage.after.toFixed(1)}`);
    console.log(`  node -e 0                 ${m.nodeBare.toFixed(1)} ms${cpuNote('nodeBare')}`);
    console.log(`  surface --cached (hook)   ${m.cached.toFixed(1)} ms  = ${r2(result.ratios.cachedOverNode)} × node   (budget 1.6×)  ${result.pass.cached ? 'PASS' : 'FAIL'}${cpuNote('cached')} = ${r2(result.cpuRatios.cachedOverNode)} × node`);
    console.log(`  fast module only (floor)  ${m.fastOnly.toFixed(1)} ms  = ${r2(result.ratios.fastOnlyOverNode)} × node${cpuNote('fastOnly')} = ${r2(result.cpuRatios.fastOnlyOverNode)} × node`);
    console.log(`  cold surface, no .memory  ${m.cold.toFixed(1)} ms  (budget 1500 ms)  ${result.pass.cold ? 'PASS' : 'FAIL'}${cpuNote('cold')}`);
    if (loadBefore > result.cores) console.log(`  note: the machine was loaded (load ${loadBefore.toFixed(1)} on ${result.cores} cores); wall times include waiting for a core.`);
    console.log(`  modules loaded by the cached path: ${loaded.join(', ')}`);
  }
  process.exitCode = result.pass.cached && result.pass.cold ? 0 : 1;
} finally {
  rmSync(base, { recursive: true, force: true });
}
