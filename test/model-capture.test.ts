/**
 * Opt-in model capture against a fake `claude` executable on PATH and a local fake HTTP
 * server (both written here), through the real session-end and stop hooks: what is sent
 * (redacted, capped), what a valid answer becomes, what a malformed, oversized, slow or
 * missing model leaves (a log line, the rule-based memories intact), and that the off
 * default starts no process and opens no connection. Plus the `reflect` Stop answer.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { runHook } from '../src/hooks/run.js';
import { tempRepo, type TempRepo } from './helpers/repo.js';

// A fake credential built from fragments, so the repository never holds one.
const SECRET = ['ghp', '_', 'R8xk2LmQ9vTz4WnB7cYd1FgH3jKpS6uE0aIo'].join('');

/** A session whose rule-based capture finds a gotcha, and which mentions a secret. */
function transcript(repo: TempRepo): string {
  const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'mc', cwd: repo.dir, gitBranch: 'main', timestamp: '2026-03-02T10:00:00.000Z', ...o })}\n`;
  const path = join(repo.home, 'mc.jsonl');
  writeFileSync(
    path,
    line({ type: 'user', uuid: 'u1', message: { role: 'user', content: `Why does CI fail? The token is ${SECRET}, never commit it.` } }) +
      line({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: '**Root cause:** `ci.yml` runs the health check before the deployment is ready, so it always fails.' }] } }) +
      line({ type: 'user', uuid: 'u2', message: { role: 'user', content: 'ok, thanks' } }),
  );
  return path;
}

/** A fake `claude` on PATH: records its argv, stdin and environment, answers as `FAKE_MODE` says. */
function fakeClaude(repo: TempRepo): { bin: string; calls: () => { argv: string[]; stdin: string; hooks: string | null }[] } {
  const bin = join(repo.home, 'bin');
  const log = join(repo.home, 'claude-calls');
  mkdirSync(bin, { recursive: true });
  mkdirSync(log, { recursive: true });
  const script = `#!${process.execPath}
