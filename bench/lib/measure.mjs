/**
 * Whole-process measurements: run real commands as child processes, several times, and
 * report wall time (median, p90, min), CPU time (user + system) and peak RSS.
 *
 * Cases of one group run interleaved (baseline, a, b, baseline, a, b, …) rather than one
 * after the other, so a burst of load from other processes hits every case alike and the
 * ratio to the `node -e 0` baseline stays meaningful on a busy machine.
 *
 * Peak RSS comes from GNU time (`/usr/bin/time -f …`), which reads the child's rusage.
 * Without it (macOS, Alpine), node commands are run with a tiny `--import` preload
 * (rss-preload.mjs) that reports `process.resourceUsage()` on exit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GNU_TIME = '/usr/bin/time';
const PRELOAD = fileURLToPath(new URL('./rss-preload.mjs', import.meta.url));

export const DEFAULT_MEASURE = {
  /** Measured runs per case. */
  runs: 9,
  /** Runs discarded first (disk cache, JIT of the shell, lazy fs metadata). */
  warmup: 2,
  /** 'gnu-time' | 'preload' | 'auto' */
  rss: 'auto',
  /** Prepended to every group: what a bare Node process costs on this machine now. */
  baseline: { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
  /** Called with (caseName, iteration, result) after each run; for progress output. */
  onRun: undefined,
};

