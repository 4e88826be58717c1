#!/usr/bin/env node
/**
 * The redaction gate's cost on `remember`, whole process, one build against another in
 * the same rounds (issue 36: the gate may add at most 15 ms to a `remember`).
 *
 *   npm run build && node bench/gate.mjs --cli <base>/dist/cli.cjs --cli dist/cli.cjs [--runs 15] [--json]
 *
 * Each build gets its own repository (a few memories, so the store is not empty) and
 * every round runs `node -e 0`, then each build's case in turn, so all see the same load;
 * with GNU time the rows also give each child's CPU time (user + system, 10 ms
 * resolution), which a busy machine stretches less than the wall time. Cases:
 * - `remember "<a one-line decision>" --no-link`: prose that names no credential, the
 *   common case (the gate runs, no vendor rule's keyword occurs, secretlint is not loaded);
 * - `remember "<a decision quoting a token>" --no-link`: a text with a GitHub token, so
 *   the token rules and secretlint's preset run (the gate's worst case per command).
 * Each run stores a new text (a counter in it), so dedupe never short-cuts the write.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedTimer } from './lib/paired.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const argv = process.argv.slice(2);
const CLIS = argv.flatMap((a, i) => (a === '--cli' ? [resolve(argv[i + 1])] : []));
if (CLIS.length === 0) CLIS.push(join(ROOT, 'dist', 'cli.cjs'));
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt === -1 ? 15 : Number(argv[runsAt + 1]);
const JSON_OUT = argv.includes('--json');
for (const cli of CLIS) {
  if (!existsSync(cli)) {
    console.error(`${cli} is missing: run \`npm run build\` in its checkout first.`);
    process.exit(1);
  }
}

const base = mkdtempSync(join(tmpdir(), 'cortex-bench-gate-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, 'gitconfig'), '[init]\n\tdefaultBranch = main\n[user]\n\tname = Bench\n\temail = bench@example.com\n');
const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
delete env.NODE_OPTIONS;

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}

const tag = (k) => (CLIS.length === 1 ? '' : ` [${String.fromCharCode(65 + k)}]`);
// A fake token assembled at run time (no scanner flags this file).
const TOKEN = ['gh', 'p_'].join('') + 'Q7mZ2kR9vX4bN8cT1wY6pL3sD5fG0hJ2aK9e';

const cases = [];
CLIS.forEach((cli, k) => {
  const dir = join(base, `repo-${k}`);
  mkdirSync(dir, { recursive: true });
  sh('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  sh(process.execPath, [cli, 'init', '--quiet'], { cwd: dir });
  for (let i = 0; i < 20; i++) sh(process.execPath, [cli, 'remember', `Seed decision ${i}: the cache is rebuilt from the memory files on demand`, '--no-link'], { cwd: dir });
  for (const [name, text] of [
    ['prose', (n) => `We retry with exponential backoff and jitter (attempt ${n}) because the upstream API rate-limits bursts`],
    ['token', (n) => `The CI deploy token for run ${n} is ${TOKEN}; rotate it after the migration`],
  ]) {
    let n = 0;
    const args = [process.execPath, cli, 'remember', '', '--no-link'];
    cases.push({ group: name, label: `remember, ${name}${tag(k)}`, args, options: { cwd: dir, before: () => (args[3] = text(`${k}-${++n}`)) } });
  }
});

const { measureGroup } = pairedTimer({ env, runs: RUNS });
const rows = [];
for (const group of ['prose', 'token']) rows.push(...measureGroup(cases.filter((c) => c.group === group), { runs: RUNS }));

const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
if (JSON_OUT) {
  console.log(JSON.stringify({ node: process.versions.node, clis: CLIS, runs: RUNS, load, rows }, null, 2));
} else {
  console.log(`| case | median | p90 | min | \`node -e 0\` | cpu (median) | cpu of \`node -e 0\` |`);
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    const cpu = r.cpu === undefined ? '–' : `${r.cpu.toFixed(0)} ms`;
    const bcpu = r.baselineCpu === undefined ? '–' : `${r.baselineCpu.toFixed(0)} ms`;
    console.log(`| ${r.label} | ${r.median.toFixed(0)} ms | ${r.p90.toFixed(0)} ms | ${r.min.toFixed(0)} ms | ${r.baseline.toFixed(0)} ms | ${cpu} | ${bcpu} |`);
  }
  console.log(`\nNode v${process.versions.node}, ${RUNS} runs per case; builds: ${CLIS.map((c, k) => `${String.fromCharCode(65 + k)} = ${c}`).join(', ')}; load average at the end ${load}.`);
}
