/**
 * The pull-request review script (scripts/pr-review.mjs, the action's entry) run from a
 * fresh clone with a GITHUB_EVENT_PATH payload against a local fake of GitHub's REST API
 * on 127.0.0.1 that records the requests and answers like the real one (paginated list of
 * issue comments with a Link header, create, update).
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, ok, REPO_ROOT, type TempRepo } from './helpers/repo.js';

interface Comment { id: number; body: string }
interface Recorded { method: string; url: string; auth: string | undefined; body?: { body: string } }

let server: Server;
let apiUrl = '';
const comments: Comment[] = [];
const notes: Comment[] = [{ id: 1, body: 'a reviewer note' }];
const requests: Recorded[] = [];
let nextId = 1000;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((res) => {
    let s = '';
    req.on('data', (d) => (s += d));
    req.on('end', () => res(s));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as { body: string }) : undefined;
    requests.push({ method: req.method ?? '', url: url.pathname + url.search, auth: req.headers.authorization, ...(body ? { body } : {}) });
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (!url.pathname.startsWith('/api/v4/') && req.headers.authorization !== 'Bearer test-token') return send(401, { message: 'Bad credentials' });
    let m = /^\/repos\/acme\/api\/issues\/7\/comments$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const per = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const last = Math.max(1, Math.ceil(comments.length / per));
      const link: Record<string, string> = page < last ? { link: `<${apiUrl}/repos/acme/api/issues/7/comments?per_page=${per}&page=${page + 1}>; rel="next", <${apiUrl}/repos/acme/api/issues/7/comments?per_page=${per}&page=${last}>; rel="last"` } : {};
      return send(200, comments.slice((page - 1) * per, page * per), link);
    }
    if (m && req.method === 'POST') {
      const c = { id: nextId++, body: body!.body };
      comments.push(c);
      return send(201, c);
    }
    if (url.pathname.startsWith('/api/v4/')) {
      if (req.headers['private-token'] !== 'gl-token') return send(401, { message: '401 Unauthorized' });
      const g = /^\/api\/v4\/projects\/42\/merge_requests\/3\/notes(?:\/(\d+))?$/.exec(url.pathname);
      if (g && !g[1] && req.method === 'GET') return send(200, notes);
      if (g && !g[1] && req.method === 'POST') {
        const n = { id: nextId++, body: body!.body };
        notes.push(n);
        return send(201, n);
      }
      const n = g?.[1] ? notes.find((x) => x.id === Number(g[1])) : undefined;
      if (n && req.method === 'PUT') {
        n.body = body!.body;
        return send(200, n);
      }
      return send(404, { message: '404 Not found' });
    }
    m = /^\/repos\/acme\/api\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (m && req.method === 'PATCH') {
      const c = comments.find((x) => x.id === Number(m![1]));
      if (!c) return send(404, { message: 'Not Found' });
      c.body = body!.body;
      return send(200, c);
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // 120 comments from people first: the marker comment lands on page 2 of the list.
  for (let i = 0; i < 120; i++) comments.push({ id: nextId++, body: `looks good ${i}` });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function memory(id: string, summary: string, extra: { status?: string; files?: string[]; kind?: string; body?: string } = {}): string {
  const files = extra.files ? `  files:\n${extra.files.map((f) => `    - ${f}`).join('\n')}\n` : '';
  return `---\nid: ${id}\ntype: decision\nsummary: ${summary}\nscope: project\npriority: 5\nconfidence: 0.7\npinned: false\nstatus: ${extra.status ?? 'active'}\ntags: []\ncreated: 2026-12-01T10:00:00Z\nupdated: 2026-12-01T10:00:00Z\nsource:\n  kind: ${extra.kind ?? 'extraction'}\n  session: sess-42\n  branch: feature\n${files}---\n${extra.body ?? `Why ${summary}.`}\n`;
}

const POOL_V1 = 'export class Pool {\n  acquire() {\n    return 1;\n  }\n  release() {}\n}\n';
const POOL_V2 = 'export class Pool {\n  acquire() {\n    return this.waitFor(30_000);\n  }\n  release() {}\n}\n';

function commitAll(repo: TempRepo, message: string, extra: string[] = []): string {
  ok(repo.cortex(['project']), 'project');
  ok(repo.git(['add', '-A']), 'add');
  ok(repo.git(['commit', '-q', '-m', message, ...extra]), 'commit');
  return repo.git(['rev-parse', 'HEAD']).stdout.trim();
}

function runReview(repo: TempRepo, clone: string, base: string, head: string): Promise<{ code: number; stdout: string; stderr: string; summary: string; output: string }> {
  const event = join(repo.home, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, base: { sha: base, ref: 'main' }, head: { sha: head, ref: 'feature' } }, repository: { full_name: 'acme/api' } }));
  const summary = join(repo.home, `summary-${requests.length}.md`);
  const output = join(repo.home, `output-${requests.length}.txt`);
  writeFileSync(summary, '');
  writeFileSync(output, '');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO_ROOT, 'scripts', 'pr-review.mjs')],
      { cwd: clone, env: { ...repo.env, GITHUB_EVENT_PATH: event, GITHUB_API_URL: apiUrl, GITHUB_REPOSITORY: 'acme/api', GITHUB_SERVER_URL: 'https://github.com', GITHUB_TOKEN: 'test-token', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, CORTEX_CLI: join(REPO_ROOT, 'dist', 'cli.js') }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, summary: readFileSync(summary, 'utf8'), output: readFileSync(output, 'utf8') }),
    );
  });
}

describe('scripts/pr-review.mjs against a fake GitHub API', () => {
  it('creates one comment naming the five memories and the function, updates it on the next push, fails on a planted secret with file and line', async () => {
    const repo = initRepo();
    repo.write('src/pool.ts', POOL_V1);
    repo.write('.cortex/memories/acquire-waits-5s.md', memory('acquire-waits-5s', 'Pool acquire waits 5 s', { files: ['src/pool.ts#Pool.acquire'] }));
    repo.write('.cortex/memories/old-pool-note.md', memory('old-pool-note', 'The old pool leaks on error'));
    const base = commitAll(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']), 'branch');
    for (const [id, s] of [['use-pgbouncer', 'Use PgBouncer in transaction mode'], ['pool-size-20', 'Pool size is 20 per instance'], ['retry-deadlocks', 'Retry deadlocks three times']] as const) {
      repo.write(`.cortex/memories/${id}.md`, memory(id, s));
    }
    repo.write('.cortex/memories/acquire-waits-5s.md', memory('acquire-waits-5s', 'Pool acquire waits 30 s', { files: ['src/pool.ts#Pool.acquire'] }));
    repo.write('.cortex/memories/old-pool-note.md', memory('old-pool-note', 'The old pool leaks on error', { status: 'archived' }));
    repo.write('src/pool.ts', POOL_V2);
    const head = commitAll(repo, 'feature');
    const clone = join(repo.home, 'clone');
    ok(repo.git(['clone', '-q', '--no-local', repo.dir, clone]), 'clone');

    const first = await runReview(repo, clone, base, head);
    expect(first.code, first.stderr).toBe(0);
    const created = requests.filter((r) => r.method === 'POST' && r.url.startsWith('/repos/'));
    expect(created).toHaveLength(1);
    const body = created[0]!.body!.body;
    expect(body.startsWith('<!-- cortex-memory-review -->')).toBe(true);
    for (const id of ['use-pgbouncer', 'pool-size-20', 'retry-deadlocks', 'acquire-waits-5s', 'old-pool-note']) expect(body).toContain(`\`${id}\``);
    expect(body).toContain('**archived**');
    expect(body).toContain('`Pool acquire waits 5 s` → `Pool acquire waits 30 s`');
    expect(body).toMatch(/This PR changes `(Pool\.)?acquire` in `src\/pool\.ts`, which 1 memory describes/);
    expect(body).toContain(`https://github.com/acme/api/blob/${head}/.cortex/memories/use-pgbouncer.md`);
    expect(first.summary).toBe(body);
    expect(first.output).toContain('memories-changed=5');
    expect(first.output).toContain('failed=false');
    const id = comments.find((c) => c.body === body)!.id;

    // Next push: a secret in a new memory. The same comment is updated; the check fails.
    ok(repo.git(['checkout', '-q', 'feature']), 'checkout');
    repo.write('.cortex/memories/deploy-key.md', memory('deploy-key', 'Deploy uses the staging key', { body: 'Line one.\nThe key is AKIAIOSFODNN7EXAMPLF for staging.' }));
  // Committed past the local pre-commit gate (--no-verify, or a clone without hooks): CI is the net.
  const head2 = commitAll(repo, 'leak', ['--no-verify']);
    ok(repo.git(['-C', clone, 'fetch', '-q', 'origin']), 'fetch');
    ok(repo.git(['-C', clone, 'checkout', '-q', head2]), 'checkout head2');
    const before = requests.length;
    const second = await runReview(repo, clone, base, head2);
    expect(second.code).toBe(1);
    const later = requests.slice(before);
    expect(later.filter((r) => r.method === 'POST')).toHaveLength(0);
    const patches = later.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.url)).toEqual([`/repos/acme/api/issues/comments/${id}`]);
    expect(later.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual(['/repos/acme/api/issues/7/comments?per_page=100', '/repos/acme/api/issues/7/comments?per_page=100&page=2']);
    expect(comments.filter((c) => c.body.includes('<!-- cortex-memory-review -->'))).toHaveLength(1);
    expect(second.stderr).toMatch(/failed check: secrets\n {2}`\.cortex\/memories\/deploy-key\.md:\d+` looks like a secret/);
    expect(patches[0]!.body!.body).toMatch(/❌ secrets\n {2}- `\.cortex\/memories\/deploy-key\.md:\d+`/);
    expect(patches[0]!.body!.body).not.toContain('AKIAIOSFODNN7EXAMPLF');
    expect(second.output).toContain('failed=true');
  }, 240_000);

  it('posts one merge-request note through the GitLab API and updates it on the next run', async () => {
    const repo = initRepo();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.write('.cortex/memories/use-pgbouncer.md', memory('use-pgbouncer', 'Use PgBouncer in transaction mode'));
    const head = commitAll(repo, 'feature');
    const run = () =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        const env: NodeJS.ProcessEnv = { ...repo.env, GITLAB_CI: 'true', CI_API_V4_URL: `${apiUrl}/api/v4`, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '3', CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_SHA: head, CORTEX_GITLAB_TOKEN: 'gl-token', CORTEX_CLI: join(REPO_ROOT, 'dist', 'cli.js') };
        for (const k of Object.keys(env)) if (k.startsWith('GITHUB_')) delete env[k];
        execFile(process.execPath, [join(REPO_ROOT, 'scripts', 'pr-review.mjs')], { cwd: repo.dir, env, timeout: 120_000 }, (err, _out, stderr) => resolve({ code: err ? 1 : 0, stderr }));
      });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    const gl = requests.filter((r) => r.url.startsWith('/api/v4/'));
    expect(gl.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PUT']);
    expect(notes.filter((n) => n.body.startsWith('<!-- cortex-memory-review -->'))).toHaveLength(1);
    expect(notes[1]!.body).toContain('`use-pgbouncer`');
  }, 240_000);
});
