/**
 * Cortex inside the real Claude Code: `claude -p` (the npm package, test/e2e/client/) runs in
 * a temporary repository against a local fake Anthropic API (fake-anthropic.ts), so nothing
 * leaves the machine. What the client sent the model and what the repository holds afterwards
 * show that the hooks, the rules file, the skills and the MCP server work as Claude Code
 * actually loads them — set up by `cortex init --claude`, and separately as the plugin
 * installed from a local marketplace directory.
 *
 * Run with `npm run test:e2e`. Skips, saying why, when the client cannot be installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CLI, REPO_ROOT, tempRepo, type TempRepo } from '../helpers/repo.js';
import { installClient, type ClientResult } from './client.js';
import { requestText, startFakeApi, toolResultText, type FakeApi, type MessagesRequest } from './fake-anthropic.js';

const CLAUDE_TIMEOUT_MS = 90_000;

const BRIEFED = 'Chose SQLite over PostgreSQL because zero-config matters most';
/** Kept out of the briefing (`surface.budgets.gotcha: 0`), so only the prompt hook can bring it. */
const RELATED = 'The fixture clock runs in UTC, never local time, so date tests pass at midnight';
const PROMPT = 'Why does the date test fail at midnight? Which timezone does the fixture clock use?';
const CAPTURED = 'Chose Vitest over Jest because it runs the ESM sources without a transform step';
const RECALL_QUERY = 'fixture clock timezone';

let client: ClientResult;

beforeAll(() => {
  client = installClient();
  if (!client.ok) console.warn(`[e2e] Claude Code end-to-end tests skipped: ${client.reason}`);
}, 300_000);

function claudeOrSkip(ctx: TestContext): string {
  if (!client.ok) return ctx.skip(client.reason);
  return client.client.claude;
}

/**
 * A directory holding only `cortex`: a link to this checkout's build (`npm run build`), as
 * `npm install -g` or `npm link` make it, so `init --claude` sees itself on PATH.
 */
function cortexBin(ctx: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-e2e-bin-'));
  ctx.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(CLI, 0o755);
  symlinkSync(CLI, join(dir, 'cortex'));
  return dir;
}

/** PATH without any directory that has a `cortex` in it (a global install would defeat the test). */
function pathWithoutCortex(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d !== '' && !existsSync(join(d, 'cortex')))
    .join(delimiter);
}

/**
 * The environment Claude Code runs in: the repository's isolated HOME (so no user settings,
 * plugins or credentials are read), the fake API, a dummy key, no traffic besides the API.
 */
function claudeEnv(repo: TempRepo, api: FakeApi, path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(repo.env)) if (!/^(CLAUDE|ANTHROPIC)/.test(k) && k !== 'CORTEX_DEBUG') env[k] = v;
  return {
    ...env,
    PATH: path,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy-key',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // MCP tools in the request's tool list rather than behind the deferred ToolSearch.
    ENABLE_TOOL_SEARCH: 'false',
  };
}

interface ClaudeRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** `--output-format json`'s result. */
  result: { is_error?: boolean; result?: string } | undefined;
}

function runClaude(claude: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ClaudeRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(claude, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLAUDE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      let result: ClaudeRun['result'];
      try {
        result = JSON.parse(stdout) as ClaudeRun['result'];
      } catch {
        result = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started, result });
    });
  });
}

const isMemoryTool = (name: string, tool: string): boolean => name.startsWith('mcp__') && name.endsWith(`__memory_${tool}`);

/**
 * The fake model: in the main conversation it calls Cortex's `memory_recall` MCP tool when it
 * is offered, then answers with a `[MEMORY: decision]` line; anything else gets "OK.".
 */
function model(request: MessagesRequest): { text?: string; toolUse?: { name: string; input: Record<string, unknown> } } {
  const recall = request.tools?.find((t) => isMemoryTool(t.name, 'recall'));
  const last = request.messages[request.messages.length - 1];
  const answered = last !== undefined && typeof last.content !== 'string' && last.content.some((b) => b.type === 'tool_result');
  if (recall && !answered) return { toolUse: { name: recall.name, input: { query: RECALL_QUERY } } };
  if (request.tools?.some((t) => t.name === 'Bash')) {
    return { text: `The fixture clock runs in UTC.\n\n[MEMORY: decision] ${CAPTURED}.\n` };
  }
  return { text: 'OK.' };
}

