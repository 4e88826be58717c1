#!/usr/bin/env node
/**
 * Benchmark of the git-native paths at 10,000 memories, whole-process, beside `node -e 0`:
 *
 * - `cortex project` (regenerate the projections; nothing to write), `cortex project --check`
 * - the merge driver on one projection (`decisions.md`) during a `git merge`: regenerated
 *   from the merged memories of the three commits (the path git takes)
 * - the same driver when the commits cannot be named (entry by entry, as in a cherry-pick)
 * - a whole `git merge` of two branches that each added a decision (driver for every
 *   projection both sides changed, plus git's own work)
 *
 * Self-contained: builds its own deterministic corpus in a temporary git repository and
 * runs the BUILT cli (`npm run build` first). Usage:
 *   node bench/git.mjs [--n 10000] [--runs 5] [--json]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const { renderMemory } = await import(join(ROOT, 'dist', 'core', 'memory-format.js'));

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    keep: { type: 'string', description: 'Build the repository here and keep it (for profiling); run nothing.' },
  },
});
const N = Number(values.n);
const RUNS = Number(values.runs);

// A realistic type mix: most memories are not decisions, so most are never parsed by `project`.
const TYPES = [
  ['decision', 14], ['rejected', 5], ['plan', 2], ['progress', 9], ['architecture', 8], ['pattern', 12],
  ['gotcha', 12], ['preference', 4], ['context', 20], ['code_description', 10], ['code', 4],
];
const WORDS = 'cache pool index query schema migration hook lock queue retry token session router build test deploy config parser worker stream'.split(' ');

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function corpus(n, seed = 1) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const total = TYPES.reduce((t, [, w]) => t + w, 0);
  const typeOf = () => {
    let x = r() * total;
    for (const [t, w] of TYPES) if ((x -= w) < 0) return t;
    return 'context';
  };
  const out = [];
  for (let i = 0; i < n; i++) {
    const type = typeOf();
    const words = Array.from({ length: 6 }, () => pick(WORDS));
    const day = new Date(Date.UTC(2025, 5, 1) + Math.floor(r() * 540) * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const suffix = Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz234567'[Math.floor(r() * 32)]).join('');
    const id = `${words.slice(0, 4).join('-')}-${i}-${suffix}`;
    out.push({
      id, type, summary: `${words.join(' ')} (${i})`, scope: 'project', priority: 1 + Math.floor(r() * 10), confidence: 0.9,
      pinned: false, status: r() < 0.1 ? 'archived' : 'active', tags: [pick(WORDS), pick(WORDS)].filter((t, k, a) => a.indexOf(t) === k),
      created: day, updated: day, source: { kind: 'extraction', layer: 'self-report', branch: 'main', files: [`src/${pick(WORDS)}.ts`] },
      body: `We ${pick(WORDS)} the ${pick(WORDS)} because the ${pick(WORDS)} ${pick(WORDS)} was too slow.\n\n- ${pick(WORDS)} first\n- then ${pick(WORDS)}`,
      extra: {},
    });
  }
  return out;
}

const base = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'cortex-bench-git-'));
if (values.keep) {
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
}
const repo = join(base, 'repo');
const env = {
  ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@example.com',
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(base, 'gitconfig'), HOME: base, CORTEX_HOME: join(base, 'cortex-home'), NO_COLOR: '1',
};
writeFileSync(join(base, 'gitconfig'), '[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n');
const git = (...args) => execFileSync('git', args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).toString();
const cortex = (args, extraEnv = {}) => spawnSync(process.execPath, [CLI, ...args], { cwd: repo, env: { ...env, ...extraEnv }, encoding: 'utf8' });

function time(fn, runs = RUNS) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1] };
}

function must(r, what) {
  if (r.status !== 0 && r.status !== undefined) throw new Error(`${what} failed (${r.status}): ${r.stderr}`);
  return r;
}

try {
  mkdirSync(join(repo, '.cortex', 'memories'), { recursive: true });
  git('init', '-q', '-b', 'main');
  for (const m of corpus(N)) writeFileSync(join(repo, '.cortex', 'memories', `${m.id}.md`), renderMemory(m));
  must(cortex(['init']), 'init');
  must(cortex(['project']), 'project');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'corpus');

  const decision = (id, summary) =>
    renderMemory({ ...corpus(1, id.length)[0], id, type: 'decision', summary, status: 'active', created: '2026-11-20T10:00:00Z', updated: '2026-11-20T10:00:00Z' });
  git('checkout', '-q', '-b', 'feature');
  writeFileSync(join(repo, '.cortex', 'memories', 'feature-decision-aaaaaa.md'), decision('feature-decision-aaaaaa', 'Feature decision'));
  must(cortex(['project']), 'project');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'feature');
  git('checkout', '-q', 'main');
  writeFileSync(join(repo, '.cortex', 'memories', 'main-decision-bbbbbb.md'), decision('main-decision-bbbbbb', 'Main decision'));
  must(cortex(['project']), 'project');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'main');

  if (values.keep) {
    console.log(`repository kept in ${repo}`);
    process.exit(0);
  }
  const nodeBare = time(() => must(spawnSync(process.execPath, ['-e', '0']), 'node -e 0'), RUNS * 2);
  const cacheFile = join(repo, '.memory', 'projections.json');
  const projectCold = time(() => {
    rmSync(cacheFile, { force: true });
    must(cortex(['project']), 'project');
  }, Math.max(1, Math.min(RUNS, 3)));
  const project = time(() => must(cortex(['project']), 'project'));
  const check = time(() => must(cortex(['project', '--check']), 'project --check'));

  // The driver as git runs it during `git merge main feature` for decisions.md.
  const drv = join(base, 'driver');
  mkdirSync(drv, { recursive: true });
  const mergeBase = git('merge-base', 'main', 'feature').trim();
  const theirs = git('rev-parse', 'feature').trim();
  const prepare = () => {
    writeFileSync(join(drv, 'O'), git('show', `${mergeBase}:.cortex/decisions.md`));
    writeFileSync(join(drv, 'A'), git('show', 'main:.cortex/decisions.md'));
    writeFileSync(join(drv, 'B'), git('show', 'feature:.cortex/decisions.md'));
  };
  const driverArgs = ['merge-driver', join(drv, 'O'), join(drv, 'A'), join(drv, 'B'), '.cortex/decisions.md', '7'];
  const driverRegen = time(() => {
    prepare();
    must(cortex(driverArgs, { [`GITHEAD_${theirs}`]: 'feature', CORTEX_DEBUG: '1' }), 'driver');
  });
  const driverCold = time(() => {
    prepare();
    rmSync(cacheFile, { force: true });
    must(cortex(driverArgs, { [`GITHEAD_${theirs}`]: 'feature' }), 'driver');
  }, Math.max(1, Math.min(RUNS, 3)));
  const driverEntries = time(() => {
    prepare();
    must(cortex(driverArgs), 'driver');
  });
  const wholeMerge = time(() => {
    git('reset', '-q', '--hard', 'main');
    execFileSync('git', ['-c', `core.hooksPath=${join(base, 'no-hooks')}`, 'merge', '-q', '--no-edit', 'feature'], { cwd: repo, env, stdio: 'ignore' });
    git('reset', '-q', '--hard', 'HEAD~1');
  }, Math.max(1, Math.min(RUNS, 3)));
  must(cortex(['project', '--check']), 'check after merge');

  const rows = [
    ['node -e 0', nodeBare],
    [`cortex project (${N} memories, nothing to write)`, project],
    [`cortex project, cold: no .memory/ cache (${N})`, projectCold],
    [`cortex project --check (${N})`, check],
    [`merge driver, decisions.md regenerated (${N}, git merge)`, driverRegen],
    [`merge driver, decisions.md regenerated, cold cache (${N})`, driverCold],
    [`merge driver, decisions.md entry by entry (${N}, cherry-pick)`, driverEntries],
    [`git merge, both sides added a decision (${N})`, wholeMerge],
  ];
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  if (values.json) {
    console.log(JSON.stringify({ n: N, runs: RUNS, load, results: Object.fromEntries(rows.map(([k, v]) => [k, { ...v, ratio: v.median / nodeBare.median }])) }, null, 2));
  } else {
    console.log(`| path | median ms | min–max ms | × node -e 0 |\n|---|---:|---:|---:|`);
    for (const [name, t] of rows) console.log(`| ${name} | ${t.median.toFixed(0)} | ${t.min.toFixed(0)}–${t.max.toFixed(0)} | ${(t.median / nodeBare.median).toFixed(1)} |`);
    console.log(`\n1-minute load average at the end: ${load} (2 cores)`);
  }
} finally {
  if (!values.keep) rmSync(base, { recursive: true, force: true });
}
