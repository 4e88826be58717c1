/**
 * `cortex mcp` as a long-lived process: reads write nothing to `.memory/` but the usage log,
 * and what other processes change under the running server (a `cortex remember`, an edit in
 * place, a `git checkout`) is seen by the next call at least 100 ms after it (FRESH_SWEEP_MS).
 * The BUILT cli, driven by the SDK's real Client over stdio, in real temporary git repositories.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, tempRepo, type TempRepo } from './helpers/repo.js';

async function connect(repo: TempRepo): Promise<(name: string, args: Record<string, unknown>) => Promise<CallToolResult>> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.dir, env: repo.env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'cortex-test', version: '0.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return async (name, args) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result;
  };
}

/** Every file under `dir` (relative path → SHA-1 of its bytes), but the usage log. */
function snapshot(dir: string, root = dir, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) snapshot(path, root, out);
    else if (relative(root, path) !== 'signals.log') out[relative(root, path)] = createHash('sha1').update(readFileSync(path)).digest('hex');
  }
  return out;
}

const ids = (result: CallToolResult): string[] => ((result.structuredContent as { results?: { id: string }[] }).results ?? []).map((r) => r.id);

const NARWHAL = [
  '---',
  'id: narwhal-queue-abcdef',
  'type: decision',
  'summary: The narwhal queue drains every night',
  'scope: project',
  'priority: 5',
  'confidence: 1',
  'pinned: false',
  'status: active',
  'tags: []',
  'created: 2026-01-01T00:00:00Z',
  'updated: 2026-01-01T00:00:00Z',
  'source:',
  '  kind: manual',
  '---',
  'Drained at 02:00.',
  '',
].join('\n');

const TOPICS = ['sqlite', 'postgres', 'redis', 'queue', 'webhook', 'billing', 'tokens', 'retries', 'schema', 'deploys'];
const WHYS = ['it needs no server', 'the pool ran dry', 'tests flaked at night', 'the invoices doubled', 'latency tripled', 'the laptop had no docker'];

describe('cortex mcp, warm', () => {
  it('1,000 recalls leave .memory/ byte for byte as it was, but for the appended usage log', { timeout: 600_000 }, async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    const call = await connect(repo);
    for (let i = 0; i < 40; i++) {
      await call('memory_remember', { summary: `Chose ${TOPICS[i % TOPICS.length]} for part ${i} because ${WHYS[i % WHYS.length]}`, type: 'decision' });
    }
    // Past the racy window of the last write: a stamp taken now is trusted. One recall first:
    // the graph's caches (edges.json, graph.v8) are built by the first read after a write.
    await sleep(300);
    expect(ids(await call('memory_recall', { query: 'why sqlite', limit: 3 }))).not.toEqual([]);
    const before = snapshot(join(repo.dir, '.memory'));
    let found = 0;
    for (let i = 0; i < 1000; i++) {
      const result = await call('memory_recall', { query: `why ${TOPICS[i % TOPICS.length]} ${WHYS[(i * 7) % WHYS.length]} ${i}`, limit: 3 });
      if (ids(result).length > 0) found++;
    }
    expect(found).toBeGreaterThan(900);
    expect(snapshot(join(repo.dir, '.memory'))).toEqual(before);
    // Every recall that found something appended one line.
    expect(readFileSync(join(repo.dir, '.memory', 'signals.log'), 'utf8').split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(found);
    // No left-over index tables.
    expect(readdirSync(join(repo.dir, '.memory')).filter((n) => n.startsWith('index-files-'))).toHaveLength(1);
  });

  it("sees another process's remember, an edit in place and a git checkout at the next call 100 ms after them", { timeout: 300_000 }, async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    expect(repo.cortex(['remember', 'Chose SQLite because zero-config matters on every laptop', '--type', 'decision']).code).toBe(0);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-qm', 'memories']).code).toBe(0);
    const call = await connect(repo);
    const recall = async (query: string) => ids(await call('memory_recall', { query, limit: 5 }));
    const [sqlite] = await recall('zero-config laptop');
    expect(sqlite).toMatch(/^chose-sqlite/);
    // Calls in quick succession: the server has just swept.
    expect(await recall('flamingo')).toEqual([]);

    // Another process remembers.
    expect(repo.cortex(['remember', 'The flamingo cache is warmed at boot by the pink worker', '--type', 'gotcha']).code).toBe(0);
    await sleep(100);
    expect(await recall('flamingo pink worker')).toHaveLength(1);

    // An editor writes a memory in place (no rename: the directory's stamp does not move).
    const file = join(repo.dir, '.cortex', 'memories', `${sqlite}.md`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('zero-config matters on every laptop', 'the walrus benchmark favoured it'));
    await sleep(100);
    expect(await recall('walrus benchmark')).toEqual([sqlite]);

    // A checkout under the running server: a branch where the flamingo memory is gone and a new one exists.
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-qm', 'flamingo']).code).toBe(0);
    expect(repo.git(['checkout', '-q', '-b', 'other']).code).toBe(0);
    const flamingo = repo.list('.cortex/memories').find((n) => n.startsWith('the-flamingo'))!;
    expect(repo.git(['rm', '-q', `.cortex/memories/${flamingo}`]).code).toBe(0);
    repo.write('.cortex/memories/narwhal-queue-abcdef.md', NARWHAL);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-qm', 'narwhal']).code).toBe(0);
    expect(repo.git(['checkout', '-q', 'main']).code).toBe(0);
    await sleep(100);
    expect(await recall('narwhal queue')).toEqual([]);
    expect(await recall('flamingo pink worker')).toHaveLength(1);
    expect(repo.git(['checkout', '-q', 'other']).code).toBe(0);
    await sleep(100);
    expect(await recall('narwhal queue')).toEqual(['narwhal-queue-abcdef']);
    expect(await recall('flamingo pink worker')).toEqual([]);
  });
});
