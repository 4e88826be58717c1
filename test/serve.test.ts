/**
 * `cortex serve`: the HTTP API against a real temporary git repository, through a real
 * socket (node:http, no mocks), and a run of the built CLI.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { appendReview } from '../src/cache/review-queue.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { CLI, tempRepo, type TempRepo } from './helpers/repo.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, any>;
}

/** One raw HTTP request: headers exactly as given (Host included), so the checks can be tested. */
function call(
  s: RunningServer,
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: unknown; raw?: string | Buffer; token?: string | null } = {},
): Promise<Reply> {
  const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const headers: Record<string, string> = {
    host: `127.0.0.1:${s.port}`,
    ...(o.token === null ? {} : { authorization: `Bearer ${o.token ?? s.token}` }),
    ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
    ...o.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let json: Record<string, any> = {};
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON: the page */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

async function served(): Promise<{ repo: TempRepo; s: RunningServer }> {
  const repo = tempRepo();
  expect(repo.cortex(['init']).code).toBe(0);
  const cortex = openCortex({ dir: repo.dir, env: repo.env });
  const s = await startServer({ cortex, maxBodyBytes: 64 * 1024, log: () => {} });
  onTestFinished(() => s.close());
  return { repo, s };
}

async function remember(s: RunningServer, body: Record<string, unknown>): Promise<Reply> {
  const r = await call(s, 'POST', '/api/memories', { body });
  expect(r.status, r.text).toBe(201);
  return r;
}

describe('cortex serve: the API', () => {
  it('answers status with schemaVersion, and sends no-store and a CSP', async () => {
    const { repo, s } = await served();
    const r = await call(s, 'GET', '/api/status');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json.schemaVersion).toBe(1);
    expect(r.json.root).toBe(repo.dir);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('refuses without the token, with a wrong Host, and from another Origin, as JSON; a refused write writes nothing', async () => {
    const { repo, s } = await served();
    const noToken = await call(s, 'GET', '/api/status', { token: null });
    expect([noToken.status, noToken.json.error.code]).toEqual([401, 'BAD_TOKEN']);
    const wrongToken = await call(s, 'GET', '/api/status', { token: 'x'.repeat(22) });
    expect(wrongToken.status).toBe(401);
    const rebinding = await call(s, 'GET', '/api/status', { headers: { host: `attacker.example:${s.port}` } });
    expect([rebinding.status, rebinding.json.error.code]).toEqual([421, 'BAD_HOST']);
    const page = await call(s, 'GET', '/', { token: null, headers: { host: `attacker.example:${s.port}` } });
    expect(page.status).toBe(421);
    const crossSite = await call(s, 'POST', '/api/memories', { body: { summary: 'Injected from another site' }, headers: { origin: 'http://attacker.example' } });
    expect([crossSite.status, crossSite.json.error.code]).toEqual([403, 'BAD_ORIGIN']);
    const form = await call(s, 'POST', '/api/memories', { raw: 'summary=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(repo.list('.cortex/memories')).toEqual([]);
    const sameOrigin = await call(s, 'GET', '/api/status', { headers: { origin: `http://127.0.0.1:${s.port}`, 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.status).toBe(200);
  });

  it('creates a memory and reads it back, with the file it wrote', async () => {
    const { repo, s } = await served();
    const created = await remember(s, { summary: 'Chose SQLite over Postgres because zero config matters', type: 'decision', tags: ['storage'], priority: 7 });
    expect(created.json.action).toBe('created');
    const id = created.json.memory.id as string;
    const got = await call(s, 'GET', `/api/memories/${id}`);
    expect(got.status).toBe(200);
    expect(got.json.memory).toMatchObject({ id, type: 'decision', priority: 7, tags: ['storage'], summary: 'Chose SQLite over Postgres because zero config matters' });
    expect(got.json.file).toBe(`.cortex/memories/${id}.md`);
    expect(got.json.source).toBe(repo.read(`.cortex/memories/${id}.md`));
    // A unique prefix works as in the CLI.
    expect((await call(s, 'GET', `/api/memories/${id.slice(0, 12)}`)).json.memory.id).toBe(id);
    const found = await call(s, 'GET', '/api/search?q=sqlite');
    expect(found.json.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const listed = await call(s, 'GET', '/api/memories?type=decision');
    expect(listed.json.total).toBe(1);
  });

  it('reports validation errors as JSON with a status code, and writes nothing', async () => {
    const { repo, s } = await served();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/api/memories', { summary: 'x', priority: 99 }, 400, 'USAGE'],
      ['POST', '/api/memories', { summary: 'x', type: 'opinion' }, 400, 'USAGE'],
      ['POST', '/api/memories', { summary: 'x', colour: 'red' }, 400, 'USAGE'],
      ['POST', '/api/memories', { summary: 42 }, 400, 'USAGE'],
      ['POST', '/api/memories', ['not', 'an', 'object'], 400, 'USAGE'],
      ['POST', '/api/memories', {}, 400, 'USAGE'],
      ['GET', '/api/search?q=', undefined, 400, 'USAGE'],
      ['GET', '/api/memories?limit=abc', undefined, 400, 'USAGE'],
      ['GET', '/api/memories/no-such-memory-abcdef', undefined, 404, 'MEMORY_NOT_FOUND'],
      ['GET', '/api/nothing-here', undefined, 404, 'NOT_FOUND'],
      ['DELETE', '/api/memories', {}, 405, 'METHOD_NOT_ALLOWED'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await call(s, method, path, body === undefined ? {} : { body });
      expect([r.status, r.json.error?.code], `${method} ${path} ${JSON.stringify(body)} ${r.text}`).toEqual([status, code]);
      expect(typeof r.json.error.message).toBe('string');
    }
    expect((await call(s, 'DELETE', '/api/memories', { body: {} })).headers.allow).toBe('GET, POST');
    const badJson = await call(s, 'POST', '/api/memories', { raw: '{"summary": ' });
    expect([badJson.status, badJson.json.error.code]).toEqual([400, 'BAD_JSON']);
    const tooLarge = await call(s, 'POST', '/api/memories', { body: { summary: 'big', body: 'x'.repeat(100 * 1024) } });
    expect([tooLarge.status, tooLarge.json.error.code]).toEqual([413, 'TOO_LARGE']);
    expect(repo.list('.cortex/memories')).toEqual([]);
  });

  it('refuses an edit whose YAML does not parse and keeps the file byte for byte; a valid edit is written', async () => {
    const { repo, s } = await served();
    const id = (await remember(s, { summary: 'Use pnpm workspaces for the monorepo', type: 'decision' })).json.memory.id as string;
    const file = `.cortex/memories/${id}.md`;
    const before = repo.read(file);
    const broken = before.replace('type: decision', 'type: [decision');
    const refused = await call(s, 'PUT', `/api/memories/${id}/source`, { body: { text: broken } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('PARSE');
    expect(refused.json.error.data.diagnostics.length).toBeGreaterThan(0);
    expect(repo.read(file)).toBe(before);
    const otherId = await call(s, 'PUT', `/api/memories/${id}/source`, { body: { text: before.replace(`id: ${id}`, 'id: another-one-abcdef') } });
    expect(otherId.status).toBe(422);
    expect(repo.read(file)).toBe(before);

    const unchanged = await call(s, 'PUT', `/api/memories/${id}/source`, { body: { text: before } });
    expect([unchanged.status, unchanged.json.changed]).toEqual([200, false]);
    expect(repo.read(file)).toBe(before);
    const edited = await call(s, 'PUT', `/api/memories/${id}/source`, { body: { text: before.replace('Use pnpm workspaces', 'Use npm workspaces') } });
    expect([edited.status, edited.json.changed]).toEqual([200, true]);
    expect(repo.read(file)).toContain('summary: Use npm workspaces for the monorepo');
  });

  it('updates fields, archives, and refuses an id that is a path', async () => {
    const { repo, s } = await served();
    const id = (await remember(s, { summary: 'Tests run against real git repositories', type: 'pattern' })).json.memory.id as string;
    const patched = await call(s, 'PATCH', `/api/memories/${id}`, { body: { priority: 9, addTags: ['testing'] } });
    expect([patched.status, patched.json.changed]).toEqual([200, true]);
    expect(repo.read(`.cortex/memories/${id}.md`)).toMatch(/priority: 9/);
    expect((await call(s, 'PATCH', `/api/memories/${id}`, { body: { priority: 0 } })).status).toBe(400);
    expect((await call(s, 'PATCH', `/api/memories/${id}`, { body: {} })).status).toBe(400);
    const archived = await call(s, 'POST', `/api/memories/${id}/archive`, { body: {} });
    expect([archived.status, archived.json.action]).toEqual([200, 'archived']);
    expect(repo.read(`.cortex/memories/${id}.md`)).toMatch(/status: archived/);
    for (const path of ['/api/memories/..%2F..%2Fpackage.json', '/api/memories/%2Fetc%2Fpasswd', '/api/memories/%E0%A4%A']) {
      const r = await call(s, 'GET', path);
      expect([400, 404], `${path}: ${r.text}`).toContain(r.status);
      expect(r.json.error).toBeDefined();
    }
  });

  it('lists edges and walks the graph', async () => {
    const { repo, s } = await served();
    const a = (await remember(s, { summary: 'Chose SQLite for local storage', type: 'decision' })).json.memory.id as string;
    const b = (await remember(s, { summary: 'Write-ahead logging must be on for concurrent readers', type: 'gotcha' })).json.memory.id as string;
    expect(repo.cortex(['link', b, 'refines', a]).code).toBe(0);
    const edges = await call(s, 'GET', `/api/memories/${b}/edges`);
    expect(edges.status).toBe(200);
    expect(edges.json.out).toEqual([expect.objectContaining({ source: b, target: a, relation: 'refines' })]);
    const all = await call(s, 'GET', '/api/edges');
    expect(all.json.edges.some((e: { source: string; target: string }) => e.source === b && e.target === a)).toBe(true);
    const walk = await call(s, 'GET', `/api/traverse/${a}?depth=1`);
    expect(walk.status).toBe(200);
    expect(walk.json.total).toBe(1);
    expect((await call(s, 'GET', `/api/traverse/${a}?direction=sideways`)).status).toBe(400);
  });

  it('shows the briefing with its explain table without writing the cache or any target', async () => {
    const { repo, s } = await served();
    await remember(s, { summary: 'Never commit generated projections by hand', type: 'gotcha', priority: 8 });
    const before = repo.list('.memory/surface-cache');
    const r = await call(s, 'GET', '/api/surface');
    expect(r.status).toBe(200);
    expect(r.json.text).toContain('Never commit generated projections by hand');
    expect(r.json.explain.length).toBeGreaterThan(0);
    expect(r.json.cached).toBe(false);
    expect(repo.list('.memory/surface-cache')).toEqual(before);
  });

  it('lists the review queue, accepts an item into a memory file, and refuses an empty selection', async () => {
    const { repo, s } = await served();
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    await appendReview(cortex.context.paths, [
      {
        kind: 'candidate',
        id: 'candidate:3f9a2c1d04',
        created: '2026-11-21T10:00:00Z',
        candidate: { type: 'decision', summary: 'Maybe go with Redis for the session cache', body: 'Said in passing.', confidence: 0.55, tags: ['cache'], layer: 'keyword', session: 's1' },
      },
    ]);
    const listed = await call(s, 'GET', '/api/review');
    expect(listed.json.items).toEqual([expect.objectContaining({ n: 1, summary: 'Maybe go with Redis for the session cache' })]);
    expect((await call(s, 'POST', '/api/review/accept', { body: {} })).status).toBe(400);
    const accepted = await call(s, 'POST', '/api/review/accept', { body: { select: ['1'] } });
    expect(accepted.status, accepted.text).toBe(200);
    const file = accepted.json.accepted[0].result.file as string;
    expect(repo.read(file)).toContain('summary: Maybe go with Redis for the session cache');
    expect((await call(s, 'GET', '/api/review')).json.items).toEqual([]);
  });
});

describe('cortex serve: history, lifecycle, diff, doctor, events', () => {
  it('gives a memory\'s git log and usage, and refuses a history of what does not exist', async () => {
    const { repo, s } = await served();
    const id = (await remember(s, { summary: 'Retry flaky network calls three times', type: 'pattern' })).json.memory.id as string;
    expect((await call(s, 'GET', `/api/memories/${id}/history`)).json.commits).toEqual([]);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'Add the retry pattern']);
    expect(repo.cortex(['recall', 'retry flaky']).code).toBe(0);
    const h = await call(s, 'GET', `/api/memories/${id}/history`);
    expect(h.status).toBe(200);
    expect(h.json.commits).toEqual([expect.objectContaining({ subject: 'Add the retry pattern', commit: expect.stringMatching(/^[0-9a-f]{40}$/) })]);
    expect(h.json.usage.accessCount).toBe(1);
    expect((await call(s, 'GET', '/api/memories/nothing-like-this-abcdef/history')).status).toBe(404);
  });

  it('plans the lifecycle without changing a file', async () => {
    const { repo, s } = await served();
    const id = (await remember(s, { summary: 'Progress: half of the parser is ported', type: 'progress' })).json.memory.id as string;
    const file = `.cortex/memories/${id}.md`;
    // Made two years ago: long decayed, archived by the next lifecycle run.
    repo.write(file, repo.read(file).replace(/(created|updated): .*/g, '$1: 2024-01-01T00:00:00Z'));
    const before = repo.read(file);
    const r = await call(s, 'GET', '/api/lifecycle');
    expect(r.status, r.text).toBe(200);
    expect(r.json.applied).toBe(false);
    expect(r.json.changes).toEqual([expect.objectContaining({ id, to: 'archived' })]);
    expect(r.json.fading[0]).toMatchObject({ id });
    expect(r.json.fading[0].decayed).toBeLessThan(0.3);
    expect(repo.read(file)).toBe(before);
  });

  it('diffs a branch, and answers an unknown revision or a missing range with a JSON error', async () => {
    const { repo, s } = await served();
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'init']);
    repo.git(['checkout', '-qb', 'feature']);
    const id = (await remember(s, { summary: 'Feature flags are read once at startup', type: 'decision' })).json.memory.id as string;
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'flags']);
    const d = await call(s, 'GET', '/api/diff?range=main...feature');
    expect(d.status, d.text).toBe(200);
    expect(d.json.memories).toEqual([expect.objectContaining({ id, change: 'added' })]);
    const unknown = await call(s, 'GET', '/api/diff?range=main...no-such-branch');
    expect([unknown.status, unknown.json.error.code]).toEqual([422, 'GIT']);
    expect((await call(s, 'GET', '/api/diff')).status).toBe(400);
    expect((await call(s, 'GET', '/api/diff?range=--output=/tmp/x')).status).toBe(400);
  });

  it('runs doctor', async () => {
    const { s } = await served();
    const r = await call(s, 'GET', '/api/doctor');
    expect(r.status).toBe(200);
    expect(r.json.checks.map((c: { id: string }) => c.id)).toContain('driver');
  });

  it('sends a change event when a memory file is written on disk, and needs the token for it', async () => {
    const { repo, s } = await served();
    expect((await call(s, 'GET', '/api/events', { token: null })).status).toBe(401);
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: s.port, path: '/api/events', headers: { authorization: `Bearer ${s.token}` } }, (res) => {
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (text.includes('event: hello') && !text.includes('event: change') && !text.includes('written')) {
            text += '\n(written)';
            expect(repo.cortex(['remember', 'Written by another process while the page is open']).code).toBe(0);
          }
          if (text.includes('event: change')) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    expect(received).toMatch(/event: change\ndata: \{"version":1\}/);
  });
});

describe('cortex serve: the page', () => {
  it('serves the viewer and its two files, and nothing else (no listing, nothing outside them)', async () => {
    const { s } = await served();
    const page = await call(s, 'GET', '/', { token: null });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<label for="q">Search memories</label>');
    expect((await call(s, 'GET', '/app.js', { token: null })).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await call(s, 'GET', '/app.css', { token: null })).status).toBe(200);
    for (const path of ['/index.html', '/web/viewer/', '/../package.json', '/.cortex/', '/.cortex/config.yaml', '/%2e%2e/package.json']) {
      expect((await call(s, 'GET', path, { token: null })).status, path).toBe(404);
    }
    expect((await call(s, 'POST', '/', { token: null, raw: '{}' })).status).toBe(405);
  });
});

describe('cortex serve: the command', () => {
  it('prints the URL with the token, serves until Ctrl-C, and exits 0', async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    const child = spawn(process.execPath, [CLI, 'serve', '--json'], { cwd: repo.dir, env: repo.env });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const info = await new Promise<{ url: string; port: number; host: string }>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        try {
          resolve(JSON.parse(stdout));
        } catch {
          /* not complete yet */
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(info.host).toBe('127.0.0.1');
    expect(info.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${info.port}/#token=[A-Za-z0-9_-]{22}$`));
    const token = info.url.split('#token=')[1]!;
    const s = { port: info.port, token } as RunningServer;
    expect((await call(s, 'GET', '/api/status')).json.root).toBe(repo.dir);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('fails outside a project before listening, and refuses a bad port', () => {
    const repo = tempRepo();
    const r = repo.cortex(['serve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No \.cortex\/ directory/);
    expect(repo.cortex(['serve', '--port', 'x']).code).toBe(2);
    expect(repo.cortex(['serve', '--port', '70000']).code).toBe(2);
  });

  it('warns when bound beyond loopback (--host), and not otherwise', async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    const stderrOf = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'serve', '--json', ...args], { cwd: repo.dir, env: repo.env });
        onTestFinished(() => void child.kill('SIGKILL'));
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.stdout.once('data', () => {
          child.kill('SIGINT');
          child.on('exit', () => resolve(stderr));
        });
        child.on('error', reject);
      });
    const wide = await stderrOf(['--host', '0.0.0.0']);
    expect(wide).toMatch(/^warning: listening on 0\.0\.0\.0, not only on this machine/m);
    expect(wide).toMatch(/plain HTTP/);
    expect(await stderrOf([])).not.toMatch(/warning/);
  });
});
