#!/usr/bin/env node
/**
 * The benchmark runner: whole-process measurements of the BUILT cortex (dist/cli.cjs)
 * against deterministic synthetic corpora, with the budgets of DESIGN §10.
 *
 *   npm run build && node bench/run.mjs [--suite foundation|all] [--n 1000,10000]
 *                                       [--runs 9] [--warmup 2] [--write] [--json] [--strict]
 *
 * Corpora are cached under bench/.out/ (gitignored). Every measurement prints a markdown
 * table row on stdout and appends a JSON line to bench/.out/results.jsonl. `--write`
 * rewrites the suite's results section in bench/README.md.
 *
 * Adding a suite: write `bench/suites/<name>.mjs` whose default export is
 * `async (ctx) => rows`, and add one line to `suites` below. See `makeContext` for what
 * `ctx` offers (corpora, the CLI path, an isolated environment, `measure`, `row`).
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const README = join(BENCH_DIR, 'README.md');

/**
 * Suite name → async function (ctx) → rows. Loaded lazily, so a suite whose product code
 * is not built yet does not stop the others.
 *
 * Planned (add them here as the features land; budgets from DESIGN §10):
 *   briefing    `cortex surface` cold (≤ 1.5 s at 10k) and `cortex hook session-start`
 *               with a cached surface (≤ 1.6 × `node -e 0` at 10k): use `budget metric 'ratio'`
 *   merge       `cortex merge-driver %O %A %B` on memory and edge files
 *   hooks       Stop-hook extraction, incremental, 5 MB transcript (≤ 300 ms)
 *   embeddings  index backfill and hybrid recall with the local model (CORTEX_MODEL_DIR)
 *   mcp         `cortex mcp` start-up to the first tools/list answer
 */
export const suites = {
  foundation: async (ctx) => (await import('./suites/foundation.mjs')).default(ctx),
  graph: async (ctx) => (await import('./suites/graph.mjs')).default(ctx),
  scale: async (ctx) => (await import('./suites/scale.mjs')).default(ctx),
};

/** Corpus sizes of a suite when `--n` is not given. */
const DEFAULT_NS = { scale: '10000,100000' };

const HELP = `Usage: node bench/run.mjs [options]

  --suite <name>    ${Object.keys(suites).join(' | ')} | all  (default foundation)
  --n <list>        corpus sizes, comma-separated (default 1000,10000; scale: 10000,100000)
  --runs <k>        measured runs per case (default 9)
  --warmup <k>      discarded runs per case (default 2)
  --seed <s>        corpus seed (default 1)
  --write           rewrite the suite's results section in bench/README.md
  --json            print JSON lines on stdout instead of the table
  --strict          exit 1 when a budget fails
  --out <dir>       cache and results directory (default bench/.out)

Run \`npm run build\` first: the benchmarks measure dist/, not src/.
`;

/** Which code was measured: the commit, and when dist/ was built. */
function buildNote() {
  const git = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() : 'unknown';
  const built = new Date(statSync(CLI).mtimeMs).toISOString().replace(/\.\d+Z$/, 'Z');
  return `Measured dist/ as built ${built} (HEAD was \`${commit}\` when measured; dist/ may predate it).`;
}

