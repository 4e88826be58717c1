/**
 * `cortex mcp`, end to end: the BUILT cli started as a child process, driven by the
 * SDK's real Client over stdio in real temporary git repositories.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readSignals } from '../src/cache/signals.js';
import { parseMemory } from '../src/core/memory-format.js';
import { MODEL_DIR, tinyEnv } from './helpers/models.js';
import { queue } from './helpers/review.js';
import { CLI, json, REPO_ROOT, tempRepo, type TempRepo } from './helpers/repo.js';

interface Session {
  client: Client;
  /** Calls a tool; the result, never an exception, for tool errors. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Errors the client saw on the connection (a non-JSON line on stdout would land here). */
  errors: Error[];
}

async function connect(repo: TempRepo, options: { args?: string[]; nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), CLI, 'mcp', ...(options.args ?? [])],
    cwd: repo.dir,
    env: { ...repo.env, ...options.env } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'cortex-test', version: '0.0.0' });
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  onTestFinished(() => client.close());
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    stderr: () => stderr,
    errors,
  };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function initialised(): TempRepo {
  const repo = tempRepo();
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

const SQLITE = 'Chose SQLite over Postgres because zero-config matters on every laptop';

describe('cortex mcp: tools/list', () => {
  it('lists the eight memory tools with schemas, descriptions and annotations', async () => {
    const repo = initialised();
    const s = await connect(repo);
    const { tools } = await s.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'memory_forget',
      'memory_get',
      'memory_link',
      'memory_recall',
      'memory_remember',
      'memory_review',
      'memory_status',
      'memory_traverse',
    ]);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.annotations?.openWorldHint, t.name).toBe(false);
    }
    for (const name of ['memory_recall', 'memory_get', 'memory_traverse', 'memory_status']) {
      expect(byName.get(name)!.annotations, name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    expect(byName.get('memory_forget')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('memory_review')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('memory_remember')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('memory_link')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // A query or, for file recall, a file: the tool says which is missing.
    expect(byName.get('memory_recall')!.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(byName.get('memory_recall')!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'file']));
    expect(byName.get('memory_remember')!.inputSchema.required).toEqual(expect.arrayContaining(['summary', 'type']));
    expect(byName.get('memory_get')!.inputSchema.required).toEqual(['id']);
    // Claude Code defers tools behind its tool search unless asked; recall and remember ask.
    expect(tools.filter((t) => t._meta?.['anthropic/alwaysLoad'] === true).map((t) => t.name).sort()).toEqual(['memory_recall', 'memory_remember']);
    // The server's instructions, which Claude Code shows the model even with the tools deferred:
    // when to recall and when to remember.
    const instructions = s.client.getInstructions() ?? '';
    expect(instructions).toMatch(/Recall \(memory_recall\) before choosing an approach/);
    expect(instructions).toMatch(/Remember \(memory_remember\) when something is settled/);
    expect(s.errors).toEqual([]);
  });
});

describe('cortex mcp: the review queue', () => {
  it('lists the queued candidates and accepts or rejects them by stable number or short id', async () => {
    const repo = initialised();
    await queue(repo, ['Maybe use Redis for the session cache', 'Perhaps drop the Windows build', 'Could move CI to GitHub Actions']);
    const s = await connect(repo);
    const listed = await s.call('memory_review');
    expect(listed.isError, text(listed)).toBeFalsy();
    const items = (listed.structuredContent as { items: { n: number; short: string; summary: string }[] }).items;
    expect(items.map((i) => i.n)).toEqual([1, 2, 3]);
    expect(text(listed)).toContain(`#2 ${items[1]!.short} [decision 0.55] Perhaps drop the Windows build`);

    const accepted = await s.call('memory_review', { action: 'accept', ids: ['1'] });
    const memory = (accepted.structuredContent as { accepted: { n: number; memory: string }[] }).accepted[0]!;
    expect(memory.n).toBe(1);
    expect(parseMemory(repo.read(`.cortex/memories/${memory.memory}.md`)).memory).toMatchObject({ summary: 'Maybe use Redis for the session cache', confidence: 0.9, source: { confirmed: 'assistant' } });
    // #2 is still #2 after #1 was accepted.
    const rejected = await s.call('memory_review', { action: 'reject', ids: ['#2', items[2]!.short] });
    expect((rejected.structuredContent as { rejected: { n: number }[] }).rejected.map((r) => r.n)).toEqual([2, 3]);
    expect((rejected.structuredContent as { items: unknown[] }).items).toEqual([]);
    expect(text(rejected)).toContain('No candidate waits for review.');

    const missing = await s.call('memory_review', { action: 'accept', ids: ['2'] });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('No review entry "2"');
    const noIds = await s.call('memory_review', { action: 'reject' });
    expect(noIds.isError).toBe(true);
    expect(s.errors).toEqual([]);
  });
});

