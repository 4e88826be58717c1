/**
 * Code-aware memory (issue 21) over a fixture repository with real source in four
 * languages (test/fixtures/code-anchors: TypeScript, Python, Go, Rust): `index-code`
 * resolves symbol and line anchors, follows a function that moved (in its file, or to the
 * file git recorded a rename to), and flags a changed body naming the symbol — in its own
 * output, in the briefing's staleness, in `recall --file` and in `cortex diff`.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers/fixture-repo.js';
import { json, tempRepo, type TempRepo } from './helpers/repo.js';

interface Anchor {
  id: string;
  entry: string;
  path: string;
  renamedFrom?: string;
  symbol?: string;
  kind?: string;
  startLine?: number;
  endLine?: number;
  status: 'ok' | 'changed' | 'missing';
}

function fixture(): TempRepo {
  const repo = tempRepo();
  cpSync(join(FIXTURES, 'code-anchors'), repo.dir, { recursive: true });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'code']);
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

function remember(repo: TempRepo, text: string, files: string, cwd?: string): string {
  const r = repo.cortex(['remember', text, '--type', 'gotcha', '--files', files, '--no-link', '--json'], cwd ? { cwd } : {});
  expect(r.code, r.stderr).toBe(0);
  return json<{ id: string }>(r).id;
}

function commit(repo: TempRepo, message: string): void {
  repo.git(['add', '-A']);
  const r = repo.git(['commit', '-q', '--no-verify', '-m', message]);
  expect(r.code, r.stderr).toBe(0);
}

function indexCode(repo: TempRepo): { files: number; symbols: number; anchors: Anchor[] } {
  const r = repo.cortex(['index-code', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return json(r);
}

const byId = (anchors: Anchor[], id: string): Anchor => {
  const a = anchors.find((x) => x.id === id);
  expect(a, `anchor of ${id}`).toBeDefined();
  return a!;
};

describe('code anchors over real source in four languages', () => {
  it('resolves, follows moved code, and names the symbol whose body changed', () => {
    const repo = fixture();
    const ts = remember(repo, 'acquire must not allocate: it runs once per query', 'src/db/pool.ts#acquire');
    const py = remember(repo, 'run_with_retry only retries connection errors on purpose', 'src/jobs/retry.py#run_with_retry');
    const go = remember(repo, 'Server.Start must not install routes itself', 'cmd/server.go#Server.Start');
    const rs = remember(repo, 'refill saturates at capacity instead of overflowing', 'crates/limits/src/lib.rs#Bucket.refill');
    // A line range resolves to the smallest symbol around it (the delay method, lines 10-11).
    const lines = remember(repo, 'the delay doubles per attempt', 'src/jobs/retry.py#L10-L11');
    // Given relative to a subdirectory, stored relative to the repository.
    const sub = remember(repo, 'parse_limit trims before parsing', 'src/lib.rs#parse_limit', join(repo.dir, 'crates', 'limits'));
    expect(repo.read(`.cortex/memories/${sub}.md`)).toContain('files: [crates/limits/src/lib.rs#parse_limit]');
    const gone = remember(repo, 'the pool drains on shutdown', 'src/db/pool.ts#drain');
    commit(repo, 'memories');

    const first = indexCode(repo);
    expect(first.files).toBe(4);
    expect(first.symbols).toBeGreaterThan(20);
    const expected: Record<string, Partial<Anchor>> = {
      [ts]: { symbol: 'Pool.acquire', kind: 'method', startLine: 15, endLine: 22, status: 'ok' },
      [py]: { symbol: 'run_with_retry', kind: 'function', startLine: 14, endLine: 21, status: 'ok' },
      [go]: { symbol: 'Server.Start', kind: 'method', startLine: 19, endLine: 21, status: 'ok' },
      [rs]: { symbol: 'Bucket.refill', kind: 'method', startLine: 17, endLine: 19, status: 'ok' },
      [lines]: { symbol: 'RetryPolicy.delay', kind: 'method', startLine: 10, endLine: 11, status: 'ok' },
      [sub]: { symbol: 'parse_limit', kind: 'function', status: 'ok' },
      [gone]: { status: 'missing' },
    };
    for (const [id, want] of Object.entries(expected)) expect(byId(first.anchors, id)).toMatchObject(want);

    // Move code: release above acquire (TS), a new function above run_with_retry and delay
    // (Python), Start below main (Go), refill above new (Rust). Bodies unchanged.
    const pool = repo.read('src/db/pool.ts');
    const acquire = pool.slice(pool.indexOf('  acquire():'), pool.indexOf('  release('));
    const release = pool.slice(pool.indexOf('  release('), pool.indexOf('}\n\nexport const defaultSize'));
    repo.write('src/db/pool.ts', pool.replace(acquire + release, `${release}\n${acquire.trimEnd()}\n`));
    repo.write('src/jobs/retry.py', repo.read('src/jobs/retry.py').replace('class RetryPolicy:', 'def jitter(x):\n    return x\n\n\nclass RetryPolicy:'));
    const server = repo.read('cmd/server.go');
    const start = server.slice(server.indexOf('// Start listens'), server.indexOf('func healthz'));
    repo.write('cmd/server.go', `${server.replace(start, '')}\n${start.trimEnd()}\n`);
    const lib = repo.read('crates/limits/src/lib.rs');
    const refill = lib.slice(lib.indexOf('    pub fn refill'), lib.indexOf('}\n\nimpl Limiter'));
    repo.write('crates/limits/src/lib.rs', lib.replace(refill, '').replace('impl Bucket {\n', `impl Bucket {\n${refill.trimEnd()}\n\n`));
    commit(repo, 'move code around');

    const moved = indexCode(repo);
    for (const id of [ts, py, go, rs, lines, sub]) expect(byId(moved.anchors, id).status, id).toBe('ok');
    for (const id of [ts, py, go, rs, lines]) expect(byId(moved.anchors, id).startLine, id).not.toBe(expected[id]!.startLine);
    expect(byId(moved.anchors, ts).symbol).toBe('Pool.acquire');
    expect(byId(moved.anchors, lines).symbol).toBe('RetryPolicy.delay');
    // The files changed, the anchored symbols did not: nothing is flagged.
    const calm = repo.cortex(['surface']);
    expect(calm.code, calm.stderr).toBe(0);
    const itemOf = (text: string, needle: string) => text.split('\n').find((l) => l.startsWith('- ') && l.includes(needle)) ?? '';
    for (const needle of ['acquire must not allocate', 'run_with_retry only', 'Server.Start must not', 'refill saturates']) {
      expect(itemOf(calm.stdout, needle), needle).not.toMatch(/POSSIBLY OUTDATED/);
    }

    // Change two bodies (Go and Rust); the others stay as they were.
    repo.write('cmd/server.go', repo.read('cmd/server.go').replace('return http.ListenAndServe(s.Addr, nil)', 'return http.ListenAndServe(s.Addr, http.DefaultServeMux)'));
    repo.write('crates/limits/src/lib.rs', repo.read('crates/limits/src/lib.rs').replace('(self.tokens + n).min(self.capacity)', 'self.tokens.saturating_add(n).min(self.capacity)'));
    commit(repo, 'change bodies');
    const changed = indexCode(repo);
    expect(byId(changed.anchors, go)).toMatchObject({ status: 'changed', symbol: 'Server.Start' });
    expect(byId(changed.anchors, rs)).toMatchObject({ status: 'changed', symbol: 'Bucket.refill' });
    for (const id of [ts, py, lines, sub]) expect(byId(changed.anchors, id).status, id).toBe('ok');

    const flagged = repo.cortex(['surface']).stdout;
    expect(itemOf(flagged, 'Server.Start must not')).toMatch(/POSSIBLY OUTDATED.*symbol Server\.Start \(method\) in cmd\/server\.go changed since [0-9a-f]{7}/);
    expect(itemOf(flagged, 'refill saturates')).toMatch(/symbol Bucket\.refill \(method\) in crates\/limits\/src\/lib\.rs changed/);
    expect(itemOf(flagged, 'acquire must not allocate')).not.toMatch(/POSSIBLY OUTDATED/);
    expect(itemOf(flagged, 'pool drains on shutdown')).toMatch(/drain.*no longer found in src\/db\/pool\.ts/);

    const recalled = repo.cortex(['recall', '--file', 'cmd/server.go#Start', '--json']);
    expect(recalled.code, recalled.stderr).toBe(0);
    const results = json<{ results: { id: string; outdated?: string }[] }>(recalled).results;
    expect(results.map((r) => r.id)).toEqual([go]);
    expect(results[0]!.outdated).toMatch(/Server\.Start/);
  });

  it('follows a file git recorded as renamed, and recall --file finds the memory there', () => {
    const repo = fixture();
    const py = remember(repo, 'run_with_retry only retries connection errors on purpose', 'src/jobs/retry.py#run_with_retry');
    const other = remember(repo, 'the server listens on 8080 in development', 'cmd/server.go');
    commit(repo, 'memories');
    expect(byId(indexCode(repo).anchors, py).status).toBe('ok');
    expect(repo.git(['mv', 'src/jobs/retry.py', 'src/jobs/backoff.py']).code).toBe(0);
    commit(repo, 'rename');

    const after = byId(indexCode(repo).anchors, py);
    expect(after).toMatchObject({ path: 'src/jobs/backoff.py', renamedFrom: 'src/jobs/retry.py', symbol: 'run_with_retry', status: 'ok' });
    const found = json<{ path: string; results: { id: string }[] }>(repo.cortex(['recall', '--file', 'src/jobs/backoff.py#run_with_retry', '--json']));
    expect(found.path).toBe('src/jobs/backoff.py');
    expect(found.results.map((r) => r.id)).toEqual([py]);
    // Another symbol of that file: only memories anchored to it or to the whole file.
    expect(json<{ results: unknown[] }>(repo.cortex(['recall', '--file', 'src/jobs/backoff.py#RetryPolicy', '--json'])).results).toEqual([]);
    expect(json<{ results: { id: string }[] }>(repo.cortex(['recall', '--file', 'cmd/server.go#main', '--json'])).results.map((r) => r.id)).toEqual([other]);
    const outside = repo.cortex(['recall', '--file', '/etc/passwd']);
    expect(outside.code).toBe(2);
  });

  it('cortex diff lists the memories whose anchored code the range changes', () => {
    const repo = fixture();
    const ts = remember(repo, 'acquire must not allocate: it runs once per query', 'src/db/pool.ts#acquire');
    const ts2 = remember(repo, 'acquire hands out the most recently freed connection', 'src/db/pool.ts#Pool.acquire');
    const release = remember(repo, 'release wakes waiters in arrival order', 'src/db/pool.ts#release');
    const file = remember(repo, 'the Go server is the only entry point', 'cmd/server.go');
    commit(repo, 'memories');
    repo.git(['checkout', '-q', '-b', 'feature']);
    repo.write('src/db/pool.ts', repo.read('src/db/pool.ts').replace('const c = this.free.pop();', 'const c = this.free.shift();'));
    repo.write('cmd/server.go', repo.read('cmd/server.go').replace('":8080"', '":9090"'));
    commit(repo, 'change acquire and the port');

    const r = repo.cortex(['diff', 'main..feature', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const code = json<{ code: { path: string; symbol?: string; change: string; memories: { id: string }[] }[] }>(r).code;
    const acquire = code.find((t) => t.symbol === 'Pool.acquire');
    expect(acquire).toMatchObject({ path: 'src/db/pool.ts', change: 'changed' });
    expect(acquire!.memories.map((m) => m.id).sort()).toEqual([ts, ts2].sort());
    expect(code.find((t) => t.path === 'cmd/server.go' && t.symbol === undefined)?.memories.map((m) => m.id)).toEqual([file]);
    // release did not change: its memory is not listed.
    expect(code.flatMap((t) => t.memories.map((m) => m.id))).not.toContain(release);
    const md = repo.cortex(['diff', 'main..feature']).stdout;
    expect(md).toContain('This range changes `Pool.acquire` in `src/db/pool.ts`, which 2 memories describe');
  });
});
