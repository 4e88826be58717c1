#!/usr/bin/env node
/**
 * Before/after figures for a change of structure (issue 17): the three paths whose cost a
 * re-layering could move, whole-process at 10,000 memories, for one or more builds of the
 * CLI measured in the same interleaved group as `node -e 0`:
 *   - `cortex hook session-start` with a cached briefing (DESIGN §10: ≤ 1.6 × `node -e 0`);
 *   - `cortex recall "sqlite migration"` with a warm index (≤ 300 ms);
 *   - `cortex remember` of one new memory (the file, the index, the projections' cache).
 *
 *   node bench/layers.mjs [--runs 11] [--n 10000] [--only session,recall,remember] [--cli path/to/dist/cli.cjs …]
 *   node bench/layers.mjs --cli dist/cli.cjs --cli 'dist/cli.cjs CORTEX_CODE_CACHE=off' --cli 'dist/cli.cjs CORTEX_BUNDLE=0'
 *
 * A `--cli` may carry `NAME=value` words after the path: that variant runs with them in its
 * environment (the start-up modes of cli.ts above: code cache, bundle without it, ES modules).
 * Every `--cli` gets its own copies of the corpus (caches written by one build never serve
 * another; the briefing, recall and remember each have one, so none invalidates another's
 * cache); without `--cli` it measures this checkout's `dist/cli.cjs`. Prints a markdown
 * table on stdout; progress on stderr.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, ensureCorpus } from './lib/corpus-cache.mjs';
import { measureGroup } from './lib/measure.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
/** Each variant: the CLI's path and the environment variables it runs with. */
const variants = args.flatMap((a, i) => {
  if (a !== '--cli') return [];
  const [path, ...vars] = args[i + 1].trim().split(/\s+/);
  return [{ cli: resolve(path), vars: Object.fromEntries(vars.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)])), text: args[i + 1] }];
});
if (variants.length === 0) variants.push({ cli: join(ROOT, 'dist', 'cli.cjs'), vars: {}, text: 'dist/cli.cjs' });
const clis = variants.map((v) => v.cli);
const RUNS = Number(option('runs', 11));
const N = Number(option('n', 10_000));
const ONLY = new Set(String(option('only', 'session,recall,remember')).split(','));
const OUT = join(ROOT, 'bench', '.out');

for (const cli of clis) if (!existsSync(cli)) throw new Error(`${cli} is missing: build it first.`);

const baseEnv = benchEnv(OUT);
const base = mkdtempSync(join(tmpdir(), 'cortex-bench-layers-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const corpus = ensureCorpus({ out: OUT, n: N, log: (m) => console.error(m) });

function sh(cmd, argv, cwd, input, env = baseEnv) {
  const r = spawnSync(cmd, argv, { cwd, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}

const cases = [];
for (const [k, { cli, vars }] of variants.entries()) {
  const label = clis.length === 1 ? '' : ` [${k === 0 ? 'A' : String.fromCharCode(65 + k)}]`;
  const env = { ...baseEnv, ...vars };
  // Three copies: the briefing's (nothing changes it, so it stays cached), recall's (a
  // recall records access in the usage signals, which the briefing's cache key covers), and
  // the one remember writes to.
  const [dir, reading, writable] = [join(base, `p${k}`), join(base, `r${k}`), join(base, `w${k}`)];
  console.error(`copying the corpus for ${cli} …`);
  for (const d of [dir, reading, writable]) {
    cpSync(corpus.dir, d, { recursive: true });
    rmSync(join(d, '.memory'), { recursive: true, force: true });
    sh('git', ['init', '-q', '-b', 'main'], d);
    sh(process.execPath, [cli, 'index'], d, undefined, env);
  }
  const start = JSON.stringify({ session_id: 'bench-start', source: 'startup', cwd: dir, hook_event_name: 'SessionStart' });
  sh(process.execPath, [cli, 'hook', 'session-start'], dir, start, env);
  let added = 0;
  let sessions = 0;
  cases.push(
    {
      name: `hook session-start, cached${label}`,
      cmd: process.execPath,
      args: [cli, 'hook', 'session-start'],
      cwd: dir,
      env,
      // A new session each run: the same delivery twice within seconds is injected once (hooks/dedupe.ts).
      get input() {
        return JSON.stringify({ session_id: `bench-start-${++sessions}`, source: 'startup', cwd: dir, hook_event_name: 'SessionStart' });
      },
      check: (out) => (out.includes('CORTEX_MEMORY_START') || out.includes('additionalContext') ? undefined : 'no briefing'),
    },
    { name: `recall warm "sqlite migration"${label}`, cmd: process.execPath, args: [cli, 'recall', 'sqlite migration'], cwd: reading, env, check: (out) => (out.trim() === '' ? 'no results' : undefined) },
    {
      name: `remember one memory${label}`,
      cmd: process.execPath,
      get args() {
        return [cli, 'remember', '--type', 'gotcha', `The bench migration runner holds the retry lock, take ${++added}`];
      },
      cwd: writable,
      env,
    },
  );
}

const chosen = cases.filter((c) => ONLY.has(c.name.startsWith('hook') ? 'session' : c.name.startsWith('recall') ? 'recall' : 'remember'));
const rows = await measureGroup({ cases: chosen, runs: RUNS, warmup: 2, onRun: (name, i) => process.stderr.write(i === 0 && name === 'node -e 0' ? '.' : '') });
process.stderr.write('\n');
console.log(`| case | median | p90 | min | cpu | × node -e 0 | peak RSS |`);
console.log(`|---|---|---|---|---|---|---|`);
const ms = (v) => (v === undefined ? '' : `${Math.round(v)} ms`);
for (const r of rows) console.log(`| ${r.name} | ${ms(r.medianMs)} | ${ms(r.p90Ms)} | ${ms(r.minMs)} | ${ms(r.cpuMedianMs)} | ${r.ratio.toFixed(2)}× | ${r.peakRssMb?.toFixed(0) ?? ''} MB |`);
console.error(`clis: ${variants.map((v, k) => `[${String.fromCharCode(65 + k)}] ${v.text}`).join('  ')}`);