describe('cortex mcp: a memory through its life', () => {
  it('remembers, recalls, reads, archives and deletes through the real client', async () => {
    const repo = initialised();
    const s = await connect(repo);

    const remembered = await s.call('memory_remember', {
      summary: SQLITE,
      type: 'decision',
      body: 'PostgreSQL was rejected: it needs a running daemon.',
      tags: ['storage'],
      files: ['src/db.ts'],
    });
    expect(remembered.isError, text(remembered)).toBeFalsy();
    const made = remembered.structuredContent as { action: string; id: string; file: string };
    expect(made.action).toBe('created');
    expect(text(remembered)).toContain(made.id);
    const onDisk = repo.read(made.file);
    const parsed = parseMemory(onDisk, { file: made.file, expectedId: made.id });
    expect(parsed.memory).toMatchObject({ type: 'decision', summary: SQLITE, tags: ['storage'], source: { files: ['src/db.ts'], branch: 'main' } });

    // The same arguments again store nothing new (the tool is marked idempotent).
    const again = await s.call('memory_remember', { summary: SQLITE, type: 'decision', body: 'PostgreSQL was rejected: it needs a running daemon.', tags: ['storage'], files: ['src/db.ts'] });
    expect(again.structuredContent).toMatchObject({ action: 'duplicate', id: made.id });

    await s.call('memory_remember', { summary: 'The CI runner has no GPU', type: 'gotcha' });
    const recalled = await s.call('memory_recall', { query: 'which database did we pick' });
    expect(recalled.isError, text(recalled)).toBeFalsy();
    const hits = (recalled.structuredContent as { results: { id: string; preview: string; type: string }[] }).results;
    expect(hits[0]).toMatchObject({ id: made.id, type: 'decision' });
    expect(hits[0]!.preview).toContain('PostgreSQL was rejected');
    expect(text(recalled).split('\n')[1]).toContain(made.id);

    const got = await s.call('memory_get', { id: made.id });
    expect(got.isError, text(got)).toBeFalsy();
    expect(text(got)).toBe(repo.read(made.file));

    // Reading counts as an access (usage signals); forgetting does not.
    const accesses = () => readSignals({ cacheDir: join(repo.dir, '.memory') })[made.id]?.accessCount;
    const read = accesses();
    expect(read).toBeGreaterThan(0);
    const forgotten = await s.call('memory_forget', { id: made.id });
    expect(forgotten.structuredContent).toMatchObject({ action: 'archived', id: made.id });
    expect(accesses()).toBe(read);
    expect(parseMemory(repo.read(made.file), { file: made.file }).memory?.status).toBe('archived');
    const after = (await s.call('memory_recall', { query: 'which database did we pick' })).structuredContent as { results: { id: string }[] };
    expect(after.results.map((r) => r.id)).not.toContain(made.id);
    const archived = (await s.call('memory_recall', { query: 'which database did we pick', status: ['archived'] })).structuredContent as {
      results: { id: string; status: string }[];
    };
    expect(archived.results[0]).toMatchObject({ id: made.id, status: 'archived' });

    const deleted = await s.call('memory_forget', { id: made.id, hard: true });
    expect(deleted.structuredContent).toMatchObject({ action: 'deleted' });
    expect(existsSync(join(repo.dir, made.file))).toBe(false);

    const status = await s.call('memory_status');
    expect(status.structuredContent).toMatchObject({ tiers: [{ scope: 'project', total: 1, byType: { gotcha: 1 } }] });
    expect(s.errors).toEqual([]);
  });

  it('recalls the memories anchored to a file or symbol (memory_recall with file)', async () => {
    const repo = initialised();
    const s = await connect(repo);
    const made = (await s.call('memory_remember', { summary: SQLITE, type: 'decision', files: ['src/db.ts'] })).structuredContent as { id: string };
    // File recall: the memories anchored to a file (src/db.ts, and a symbol anchor in it).
    const anchored = await s.call('memory_remember', { summary: 'open() must run the WAL pragma first', type: 'gotcha', files: ['src/db.ts#open'] });
    const byFile = await s.call('memory_recall', { file: 'src/db.ts#open' });
    expect(byFile.isError, text(byFile)).toBeFalsy();
    const fileHits = (byFile.structuredContent as { mode: string; results: { id: string; anchor?: string }[] }).results;
    expect(fileHits.map((r) => r.id)).toEqual([(anchored.structuredContent as { id: string }).id, made.id]);
    expect(fileHits[0]!.anchor).toBe('src/db.ts#open');
    expect((await s.call('memory_recall', { file: 'src/other.ts' })).structuredContent).toMatchObject({ results: [] });
    expect((await s.call('memory_recall', {})).isError).toBe(true);
    expect(s.errors).toEqual([]);
  });

  it("reads another branch's memories from git, and says which branch", async () => {
    const repo = initialised();
    expect(repo.git(['add', '-A']).code).toBe(0);
    expect(repo.git(['commit', '-qm', 'init']).code).toBe(0);
    expect(repo.git(['checkout', '-qb', 'feat/storage']).code).toBe(0);
    const s = await connect(repo);
    const made = (await s.call('memory_remember', { summary: SQLITE, type: 'decision' })).structuredContent as { id: string };
    expect(repo.cortex(['project']).code).toBe(0);
    repo.git(['add', '-A']);
    const committed = repo.git(['commit', '-qm', 'storage decision']);
    expect(committed.code, committed.stderr).toBe(0);
    expect(repo.git(['checkout', '-q', 'main']).code).toBe(0);

    const here = (await s.call('memory_recall', { query: 'which database did we pick' })).structuredContent as { results: unknown[] };
    expect(here.results).toEqual([]);
    const there = await s.call('memory_recall', { query: 'which database did we pick', branch: 'feat/storage' });
    expect(there.isError, text(there)).toBeFalsy();
    expect((there.structuredContent as { results: unknown[] }).results[0]).toMatchObject({ id: made.id, ref: { branch: 'feat/storage', merged: false } });
    expect(text(there)).toContain('(on feat/storage, not merged)');
    const all = (await s.call('memory_recall', { query: 'which database did we pick', all_branches: true })).structuredContent as { results: { id: string }[] };
    expect(all.results.map((r) => r.id)).toContain(made.id);
    const missing = await s.call('memory_recall', { query: 'x', branch: 'no-such-branch' });
    expect(missing.isError).toBe(true);
  });

  it('finds a .cortex/ created after the server started', async () => {
    const repo = tempRepo();
    const s = await connect(repo);
    const before = await s.call('memory_recall', { query: 'anything' });
    expect(before.isError).toBe(true);
    expect(text(before)).toMatch(/^No \.cortex\/ directory found in .*\nhint: Run `cortex init`/);
    expect(repo.cortex(['init']).code).toBe(0);
    const after = await s.call('memory_remember', { summary: 'Set up after the server started', type: 'context' });
    expect(after.isError, text(after)).toBeFalsy();
  });

  it('keeps one Cortex between calls, yet sees memories written by other processes and a changed config', async () => {
    const repo = initialised();
    const s = await connect(repo);
    await s.call('memory_remember', { summary: 'The widget queue retries three times', type: 'context' });
    const results = async () => ((await s.call('memory_recall', { query: 'widget queue' })).structuredContent as { results: { id: string }[] }).results;
    expect(await results()).toHaveLength(1);
    expect(repo.cortex(['remember', 'The widget queue drains on shutdown']).code).toBe(0);
    expect(await results()).toHaveLength(2);
    repo.write('.cortex/config.yaml', 'recall:\n  limit: 1\n');
    expect(await results()).toHaveLength(1);
  });
});

