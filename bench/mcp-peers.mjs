#!/usr/bin/env node
// Cortex's MCP server beside the official MCP memory server (@modelcontextprotocol/server-memory,
// a devDependency at an exact version), through the same MCP SDK client, on the same LoCoMo turns:
//   node bench/mcp-peers.mjs [--turns 1000] [--prefill 0] [--servers cortex,official] [--cli dist/cli.js …] [--no-git] [--keep] [--json]
//
// For each server, in one run: start it over stdio, store `--turns` LoCoMo turns one call each
// (Cortex `memory_remember`, the official server `create_entities`), then ask every distinct
// question whose evidence lies in the stored turns (Cortex `memory_recall`, limit 5; the
// official server `search_nodes`). Reports per-call medians (and p90) for store and search, the
// CPU per call (the server's process tree: /proc/<pid>/stat, children it reaped included), the
// bytes the server's process tree wrote to disk while storing and while searching
// (/proc/<pid>/io write_bytes: a reaped child's counts are added to its parent's), the size of
// the store afterwards (Cortex: `.cortex/` and `.memory/`; a fresh `cortex index --rebuild`
// beside it), and hit@5: the share of questions with an evidence turn among the first five results.
//
// `--prefill N` first puts N synthetic memories (bench/corpus.mjs) in each store, so the
// per-call figures are at N + turns memories (Cortex: memory files indexed once; the official
// server: one entity each in its JSONL file).
//
// `--cli PATH` (repeatable) runs the Cortex server of each build given, one after the other in
// the same run (paired: compare a change with the build before it on the same load).
//
// Data: LoCoMo (see bench/locomo/README.md), read in place. Requires `npm run build` first.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findData, loadLocomo, normaliseEvidence, turnsOf } from './locomo/dataset.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OFFICIAL = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '1000' },
    prefill: { type: 'string', default: '0' },
    servers: { type: 'string', default: 'cortex,official' },
    'node-args': { type: 'string', default: '' },
    cli: { type: 'string', multiple: true, default: [] },
    // Cortex in a directory that is not a git repository: no `git add` children, so the bytes
    // are Cortex's own (git rewrites its whole index, which lists every memory and edge file).
    'no-git': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const TURNS = Number(args.turns);
const PREFILL = Number(args.prefill);
const SERVERS = args.servers.split(',').filter(Boolean);
const NODE_ARGS = args['node-args'].split(' ').filter(Boolean);
const CLIS = args.cli.length > 0 ? args.cli.map((c) => resolve(c)) : [CLI];
for (const cli of CLIS) {
  if (!existsSync(cli)) {
    console.error(`bench/mcp-peers: no build at ${cli}: run \`npm run build\` first`);
    process.exit(1);
  }
}
const log = (line) => console.error(line);

// ---- data: the first TURNS turns, conversation by conversation, and the questions they answer
const samples = loadLocomo(findData());
const turns = [];
const questions = [];
for (const sample of samples) {
  if (turns.length >= TURNS) break;
  const { turns: all } = turnsOf(sample);
  const taken = all.slice(0, TURNS - turns.length);
  for (const t of taken) turns.push({ key: `${sample.sample_id}/${t.diaId}`, text: t.text });
  const stored = new Set(taken.map((t) => t.diaId));
  const known = new Set(all.map((t) => t.diaId));
  for (const qa of sample.qa ?? []) {
    const { ids } = normaliseEvidence(qa.evidence, known);
    if (ids.length === 0 || !ids.every((id) => stored.has(id))) continue;
    questions.push({ question: String(qa.question), evidence: new Set(ids.map((id) => `${sample.sample_id}/${id}`)) });
  }
}
// Distinct questions only: no server may answer one from a cache of the previous call.
const seenQuestions = new Set();
const distinct = questions.filter((q) => (seenQuestions.has(q.question) ? false : (seenQuestions.add(q.question), true)));

// ---- helpers
const work = mkdtempSync(join(tmpdir(), 'cortex-bench-peers-'));
const home = join(work, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, 'gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');
const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), NO_COLOR: '1' };

