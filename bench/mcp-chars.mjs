#!/usr/bin/env node
// What the model reads of a recall: Claude Code sends a tool result's `structuredContent`
// (as JSON) instead of its text when there is one. This asks `memory_recall` the same 10
// questions through the real MCP SDK client, on the deterministic 1,000-memory corpus of
// bench/corpus.mjs (with 2,000 edges, so results carry their links), and sums per answer
// the characters of the text and of the JSON: the model receives the JSON when present.
//
//   npm run build && node bench/mcp-chars.mjs [--n 1000] [--json]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const { values: args } = parseArgs({ options: { n: { type: 'string', default: '1000' }, json: { type: 'boolean', default: false } } });

export const QUERIES = [
  'sqlite migration',
  'why did we pick the retry policy',
  'flaky test in CI',
  'how are sessions authenticated',
  'cache invalidation',
  'deploy rollback',
  'billing proration',
  'rate limiting the API',
  'build is slow',
  'PKCE login flow',
];

const work = mkdtempSync(join(tmpdir(), 'cortex-bench-chars-'));
const repo = join(work, 'repo');
mkdirSync(repo, { recursive: true });
const env = { ...process.env, HOME: work, CORTEX_HOME: join(work, 'cortex-home'), NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(work, 'gitconfig') };
writeFileSync(join(work, 'gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n');
delete env.NODE_OPTIONS;
spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env });
const { generateCorpus, generateEdges, writeCorpus } = await import('./corpus.mjs');
const memories = generateCorpus({ n: Number(args.n), seed: 1 });
writeCorpus(repo, memories);
const { renderEdge } = await import(join(ROOT, 'dist', 'core', 'edge-format.js'));
const { edgeFileName } = await import(join(ROOT, 'dist', 'core', 'edge.js'));
mkdirSync(join(repo, '.cortex', 'edges'), { recursive: true });
for (const edge of generateEdges({ memories, n: 2 * memories.length, seed: 1 })) {
  writeFileSync(join(repo, '.cortex', 'edges', edgeFileName(edge)), renderEdge(edge));
}
spawnSync(process.execPath, [CLI, 'index'], { cwd: repo, env });

const client = new Client({ name: 'cortex-bench-chars', version: '0.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo, env, stderr: 'ignore' }));
const rows = [];
for (const query of QUERIES) {
  const out = await client.callTool({ name: 'memory_recall', arguments: { query } });
  const text = out.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const structured = out.structuredContent === undefined ? undefined : JSON.stringify(out.structuredContent);
  if (!rows.sample) rows.sample = { text, structured };
  rows.push({ query, text: text.length, structured: structured?.length, received: structured?.length ?? text.length });
}
await client.close();
if (process.env.CHARS_SAMPLE) { writeFileSync(process.env.CHARS_SAMPLE, JSON.stringify(rows.sample ?? null)); }
rmSync(work, { recursive: true, force: true });

const sum = (k) => rows.reduce((t, r) => t + (r[k] ?? 0), 0);
const summary = { memories: memories.length, queries: rows.length, textChars: sum('text'), structuredChars: sum('structured'), receivedChars: sum('received'), rows };
if (args.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  process.stdout.write(`| query | text | structuredContent | the model receives |\n|---|---:|---:|---:|\n`);
  for (const r of rows) process.stdout.write(`| ${r.query} | ${r.text} | ${r.structured ?? '—'} | ${r.received} |\n`);
  process.stdout.write(`| **total (${rows.length} queries, ${memories.length} memories)** | ${summary.textChars} | ${summary.structuredChars || '—'} | **${summary.receivedChars}** |\n`);
}