/** A repository with `cortex init` done and the two memories the assertions look for. */
function seededRepo(bin: string, initArgs: string[]): TempRepo {
  const repo = tempRepo({ 'README.md': '# Fixture project\n' });
  const env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  expect(repo.cortex(['init', ...initArgs], { env }).code).toBe(0);
  repo.write('.cortex/config.yaml', 'surface:\n  budgets:\n    gotcha: 0\n');
  expect(repo.cortex(['remember', BRIEFED, '--type', 'decision'], { env }).code).toBe(0);
  expect(repo.cortex(['remember', RELATED, '--type', 'gotcha'], { env }).code).toBe(0);
  repo.git(['add', '-A']);
  expect(repo.git(['commit', '-q', '-m', 'Cortex'], { env }).code).toBe(0);
  // Claude Code's first-run state, so it starts headless without asking anything.
  writeFileSync(join(repo.home, '.claude.json'), `${JSON.stringify({ hasCompletedOnboarding: true, projects: { [repo.dir]: { hasTrustDialogAccepted: true } } })}\n`);
  return repo;
}

/** Copies the repository's marketplace (.claude-plugin/ and plugin/) to a temporary directory. */
function localMarketplace(ctx: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-e2e-market-'));
  ctx.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(REPO_ROOT, '.claude-plugin'), join(dir, '.claude-plugin'), { recursive: true });
  cpSync(join(REPO_ROOT, 'plugin'), join(dir, 'plugin'), { recursive: true });
  return dir;
}

