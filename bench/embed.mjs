#!/usr/bin/env node
// Embedding benchmark, whole-process, self-contained:
//   node bench/embed.mjs [--count 10000] [--runs 7] [--model-dir DIR] [--baseline-cli PATH | --baseline REV] [--json]
//
// On a synthetic corpus (bench/lib-embed.mjs) with the synthetic model
// (../shared/models/test/tiny-random-static, fp32) it measures, in one run:
//   - bare `node -e 0` (the floor every CLI time is compared with)
//   - `cortex recall --mode keyword` before any vector exists, and again once they exist
//     (the keyword path must not get slower because of this work)
//   - `cortex index --embed`: memories per second (embedding phase and whole process)
//   - `cortex recall --mode hybrid` and the default `cortex recall` (hybrid once vectors exist)
// With --baseline-cli (a built dist/cli.js from before the semantic work) or --baseline
// (a git revision, built into a temp dir), the baseline's keyword recall runs interleaved
// with the current one on the same corpus, so machine load affects both alike.
// Requires `npm run build` first. Timings are medians (and minimums) of --runs runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeCorpus } from './lib-embed.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '7' },
    'model-dir': { type: 'string' },
    'baseline-cli': { type: 'string' },
    baseline: { type: 'string' },
    'batch-size': { type: 'string', default: '32' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const COUNT = Number(args.count);
const RUNS = Number(args.runs);
const MODEL = 'test/tiny-random-static';
const modelDir = [args['model-dir'], process.env.CORTEX_MODEL_DIR, join(ROOT, '..', 'shared', 'models'), '/work/shared/models']
  .filter(Boolean)
  .map((d) => resolve(d))
  .find((d) => existsSync(join(d, MODEL, 'onnx', 'model.onnx')));
if (!existsSync(CLI)) fail(`no build at ${CLI}: run \`npm run build\` first`);
if (!modelDir) fail(`no synthetic model ${MODEL} under ../shared/models (pass --model-dir)`);

function fail(message) {
  console.error(`bench/embed: ${message}`);
  process.exit(1);
}

const log = (line) => {
  if (!args.json) console.error(line);
};

const work = mkdtempSync(join(tmpdir(), 'cortex-bench-embed-'));
const repo = join(work, 'repo');
const home = join(work, 'home');
mkdirSync(repo, { recursive: true });
mkdirSync(home, { recursive: true });
const env = {
  ...process.env,
  HOME: home,
  CORTEX_HOME: join(home, 'cortex-home'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
  NO_COLOR: '1',
  CORTEX_MODEL_DIR: modelDir,
  CORTEX_EMBED_MODEL: MODEL,
  CORTEX_EMBED_DTYPE: 'fp32',
};
writeFileSync(join(home, 'gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');

function run(cmd, argv, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: repo, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) fail(`${[cmd, ...argv].join(' ')} exited ${r.status}:\n${r.stderr}`);
  return { ms, stdout: r.stdout, stderr: r.stderr };
}

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: Math.round(sorted[Math.floor(sorted.length / 2)]), min: Math.round(sorted[0]), runs: sorted.length };
};

/** Interleaves the commands run by run, so drifting machine load hits each alike. */
function measure(commands) {
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (const [, [cmd, argv]] of Object.entries(commands)) run(cmd, argv); // warm the page cache
  for (let i = 0; i < RUNS; i++) for (const [name, [cmd, argv]] of Object.entries(commands)) times[name].push(run(cmd, argv).ms);
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
}

function baselineCli() {
  if (args['baseline-cli']) return resolve(args['baseline-cli']);
  if (!args.baseline) return undefined;
  const dir = join(work, 'baseline');
  mkdirSync(dir);
  log(`building baseline ${args.baseline} in ${dir}`);
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${args.baseline}" | tar -x -C "${dir}"`]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, encoding: 'utf8' });
  if (tsc.status !== 0) fail(`baseline ${args.baseline} does not build:\n${tsc.stdout}${tsc.stderr}`);
  // Every build has dist/cli.js (dist/cli.cjs only from the CommonJS executable on).
  return join(dir, 'dist', 'cli.js');
}

const QUERY = 'why does the cache use a worker pool';
const base = baselineCli();

log(`corpus: ${COUNT} memories in ${repo}`);
run('git', ['init', '-q']);
run(process.execPath, [CLI, 'init', '--quiet']);
let started = Date.now();
const memories = writeCorpus(repo, COUNT);
const codeCount = memories.filter((m) => m.type === 'code').length;
log(`  written in ${Date.now() - started} ms (${codeCount} code memories, never embedded)`);
const index = run(process.execPath, [CLI, 'index', '--json']);
log(`  keyword index built in ${Math.round(index.ms)} ms (whole process)`);