const fs = require('fs');
let stdin = '';
process.stdin.on('data', (d) => (stdin += d));
process.stdin.on('end', () => {
  fs.writeFileSync(${JSON.stringify(log)} + '/' + Date.now() + '-' + process.pid + '.json', JSON.stringify({ argv: process.argv.slice(2), stdin, hooks: process.env.CORTEX_HOOKS ?? null }));
  const mode = process.env.FAKE_MODE || 'valid';
  const answer = { memories: [{ type: 'decision', summary: 'CI waits for the deployment to be READY before the health check', body: 'Chosen after the health check failed on every run.', confidence: 0.85, files: ['.github/workflows/ci.yml'] }, { type: 'gotcha', summary: 'The health check fails when it runs before the deployment is ready', confidence: 0.8 }] };
  if (mode === 'valid') process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(answer), model: 'claude-fake-1' }));
  else if (mode === 'malformed') process.stdout.write(JSON.stringify({ type: 'result', is_error: false, result: 'I think you should remember things.' }));
  else if (mode === 'huge') process.stdout.write('x'.repeat(3_000_000));
  else if (mode === 'slow') setTimeout(() => process.stdout.write('{}'), 60_000);
  else if (mode === 'fail') { process.stderr.write('not logged in'); process.exit(1); }
});
`;
  writeFileSync(join(bin, 'claude'), script);
  chmodSync(join(bin, 'claude'), 0o755);
  const calls = () => readdirSync(log).sort().map((f) => JSON.parse(readFileSync(join(log, f), 'utf8')) as { argv: string[]; stdin: string; hooks: string | null });
  return { bin, calls };
}

function configure(repo: TempRepo, yaml: string): void {
  writeFileSync(join(repo.dir, '.cortex/config.yaml'), yaml);
}

function memories(repo: TempRepo): Memory[] {
  const dir = join(repo.dir, '.cortex/memories');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .map((n) => parseMemory(readFileSync(join(dir, n), 'utf8'), { file: n }).memory as Memory);
}

function log(repo: TempRepo): string {
  const file = join(repo.dir, '.memory/cortex.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

async function sessionEnd(repo: TempRepo, path: string, env: NodeJS.ProcessEnv): Promise<void> {
  const input = JSON.stringify({ session_id: 'mc', transcript_path: path, cwd: repo.dir, hook_event_name: 'SessionEnd', reason: 'other' });
  const out = await runHook('session-end', input, { env, detach: false, now: () => new Date('2026-03-02T12:00:00Z') });
  expect(out.stdout).toBe('');
}

function repoWithCortex(): TempRepo {
  const repo = tempRepo({ 'README.md': '# x\n' });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'init']);
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

describe('model capture: headless Claude Code (a fake claude on PATH)', () => {
  it('sends the redacted, condensed session once with Cortex hooks off, and stores the answer as llm memories', async () => {
    const repo = repoWithCortex();
    const { bin, calls } = fakeClaude(repo);
    configure(repo, 'capture:\n  mode: claude\n  maxInputChars: 5000\n');
    const env = { ...repo.env, PATH: `${bin}:${repo.env.PATH}` };
    await sessionEnd(repo, transcript(repo), env);

    const sent = calls();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.argv.slice(0, 4)).toEqual(['-p', '--output-format', 'json', '--max-turns']);
    expect(sent[0]!.hooks).toBe('off');
    expect(sent[0]!.stdin).toContain('Person: Why does CI fail?');
    expect(sent[0]!.stdin).toContain('**Root cause:** `ci.yml` runs the health check');
    expect(sent[0]!.stdin).not.toContain(SECRET);
    expect(sent[0]!.stdin).toContain('[REDACTED');
    expect(sent[0]!.stdin).toContain('"memories"'); // the schema travels with the prompt

    const llm = memories(repo).filter((m) => m.source.layer === 'llm');
    expect(llm.map((m) => m.summary).sort(), log(repo)).toEqual(['CI waits for the deployment to be READY before the health check']);
    expect(llm[0]!.source.extra).toMatchObject({ model: 'claude-fake-1' });
    expect(llm[0]!.source.files).toEqual(['.github/workflows/ci.yml']);
    // The model's gotcha repeats the rule-based one: stored once.
    expect(memories(repo).filter((m) => /health check/i.test(m.summary))).toHaveLength(2);
    expect(log(repo)).toMatch(/model capture \(claude, claude-fake-1\): done, sent \d+ chars, received \d+ bytes in \d+ ms/);
  });

  it.each([
    ['malformed', /failed.*not a JSON object/],
    ['huge', /failed.*larger than 200000 bytes/],
    ['fail', /failed.*exited with 1: not logged in/],
  ])('ignores a %s answer with a log line and keeps the rule-based memories', async (mode, line) => {
    const repo = repoWithCortex();
    const { bin, calls } = fakeClaude(repo);
    configure(repo, 'capture:\n  mode: claude\n');
    await sessionEnd(repo, transcript(repo), { ...repo.env, PATH: `${bin}:${repo.env.PATH}`, FAKE_MODE: mode });
    expect(calls()).toHaveLength(1);
    expect(memories(repo).filter((m) => m.source.layer === 'llm')).toEqual([]);
    expect(memories(repo).some((m) => m.source.layer === 'keyword')).toBe(true);
    expect(log(repo)).toMatch(line);
  });

  it('abandons a model slower than capture.timeoutMs', async () => {
    const repo = repoWithCortex();
    const { bin } = fakeClaude(repo);
    configure(repo, 'capture:\n  mode: claude\n  timeoutMs: 1500\n');
    const started = Date.now();
    await sessionEnd(repo, transcript(repo), { ...repo.env, PATH: `${bin}:${repo.env.PATH}`, FAKE_MODE: 'slow' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(log(repo)).toMatch(/gave no answer within 1500 ms/);
  });

  it('says plainly when the command is missing', async () => {
    const repo = repoWithCortex();
    configure(repo, 'capture:\n  mode: claude\n  claudeCommand: no-such-claude-xyz\n');
    await sessionEnd(repo, transcript(repo), repo.env);
    expect(log(repo)).toMatch(/no-such-claude-xyz is not on PATH \(install Claude Code, or set capture.claudeCommand\)/);
  });

  it('off by default: no process is started', async () => {
    const repo = repoWithCortex();
    const { bin, calls } = fakeClaude(repo);
    await sessionEnd(repo, transcript(repo), { ...repo.env, PATH: `${bin}:${repo.env.PATH}` });
    expect(calls()).toEqual([]);
    expect(log(repo)).not.toContain('model capture');
  });
});

describe('model capture: an endpoint (a local fake HTTP server)', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  /** A fake endpoint: records each request, answers as `reply` says. */
  async function endpoint(reply: (req: IncomingMessage, body: string) => { status: number; body: string; delayMs?: number }) {
    const requests: { url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
    let connections = 0;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        requests.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
        const r = reply(req, body);
        setTimeout(() => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(r.body);
        }, r.delayMs ?? 0);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, connections: () => connections };
  }

  const answer = JSON.stringify({ memories: [{ type: 'pattern', summary: 'Deploy jobs wait for READY before any health check runs', confidence: 0.9 }] });

  it('OpenAI-compatible: one chat-completions request with the key from the named variable, the answer stored', async () => {
    const fake = await endpoint(() => ({ status: 200, body: JSON.stringify({ model: 'llama-local', choices: [{ message: { content: answer } }] }) }));
    const repo = repoWithCortex();
    configure(repo, `capture:\n  mode: endpoint\n  model: llama3\n  endpoint:\n    url: ${fake.url}/v1\n    api: openai\n    keyEnv: TEST_LLM_KEY\n`);
    await sessionEnd(repo, transcript(repo), { ...repo.env, TEST_LLM_KEY: 'local-test-key' });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer local-test-key');
    expect(req.body.model).toBe('llama3');
    const content = (req.body.messages as { content: string }[])[0]!.content;
    expect(content).toContain('Person: Why does CI fail?');
    expect(content).not.toContain(SECRET);
    const llm = memories(repo).filter((m) => m.source.layer === 'llm');
    expect(llm.map((m) => [m.type, m.summary, m.source.extra?.model])).toEqual([['pattern', 'Deploy jobs wait for READY before any health check runs', 'llama-local']]);
  });

  it('Anthropic: one messages request with x-api-key', async () => {
    const fake = await endpoint(() => ({ status: 200, body: JSON.stringify({ model: 'claude-x', content: [{ type: 'text', text: answer }] }) }));
    const repo = repoWithCortex();
    configure(repo, `capture:\n  mode: endpoint\n  model: claude-x\n  endpoint:\n    url: ${fake.url}\n    api: anthropic\n    keyEnv: TEST_LLM_KEY\n`);
    await sessionEnd(repo, transcript(repo), { ...repo.env, TEST_LLM_KEY: 'k' });
    expect(fake.requests.map((r) => [r.url, r.headers['x-api-key'], r.headers['anthropic-version']])).toEqual([['/v1/messages', 'k', '2023-06-01']]);
    expect(memories(repo).some((m) => m.source.layer === 'llm')).toBe(true);
  });

  it.each([
    ['an HTTP error', () => ({ status: 500, body: 'boom' }), /answered HTTP 500/],
    ['a slow answer', () => ({ status: 200, body: '{}', delayMs: 2_500 }), /no answer from .* within 1500 ms/],
    ['an oversized answer', () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: 'x'.repeat(300_000) } }] }) }), /larger than 200000 bytes/],
  ])('ignores %s with a log line', async (_what, reply, line) => {
    const fake = await endpoint(reply);
    const repo = repoWithCortex();
    configure(repo, `capture:\n  mode: endpoint\n  model: m\n  timeoutMs: 1500\n  endpoint:\n    url: ${fake.url}\n`);
    await sessionEnd(repo, transcript(repo), repo.env);
    expect(memories(repo).filter((m) => m.source.layer === 'llm')).toEqual([]);
    expect(log(repo)).toMatch(line);
  });

  it('names a key variable that is not set, and sends nothing', async () => {
    const fake = await endpoint(() => ({ status: 200, body: '{}' }));
    const repo = repoWithCortex();
    configure(repo, `capture:\n  mode: endpoint\n  model: m\n  endpoint:\n    url: ${fake.url}\n    keyEnv: NOT_SET_ANYWHERE_KEY\n`);
    await sessionEnd(repo, transcript(repo), repo.env);
    expect(fake.connections()).toBe(0);
    expect(log(repo)).toMatch(/NOT_SET_ANYWHERE_KEY \(capture.endpoint.keyEnv\) is not set/);
  });

  it('off by default: no connection is opened', async () => {
    const fake = await endpoint(() => ({ status: 200, body: '{}' }));
    const repo = repoWithCortex();
    writeFileSync(join(repo.dir, '.cortex/config.yaml'), `# endpoint configured but capture off\ncapture:\n  model: m\n  endpoint:\n    url: ${fake.url}\n`);
    await sessionEnd(repo, transcript(repo), repo.env);
    expect(fake.connections()).toBe(0);
  });
});