function installPlugin(ctx: TestContext, claude: string, repo: TempRepo, api: FakeApi, path: string): void {
  const env = claudeEnv(repo, api, path);
  const market = localMarketplace(ctx);
  const validate = spawnSync(claude, ['plugin', 'validate', market], { cwd: repo.dir, env, encoding: 'utf8', timeout: 30_000 });
  expect(validate.status, validate.stdout + validate.stderr).toBe(0);
  expect(validate.stdout).toMatch(/Validation passed/);
  for (const args of [['plugin', 'marketplace', 'add', market], ['plugin', 'install', 'cortex@cortex']]) {
    const r = spawnSync(claude, args, { cwd: repo.dir, env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, `claude ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
  }
}

async function fakeApi(ctx: TestContext): Promise<FakeApi> {
  const api = await startFakeApi(model);
  ctx.onTestFinished(() => api.close());
  return api;
}

/** The requests of the main conversation (the ones offering the Bash tool), in order. */
function mainRequests(api: FakeApi): MessagesRequest[] {
  return api.messages().filter((r) => r.tools?.some((t) => t.name === 'Bash'));
}

const ALLOWED = ['--allowedTools', 'mcp__cortex__memory_recall', 'mcp__plugin_cortex_cortex__memory_recall'];

/** Everything a working installation shows, from the requests and from the repository. */
function expectCortexAtWork(api: FakeApi, repo: TempRepo, run: ClaudeRun, skills: { recall: string }): void {
  expect(run.code, `claude exited ${run.code}\n${run.stderr}`).toBe(0);
  expect(run.result).toMatchObject({ is_error: false });
  const [first, second] = mainRequests(api);
  expect(first, 'no request reached the fake API').toBeDefined();
  const context = requestText(first!);
  const log = existsSync(join(repo.dir, '.memory', 'cortex.log')) ? repo.read('.memory/cortex.log') : '(no .memory/cortex.log)';
  const why = `claude stderr:\n${run.stderr}\ncortex.log:\n${log}`;

  // SessionStart: the briefing, once (markers and the briefed decision).
  expect(context.split('<!-- CORTEX_MEMORY_START -->').length - 1, why).toBe(1);
  expect(context).toContain(BRIEFED);
  // UserPromptSubmit: the related gotcha the briefing left out, with the prompt.
  expect(context, why).toContain('Stored project memories related to this prompt (Cortex)');
  expect(context).toContain(RELATED);
  expect(context).toContain(PROMPT);
  // The skill is offered by its description.
  expect(context).toContain(skills.recall);

  // MCP: the tools are offered, and the call the fake model made was answered from the store.
  const names = first!.tools!.map((t) => t.name);
  for (const tool of ['recall', 'remember', 'get', 'forget', 'link', 'traverse', 'status']) {
    expect(names.some((n) => isMemoryTool(n, tool)), `memory_${tool} among ${names.join(', ')}`).toBe(true);
  }
  expect(second, 'the client did not return the MCP tool result').toBeDefined();
  const last = second!.messages[second!.messages.length - 1]!;
  const results = typeof last.content === 'string' ? [] : last.content.filter((b) => b.type === 'tool_result');
  expect(results.map(toolResultText).join('\n')).toContain(RELATED);

  // Stop: the tagged line of the reply is a memory now.
  const list = JSON.parse(repo.cortex(['list', '--json']).stdout) as { memories: { type: string; summary: string; file: string }[] };
  const captured = list.memories.find((m) => m.summary.startsWith(CAPTURED));
  expect(captured, list.memories.map((m) => m.summary).join('\n')).toMatchObject({ type: 'decision' });
  expect(repo.read(captured!.file)).toMatch(/layer: self-report/);
}

describe.concurrent('Cortex in the real Claude Code (claude -p against a fake API)', () => {
  it('set up by `cortex init --claude`: briefing, related memories, skills, MCP tools, capture', async (ctx) => {
    const claude = claudeOrSkip(ctx);
    const bin = cortexBin(ctx);
    const repo = seededRepo(bin, ['--claude']);
    expect(repo.read('.mcp.json')).toContain('"cortex"');
    const api = await fakeApi(ctx);
    const run = await runClaude(claude, ['-p', PROMPT, '--output-format', 'json', ...ALLOWED], { cwd: repo.dir, env: claudeEnv(repo, api, `${bin}${delimiter}${pathWithoutCortex()}`) });
    expectCortexAtWork(api, repo, run, { recall: "Search this repository's Cortex memory" });
    // The rules file that teaches the tags is in the context.
    expect(requestText(mainRequests(api)[0]!)).toContain('[MEMORY: decision]');
    console.info(`[e2e] init --claude: claude -p took ${run.ms} ms, ${api.messages().length} API requests`);
  });

  it('installed as the plugin from a local marketplace directory: the same', async (ctx) => {
    const claude = claudeOrSkip(ctx);
    const bin = cortexBin(ctx);
    const repo = seededRepo(bin, []);
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
    const api = await fakeApi(ctx);
    const path = `${bin}${delimiter}${pathWithoutCortex()}`;
    installPlugin(ctx, claude, repo, api, path);
    const run = await runClaude(claude, ['-p', PROMPT, '--output-format', 'json', ...ALLOWED], { cwd: repo.dir, env: claudeEnv(repo, api, path) });
    expectCortexAtWork(api, repo, run, { recall: 'cortex:recall' });
    console.info(`[e2e] plugin: claude -p took ${run.ms} ms, ${api.messages().length} API requests`);
  });

  it('the plugin and `init --claude` together inject the briefing once; without cortex on PATH nothing breaks', async (ctx) => {
    const claude = claudeOrSkip(ctx);
    const bin = cortexBin(ctx);
    const repo = seededRepo(bin, ['--claude']);
    const api = await fakeApi(ctx);
    installPlugin(ctx, claude, repo, api, `${bin}${delimiter}${pathWithoutCortex()}`);

    // Both registrations run; one of them does the work.
    const both = await runClaude(claude, ['-p', PROMPT, '--output-format', 'json', ...ALLOWED], { cwd: repo.dir, env: claudeEnv(repo, api, `${bin}${delimiter}${pathWithoutCortex()}`) });
    expectCortexAtWork(api, repo, both, { recall: 'Search this repository' });

    // No cortex anywhere on PATH: the hooks and the MCP server are no-ops, the session works.
    const bare = pathWithoutCortex();
    expect(spawnSync('sh', ['-c', 'command -v cortex'], { env: { PATH: bare } }).status).not.toBe(0);
    const before = api.messages().length;
    const memories = repo.list('.cortex/memories');
    const run = await runClaude(claude, ['-p', PROMPT, '--output-format', 'json'], { cwd: repo.dir, env: claudeEnv(repo, api, bare) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({ is_error: false });
    const sent = api.messages().slice(before).filter((r) => r.tools?.some((t) => t.name === 'Bash'));
    expect(sent.length).toBeGreaterThan(0);
    const text = requestText(sent[0]!);
    expect(text).toContain(PROMPT);
    expect(text).not.toContain('<!-- CORTEX_MEMORY_START -->');
    expect(text).not.toContain('Stored project memories related to this prompt');
    expect(sent[0]!.tools!.some((t) => t.name.includes('memory_'))).toBe(false);
    expect(run.stderr).not.toMatch(/hook.*(error|failed)/i);
    // The reply's tag waits for a session with Cortex: nothing was written without it.
    expect(repo.list('.cortex/memories')).toEqual(memories);
  });
});

describe('MCP tools with tool search on (the default for many MCP tools)', () => {
  it('alwaysLoad in .mcp.json keeps every memory tool in the prompt; without it only the tools marked anthropic/alwaysLoad stay', async (ctx) => {
    const claude = claudeOrSkip(ctx);
    const bin = cortexBin(ctx);
    const repo = seededRepo(bin, ['--claude']);
    const config = JSON.parse(repo.read('.mcp.json')) as { mcpServers: Record<string, { alwaysLoad?: boolean }> };
    expect(config.mcpServers.cortex?.alwaysLoad).toBe(true);
    const path = `${bin}${delimiter}${pathWithoutCortex()}`;
    const offered = async (): Promise<string[]> => {
      const api = await fakeApi(ctx);
      const env = { ...claudeEnv(repo, api, path), ENABLE_TOOL_SEARCH: 'true' };
      const run = await runClaude(claude, ['-p', PROMPT, '--output-format', 'json', ...ALLOWED], { cwd: repo.dir, env });
      expect(run.code, run.stderr).toBe(0);
      const first = mainRequests(api)[0];
      expect(first, 'no request reached the fake API').toBeDefined();
      return first!.tools!.filter((t) => t.name.includes('memory_') && (t.description ?? '').length > 0).map((t) => t.name.replace(/^.*__/, ''));
    };
    const loaded = await offered();
    const all = ['memory_forget', 'memory_get', 'memory_link', 'memory_recall', 'memory_remember', 'memory_review', 'memory_status', 'memory_traverse'];
    expect(loaded.sort()).toEqual(all);

    // The control: the same server without alwaysLoad. Tool search defers its tools, except the
    // two the server marks with _meta anthropic/alwaysLoad.
    delete config.mcpServers.cortex!.alwaysLoad;
    repo.write('.mcp.json', `${JSON.stringify(config, null, 2)}\n`);
    const deferred = await offered();
    expect(deferred).toContain('memory_recall');
    expect(deferred).toContain('memory_remember');
    expect(deferred).not.toContain('memory_get');
    expect(deferred).not.toContain('memory_forget');
  });
});

describe('a repository after `cortex init --claude` passes the linters', () => {
  it('claude-code-lint finds no problem; the plugin passes `claude plugin validate`', (ctx) => {
    const claude = claudeOrSkip(ctx);
    const { claudelint } = (client as Extract<ClientResult, { ok: true }>).client;
    const bin = cortexBin(ctx);
    const repo = seededRepo(bin, ['--claude']);
    const lint = spawnSync(claudelint, ['check-all', '--no-cache', '--warnings-as-errors'], { cwd: repo.dir, env: { ...repo.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 });
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout + lint.stderr).toMatch(/No problems found/);
    expect(lint.stdout + lint.stderr).toMatch(/skills/);
    const pluginLint = spawnSync(claudelint, ['check-all', '--no-cache', '--warnings-as-errors'], { cwd: join(REPO_ROOT, 'plugin'), env: { ...repo.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 });
    expect(pluginLint.status, pluginLint.stdout + pluginLint.stderr).toBe(0);
    const validate = spawnSync(claude, ['plugin', 'validate', join(REPO_ROOT, 'plugin')], { cwd: repo.dir, env: { ...repo.env, DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }, encoding: 'utf8', timeout: 30_000 });
    expect(validate.status, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/Validation passed/);
  });
});
