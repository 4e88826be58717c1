#!/usr/bin/env node
/**
 * Where does a cortex command spend its time? Runs one command under `node --cpu-prof`
 * in a benchmark corpus and prints self time by area (module loading, each package, each
 * dist/ file, GC) and the heaviest functions, self and inclusive.
 *
 *   node bench/profile.mjs [--n 10000] [--setup warm|cold|changed] [--keep] -- recall "sqlite migration"
 *
 *   --setup warm     the index is current (default)
 *           cold     .memory/ is deleted first
 *           changed  one memory file is edited first (restored afterwards)
 *   --keep           keep the .cpuprofile (path printed) to open in Chrome DevTools
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv, ensureCorpus } from './lib/corpus-cache.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const DIST_URL = pathToFileURL(join(ROOT, 'dist')).href + '/';

/**
 * The area a profile frame belongs to: module loading, a package, a dist/ file, or V8.
 *
 * @example
 * areaOf({ url: 'file:///x/node_modules/yaml/dist/index.js', functionName: 'parse' }) // 'pkg yaml'
 */
export function areaOf(frame) {
  const url = frame.url ?? '';
  if (url === '') return frame.functionName.startsWith('(') ? `v8 ${frame.functionName}` : 'v8/native';
  if (/node:internal\/modules|internal\/modules\//.test(url)) return 'node: module loading';
  if (url.startsWith('node:internal/bootstrap')) return 'node: loading builtins';
  if (/^node:internal\/(process\/pre_execution|main\/)/.test(url)) return 'node: start-up';
  if (url.startsWith('node:')) return 'node: other builtins';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  if (url.includes('/dist/')) return `dist/${url.split('/dist/')[1]}`;
  return url;
}

/**
 * Self and inclusive time per frame key from a V8 .cpuprofile (recursion counted once).
 *
 * @example
 * const { total, phases, work, areas, selfTop, inclusiveTop } = analyzeProfile(JSON.parse(text));
 */
export function analyzeProfile(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const keyOf = (n) => `${n.callFrame.functionName || '(top level)'} ${n.callFrame.url ? relative(ROOT, fileURLToPath(n.callFrame.url.startsWith('file:') ? n.callFrame.url : pathToFileURL(n.callFrame.url))) : ''}:${n.callFrame.lineNumber + 1}`;
  const areas = new Map();
  const selfBy = new Map();
  const inclusiveBy = new Map();
  const parentOf = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  // A module's top-level code runs while it is being loaded: count it as loading.
  const isModuleBody = (n) => !n.callFrame.functionName && n.callFrame.lineNumber === 0 && n.callFrame.url !== '';
  for (const [id, ms] of self) {
    const n = nodes.get(id);
    const area = isModuleBody(n) ? 'module top-level code' : areaOf(n.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const key = keyOf(n);
    selfBy.set(key, (selfBy.get(key) ?? 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
      const k = keyOf(nodes.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      inclusiveBy.set(k, (inclusiveBy.get(k) ?? 0) + ms);
    }
  }
  // Phases: each sample goes to the first of these its stack matches. Work is attributed to
  // the deepest dist/ function on the stack: the product code that asked for it.
  const phases = new Map();
  const work = new Map();
  for (const [id, ms] of self) {
    const stack = [];
    for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) stack.push(nodes.get(cur));
    const frame = stack[0].callFrame;
    const urls = stack.map((n) => n.callFrame.url ?? '');
    let phase;
    if (frame.functionName === '(garbage collector)') phase = 'GC';
    else if (frame.functionName === '(idle)' || frame.functionName === '(program)') phase = `V8 ${frame.functionName}`;
    else if (urls.some((u) => /internal\/modules\//.test(u)) || stack.some(isModuleBody)) phase = 'loading modules (resolve, compile, top-level code)';
    else if (urls.some((u) => /^node:internal\/(bootstrap|process\/pre_execution)/.test(u))) phase = 'node start-up';
    else {
      const product = stack.find((n) => (n.callFrame.url ?? '').startsWith(DIST_URL));
      phase = product ? 'work' : 'other';
      if (product) work.set(keyOf(product), (work.get(keyOf(product)) ?? 0) + ms);
    }
    phases.set(phase, (phases.get(phase) ?? 0) + ms);
  }
  const top = (map, k) => [...map].sort((a, b) => b[1] - a[1]).slice(0, k);
  return { total, phases: top(phases, 10), work: top(work, 15), areas: top(areas, 25), selfTop: top(selfBy, 20), inclusiveTop: top(inclusiveBy, 30) };
}

function table(title, entries, total) {
  const lines = [`\n${title}`];
  for (const [key, ms] of entries) lines.push(`  ${ms.toFixed(0).padStart(6)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${key}`);
  return lines.join('\n');
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      n: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      setup: { type: 'string', default: 'warm' },
      keep: { type: 'boolean', default: false },
      out: { type: 'string', default: join(BENCH_DIR, '.out') },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write('Usage: node bench/profile.mjs [--n 10000] [--setup warm|cold|changed] [--keep] -- recall "sqlite migration"\n');
    return 2;
  }
  const out = resolve(values.out);
  const corpus = ensureCorpus({ out, n: Number(values.n), seed: Number(values.seed), log: (t) => process.stderr.write(`${t}\n`) });
  const env = benchEnv(out);
  const cortex = (args, extra = []) => spawnSync(process.execPath, [...extra, CLI, ...args], { cwd: corpus.dir, env, encoding: 'utf8' });
  let restore;
  if (values.setup === 'cold') rmSync(join(corpus.dir, '.memory'), { recursive: true, force: true });
  else cortex(['index']);
  if (values.setup === 'changed') {
    const file = corpus.files[0];
    const text = readFileSync(file, 'utf8');
    corpus.markDirty();
    writeFileSync(file, `${text}\nEdited by the profiler.\n`);
    restore = () => {
      writeFileSync(file, text);
      corpus.markClean();
    };
  }
  const profDir = mkdtempSync(join(tmpdir(), 'cortex-prof-'));
  try {
    const started = performance.now();
    const r = cortex(positionals, ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', '200']);
    const wall = performance.now() - started;
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      return 1;
    }
    const file = join(profDir, readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')));
    const { total, phases, work, areas, selfTop, inclusiveTop } = analyzeProfile(JSON.parse(readFileSync(file, 'utf8')));
    process.stdout.write(`cortex ${positionals.join(' ')}  (N = ${values.n}, setup ${values.setup}): wall ${wall.toFixed(0)} ms under the profiler, ${total.toFixed(0)} ms sampled\n`);
    process.stdout.write(table('Phases:', phases, total));
    process.stdout.write(table('Work, by the deepest dist/ function on the stack:', work, total));
    process.stdout.write(table('Self time by area:', areas, total));
    process.stdout.write(table('Self time by function:', selfTop, total));
    process.stdout.write(`${table('Inclusive time by function:', inclusiveTop, total)}\n`);
    if (values.keep) process.stdout.write(`\nprofile: ${file}\n`);
  } finally {
    restore?.();
    if (!values.keep) rmSync(profDir, { recursive: true, force: true });
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