describe('reflect: the Stop hook asks the running assistant to record what it decided', () => {
  const stop = (repo: TempRepo, path: string, active = false) =>
    runHook('stop', JSON.stringify({ session_id: 'mc', transcript_path: path, cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: active }), {
      env: repo.env,
      now: () => new Date('2026-03-02T12:00:00Z'),
    });

  /** A session with work (a command) and a finding still open for review. */
  function session(repo: TempRepo, turns: number): string {
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'mc', cwd: repo.dir, gitBranch: 'main', ...o })}\n`;
    const path = join(repo.home, 'r.jsonl');
    let text = '';
    for (let i = 0; i < turns; i++) {
      text +=
        line({ type: 'user', uuid: `u${i}`, message: { role: 'user', content: `Check the build, step ${i}` } }) +
        line({ type: 'assistant', uuid: `t${i}`, message: { id: `mt${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `b${i}`, name: 'Bash', input: { command: `npm run build -- --step ${i}` } }] } }) +
        line({ type: 'user', uuid: `r${i}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `b${i}`, content: 'ok' }] } }) +
        line({ type: 'assistant', uuid: `a${i}`, message: { id: `ma${i}`, role: 'assistant', content: [{ type: 'text', text: `The build step ${i} is slow because \`tsc\` type-checks \`bench/\` too.` }] } });
    }
    writeFileSync(path, text);
    return path;
  }

  it('answers once with a blocking Stop listing the candidates; not while a Stop hook continues; not again before the next few turns', async () => {
    const repo = repoWithCortex();
    configure(repo, 'capture:\n  mode: reflect\n  reflectEveryTurns: 3\n');
    const path = session(repo, 1);
    const first = await stop(repo, path);
    const answer = JSON.parse(first.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/^Cortex \(project memory\): \d+ things? from this stretch/);
    expect(answer.reason).toContain('type-checks bench/ too');
    expect(answer.reason).toContain('[MEMORY: decision]');

    expect((await stop(repo, path, true)).stdout).toBe('');
    expect((await stop(repo, session(repo, 2))).stdout).toBe('');
    expect((await stop(repo, session(repo, 5))).stdout).toContain('"decision":"block"');
  });

  it('never asks when the mode is off (the default)', async () => {
    const repo = repoWithCortex();
    expect((await stop(repo, session(repo, 1))).stdout).toBe('');
  });

  it('never asks a session with no candidates', async () => {
    const repo = repoWithCortex();
    configure(repo, 'capture:\n  mode: reflect\n');
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'mc', cwd: repo.dir, ...o })}\n`;
    const path = join(repo.home, 'plain.jsonl');
    writeFileSync(
      path,
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'list the files' } }) +
        line({ type: 'assistant', uuid: 't1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'ls' } }] } }) +
        line({ type: 'user', uuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: 'a b c' }] } }) +
        line({ type: 'assistant', uuid: 'a1', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } }),
    );
    expect((await stop(repo, path)).stdout).toBe('');
  });
});