function newestMtime(dir, ext) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, ext));
    else if (entry.name.endsWith(ext) && !entry.name.endsWith(`.test${ext}`)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The context every suite receives.
 *   ns, runs, warmup, seed        what to measure
 *   node, cli, root               the Node binary, dist/cli.cjs, the repository root
 *   env                           an environment with an empty $CORTEX_HOME and no colour
 *   corpus(n) → { dir, files, markDirty(), markClean() }   cached generated project
 *   measure(title, cases) → summaries   interleaved with `node -e 0`, rows printed as they finish
 *   row(summary, budgets) → row   attaches verdicts and machine load
 *   log(text)                     progress on stderr
 */
async function makeContext(opts, io) {
  const { ensureCorpus, benchEnv } = await import('./lib/corpus-cache.mjs');
  const { measureGroup, judge, markdownRow, jsonLine, detectRssMethod } = await import('./lib/measure.mjs');
  const os = await import('node:os');
  const rssMethod = detectRssMethod();
  return {
    ...opts,
    node: process.execPath,
    cli: CLI,
    root: ROOT,
    env: benchEnv(opts.out),
    rssMethod,
    log: io.log,
    async corpus(n) {
      return ensureCorpus({ out: opts.out, n, seed: opts.seed, log: io.log });
    },
    async measure(title, cases, counts = {}) {
      const runs = counts.runs ?? opts.runs;
      const warmup = counts.warmup ?? opts.warmup;
      io.log(`${title}: ${cases.length} cases + node -e 0, ${warmup} warm-up + ${runs} runs each, load ${os.loadavg()[0].toFixed(2)}`);
      let last = -1;
      const summaries = await measureGroup({
        cases,
        runs,
        warmup,
        rss: rssMethod,
        onRun: (_name, i) => {
          if (i !== last) io.progress(`  run ${i + 1}/${warmup + runs}${i < warmup ? ' (warm-up)' : ''}`);
          last = i;
        },
      });
      io.progress('');
      return summaries.map((s) => ({ ...s, title }));
    },
    row(summary, budgets = []) {
      const { budgets: _ignored, ...rest } = summary;
      const row = { suite: io.suite, ...rest, load1: Math.round(os.loadavg()[0] * 100) / 100, date: new Date().toISOString() };
      row.verdicts = budgets.map((b) => judge(row, b));
      io.row(row, markdownRow(row), jsonLine(row));
      return row;
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string', default: 'foundation' },
      n: { type: 'string' },
      runs: { type: 'string', default: '9' },
      warmup: { type: 'string', default: '2' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: join(BENCH_DIR, '.out') },
      write: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const names = values.suite === 'all' ? Object.keys(suites) : values.suite.split(',');
  for (const name of names) {
    if (!suites[name]) {
      process.stderr.write(`Unknown suite "${name}". Known: ${Object.keys(suites).join(', ')}, all.\n`);
      return 2;
    }
  }
  const sizesOf = (text) => text.split(',').map((s) => Number(s.replace(/[_k]/g, (c) => (c === 'k' ? '000' : ''))));
  if (values.n !== undefined && sizesOf(values.n).some((n) => !Number.isInteger(n) || n < 1)) {
    process.stderr.write(`--n must be a list of positive integers, got "${values.n}".\n`);
    return 2;
  }
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) {
    process.stderr.write(`--runs must be ≥ 1 and --warmup ≥ 0 (integers), got ${values.runs} and ${values.warmup}.\n`);
    return 2;
  }
  if (!existsSync(CLI)) {
    process.stderr.write('dist/cli.cjs is missing: run `npm run build` first (the benchmarks measure the built product).\n');
    return 2;
  }
  if (newestMtime(join(ROOT, 'src'), '.ts') > newestMtime(join(ROOT, 'dist'), '.js')) {
    process.stderr.write('warning: src/ is newer than dist/; run `npm run build` to measure the current code.\n');
  }

  const { machineInfo, renderSection, writeSection, loadText, summarizeBudgets, formatValue } = await import('./lib/report.mjs');
  const { TABLE_HEADER, budgetText } = await import('./lib/measure.mjs');
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  const resultsFile = join(out, 'results.jsonl');
  const isTTY = process.stderr.isTTY === true;
  let failed = false;

  for (const suite of names) {
    const io = {
      suite,
      log: (text) => process.stderr.write(`${text}\n`),
      progress: (text) => {
        if (isTTY) process.stderr.write(`\r\x1b[K${text}`);
      },
      row: (_row, md, json) => {
        process.stdout.write(`${values.json ? json : md}\n`);
        appendFileSync(resultsFile, `${json}\n`);
      },
    };
    const ns = sizesOf(values.n ?? DEFAULT_NS[suite] ?? '1000,10000');
    const opts = { ns, runs, warmup, seed: Number(values.seed), out };
    const ctx = await makeContext(opts, io);
    const machine = machineInfo();
    const loadStart = machine.loadavg;
    io.log(`suite ${suite} on ${machine.cpu} (${machine.cores} cores), Node ${machine.node}, load ${loadText(loadStart)}`);
    if (loadStart[0] > machine.cores) io.log(`note: load average ${loadStart[0]} exceeds ${machine.cores} cores; absolute times will be inflated.`);
    if (!values.json) process.stdout.write(`\n${TABLE_HEADER.join('\n')}\n`);
    const rows = await suites[suite](ctx);
    const loadEnd = machineInfo().loadavg;

    const budgets = summarizeBudgets(rows);
    if (budgets.length > 0) process.stdout.write(`\nBudgets (${suite}, DESIGN §10), load ${loadText(loadStart)} → ${loadText(loadEnd)}:\n`);
    for (const b of budgets) {
      process.stdout.write(`  ${b.text.padEnd(4)}  ${b.label}: ${formatValue(b)} (limit ${budgetText(b)}; worst: ${b.row.name}, N = ${b.row.n})\n`);
      if (!b.pass) failed = true;
    }
    if (values.write) {
      const md = renderSection({
        suite,
        rows,
        machine,
        date: new Date().toISOString().slice(0, 10),
        loadStart,
        loadEnd,
        runs: opts.runs,
        warmup: opts.warmup,
        rssMethod: ctx.rssMethod,
        notes: [buildNote()],
      });
      writeSection(README, suite, md);
      io.log(`wrote the ${suite} results to ${README}`);
    }
  }
  return values.strict && failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main();
}