log(`keyword recall before any vector exists (${RUNS} runs each, interleaved)`);
const before = measure({
  node: [process.execPath, ['-e', '0']],
  keywordDefault: [process.execPath, [CLI, 'recall', QUERY]],
  keyword: [process.execPath, [CLI, 'recall', QUERY, '--mode', 'keyword']],
  ...(base ? { baselineKeyword: [process.execPath, [base, 'recall', QUERY]] } : {}),
});

log(`index --embed (batch size ${args['batch-size']})`);
const embedRun = run(process.execPath, [CLI, 'index', '--embed', '--json', '--batch-size', args['batch-size']]);
const embedDoc = JSON.parse(embedRun.stdout).embed;
const embedded = embedDoc.tiers.reduce((n, t) => n + t.embedded, 0);
const vectorsBytes = statSync(join(repo, '.memory', 'vectors.bin')).size;
const embed = {
  embedded,
  dims: embedDoc.dims,
  timings: embedDoc.timings,
  wholeProcessMs: Math.round(embedRun.ms),
  // Inference only (batches through the model), then everything `index --embed` does.
  perSecondInference: Math.round((embedded / embedDoc.timings.embedMs) * 1000),
  perSecondWholeProcess: Math.round((embedded / embedRun.ms) * 1000),
  vectorsBytes,
};
const warm = run(process.execPath, [CLI, 'index', '--embed', '--json']);
embed.warmRerunMs = Math.round(warm.ms);
embed.warmRerunEmbedded = JSON.parse(warm.stdout).embed.tiers.reduce((n, t) => n + t.embedded, 0);

log(`recall with vectors present (${RUNS} runs each, interleaved)`);
const after = measure({
  node: [process.execPath, ['-e', '0']],
  keyword: [process.execPath, [CLI, 'recall', QUERY, '--mode', 'keyword']],
  hybrid: [process.execPath, [CLI, 'recall', QUERY, '--mode', 'hybrid']],
  semantic: [process.execPath, [CLI, 'recall', QUERY, '--mode', 'semantic']],
  defaultMode: [process.execPath, [CLI, 'recall', QUERY]],
  ...(base ? { baselineKeyword: [process.execPath, [base, 'recall', QUERY]] } : {}),
});
const modeOfDefault = JSON.parse(run(process.execPath, [CLI, 'recall', QUERY, '--json']).stdout).mode;

const report = {
  count: COUNT,
  model: `${MODEL}:fp32`,
  runs: RUNS,
  baseline: base ?? null,
  embed,
  before,
  after,
  defaultModeWithVectors: modeOfDefault,
};

if (args.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const row = (label, s) => `  ${label.padEnd(44)} ${String(s.median).padStart(6)} ms  (min ${s.min})`;
  console.log(`\n${COUNT} memories, synthetic model ${MODEL} (${embed.dims}-d), ${RUNS} runs, medians:`);
  console.log(row('node -e 0', before.node));
  console.log(row('recall (default = keyword, no vectors)', before.keywordDefault));
  console.log(row('recall --mode keyword, no vectors', before.keyword));
  if (before.baselineKeyword) console.log(row('baseline recall (keyword), no vectors', before.baselineKeyword));
  console.log(
    `  index --embed: ${embed.embedded} embedded; ${embed.perSecondInference} memories/s inference (${embed.timings.embedMs} ms), ` +
      `${embed.perSecondWholeProcess}/s whole process (${embed.wholeProcessMs} ms: model load ${embed.timings.loadMs} ms, reading files ${embed.timings.readMs} ms); ` +
      `vectors.bin ${(vectorsBytes / 1024 / 1024).toFixed(1)} MB`,
  );
  console.log(`  index --embed again (nothing to embed): ${embed.warmRerunMs} ms, ${embed.warmRerunEmbedded} embedded`);
  console.log(row('node -e 0', after.node));
  console.log(row('recall --mode keyword, vectors present', after.keyword));
  if (after.baselineKeyword) console.log(row('baseline recall (keyword), vectors present', after.baselineKeyword));
  console.log(row('recall --mode hybrid', after.hybrid));
  console.log(row('recall --mode semantic', after.semantic));
  console.log(row(`recall (default = ${modeOfDefault})`, after.defaultMode));
}

if (args.keep) log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
