#!/usr/bin/env node
// Auto-linking as a real client sees it: N LoCoMo turns stored one by one through the
// `memory_remember` tool of `cortex mcp`, called with the real MCP SDK client.
//
//   npm run build && node bench/remember.mjs [--n 1000] [--conv conv-26,conv-30] [--json]
//
// Prints: edge files written, edges per memory, the median time of the first and the last
// 100 calls (client-side, call to answer) and their ratio, and the whole-run median; on
// Linux also the server's CPU time per call (from /proc/<pid>/stat), which a busy machine
// stretches less than the wall time.
// The turns are the paper's Dialog units (bench/locomo/dataset.mjs), each stored as its
// own memory (type context), in conversation order. Requires the LoCoMo data
// (../shared/bench-data/locomo/locomo10.json or LOCOMO_DATA).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT, findData, loadLocomo, turnsOf } from './locomo/dataset.mjs';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1000' },
    conv: { type: 'string' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(args.n);
const CLI = join(REPO_ROOT, 'dist', 'cli.cjs');

let samples = loadLocomo(findData());
if (args.conv) {
  const wanted = new Set(args.conv.split(','));
  samples = samples.filter((s) => wanted.has(s.sample_id));
}
const turns = samples.flatMap((s) => turnsOf(s).turns).slice(0, N);
if (turns.length < N) {
  process.stderr.write(`bench/remember: only ${turns.length} turns available\n`);
}

const work = mkdtempSync(join(tmpdir(), 'cortex-bench-remember-'));
const repo = join(work, 'repo');
const home = join(work, 'home');
mkdirSync(repo, { recursive: true });
mkdirSync(home, { recursive: true });
writeFileSync(join(home, 'gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');
const env = {
  ...process.env,
  HOME: home,
  CORTEX_HOME: join(home, 'cortex-home'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
  NO_COLOR: '1',
};
delete env.NODE_OPTIONS;
for (const argv of [['git', 'init', '-q', '-b', 'main'], [process.execPath, CLI, 'init', '--quiet']]) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd: repo, env, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`bench/remember: ${argv.join(' ')} exited ${r.status}\n${r.stderr}`);
    process.exit(1);
  }
}

const loadBefore = loadavg()[0];
const client = new Client({ name: 'cortex-bench-remember', version: '0.0.0' });
const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo, env, stderr: 'ignore' });
await client.connect(transport);
/** The server's user + system CPU time in ms, or undefined off Linux. */
const TICK_MS = 10; // USER_HZ is 100 on every Linux Node supports
function procStat() {
  try {
    const stat = readFileSync(`/proc/${transport.pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
function serverCpuMs() {
  const fields = procStat();
  return fields === undefined ? undefined : (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
/** CPU time of the server's finished children (the `git` it runs), in ms. */
function childCpuMs() {
  const fields = procStat();
  return fields === undefined ? undefined : (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}
const times = [];
const cpu = [];
const childCpu = [];
let linkedAnswers = 0;
for (const [i, turn] of turns.entries()) {
  const c0 = serverCpuMs();
  const k0 = childCpuMs();
  const t0 = performance.now();
  const out = await client.callTool({ name: 'memory_remember', arguments: { summary: turn.text.slice(0, 300), body: turn.text.length > 300 ? turn.text : '', type: 'context' } });
  times.push(performance.now() - t0);
  const c1 = serverCpuMs();
  if (c0 !== undefined && c1 !== undefined) cpu.push(c1 - c0);
  const k1 = childCpuMs();
  if (k0 !== undefined && k1 !== undefined) childCpu.push(k1 - k0);
  if (out.isError) {
    process.stderr.write(`bench/remember: call ${i} failed: ${out.content?.[0]?.text}\n`);
    process.exit(1);
  }
  if ((out.structuredContent?.linked ?? []).length > 0) linkedAnswers++;
  if (!args.json && (i + 1) % 250 === 0) process.stderr.write(`  ${i + 1} stored\n`);
}
await client.close();

const edgesDir = join(repo, '.cortex', 'edges');
let edgeFiles = [];
try {
  edgeFiles = readdirSync(edgesDir).filter((f) => f.endsWith('.md'));
} catch {
  // No edge at all.
}
const memories = readdirSync(join(repo, '.cortex', 'memories')).filter((f) => f.endsWith('.md')).length;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const first = median(times.slice(0, 100));
const last = median(times.slice(-100));
// CPU ticks are 10 ms: per call a median would be 0 or 10; the mean of 100 calls is the figure.
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const cpuFirst = cpu.length === times.length ? mean(cpu.slice(0, 100)) : undefined;
const cpuLast = cpu.length === times.length ? mean(cpu.slice(-100)) : undefined;
const childFirst = childCpu.length === times.length ? mean(childCpu.slice(0, 100)) : undefined;
const childLast = childCpu.length === times.length ? mean(childCpu.slice(-100)) : undefined;
const summary = {
  turns: turns.length,
  memories,
  edgeFiles: edgeFiles.length,
  edgesPerMemory: +(edgeFiles.length / Math.max(1, memories)).toFixed(2),
  answersWithLinks: linkedAnswers,
  medianMs: +median(times).toFixed(1),
  first100MedianMs: +first.toFixed(1),
  last100MedianMs: +last.toFixed(1),
  lastOverFirst: +(last / first).toFixed(2),
  ...(childFirst !== undefined ? { childCpuFirst100MeanMs: +childFirst.toFixed(1), childCpuLast100MeanMs: +childLast.toFixed(1) } : {}),
  ...(cpuFirst !== undefined ? { serverCpuFirst100MeanMs: +cpuFirst.toFixed(1), serverCpuLast100MeanMs: +cpuLast.toFixed(1), cpuLastOverFirst: +(cpuLast / cpuFirst).toFixed(2) } : {}),
  load: `${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
};
if (args.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  process.stdout.write(
    `${summary.turns} LoCoMo turns through memory_remember (real MCP SDK client, one \`cortex mcp\`):\n` +
      `  memories ${summary.memories}, edge files ${summary.edgeFiles} (${summary.edgesPerMemory} per memory), answers naming links ${summary.answersWithLinks}\n` +
      `  per call: median ${summary.medianMs} ms; first 100 ${summary.first100MedianMs} ms, last 100 ${summary.last100MedianMs} ms (× ${summary.lastOverFirst})\n` +
      (cpuFirst !== undefined ? `  server CPU per call (mean): first 100 ${summary.serverCpuFirst100MeanMs} ms, last 100 ${summary.serverCpuLast100MeanMs} ms (× ${summary.cpuLastOverFirst})\n` : '') +
      (childFirst !== undefined ? `  its children's CPU (git) per call (mean): first 100 ${summary.childCpuFirst100MeanMs} ms, last 100 ${summary.childCpuLast100MeanMs} ms\n` : '') +
      `  load average ${summary.load}\n`,
  );
}
if (args.keep) process.stderr.write(`kept ${repo}\n`);
else rmSync(work, { recursive: true, force: true });