let scratch;
function scratchFile(name) {
  scratch ??= mkdtempSync(join(tmpdir(), 'cortex-bench-'));
  return join(scratch, name);
}
process.on('exit', () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * Which way of reading peak RSS works here. Probes GNU time once: it must exist, accept
 * `-f`/`-o`, and report a plausible RSS for `node -e 0`.
 *
 * @example
 * detectRssMethod() // 'gnu-time' on most Linux machines, 'preload' elsewhere
 */
export function detectRssMethod() {
  if (existsSync(GNU_TIME)) {
    const out = scratchFile('probe.txt');
    const r = spawnSync(GNU_TIME, ['-f', '%M %U %S', '-o', out, process.execPath, '-e', '0'], { stdio: 'ignore' });
    if (r.status === 0 && existsSync(out)) {
      const kb = Number(readFileSync(out, 'utf8').trim().split('\n').at(-1)?.split(' ')[0]);
      if (kb > 1000) return 'gnu-time';
    }
  }
  return 'preload';
}

function isNode(cmd) {
  return cmd === process.execPath || cmd === 'node';
}

/**
 * Runs one command once. Throws when it exits non-zero or its output fails `check`:
 * timing a failure would report a fast, wrong number.
 *
 * @example
 * runOnce({ cmd: process.execPath, args: ['-e', '0'] }) // { wallMs: 41.2, cpuMs: 30, maxRssKb: 40320, … }
 */
export function runOnce(spec, options = {}) {
  const method = options.rss ?? 'gnu-time';
  const env = spec.env ?? process.env;
  let cmd = spec.cmd;
  let args = spec.args ?? [];
  const statsFile = scratchFile('stats.txt');
  rmSync(statsFile, { force: true });
  let childEnv = env;
  if (method === 'gnu-time') {
    args = ['-f', '%M %U %S', '-o', statsFile, cmd, ...args];
    cmd = GNU_TIME;
  } else if (method === 'preload' && isNode(cmd)) {
    args = ['--import', PRELOAD, ...args];
    childEnv = { ...env, CORTEX_BENCH_RSS_FILE: statsFile };
  }
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, args, {
    cwd: spec.cwd,
    env: childEnv,
    // A hook reads its event from stdin (`input`); everything else gets none.
    stdio: [spec.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    input: spec.input,
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.error) throw r.error;
  const expected = spec.expectExit ?? 0;
  if (r.status !== expected) {
    throw new Error(`${spec.name ?? spec.cmd} exited ${r.status} (expected ${expected})\n${r.stderr.slice(0, 2000)}`);
  }
  let maxRssKb;
  let cpuMs;
  if (existsSync(statsFile)) {
    // GNU time prepends "Command exited with non-zero status N" lines; the stats are last.
    const [rss, user, sys] = readFileSync(statsFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
    maxRssKb = rss;
    cpuMs = (user + sys) * 1000;
  }
  if (spec.check) {
    const problem = spec.check(r.stdout, r.stderr);
    if (problem) throw new Error(`${spec.name ?? spec.cmd}: ${problem}\nstdout: ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 500)}`);
  }
  return { wallMs, cpuMs, maxRssKb, stdout: r.stdout, stderr: r.stderr };
}

/** Nearest-rank percentile of an unsorted array. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function summarize(name, samples) {
  const wall = samples.map((s) => s.wallMs);
  const cpu = samples.map((s) => s.cpuMs).filter((v) => v !== undefined);
  const rss = samples.map((s) => s.maxRssKb).filter((v) => v !== undefined);
  return {
    name,
    runs: samples.length,
    medianMs: median(wall),
    p90Ms: percentile(wall, 90),
    minMs: Math.min(...wall),
    cpuMedianMs: cpu.length > 0 ? median(cpu) : undefined,
    peakRssMb: rss.length > 0 ? Math.max(...rss) / 1024 : undefined,
  };
}

/**
 * Measures a group of cases interleaved with the `node -e 0` baseline.
 * Each case: `{ name, cmd, args, cwd, env, input?, before?(i), after?(i), check?(stdout, stderr), expectExit?, meta? }`;
 * `before`/`after` run untimed around every run (`i` counts warm-ups too).
 * Returns one summary per case, baseline first, each with `ratio` = median / baseline median.
 *
 * @example
 * const [base, recall] = await measureGroup({ cases: [{ name: 'recall', cmd: 'node', args: ['dist/cli.cjs', 'recall', 'x'] }] });
 * recall.ratio // e.g. 3.4
 */
export async function measureGroup(options) {
  const opts = { ...DEFAULT_MEASURE, ...options };
  const rss = opts.rss === 'auto' ? detectRssMethod() : opts.rss;
  const cases = [{ ...opts.baseline, isBaseline: true }, ...opts.cases];
  const samples = cases.map(() => []);
  const total = opts.warmup + opts.runs;
  for (let i = 0; i < total; i++) {
    for (const [k, spec] of cases.entries()) {
      if (spec.before) await spec.before(i);
      const result = runOnce(spec, { rss });
      if (spec.after) await spec.after(i, result);
      if (i >= opts.warmup) samples[k].push(result);
      opts.onRun?.(spec.name, i, result, i < opts.warmup);
    }
  }
  const summaries = cases.map((spec, k) => ({
    ...summarize(spec.name, samples[k]),
    warmup: opts.warmup,
    rssMethod: rss,
    ...(spec.isBaseline ? { isBaseline: true } : {}),
    ...(spec.meta ?? {}),
  }));
  const base = summaries[0].medianMs;
  for (const s of summaries) {
    s.baselineMs = base;
    s.ratio = s.medianMs / base;
  }
  return summaries;
}

/**
 * A budget verdict for a summary. Budgets: `{ label, metric: 'wall' | 'ratio' | 'rss', max }`
 * (wall in ms, rss in MB). A wall-time failure whose CPU time is within budget is marked,
 * because on a loaded machine that is usually waiting for a core, not work.
 *
 * @example
 * judge({ medianMs: 250, cpuMedianMs: 200 }, { metric: 'wall', max: 300 }) // { pass: true, text: 'PASS' }
 */
export function judge(summary, budget) {
  if (!budget) return undefined;
  const value = budget.metric === 'rss' ? summary.peakRssMb : budget.metric === 'ratio' ? summary.ratio : summary.medianMs;
  const pass = value <= budget.max;
  let text = pass ? 'PASS' : 'FAIL';
  if (!pass && budget.metric === 'wall' && summary.cpuMedianMs !== undefined && summary.cpuMedianMs <= budget.max) {
    text = 'FAIL (cpu within budget: load?)';
  }
  return { label: budget.label, metric: budget.metric, max: budget.max, value, pass, text };
}

const fmtMs = (v) => (v === undefined || Number.isNaN(v) ? '–' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
const fmtMb = (v) => (v === undefined ? '–' : `${Math.round(v)} MB`);

export function budgetText(budget) {
  if (!budget) return '';
  if (budget.metric === 'rss') return `≤ ${budget.max} MB`;
  if (budget.metric === 'ratio') return `≤ ${budget.max} × node`;
  return `≤ ${fmtMs(budget.max)}`;
}

export const TABLE_HEADER = [
  '| benchmark | N | median | p90 | min | cpu (median) | × `node -e 0` | peak RSS | budget | result |',
  '|---|--:|--:|--:|--:|--:|--:|--:|---|---|',
];

/**
 * One markdown table row. A row may carry several verdicts (time and memory).
 *
 * @example
 * markdownRow({ name: 'recall warm', n: 10000, medianMs: 212, … }) // '| recall warm | 10,000 | 212 ms | …'
 */
export function markdownRow(row) {
  // Memory verdicts are summarised per budget; a row shows one only when it fails.
  const verdicts = (row.verdicts ?? []).filter((v) => v.metric !== 'rss' || !v.pass);
  return `| ${row.name} | ${row.n === undefined ? '' : row.n.toLocaleString('en-US')} | ${fmtMs(row.medianMs)} | ${fmtMs(row.p90Ms)} | ${fmtMs(row.minMs)} | ${fmtMs(row.cpuMedianMs)} | ${row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`} | ${fmtMb(row.peakRssMb)} | ${verdicts.map((v) => `${v.label} ${budgetText(v)}`).join('<br>')} | ${verdicts.map((v) => v.text).join('<br>')} |`;
}

/** One JSON line per measurement, numbers rounded for reading. */
export function jsonLine(row) {
  const round = (v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v);
  const out = {};
  for (const [k, v] of Object.entries(row)) out[k] = Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([a, b]) => [a, round(b)])) : round(x))) : round(v);
  return JSON.stringify(out);
}
