#!/usr/bin/env node
// Graph benchmark, whole-process: a synthetic project of 10,000 memories and 30,000 edge
// files, then `cortex traverse <id> --depth 3` and `cortex recall <query>` (with graph
// enrichment) on warm caches, beside a bare `node -e 0` measured in the same run.
//
//   npm run build && node bench/graph.mjs [--memories 10000] [--edges 30000] [--runs 15] [--keep]
//
// Prints a markdown table and writes bench/.out/graph.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const MEMORIES = arg('memories', 10_000);
const EDGES = arg('edges', 30_000);
const RUNS = arg('runs', 15);
const keep = process.argv.includes('--keep');

if (!existsSync(cli)) {
  console.error('Building cortex (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

// Deterministic PRNG (mulberry32): the same corpus on every run.
let seed = 0x9e3779b9;
function random() {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

const WORDS = (
  'index cache storage sqlite postgres hook session branch merge commit recall briefing surface decay ' +
  'ranking centrality edge graph memory token budget embedding vector keyword search parser markdown yaml ' +
  'frontmatter lock atomic rename checkout worktree config schema migration queue review lint doctor ' +
  'projection decision pattern gotcha plan progress context architecture timeout retry network offline ' +
  'model tokenizer transcript extraction redaction secret deploy release changelog test fixture benchmark'
).split(' ');
const TYPES = ['architecture', 'decision', 'rejected', 'pattern', 'gotcha', 'preference', 'plan', 'progress', 'context', 'code_description', 'code'];
const RELATIONS = ['relates_to', 'relates_to', 'relates_to', 'derived_from', 'refines', 'exemplifies', 'contradicts', 'source_of', 'supersedes'];
const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

function sentence(n) {
  return Array.from({ length: n }, () => pick(WORDS)).join(' ');
}

const base = mkdtempSync(join(tmpdir(), 'cortex-bench-graph-'));
const dir = join(base, 'repo');
const env = { ...process.env, CORTEX_HOME: join(base, 'home'), NO_COLOR: '1' };
mkdirSync(join(dir, '.cortex', 'memories'), { recursive: true });
mkdirSync(join(dir, '.cortex', 'edges'), { recursive: true });
writeFileSync(join(dir, '.gitignore'), '.memory/\n');

console.error(`Writing ${MEMORIES} memories and ${EDGES} edges to ${dir} …`);
const ids = [];
for (let i = 0; i < MEMORIES; i++) {
  const summary = `${sentence(6)} ${i}`;
  let suffix = '';
  for (let k = 0; k < 6; k++) suffix += B32[Math.floor(random() * 32)];
  const id = `${summary.split(' ').slice(0, 4).join('-')}-${i}-${suffix}`;
  ids.push(id);
  // One memory in ten links an earlier one in its body: wikilinks are edges too.
  const link = i > 0 && random() < 0.1 ? ` See [[${ids[Math.floor(random() * i)]}]].` : '';
  const text = [
    '---',
    `id: ${id}`,
    `type: ${pick(TYPES)}`,
    `summary: ${summary}`,
    'scope: project',
    `priority: ${1 + Math.floor(random() * 10)}`,
    'confidence: 0.9',
    'pinned: false',
    'status: active',
    `tags: [${pick(WORDS)}, ${pick(WORDS)}]`,
    'created: 2026-01-01T00:00:00Z',
    'updated: 2026-01-01T00:00:00Z',
    'source:',
    '  kind: manual',
    '---',
    `${sentence(40)}.${link}`,
    '',
  ].join('\n');
  writeFileSync(join(dir, '.cortex', 'memories', `${id}.md`), text);
}
const seen = new Set();
let written = 0;
while (written < EDGES) {
  // Preferential attachment for targets: a few hubs, like real knowledge graphs.
  const s = ids[Math.floor(random() * MEMORIES)];
  const t = ids[Math.floor(random() ** 2 * MEMORIES)];
  const relation = pick(RELATIONS);
  const name = `${s}--${relation}--${t}.md`;
  if (s === t || seen.has(name)) continue;
  seen.add(name);
  const text = [
    '---',
    `source: ${s}`,
    `target: ${t}`,
    `relation: ${relation}`,
    `strength: ${(Math.round(random() * 100) / 100).toString()}`,
    `status: ${random() < 0.1 ? 'suggested' : 'active'}`,
    `bidirectional: ${random() < 0.2}`,
    'origin: manual',
    'created: 2026-01-01T00:00:00Z',
    '---',
    '',
  ].join('\n');
  writeFileSync(join(dir, '.cortex', 'edges', name), text);
  written++;
}

// Each child reports its own CPU time (user + system, all threads) on exit: on a shared,
// busy machine wall time mostly measures the neighbours, CPU time measures the work.
const CPU_PROBE =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.cpuUsage();writeSync(2,"\\nCPU_US "+(u.user+u.system)+"\\n")})';

function time(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', CPU_PROBE, ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = /CPU_US (\d+)/.exec(r.stderr);
  return { ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, stdout: r.stdout };
}
const cortex = (...args) => time([cli, ...args]);

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { median: q(0.5), p90: q(0.9), min: sorted[0] };
}