function must(cwd, cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${[cmd, ...argv].join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

function writeBytes(pid) {
  try {
    const m = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** CPU milliseconds `pid` and its reaped children have used (/proc/<pid>/stat utime+stime+cutime+cstime, 100 Hz ticks). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/** Waits until `pid` has been idle a moment with no child process (its background `git add` done), at most 30 s. */
async function settled(pid) {
  const children = () => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  const start = Date.now();
  do await new Promise((r) => setTimeout(r, 300));
  while (children() !== '' && Date.now() - start < 30_000);
}

function duSize(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of readdirSync(path)) total += duSize(join(path, name));
  return total;
}

function countFiles(path) {
  if (!existsSync(path)) return 0;
  return readdirSync(path).length;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))];
};

async function connect(command, argv, cwd, extraEnv) {
  const transport = new StdioClientTransport({ command, args: argv, cwd, env: { ...env, ...extraEnv }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'cortex-bench-peers', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

async function timed(fn) {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

const textOf = (result) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

// ---- the servers
async function prefillCorpus() {
  if (PREFILL <= 0) return [];
  const { generateCorpus } = await import('./corpus.mjs');
  return generateCorpus({ n: PREFILL, seed: 1 });
}

const SERVERS_RUN = {
  async cortex(prefill, cli = CLI) {
    const CLI = cli;
    const repo = join(work, `cortex-repo-${runs++}`);
    mkdirSync(repo, { recursive: true });
    if (!args['no-git']) must(repo, 'git', ['init', '-q', '-b', 'main']);
    // The corpus first: writeCorpus lays out .cortex/ anew.
    if (prefill.length > 0) (await import('./corpus.mjs')).writeCorpus(repo, prefill);
    must(repo, process.execPath, [CLI, 'init', '--quiet']);
    if (prefill.length > 0) must(repo, process.execPath, [CLI, 'index', '--quiet']);
    const s = await connect(process.execPath, [...NODE_ARGS, CLI, 'mcp'], repo, {});
    const pid = s.transport.pid;
    const idToKey = new Map();
    const store = [];
    const w0 = writeBytes(pid);
    const c0 = cpuMs(pid);
    for (const t of turns) {
      const { ms, result } = await timed(() => s.client.callTool({ name: 'memory_remember', arguments: { summary: t.text.slice(0, 300), body: t.text.length > 300 ? t.text : '', type: 'context' } }));
      if (result.isError) throw new Error(`memory_remember failed: ${textOf(result)}\n${s.stderr()}`);
      idToKey.set(result.structuredContent.id, t.key);
      store.push(ms);
    }
    // The server stages the burst's files with `git add` once the calls stop (100 ms idle):
    // counted with the stores it belongs to.
    await settled(pid);
    const w1 = writeBytes(pid);
    const c1 = cpuMs(pid);
    const search = [];
    let hits = 0;
    for (const q of distinct) {
      const { ms, result } = await timed(() => s.client.callTool({ name: 'memory_recall', arguments: { query: q.question, limit: 5 } }));
      if (result.isError) throw new Error(`memory_recall failed: ${textOf(result)}\n${s.stderr()}`);
      search.push(ms);
      const ids = (result.structuredContent?.results ?? []).slice(0, 5).map((r) => idToKey.get(r.id));
      if (ids.some((k) => k !== undefined && q.evidence.has(k))) hits++;
    }
    const w2 = writeBytes(pid);
    const c2 = cpuMs(pid);
    await s.client.close();
    const memoryDir = join(repo, '.memory');
    const after = { cortex: duSize(join(repo, '.cortex')), memory: duSize(memoryDir), memoryFiles: countFiles(memoryDir), edges: countFiles(join(repo, '.cortex', 'edges')) };
    // A fresh rebuild of the same store, for scale.
    const fresh = `${repo}-fresh`;
    must(repo, 'cp', ['-r', repo, fresh]);
    rmSync(join(fresh, '.memory'), { recursive: true, force: true });
    must(fresh, process.execPath, [CLI, 'index', '--rebuild', '--quiet']);
    after.freshMemory = duSize(join(fresh, '.memory'));
    return { store, search, hits, written: { store: w1 - w0, search: w2 - w1 }, cpu: { store: c1 - c0, search: c2 - c1 }, disk: after.cortex + after.memory, after };
  },
  async official(prefill) {
    const dir = join(work, 'official');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'memory.jsonl');
    for (const m of prefill) appendFileSync(file, `${JSON.stringify({ type: 'entity', name: m.id, entityType: m.type, observations: [m.summary, m.body].filter(Boolean) })}\n`);
    const s = await connect(process.execPath, [...NODE_ARGS, OFFICIAL], dir, { MEMORY_FILE_PATH: file });
    const pid = s.transport.pid;
    const store = [];
    const w0 = writeBytes(pid);
    const c0 = cpuMs(pid);
    for (const t of turns) {
      const { ms, result } = await timed(() => s.client.callTool({ name: 'create_entities', arguments: { entities: [{ name: t.key, entityType: 'turn', observations: [t.text] }] } }));
      if (result.isError) throw new Error(`create_entities failed: ${textOf(result)}`);
      store.push(ms);
    }
    const w1 = writeBytes(pid);
    const c1 = cpuMs(pid);
    const search = [];
    let hits = 0;
    for (const q of distinct) {
      const { ms, result } = await timed(() => s.client.callTool({ name: 'search_nodes', arguments: { query: q.question } }));
      if (result.isError) throw new Error(`search_nodes failed: ${textOf(result)}`);
      search.push(ms);
      const names = (result.structuredContent?.entities ?? []).slice(0, 5).map((e) => e.name);
      if (names.some((k) => q.evidence.has(k))) hits++;
    }
    const w2 = writeBytes(pid);
    const c2 = cpuMs(pid);
    await s.client.close();
    return { store, search, hits, written: { store: w1 - w0, search: w2 - w1 }, cpu: { store: c1 - c0, search: c2 - c1 }, disk: duSize(dir), after: {} };
  },
};

let runs = 0;
const MB = (b) => `${(b / 1e6).toFixed(b < 1e6 ? 3 : 1)} MB`;
const rows = [];
try {
  const prefill = await prefillCorpus();
  log(`bench/mcp-peers: ${turns.length} turns stored, ${distinct.length} distinct questions, ${prefill.length} prefilled memories, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (const [name, cli] of SERVERS.flatMap((n) => (n === 'cortex' ? CLIS.map((c) => [n, c]) : [[n, undefined]]))) {
    const run = SERVERS_RUN[name];
    if (!run) throw new Error(`unknown server ${name} (cortex, official)`);
    const r = await run(prefill, cli);
    const row = {
      server: name,
      ...(cli !== undefined && CLIS.length > 1 ? { cli } : {}),
      memories: prefill.length + turns.length,
      storeMedianMs: median(r.store),
      storeP90Ms: p90(r.store),
      searchMedianMs: median(r.search),
      searchP90Ms: p90(r.search),
      storeCpuPerCallMs: r.cpu.store / turns.length,
      searchCpuPerCallMs: r.cpu.search / distinct.length,
      storeWrittenBytes: r.written.store,
      storeWrittenPerCall: r.written.store / turns.length,
      searchWrittenBytes: r.written.search,
      diskBytes: r.disk,
      hitAt5: r.hits / distinct.length,
      ...r.after,
    };
    rows.push(row);
    log(
      `${name.padEnd(8)}${row.cli ? ` ${row.cli}` : ''} store ${row.storeMedianMs.toFixed(2)} ms (p90 ${row.storeP90Ms.toFixed(2)}, CPU ${row.storeCpuPerCallMs.toFixed(2)}) · search ${row.searchMedianMs.toFixed(2)} ms (p90 ${row.searchP90Ms.toFixed(2)}, CPU ${row.searchCpuPerCallMs.toFixed(2)}) · ` +
        `written: stores ${MB(row.storeWrittenBytes)} (${(row.storeWrittenPerCall / 1e3).toFixed(1)} kB/call), searches ${MB(row.searchWrittenBytes)} · disk ${MB(row.diskBytes)}` +
        (row.memory !== undefined ? ` (.memory ${MB(row.memory)}, ${row.memoryFiles} files; fresh rebuild ${MB(row.freshMemory)}; ${row.edges} edge files)` : '') +
        ` · hit@5 ${row.hitAt5.toFixed(3)}`,
    );
  }
  if (args.json) console.log(JSON.stringify({ turns: turns.length, questions: distinct.length, prefill: prefill.length, rows }, null, 2));
} finally {
  if (!args.keep) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
}
