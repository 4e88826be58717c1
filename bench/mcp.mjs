#!/usr/bin/env node
// MCP server startup, whole-process, self-contained:
//   node bench/mcp.mjs [--runs 15] [--memories 1000] [--json]
//
// Measures, interleaved run by run so machine load affects all alike:
//   - bare `node -e 0`: spawn to exit (the floor)
//   - `cortex mcp`: spawn to the answer of `tools/list` (after `initialize`), the time an
//     assistant waits before it can see the tools
//   - `cortex mcp`: spawn to the answer of a first `memory_recall` (keyword, warm index,
//     --memories memories), the cost of the first tool call that loads the API
// Raw JSON-RPC lines over the child's stdin/stdout, so no client library's start-up is
// counted. Requires `npm run build` first. Prints medians and minimums.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { onJsonLines } from './lib/json-lines.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    memories: { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const MEMORIES = Number(args.memories);
if (!existsSync(CLI)) {
  console.error(`bench/mcp: no build at ${CLI}: run \`npm run build\` first`);
  process.exit(1);
}
const log = (line) => {
  if (!args.json) console.error(line);
};

const work = mkdtempSync(join(tmpdir(), 'cortex-bench-mcp-'));
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

function must(cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd: repo, env, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`bench/mcp: ${[cmd, ...argv].join(' ')} exited ${r.status}:\n${r.stderr}`);
    process.exit(1);
  }
}

// A deterministic corpus written as memory files, then indexed once (a warm index).
const WORDS = ['cache', 'queue', 'schema', 'deploy', 'auth', 'token', 'index', 'retry', 'lock', 'worker', 'billing', 'invoice', 'migration', 'webhook', 'session'];
const TYPES = ['decision', 'gotcha', 'pattern', 'architecture', 'context'];
must('git', ['init', '-q', '-b', 'main']);
must(process.execPath, [CLI, 'init', '--quiet']);
for (let i = 0; i < MEMORIES; i++) {
  const a = WORDS[i % WORDS.length];
  const b = WORDS[(i * 7 + 3) % WORDS.length];
  const id = `note-${i}-about-${a}-and-${b}-${(i % 1000).toString(36).padStart(2, '0')}aaaa`.slice(0, 60);
  const safe = id.replace(/[^a-z0-9-]/g, '');
  const text = [
    '---',
    `id: ${safe}`,
    `type: ${TYPES[i % TYPES.length]}`,
    `summary: Note ${i} on how the ${a} relates to the ${b}`,
    'scope: project',
    'priority: 5',
    'confidence: 1',
    'pinned: false',
    'status: active',
    `tags: [${a}, ${b}]`,
    'created: 2026-01-01T00:00:00Z',
    'updated: 2026-01-01T00:00:00Z',
    'source:',
    '  kind: manual',
    '---',
    `The ${a} and the ${b} interact in run ${i}; see the ${WORDS[(i + 5) % WORDS.length]} notes.`,
    '',
  ].join('\n');
  writeFileSync(join(repo, '.cortex', 'memories', `${safe}.md`), text);
}
must(process.execPath, [CLI, 'index', '--quiet']);

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** Spawns `cortex mcp`, sends `requests` after initialize, resolves with ms until the answer to the last one. */
function timeMcp(request) {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    onJsonLines(child.stdout, (msg, line) => {
      if (msg.id === 1) child.stdin.write(`${JSON.stringify(INITIALIZED)}\n${JSON.stringify(request)}\n`);
      if (msg.id === 2) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (msg.error || msg.result?.isError) reject(new Error(`request failed: ${line}`));
        child.stdin.end();
        child.on('close', () => resolvePromise(ms));
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`cortex mcp exited ${code}: ${stderr}`));
    });
    child.stdin.write(`${JSON.stringify(INIT)}\n`);
  });
}

function timeBare() {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('close', () => resolvePromise(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const RECALL = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_recall', arguments: { query: 'webhook retry lock' } } };

const times = { bare: [], list: [], recall: [] };
for (let i = 0; i < 2; i++) {
  await timeBare();
  await timeMcp(LIST);
  await timeMcp(RECALL);
}
for (let i = 0; i < RUNS; i++) {
  times.bare.push(await timeBare());
  times.list.push(await timeMcp(LIST));
  times.recall.push(await timeMcp(RECALL));
}
rmSync(work, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = Object.fromEntries(
  Object.entries(times).map(([k, xs]) => [k, { medianMs: Math.round(median(xs)), minMs: Math.round(Math.min(...xs)) }]),
);
const ratio = (k) => Math.round((summary[k].medianMs / summary.bare.medianMs) * 100) / 100;
const result = {
  runs: RUNS,
  memories: MEMORIES,
  node: process.version,
  cpus: (await import('node:os')).cpus().length,
  bareNode: summary.bare,
  spawnToToolsList: { ...summary.list, xBareNode: ratio('list') },
  spawnToFirstRecall: { ...summary.recall, xBareNode: ratio('recall') },
};
if (args.json) console.log(JSON.stringify(result, null, 2));
else {
  log(`cortex mcp startup, ${RUNS} runs (median / min), node ${process.version}, ${result.cpus} CPUs`);
  log(`  node -e 0                              ${summary.bare.medianMs} ms / ${summary.bare.minMs} ms`);
  log(`  spawn → tools/list answered            ${summary.list.medianMs} ms / ${summary.list.minMs} ms  (${ratio('list')} × node -e 0)`);
  log(`  spawn → first memory_recall answered   ${summary.recall.medianMs} ms / ${summary.recall.minMs} ms  (${ratio('recall')} × node -e 0; ${MEMORIES} memories, warm index)`);
}
