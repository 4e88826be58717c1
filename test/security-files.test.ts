/**
 * Hostile repository layouts and concurrency, against the built CLI in real repositories:
 * special files where memories should be (links to /dev/zero, out of the repository, in a
 * loop; FIFOs; directories), FIFO transcripts, surface targets that must be refused, 20
 * concurrent edits, torn and stale locks, wrong-shaped caches, odd layouts, bare
 * repositories, interrupted merges and writes, and MCP calls with null arguments.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

function ok(r: RunResult): RunResult {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

function initRepo(): TempRepo {
  const repo = tempRepo();
  ok(repo.cortex(['init']));
  ok(repo.cortex(['remember', 'Chose SQLite over Postgres because zero-config matters', '--type', 'decision', '--no-link']));
  return repo;
}

/** A run of the CLI that must end quickly: within `seconds`, whatever the layout. */
function quick(repo: TempRepo, args: string[], seconds = 10, input = ''): RunResult & { ms: number } {
  const started = Date.now();
  const r = repo.cortex(args, { input });
  return { ...r, ms: Date.now() - started, ...(r.code === -1 ? { stderr: `${r.stderr}\n(timed out)` } : {}) };
}

const hasFifo = process.platform !== 'win32';

describe('special files among the memories', () => {
  it.skipIf(!hasFifo)('skips links to /dev/zero, out of the repository and in a loop, FIFOs and directories, with one diagnostic each', () => {
    const repo = initRepo();
    const dir = join(repo.dir, '.cortex/memories');
    const outside = join(repo.home, 'outside.md');
    writeFileSync(outside, '---\nid: outside\ntype: context\nsummary: OUTSIDE-MARKER read from outside the repository\n---\nsecret\n');
    symlinkSync('/dev/zero', join(dir, 'zero.md'));
    symlinkSync(outside, join(dir, 'outside.md'));
    symlinkSync('loop.md', join(dir, 'loop.md'));
    mkfifo(join(dir, 'fifo.md'));
    symlinkSync(join(dir, 'fifo.md'), join(dir, 'to-fifo.md'));
    mkdirSync(join(dir, 'folder.md'));
    // A link to a regular file inside the repository is followed.
    repo.write('docs/shared-memory.md', '---\nid: shared-memory\ntype: context\nsummary: INSIDE-MARKER linked from docs\ncreated: 2026-11-21T10:00:00Z\nupdated: 2026-11-21T10:00:00Z\n---\n');
    symlinkSync(join(repo.dir, 'docs/shared-memory.md'), join(dir, 'shared-memory.md'));

    for (const args of [['surface'], ['lifecycle', '--dry-run'], ['recall', 'sqlite'], ['list'], ['status'], ['project'], ['index', '--rebuild']]) {
      const r = quick(repo, args);
      expect(r.ms, args.join(' ')).toBeLessThan(10_000);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('OUTSIDE-MARKER');
    }
    expect(quick(repo, ['recall', 'linked from docs']).stdout).toContain('INSIDE-MARKER');

    const lint = quick(repo, ['lint']);
    expect(lint.code).toBe(1);
    const reasons = lint.stdout + lint.stderr;
    expect(reasons).toMatch(/zero\.md: error: is a symbolic link to a file outside the repository/);
    expect(reasons).toMatch(/outside\.md: error: is a symbolic link to a file outside the repository/);
    expect(reasons).toMatch(/loop\.md: error: is a symbolic link that loops/);
    expect(reasons).toMatch(/fifo\.md: error: is a FIFO, not a regular file/);
    expect(reasons).toMatch(/to-fifo\.md: error: is a symbolic link to a FIFO/);
    expect(reasons).toMatch(/folder\.md: error: is a directory, not a regular file/);
    expect(reasons).not.toContain('OUTSIDE-MARKER');

    const hook = quick(repo, ['hook', 'session-start'], 10, JSON.stringify({ session_id: 's1', source: 'startup', cwd: repo.dir }));
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('Chose SQLite');
    expect(hook.stdout).not.toContain('OUTSIDE-MARKER');
  }, 120_000);

  it.skipIf(!hasFifo)('names a memories directory that is a link out of the repository, or a file, instead of reading it', () => {
    const repo = initRepo();
    const elsewhere = join(repo.home, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'x.md'), '---\nid: x\ntype: context\nsummary: OUTSIDE-MARKER\n---\n');
    execFileSync('rm', ['-r', join(repo.dir, '.cortex/memories')]);
    symlinkSync(elsewhere, join(repo.dir, '.cortex/memories'));
    const lint = quick(repo, ['lint']);
    expect(lint.stdout + lint.stderr).toMatch(/\.cortex\/memories: error: is a symbolic link to a file outside the repository; no memory was read/);
    expect(quick(repo, ['surface']).stdout).not.toContain('OUTSIDE-MARKER');
    // Nor is anything written there.
    const refused = quick(repo, ['remember', 'Written through a link']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/memories leads outside the repository .*nothing was written/);
    expect(readdirSync(elsewhere)).toEqual(['x.md']);

    execFileSync('rm', [join(repo.dir, '.cortex/memories')]);
    writeFileSync(join(repo.dir, '.cortex/memories'), 'not a directory\n');
    const remember = quick(repo, ['remember', 'Another memory']);
    expect(remember.code).toBe(1);
    expect(remember.stderr).toMatch(/\.cortex\/memories is a file, not a directory; .*nothing was read or written/);
    expect(remember.stderr).toMatch(/hint: Move it away \(mv \.cortex\/memories \.cortex\/memories\.bak\)/);
    expect(quick(repo, ['lint']).stdout).toMatch(/\.cortex\/memories: error: is a file, not a directory/);
  });

  it.skipIf(!hasFifo)('never reads a config.yaml that is a FIFO or a link to /dev/zero', () => {
    const repo = initRepo();
    symlinkSync('/dev/zero', join(repo.dir, '.cortex/config.yaml'));
    const r = quick(repo, ['status']);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.code).toBe(0);
    execFileSync('rm', [join(repo.dir, '.cortex/config.yaml')]);
    mkfifo(join(repo.dir, '.cortex/config.yaml'));
    const lint = quick(repo, ['lint']);
    expect(lint.ms).toBeLessThan(10_000);
    expect(lint.stdout).toMatch(/config\.yaml: error: is a FIFO, not a regular file; the defaults are used/);
  });

  it.skipIf(!hasFifo)('does not wait on a FIFO given as the transcript, and logs why', () => {
    const repo = initRepo();
    const fifo = join(repo.home, 'transcript.jsonl');
    mkfifo(fifo);
    for (const event of ['stop', 'pre-compact']) {
      const r = quick(repo, ['hook', event], 10, JSON.stringify({ session_id: 'f1', transcript_path: fifo, cwd: repo.dir, last_assistant_message: 'done' }));
      expect(r.ms).toBeLessThan(5_000);
      expect(r).toMatchObject({ code: 0, stdout: '' });
    }
    expect(repo.read('.memory/cortex.log')).toMatch(/the transcript .*transcript\.jsonl is a FIFO, not a regular file/);
  });
});