// The busiest node as the traversal start: the worst case of a depth-3 walk; and the
// least linked one (targets are drawn towards low indexes) as a typical case.
const start = ids[0];
const leaf = ids[MEMORIES - 1];
const query = 'sqlite index cache storage';

console.error('Cold runs (first build of the index and the graph caches) …');
const cold = {
  index: cortex('index').ms,
  traverse: cortex('traverse', start, '--depth', '3').ms,
};
const reached = JSON.parse(cortex('traverse', start, '--depth', '3', '--json').stdout).total;
const leafReached = JSON.parse(cortex('traverse', leaf, '--depth', '3', '--json').stdout).total;

// A new edge written by `cortex link`: the next run rebuilds the graph from the edge cache.
const linkMs = cortex('link', ids[1], 'refines', ids[2]).ms;
const afterLink = cortex('traverse', start, '--depth', '3').ms;
// An edge written by someone else (git checkout, an editor): the directory is re-listed.
writeFileSync(
  join(dir, '.cortex', 'edges', `${ids[3]}--refines--${ids[4]}.md`),
  `---\nsource: ${ids[3]}\ntarget: ${ids[4]}\nrelation: refines\nstrength: 0.5\nstatus: active\nbidirectional: false\norigin: manual\ncreated: 2026-01-01T00:00:00Z\n---\n`,
);
const afterExternal = cortex('traverse', start, '--depth', '3').ms;
// Let the directory age past the racy window so the caches trust it.
await new Promise((r) => setTimeout(r, 300));
cortex('traverse', start, '--depth', '3');

console.error(`Warm runs (${RUNS} each, interleaved) …`);
const runs = {
  node: () => time(['-e', '0']),
  traverse: () => cortex('traverse', start, '--depth', '3'),
  traverseJson: () => cortex('traverse', start, '--depth', '3', '--json'),
  traverseLeaf: () => cortex('traverse', leaf, '--depth', '3'),
  recall: () => cortex('recall', query),
  recallNoEnrich: () => cortex('recall', query, '--no-enrich'),
};
const samples = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
const cpuSamples = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [k, run] of Object.entries(runs)) {
    const t = run();
    samples[k].push(t.ms);
    cpuSamples[k].push(t.cpuMs);
  }
}
const enriched = JSON.parse(cortex('recall', query, '--json').stdout).results;

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
  memories: MEMORIES,
  edgeFiles: EDGES,
  traverseStart: start,
  traverseReached: reached,
  traverseLeaf: leaf,
  traverseLeafReached: leafReached,
  recallResults: enriched.length,
  recallRelated: enriched.reduce((n, r) => n + (r.related?.length ?? 0), 0),
  cold,
  afterLink: { linkMs, traverseMs: afterLink },
  afterExternalEdge: { traverseMs: afterExternal },
  warm: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)])),
  warmCpu: Object.fromEntries(Object.entries(cpuSamples).map(([k, v]) => [k, stats(v)])),
};
const outDir = join(root, 'bench', '.out');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'graph.json'), `${JSON.stringify(result, null, 2)}\n`);

const node = result.warm.node.median;
const nodeCpu = result.warmCpu.node.median;
const row = (name, key) => {
  const s = result.warm[key];
  const c = result.warmCpu[key];
  return `| ${name} | ${s.median.toFixed(0)} | ${s.p90.toFixed(0)} | ${(s.median / node).toFixed(2)}× | ${c.median.toFixed(0)} | ${(c.median / nodeCpu).toFixed(2)}× |`;
};
const table = [
  `Graph benchmark: ${MEMORIES} memories, ${EDGES} edge files (+ wikilinks), ${cpus().length} CPUs, load ${result.loadavg.join(' ')}, Node ${process.version}`,
  `traverse from the hub reaches ${reached} memories at depth ≤ 3, from the least linked memory ${leafReached}; ` +
    `recall returns ${enriched.length} results with ${result.recallRelated} neighbours`,
  '',
  '| warm, whole process | wall median ms | wall p90 ms | wall × node -e 0 | CPU median ms | CPU × node -e 0 |',
  '|---|---|---|---|---|---|',
  row('node -e 0', 'node'),
  row('cortex traverse <hub> --depth 3', 'traverse'),
  row('cortex traverse <hub> --depth 3 --json', 'traverseJson'),
  row('cortex traverse <leaf> --depth 3', 'traverseLeaf'),
  row('cortex recall <q> (enriched)', 'recall'),
  row('cortex recall <q> --no-enrich', 'recallNoEnrich'),
  '',
  `cold: index ${cold.index.toFixed(0)} ms, first traverse ${cold.traverse.toFixed(0)} ms; ` +
    `link ${linkMs.toFixed(0)} ms then traverse ${afterLink.toFixed(0)} ms; ` +
    `edge file added by hand then traverse ${afterExternal.toFixed(0)} ms`,
];
console.log(table.join('\n'));
appendFileSync(join(outDir, 'graph.md'), `${table.join('\n')}\n\n`);
if (!keep) rmSync(base, { recursive: true, force: true });
else console.error(`Kept ${dir}`);
