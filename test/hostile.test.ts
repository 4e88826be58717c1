/**
 * The hostile-input pass of docs/reliability.md, against real temporary repositories and
 * the built CLI: bytes that are not UTF-8, oversized input, writers killed mid-write,
 * many commands at once, odd argv. (Symlinks, FIFOs, corrupt caches and locks: issue 16.)
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { recall } from '../src/api/recall/recall.js';
import { remember } from '../src/api/remember.js';
import { UsageError } from '../src/errors.js';
import { CLI, json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

function ok(r: RunResult, what = 'command'): RunResult {
  expect(r.code, `${what} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

function initialised(): TempRepo {
  const repo = tempRepo({ 'README.md': '# demo\n' });
  ok(repo.cortex(['init']), 'init');
  return repo;
}

const memoryFiles = (repo: TempRepo) => readdirSync(join(repo.dir, '.cortex', 'memories')).filter((f) => f.endsWith('.md'));

describe('bytes and sizes', () => {
  it('never rewrites a memory file that is not UTF-8: it is named, with the line and how to convert it', () => {
    const repo = initialised();
    const file = '.cortex/memories/latin-aaaaaa.md';
    const bytes = Buffer.concat([
      Buffer.from('---\nid: latin-aaaaaa\ntype: context\nsummary: caf'),
      Buffer.from([0xe9]),
      Buffer.from(' au lait\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n---\nbody\n'),
    ]);
    writeFileSync(join(repo.dir, file), bytes);
    const edit = repo.cortex(['edit', 'latin-aaaaaa', '--priority', '9']);
    expect(edit.code).toBe(1);
    expect(edit.stderr).toContain(`${file}:4: is not UTF-8 text (byte 47 is 0xe9)`);
    expect(edit.stderr).toContain('iconv -f latin1 -t utf-8');
    expect(readFileSync(join(repo.dir, file))).toEqual(bytes);
    const lint = repo.cortex(['lint']);
    expect(lint.code).toBe(1);
    expect(lint.stdout + lint.stderr).toContain('[not-utf8]');
    // Readers skip it with one warning and carry on.
    const list = ok(repo.cortex(['list']));
    expect(list.stderr.split('\n').filter((l) => l.includes(file))).toHaveLength(1);
    expect(repo.cortex(['forget', 'latin-aaaaaa']).code).toBe(1);
    expect(readFileSync(join(repo.dir, file))).toEqual(bytes);
    // …and the pre-commit hook will not commit it.
    ok(repo.git(['add', '-A']));
    const commit = repo.git(['commit', '-q', '-m', 'latin']);
    expect(commit.code).toBe(1);
    expect(commit.stderr).toContain(`${file}:4: is not UTF-8 text`);
  });

  it('refuses text too large for a memory file before writing anything; a huge query is still a query', async () => {
    const repo = initialised();
    const ctx = openContext({ dir: repo.dir, env: repo.env });
    await expect(remember(ctx, { summary: 'Huge', body: 'word '.repeat(400_000) })).rejects.toThrow(UsageError);
    expect(memoryFiles(repo)).toEqual([]);
    const cli = repo.cortex(['remember', '--type', 'context'], { input: `Huge\n${'word '.repeat(400_000)}` });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('a memory file may be at most 1 MB');
    expect(memoryFiles(repo)).toEqual([]);

    await remember(ctx, { summary: 'The worker pool has eight threads', type: 'context', autoLink: false });
    // One 100,000-character word: matched exactly, not fuzzily (that matrix would be 10 GB).
    expect((await recall(ctx, { query: 'x'.repeat(100_000) })).results).toEqual([]);
    expect((await recall(ctx, { query: `worker ${'y'.repeat(100_000)} pool` })).results.map((r) => r.summary)).toEqual(['The worker pool has eight threads']);
  });
});

describe('interrupted and concurrent writers', () => {
  it('a write killed with SIGKILL leaves either the old file or the new one; a leftover temporary file is reported and never committed', async () => {
    const repo = initialised();
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'init']));
    // Kill remember at several points of its run; whatever survives is whole.
    for (const delay of [50, 150, 250, 400, 700]) {
      const child = spawn(process.execPath, [CLI, 'remember', `Killed after ${delay} ms: the worker pool has eight threads`, '--type', 'context'], { cwd: repo.dir, env: repo.env });
      const closed = new Promise((r) => child.on('close', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await closed;
    }
    ok(repo.cortex(['lint']), 'lint after kills');
    ok(repo.cortex(['remember', 'Written after the kills', '--type', 'context']), 'remember after kills');
    // What a kill between writing a temporary file and renaming it leaves behind.
    const leftover = '.cortex/memories/.written-after-aaaaaa.md.4242.k3f9qa12.tmp';
    repo.write(leftover, '---\nid: half');
    const lint = repo.cortex(['lint', '--json']);
    const d = json<{ diagnostics: { file: string; ruleId: string; hint: string }[] }>(lint).diagnostics.find((x) => x.file === leftover);
    expect(d).toMatchObject({ ruleId: 'temp-file' });
    expect(d?.hint).toContain(`rm ${leftover}`);
    ok(repo.git(['add', '-A']));
    expect(repo.git(['status', '--porcelain']).stdout).not.toContain('.tmp');
    expect(json<{ total: number }>(repo.cortex(['list', '--json'])).total).toBe(memoryFiles(repo).length);
  });

  it('many commands at once on the same memories leave every file valid and the projections in sync', async () => {
    const repo = initialised();
    const ctx = openContext({ dir: repo.dir, env: repo.env });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await remember(ctx, { summary: `Seed decision ${i} about the caching layer`, type: 'decision', autoLink: false })).memory.id);
    ok(repo.cortex(['project']));
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'seed']));
    const runs = await Promise.all([
      ...Array.from({ length: 3 }, (_, i) => repo.cortexAsync(['remember', `Concurrent note ${i} about the job queue`, '--type', 'gotcha'])),
      repo.cortexAsync(['forget', ids[0]!]),
      repo.cortexAsync(['forget', ids[1]!, '--hard']),
      repo.cortexAsync(['edit', ids[2]!, '--priority', '9']),
      repo.cortexAsync(['link', ids[3]!, 'relates_to', ids[4]!]),
      repo.cortexAsync(['consolidate', '--merge', ids[5]!, ids[6]!]),
      repo.cortexAsync(['lifecycle']),
      repo.cortexAsync(['project']),
        repo.cortexAsync(['surface']),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(json<{ errors: number }>(repo.cortex(['lint', '--json'])).errors).toBe(0);
    // 8 seeds + 3 notes + 1 merged − 1 deleted.
    expect(memoryFiles(repo)).toHaveLength(11);
    expect(json<{ total: number }>(repo.cortex(['list', '--status', 'all', '--json'])).total).toBe(11);
    ok(repo.cortex(['project']));
    ok(repo.git(['add', '-A']));
    const commit = ok(repo.git(['commit', '-q', '-m', 'after the crowd']));
    expect(commit.stderr).not.toContain('kept your edits');
    ok(repo.cortex(['project', '--check']));
  });
});

describe('odd argv', () => {
  it('answers each with a usage error or a result, never a crash', () => {
    const repo = initialised();
    const cases: [string[], number, RegExp][] = [
      [['--'], 2, /Unknown option "--" before the command/],
      [[''], 2, /Unknown command ""/],
      [['recall'], 2, /The query is empty/],
      [['recall', '--', '--json'], 0, /No memories match "--json"/],
      [['show', 'a\tb'], 2, /is not a memory id: ids have no spaces/],
      [['-C'], 2, /-C needs its value and then a command/],
      [['-C', join(repo.home, 'nowhere'), 'status'], 1, /No \.cortex\/ directory found/],
      [['list', '--limit', '1e99'], 2, /--limit must be an integer/],
      [['review', '--accept', ''], 2, /--accept needs entry numbers/],
      [['forget', '--query', ''], 2, /Say which memory to forget/],
      [['diff', ''], 2, /Say which revisions to compare/],
      // Never handed to git as an option.
      [['diff', '--', '--output=/tmp/cortex-x..HEAD'], 1, /Unknown revision "--output=\/tmp\/cortex-x": .*option/],
    ];
    for (const [args, code, message] of cases) {
      const r = repo.cortex(args);
      expect(r.code, `cortex ${JSON.stringify(args)}: ${r.stderr}`).toBe(code);
      expect(r.stdout + r.stderr, JSON.stringify(args)).toMatch(message);
      expect(r.stderr, JSON.stringify(args)).not.toContain('This is a bug');
    }
    // Global options before the command, as with git -C, from another directory.
    expect(ok(repo.cortex(['-C', repo.dir, 'status'], { cwd: repo.home })).stdout).toContain(`Project: ${repo.dir}`);
    expect(json<{ schemaVersion: number }>(ok(repo.cortex(['--dir', repo.dir, '--json', 'list'], { cwd: repo.home }))).schemaVersion).toBe(1);
  });
});