describe('surface targets', () => {
  it('refuses targets in .git/ or .cortex/, through a symbolic link, or not markdown, and writes none of them', () => {
    const repo = initRepo();
    const home = join(repo.home, 'victim');
    mkdirSync(home);
    writeFileSync(join(home, '.bashrc'), 'export PS1=x\n');
    symlinkSync(home, join(repo.dir, 'linked'));
    const before = readFileSync(join(repo.dir, '.git/config'), 'utf8');
    const cases: Array<[string, RegExp]> = [
      ['.git/config', /inside \.git\//],
      ['.git/hooks/pre-commit', /inside \.git\//],
      ['sub/.git/notes.md', /inside \.git\//],
      ['.cortex/memories/x.md', /inside \.cortex\//],
      ['.cortex/edges/a--refines--b.md', /inside \.cortex\//],
      ['.cortex/decisions.md', /inside \.cortex\//],
      ['.gitattributes', /not a markdown file/],
      ['linked/.bashrc', /not a markdown file/],
      ['linked/notes.md', /linked is a symbolic link/],
      ['../outside.md', /outside the repository/],
    ];
    for (const [target, why] of cases) {
      const r = repo.cortex(['surface', '--target', target]);
      expect(r.code, target).toBe(2);
      expect(r.stderr, target).toMatch(why);
    }
    expect(readFileSync(join(repo.dir, '.git/config'), 'utf8')).toBe(before);
    expect(existsSync(join(repo.dir, '.git/hooks/pre-commit.md'))).toBe(false);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('export PS1=x\n');
    expect(readdirSync(home)).toEqual(['.bashrc']);
    // A regular markdown file, new or existing, is fine.
    ok(repo.cortex(['surface', '--target', 'AGENTS.md', '--target', '.cursor/rules/cortex.mdc']));
    expect(repo.read('AGENTS.md')).toContain('CORTEX_MEMORY_START');
  });
});

describe('read-modify-write under the lock', () => {
  it('keeps all 20 tags of 20 concurrent `edit --add-tag`', async () => {
    const repo = initRepo();
    const id = json<{ id: string }>(ok(repo.cortex(['remember', 'Use WAL mode for concurrent hooks', '--json', '--no-link']))).id;
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => repo.cortexAsync(['edit', id, '--add-tag', `t${i + 1}`])));
    expect(runs.map((r) => r.code)).toEqual(Array(20).fill(0));
    const tags = /^tags: \[(.*)\]$/m.exec(repo.read(`.cortex/memories/${id}.md`))?.[1]?.split(', ') ?? [];
    expect(tags.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `t${i + 1}`).sort());
  }, 120_000);

  it('breaks an empty lock file, and a lock whose owner is gone, within about a second', () => {
    const repo = initRepo();
    const lock = join(repo.dir, '.memory/locks/write.lock');
    mkdirSync(join(repo.dir, '.memory/locks'), { recursive: true });
    writeFileSync(lock, '');
    let r = quick(repo, ['remember', 'After an empty lock']);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5_000);
    // A pid that is not running (pids are below 2^22 on Linux).
    writeFileSync(lock, JSON.stringify({ pid: 4_194_000, at: Date.now() - 1_000 }));
    r = quick(repo, ['remember', 'After a dead owner']);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5_000);
    // This test's own pid, recorded with another start time: the pid was reused.
    if (existsSync('/proc/self/stat')) {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, start: '1', at: Date.now() - 1_000 }));
      r = quick(repo, ['remember', 'After a reused pid']);
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(5_000);
    }
    expect(existsSync(lock)).toBe(false);
  });
});

