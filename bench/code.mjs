#!/usr/bin/env node
/**
 * Code-aware memory (issue 21), whole-process:
 *   - `cortex index-code` on about 1,000 real source files: the TypeScript and JavaScript of
 *     two packages Cortex installs (zod and @modelcontextprotocol/sdk, copied from
 *     node_modules into a fresh git repository), cold (no code index), warm (nothing
 *     changed) and after one file changed;
 *   - `cortex hook post-tool-use` (the file hook) on a Read of a file no memory is anchored to
 *     and of one that has anchored memories, in that repository with 2,000 other memories,
 *     each interleaved with `node -e 0`. Budgets: ≤ 1.6 × `node -e 0` without memories for
 *     the file, ≤ 2.5 × with.
 *
 *   node bench/code.mjs [--runs 15] [--memories 2000]
 *
 * Needs the built CLI (`npm run build`). Prints a markdown table on stdout and writes
 * bench/.out/code.json.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedTimer } from './lib/paired.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const RUNS = arg('runs', 15);
const MEMORIES = arg('memories', 2_000);
const PACKAGES = ['zod', '@modelcontextprotocol/sdk'];

if (!existsSync(CLI)) {
  console.error('dist/cli.cjs is missing: run `npm run build` first.');
  process.exit(1);
}

const base = mkdtempSync(join(tmpdir(), 'cortex-bench-code-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, 'gitconfig'), '[init]\n\tdefaultBranch = main\n[user]\n\tname = Bench\n\temail = bench@example.com\n');
const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}

const { time, measure } = pairedTimer({ env, runs: RUNS });

// --- The repository: the source of two installed packages, committed.
const dir = join(base, 'repo');
mkdirSync(dir, { recursive: true });
sh('git', ['init', '-q', '-b', 'main'], { cwd: dir });
const versions = {};
for (const name of PACKAGES) {
  const from = join(ROOT, 'node_modules', name);
  if (!existsSync(from)) throw new Error(`node_modules/${name} is missing: run npm ci first.`);
  versions[name] = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')).version;
  cpSync(from, join(dir, 'vendor', name), { recursive: true, filter: (p) => !p.includes(`${name}/node_modules`) });
}
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx|py|go|rs)$/;
const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : SOURCE.test(e.name) ? [join(d, e.name)] : []));
const sourceFiles = walk(join(dir, 'vendor'));
const sourceBytes = sourceFiles.reduce((n, f) => n + statSync(f).size, 0);
sh('git', ['add', '-A'], { cwd: dir });
sh('git', ['commit', '-q', '-m', 'vendor'], { cwd: dir });
sh(process.execPath, [CLI, 'init'], { cwd: dir });
console.error(`${sourceFiles.length} source files (${(sourceBytes / 1e6).toFixed(1)} MB) from ${PACKAGES.map((p) => `${p}@${versions[p]}`).join(', ')}`);

const rows = [];
const codeIndex = join(dir, '.memory', 'code-index.json');
rows.push(measure(`index-code, cold (${sourceFiles.length} files, no code index)`, [process.execPath, CLI, 'index-code'], { cwd: dir, before: () => rmSync(codeIndex, { force: true }), runs: Math.min(RUNS, 5), warmup: 1 }));
const index = JSON.parse(readFileSync(codeIndex, 'utf8'));
const symbolCount = Object.values(index.files).reduce((n, f) => n + f.symbols.length, 0);
const indexedFiles = Object.keys(index.files).length;
rows.push(measure('index-code, warm (nothing changed)', [process.execPath, CLI, 'index-code'], { cwd: dir, runs: Math.min(RUNS, 9) }));
const touched = join(dir, 'vendor', 'zod', 'v4', 'core', 'util.js');
let edits = 0;
rows.push(
  measure('index-code, one file changed', [process.execPath, CLI, 'index-code'], {
    cwd: dir,
    runs: Math.min(RUNS, 9),
    before: () => writeFileSync(touched, `${readFileSync(touched, 'utf8')}\n// edit ${++edits}\n`),
  }),
);

// --- Memories: MEMORIES from the shared corpus generator, plus 30 anchored to real symbols.
const { generateCorpus, writeCorpus } = await import('./corpus.mjs');
writeCorpus(dir, generateCorpus({ n: MEMORIES, seed: 1 }));
const anchoredFile = 'vendor/zod/src/v4/core/util.ts';
const symbols = index.files[anchoredFile]?.symbols.filter((s) => s.kind === 'function').slice(0, 10) ?? [];
if (symbols.length === 0) throw new Error(`no functions indexed in ${anchoredFile}`);
for (const [i, s] of symbols.entries()) {
  sh(process.execPath, [CLI, 'remember', `${s.name} in zod's util is on the hot path of every parse (bench note ${i})`, '--type', 'gotcha', '--files', `${anchoredFile}#${s.qualified}`, '--no-link'], { cwd: dir });
}
sh(process.execPath, [CLI, 'index-code'], { cwd: dir });
sh(process.execPath, [CLI, 'index'], { cwd: dir });
let call = 0;
const read = (file) => () => JSON.stringify({ session_id: `bench-file-${++call}`, tool_use_id: `toolu_${call}`, cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, file) }, tool_response: {} });
const hook = [process.execPath, CLI, 'hook', 'post-tool-use'];
rows.push(
  measure(`hook post-tool-use, Read of a file with no memories (${MEMORIES + symbols.length} memories)`, hook, {
    cwd: dir,
    input: read('vendor/zod/src/v4/core/errors.ts'),
    budget: 1.6,
    check: (out) => {
      if (out !== '') throw new Error(`unexpected output: ${out}`);
    },
  }),
);
rows.push(
  measure(`hook post-tool-use, Read of a file with ${symbols.length} anchored memories (3 injected)`, hook, {
    cwd: dir,
    input: read(anchoredFile),
    budget: 2.5,
    check: (out) => {
      if (!out.includes('additionalContext')) throw new Error('nothing injected for the anchored file');
    },
  }),
);
rows.push(
  measure('hook post-tool-use, right after a memory was added (map rebuilt)', hook, {
    cwd: dir,
    input: read(anchoredFile),
    runs: Math.min(RUNS, 7),
    warmup: 1,
    before: () => sh(process.execPath, [CLI, 'remember', `util note ${++call}`, '--files', anchoredFile, '--no-link'], { cwd: dir }),
  }),
);

const ms = (x) => `${x.toFixed(0)} ms`;
const lines = [
  `${sourceFiles.length} source files (${(sourceBytes / 1e6).toFixed(1)} MB of TypeScript/JavaScript) from ${PACKAGES.map((p) => `${p}@${versions[p]}`).join(' and ')}; ${indexedFiles} indexed (larger than 1 MB skipped), ${symbolCount} symbols.`,
  '',
  '| case | runs | median | p90 | min | cpu (median) | `node -e 0` | × `node -e 0` | budget | result |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.label} | ${r.runs} | ${ms(r.median)} | ${ms(r.p90)} | ${ms(r.min)} | ${r.cpu !== undefined ? ms(r.cpu) : '—'} | ${ms(r.baseline)} | ${r.ratio.toFixed(2)}× | ${r.budget !== undefined ? `≤ ${r.budget}×` : ''} | ${r.budget !== undefined ? (r.ratio <= r.budget ? 'PASS' : 'FAIL') : ''} |`),
];
console.log(lines.join('\n'));
mkdirSync(join(ROOT, 'bench', '.out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', '.out', 'code.json'), JSON.stringify({ at: new Date().toISOString(), node: process.version, files: sourceFiles.length, indexedFiles, symbols: symbolCount, rows }, null, 2));