describe('cortex mcp: what it writes reaches a commit', () => {
  /** Paths staged as new files. */
  const staged = (repo: TempRepo): string[] =>
    repo.git(['diff', '--cached', '--name-only', '--diff-filter=A']).stdout.split('\n').filter(Boolean);

  it('stages a remembered memory once the burst of calls is over, and on close; git commit -am takes it', async () => {
    const repo = initialised();
    expect(repo.git(['add', '-A']).code).toBe(0);
    expect(repo.git(['commit', '-qm', 'init']).code).toBe(0);
    const s = await connect(repo);
    const first = (await s.call('memory_remember', { summary: SQLITE, type: 'decision' })).structuredContent as { file: string };
    // One git add per burst, run a moment after the last write: polled, not timed.
    for (let waited = 0; !staged(repo).includes(first.file) && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(staged(repo)).toContain(first.file);
    const committed = repo.git(['commit', '-qam', 'decision']);
    expect(committed.code, committed.stderr).toBe(0);
    expect(repo.git(['show', '--name-only', '--format=', 'HEAD']).stdout).toContain(first.file);

    // Closed right after the call: what waited is staged before the server exits.
    const second = (await s.call('memory_remember', { summary: 'The nightly export runs after the backup', type: 'context' })).structuredContent as { file: string };
    await s.client.close();
    expect(staged(repo)).toContain(second.file);
    expect(repo.git(['commit', '-qam', 'context']).code).toBe(0);
    expect(repo.git(['status', '--porcelain', '--', '.cortex/memories', '.cortex/edges']).stdout).toBe('');
  });

  it('stages what waits when the server is ended by SIGTERM', async () => {
    const repo = initialised();
    const s = await connect(repo);
    const made = (await s.call('memory_remember', { summary: SQLITE, type: 'decision' })).structuredContent as { file: string };
    const pid = (s.client.transport as StdioClientTransport).pid!;
    const exited = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    process.kill(pid, 'SIGTERM');
    await exited;
    expect(staged(repo)).toContain(made.file);
  });
});

describe('cortex mcp: the graph', () => {
  it('links memories, walks the links, and shows them in recall', async () => {
    const repo = initialised();
    const s = await connect(repo);
    const idOf = async (summary: string, type: string, extra: Record<string, unknown> = {}) => {
      const r = await s.call('memory_remember', { summary, type, ...extra });
      expect(r.isError, text(r)).toBeFalsy();
      return (r.structuredContent as { id: string }).id;
    };
    const sqlite = await idOf(SQLITE, 'decision');
    const wal = await idOf('Hooks write concurrently, so the SQLite database runs in WAL mode', 'gotcha');
    const code = await idOf('src/db.ts opens the database', 'code');
    const old = await idOf('Chose flat JSON files for storage', 'decision');

    const linked = await s.call('memory_link', { source: wal, relation: 'refines', target: sqlite, note: 'WAL is how SQLite copes with the hooks.' });
    expect(linked.isError, text(linked)).toBeFalsy();
    expect(linked.structuredContent).toMatchObject({ action: 'created', source: wal, relation: 'refines', target: sqlite, status: 'active' });
    const edgeFile = (linked.structuredContent as { file: string }).file;
    expect(edgeFile).toBe(`.cortex/edges/${wal}--refines--${sqlite}.md`);
    expect(repo.read(edgeFile)).toContain('WAL is how SQLite copes with the hooks.');
    const again = await s.call('memory_link', { source: wal, relation: 'refines', target: sqlite, note: 'WAL is how SQLite copes with the hooks.' });
    expect(again.structuredContent).toMatchObject({ action: 'unchanged' });
    await s.call('memory_link', { source: code, relation: 'source_of', target: sqlite });

    // Only a person creates supersedes edges: from the assistant it is a suggestion.
    const supersedes = await s.call('memory_link', { source: sqlite, relation: 'supersedes', target: old });
    expect(supersedes.structuredContent).toMatchObject({ status: 'suggested' });
    expect(text(supersedes)).toMatch(/cortex consolidate --accept/);

    const walked = await s.call('memory_traverse', { id: sqlite });
    expect(walked.isError, text(walked)).toBeFalsy();
    const w = walked.structuredContent as { total: number; nodes: { id: string; depth: number; relation: string; direction: string }[] };
    expect(w.nodes.map((n) => n.id).sort()).toEqual([code, wal].sort());
    expect(w.nodes.find((n) => n.id === wal)).toMatchObject({ depth: 1, relation: 'refines', direction: 'in' });
    expect(text(walked)).toMatch(new RegExp(`← refines ${wal} \\[gotcha\\]`));
    const out = (await s.call('memory_traverse', { id: wal, direction: 'out', depth: 2 })).structuredContent as { nodes: { id: string; depth: number }[] };
    expect(out.nodes).toEqual([expect.objectContaining({ id: sqlite, depth: 1 })]);
    const limited = (await s.call('memory_traverse', { id: sqlite, limit: 1 })).structuredContent as { total: number; shown: number };
    expect(limited).toMatchObject({ total: 2, shown: 1 });

    const recalled = (await s.call('memory_recall', { query: 'which database did we pick' })).structuredContent as {
      results: { id: string; related?: string[]; code?: { id: string }[] }[];
    };
    const hit = recalled.results.find((r) => r.id === sqlite)!;
    expect(hit.related).toContain(`← refines ${wal}`);
    expect(hit.code?.map((c) => c.id)).toEqual([code]);

    // One a person made stays active when the assistant links the pair again.
    const newer = await idOf('Chose SQLite with WAL after measuring the hooks', 'decision');
    expect(repo.cortex(['link', newer, 'supersedes', sqlite]).code).toBe(0);
    const relinked = await s.call('memory_link', { source: newer, relation: 'supersedes', target: sqlite, note: 'Measured.' });
    expect(relinked.structuredContent).toMatchObject({ action: 'updated', status: 'active' });

    for (const [args, expected] of [
      [{ source: wal, relation: 'refines', target: wal }, /^Cannot link .* to itself/],
      [{ source: wal, relation: 'refines', target: 'no-such-memory-abcdef' }, /^No memory with id "no-such-memory-abcdef"/],
      [{ source: wal, relation: 'is_like', target: sqlite }, /relation/],
      [{ source: '../x', relation: 'refines', target: sqlite }, /^Invalid memory id/],
      [{ source: wal, relation: 'refines', target: sqlite, strength: 2 }, /strength/],
    ] as const) {
      const r = await s.call('memory_link', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(text(r)).toMatch(expected);
    }
    const missing = await s.call('memory_traverse', { id: 'no-such-memory-abcdef' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^No memory with id/);
    expect(s.errors).toEqual([]);
  });
});

describe('cortex mcp: bad arguments', () => {
  it('answers each with a tool error and keeps serving', async () => {
    const repo = initialised();
    const s = await connect(repo);
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['memory_get', { id: 42 }, /expected string/],
      ['memory_get', {}, /id/],
      ['memory_get', { id: '../../etc/passwd' }, /^Invalid memory id "\.\.\/\.\.\/etc\/passwd": it contains a path separator\.\nhint: /],
      ['memory_get', { id: 'no-such-memory-abcdef' }, /^No memory with id "no-such-memory-abcdef"\.\nhint: .*memory_recall/],
      ['memory_forget', { id: '/etc/passwd' }, /^Invalid memory id/],
      ['memory_forget', { id: 'no-such-memory-abcdef' }, /^No memory with id/],
      ['memory_recall', { query: 'x', limit: 'ten' }, /limit/],
      ['memory_recall', { query: 'x', limit: 0 }, /limit/],
      ['memory_recall', { query: 'x', types: ['opinion'] }, /types/],
      ['memory_recall', { query: 'x', since: 'last tuesday' }, /^Cannot read --since "last tuesday"\.\nhint: /],
      ['memory_recall', { query: '   ' }, /^The query is empty\./],
      ['memory_recall', { querry: 'typo' }, /querry|query/],
      ['memory_remember', { summary: 'No type given' }, /type/],
      ['memory_remember', { summary: 'x', type: 'decision', priority: 11 }, /priority/],
      ['memory_remember', { summary: '  ', type: 'decision' }, /^Nothing to remember/],
      ['memory_status', { verbose: true }, /verbose/],
    ];
    for (const [name, args, expected] of bad) {
      const r = await s.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${text(r)}`).toBe(true);
      expect(text(r), `${name} ${JSON.stringify(args)}`).toMatch(expected);
    }
    // Nothing was written, nothing was read outside .cortex/, and the server still works.
    expect(repo.list('.cortex/memories')).toEqual([]);
    const ok = await s.call('memory_remember', { summary: 'Still serving after bad arguments', type: 'context' });
    expect(ok.isError, text(ok)).toBeFalsy();
    expect(s.errors).toEqual([]);
    expect(s.stderr()).not.toMatch(/bug in cortex|TypeError|at .*\.js:\d+/);
  });
});

describe('cortex mcp: stdout and startup', () => {
  const TRACE = join(REPO_ROOT, 'test', 'helpers', 'trace-imports.mjs');
  // The recall vocabulary (modes, the 'all' status) comes from api/recall/results.js, which loads no index.
  const heavy = (mods: string[]) => mods.filter((m) => /\/dist\/api\/(?!recall\/results\.js)|minisearch|isomorphic-git|\/yaml\/|gray-matter|remark|unified|@huggingface|onnxruntime/.test(m));
  const traced = async (repo: TempRepo, env: NodeJS.ProcessEnv = {}) => {
    const file = join(repo.home, 'trace.txt');
    writeFileSync(file, '');
    const s = await connect(repo, { nodeArgs: ['--import', TRACE], env: { ...env, CORTEX_TRACE_IMPORTS: file } });
    return { s, modules: () => readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  };

  it('starts without the API, the index, YAML, git or the embedding stack, and loads them on the first call', async () => {
    const repo = initialised();
    const { s, modules } = await traced(repo);
    await s.client.listTools();
    const atStart = modules();
    expect(atStart.some((m) => m.endsWith('/dist/mcp/server.js'))).toBe(true);
    expect(heavy(atStart)).toEqual([]);
    // The trace does see them once a tool needs them, so the check above can fail.
    await s.call('memory_remember', { summary: 'Loaded on demand', type: 'context' });
    const later = heavy(modules());
    expect(later.some((m) => m.endsWith('/dist/api/cortex.js'))).toBe(true);
    // remember loads the index (minisearch) but not isomorphic-git: HEAD is read from .git with built-ins.
    expect(later.some((m) => m.includes('minisearch'))).toBe(true);
    expect(later.filter((m) => /@huggingface|onnxruntime/.test(m))).toEqual([]);
  });

  it.skipIf(!MODEL_DIR)('loads the embedding model only for the first semantic recall', async () => {
    const repo = initialised();
    const { s, modules } = await traced(repo, tinyEnv());
    await s.call('memory_remember', { summary: SQLITE, type: 'decision' });
    await s.call('memory_remember', { summary: 'The CI runner has no GPU', type: 'gotcha' });
    const keyword = await s.call('memory_recall', { query: 'database' });
    expect(keyword.structuredContent).toMatchObject({ mode: 'keyword' });
    expect(modules().filter((m) => m.includes('@huggingface'))).toEqual([]);
    const semantic = await s.call('memory_recall', { query: 'which storage engine', mode: 'semantic' });
    expect(semantic.isError, text(semantic)).toBeFalsy();
    expect(semantic.structuredContent).toMatchObject({ mode: 'semantic' });
    expect((semantic.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(modules().some((m) => m.includes('@huggingface'))).toBe(true);
  });

  it('writes only JSON-RPC messages on stdout, survives a malformed line, and answers requests sent just before stdin closes', async () => {
    const repo = initialised();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      'this is not json',
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_remember', arguments: { summary: SQLITE, type: 'decision' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_get', arguments: { id: 7 } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: repo.dir, env: repo.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(`${lines.join('\n')}\n`);
    expect(await exited, stderr).toBe(0);
    const messages = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: CallToolResult & { tools?: unknown[] } });
    for (const m of messages) expect(m.jsonrpc).toBe('2.0');
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    const byId = new Map(messages.map((m) => [m.id, m.result!]));
    expect(byId.get(2)!.isError).toBeFalsy();
    expect(byId.get(3)!.isError).toBe(true);
    expect(byId.get(4)!.isError).toBe(true);
    expect(byId.get(5)!.tools).toHaveLength(8);
    expect(stderr).toMatch(/not valid JSON/);
    expect(repo.list('.cortex/memories')).toHaveLength(1);
  });
});

describe('cortex mcp --print-config', () => {
  it('prints the claude mcp add line and a .mcp.json entry that starts this cortex', () => {
    const repo = initialised();
    const doc = json<{ schemaVersion: number; command: string; args: string[]; claudeAdd: string; mcpJson: { mcpServers: Record<string, { command: string; args: string[] }> } }>(
      repo.cortex(['mcp', '--print-config', '--json']),
    );
    expect(doc.schemaVersion).toBe(1);
    expect(doc.mcpJson.mcpServers.cortex).toEqual({ command: doc.command, args: doc.args, alwaysLoad: true });
    expect(doc.claudeAdd).toMatch(/^claude mcp add --scope (project|local) cortex -- /);
    // The printed command really starts a server that answers initialize.
    const r = spawnSync(doc.command === 'node' ? process.execPath : doc.command, doc.args, {
      cwd: repo.dir,
      env: repo.env,
      input: `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })}\n`,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ id: 1, result: { serverInfo: { name: 'cortex' } } });
    const plain = repo.cortex(['mcp', '--print-config']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(doc.claudeAdd);
    if (doc.claudeAdd.includes('--scope project')) expect(plain.stdout).toContain('"mcpServers"');
    else {
      // A machine-specific path: never suggested for the shared .mcp.json, and the shared form is named.
      expect(plain.stdout).not.toContain('"mcpServers"');
      expect(plain.stdout).toContain('claude mcp add --scope project cortex -- cortex mcp');
    }
  });
});