describe('caches', () => {
  it('rebuilds caches of the right version and the wrong shape, and index --rebuild deletes every one', () => {
    const repo = tempRepo({ 'src/db.ts': 'export {};\n' });
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-qm', 'code']));
    ok(repo.cortex(['init']));
    // A memory made at a commit: the briefing checks it for staleness.
    ok(repo.cortex(['remember', 'The pool lives in src/db.ts', '--type', 'decision', '--no-link']));
    ok(repo.cortex(['project']));
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-qm', 'memories']));
    ok(repo.cortex(['surface']));
    ok(repo.cortex(['consolidate']));
    // The staleness cache as written, with every reason list replaced by a string.
    const staleness = JSON.parse(repo.read('.memory/staleness.json')) as { reasons: Record<string, unknown> };
    expect(Object.keys(staleness.reasons).length).toBeGreaterThan(0);
    for (const key of Object.keys(staleness.reasons)) staleness.reasons[key] = 'not a list';
    const bad: Record<string, unknown> = {
      'staleness.json': staleness,
      'edges.json': { version: 1, dir: { exists: true, mtimeMs: 1, ino: 1 }, files: { 'a--refines--b.md': 'oops' } },
      'projections.json': { version: 'whatever', files: { 'x.md': [1] }, entries: {} },
    };
    for (const [name, value] of Object.entries(bad)) writeFileSync(join(repo.dir, '.memory', name), JSON.stringify(value));
    for (const args of [['surface'], ['recall', 'sqlite'], ['consolidate'], ['project', '--check'], ['lint']]) {
      const r = repo.cortex(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const names = readdirSync(join(repo.dir, '.memory'));
    expect(names).toEqual(expect.arrayContaining(['index.v8', 'graph.v8', 'edges.json', 'projections.json', 'surface-cache']));
    // index --rebuild starts every derived cache afresh: none of these bytes survive it.
    const planted = ['staleness.json', 'graph.v8', 'edges.json', 'projections.json', 'anticipation.json', 'surface-cache/full-config.json'];
    for (const name of planted) repo.write(`.memory/${name}`, '{"version": "planted"}');
    ok(repo.cortex(['index', '--rebuild']));
    for (const name of planted) {
      const path = join(repo.dir, '.memory', name);
      if (existsSync(path)) expect(readFileSync(path, 'utf8'), name).not.toContain('planted');
    }
    expect(readdirSync(join(repo.dir, '.memory'))).toContain('index.v8');
    ok(repo.cortex(['surface']));
  });
});

describe('odd layouts', () => {
  it('names a review queue that is a directory', () => {
    const repo = initRepo();
    mkdirSync(join(repo.dir, '.memory/review.jsonl'), { recursive: true });
    const r = repo.cortex(['review']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/review\.jsonl is a directory, not the review queue/);
    expect(r.stderr).toMatch(/hint: Remove it/);
  });

  it('refuses to init a bare repository', () => {
    const repo = tempRepo({}, { git: false });
    ok(repo.git(['init', '-q', '--bare', 'bare.git']));
    const r = repo.cortex(['init'], { cwd: join(repo.dir, 'bare.git') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is a bare git repository/);
    expect(r.stderr).toMatch(/git clone/);
    expect(existsSync(join(repo.dir, 'bare.git/.cortex'))).toBe(false);
    const hooks = repo.cortex(['init'], { cwd: join(repo.dir, 'bare.git/hooks') });
    expect(hooks.code).toBe(1);
    expect(existsSync(join(repo.dir, 'bare.git/hooks/.cortex'))).toBe(false);
  });

  it('ignores, names and removes the temporary files of interrupted writes', () => {
    const repo = initRepo();
    const leftover = '.cortex/memories/.chose-x.md.4194001.k3f9qa1b.tmp';
    repo.write(leftover, 'half a memory');
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).not.toContain('.tmp');
    expect(repo.cortex(['lint']).stdout).toMatch(/\.chose-x\.md\.4194001\.k3f9qa1b\.tmp: warning: is the temporary file of an interrupted write/);
    // Forced into the index all the same: the pre-commit hook refuses it, with the fix.
    ok(repo.cortex(['project']));
    ok(repo.git(['add', '-A']));
    ok(repo.git(['add', '-f', leftover]));
    const commit = repo.git(['commit', '-qm', 'with a temp file']);
    expect(commit.code).not.toBe(0);
    expect(commit.stderr).toContain(`${leftover}: is the temporary file of an interrupted write`);
    expect(commit.stderr).toContain(`git rm --cached -q ${leftover}`);
    ok(repo.git(['rm', '--cached', '-q', leftover]));
    ok(repo.cortex(['lifecycle']));
    expect(existsSync(join(repo.dir, leftover))).toBe(false);
  });

  it('names a merge that a crash interrupted, with the command that completes it', () => {
    const repo = initRepo();
    const a = json<{ id: string }>(ok(repo.cortex(['remember', 'Use WAL mode', '--json', '--no-link']))).id;
    const b = json<{ id: string }>(ok(repo.cortex(['remember', 'WAL mode for hooks', '--json', '--no-link']))).id;
    ok(repo.cortex(['consolidate', '--merge', a, b, '--force']));
    // Undo the last step of the merge, as a crash before it would have left things.
    const file = `.cortex/memories/${b}.md`;
    repo.write(file, repo.read(file).replace('status: superseded', 'status: active'));
    const lint = repo.cortex(['lint']);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`but ${b} is still active: the merge was interrupted [merge-incomplete]`);
    expect(lint.stdout).toContain(`cortex edit ${b} --status superseded`);
    ok(repo.cortex(['edit', b, '--status', 'superseded']));
    expect(repo.cortex(['lint']).code).toBe(0);
  });

  it('projects a memory of 50,000 links in linear time', () => {
    const repo = initRepo();
    const links = Array.from({ length: 50_000 }, (_, i) => `[[m-${i}-abcdef]]`).join(' ');
    repo.write('.cortex/memories/links-aaaaaa.md', `---\nid: links-aaaaaa\ntype: decision\nsummary: Many links\ncreated: 2026-11-21T10:00:00Z\nupdated: 2026-11-21T10:00:00Z\n---\n## Links\n\nSee ${links}\n`);
    const r = quick(repo, ['project'], 30);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(10_000);
    expect(repo.read('.cortex/decisions.md')).toContain('[[m-49999-abcdef]]');
  });
});

describe('mcp', () => {
  it('answers null or non-object tool arguments with a tool result, never a protocol error', () => {
    const repo = initRepo();
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'memory_status', arguments: null } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_recall', arguments: null } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_recall', arguments: 'sqlite' } },
    ];
    const r = repo.cortex(['mcp'], { input: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n` });
    const replies = new Map(r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: number; error?: unknown; result?: { isError?: boolean; content: Array<{ text: string }> } }).map((m) => [m.id, m]));
    for (const id of [1, 2, 3]) expect(replies.get(id)?.error, String(id)).toBeUndefined();
    expect(replies.get(1)?.result?.isError).not.toBe(true);
    expect(replies.get(2)?.result).toMatchObject({ isError: true });
    expect(replies.get(2)?.result?.content[0]?.text).toMatch(/query/);
    expect(replies.get(3)?.result).toMatchObject({ isError: true });
    expect(replies.get(3)?.result?.content[0]?.text).toMatch(/expected an object of named arguments, got string/);
  });
});
