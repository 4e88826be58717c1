/**
 * Registering the MCP server with Claude Code: the `claude mcp add` command line and the
 * `.mcp.json` entry for the way this copy of cortex is installed, and the init step that
 * writes the entry into the project's `.mcp.json` once the command has answered `tools/list`.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { shellQuote } from '../core/shell.js';
import { ParseError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { InitStep } from './step.js';
import { executablePath } from '../executable.js';

export interface McpLaunch {
  /** The executable Claude Code runs. */
  command: string;
  args: string[];
  /**
   * True when `command` works on any machine with cortex installed (`cortex` on PATH),
   * so the entry can be committed in `.mcp.json` for the whole team.
   */
  portable: boolean;
  /** Where `command` was found on PATH, when it was looked up there. */
  found?: string;
}

/** One server of `.mcp.json`. */
export interface McpServerEntry {
  command: string;
  args: string[];
  /**
   * Claude Code loads every tool of the server into the context at session start, instead
   * of deferring them behind its tool search (where the model sees the names only, not when
   * to use them).
   */
  alwaysLoad: true;
}

export interface McpRegistration extends McpLaunch {
  /** Server name in Claude Code. */
  name: string;
  /** Claude Code scope to register in: `project` (`.mcp.json`, shared) or `local` (this machine). */
  scope: 'project' | 'local';
  /** The `claude mcp add …` command line. */
  claudeAdd: string;
  /** The `.mcp.json` document that registers the server. */
  mcpJson: { mcpServers: Record<string, McpServerEntry> };
}

export const DEFAULT_REGISTRATION = { name: 'cortex' };

/**
 * The registration for a launch command: pure.
 *
 * @example
 * buildRegistration({ command: 'cortex', args: ['mcp'], portable: true }).claudeAdd
 * // 'claude mcp add --scope project cortex -- cortex mcp'
 */
export function buildRegistration(launch: McpLaunch, options: { name?: string } = {}): McpRegistration {
  const { name } = { ...DEFAULT_REGISTRATION, ...options };
  // A machine-specific path must not be committed for the team: register it locally.
  const scope = launch.portable ? 'project' : 'local';
  const claudeAdd = ['claude', 'mcp', 'add', '--scope', scope, name, '--', launch.command, ...launch.args].map(shellQuote).join(' ');
  return {
    ...launch,
    name,
    scope,
    claudeAdd,
    mcpJson: { mcpServers: { [name]: { command: launch.command, args: [...launch.args], alwaysLoad: true } } },
  };
}

/** The `cortex` executables on PATH, in PATH order. */
export function onPath(env: NodeJS.ProcessEnv): string[] {
  const names = process.platform === 'win32' ? ['cortex.cmd', 'cortex.exe', 'cortex'] : ['cortex'];
  const found: string[] = [];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const n of names) {
      const path = join(dir, n);
      try {
        accessSync(path, constants.X_OK);
        found.push(path);
      } catch {
        // Not here.
      }
    }
  }
  return found;
}

/** This copy's executable (`dist/cli.cjs`). */
function ownCli(cliPath: string | undefined): string {
  return cliPath ?? executablePath();
}

/**
 * How to start cortex as an MCP server: `cortex mcp` when there is a `cortex` on PATH,
 * whatever it is (a link to `cli.js`, npm's or pnpm's shim, a Volta shim, a wrapper script),
 * else `node <absolute path of this cli.js> mcp` (a checkout, npx). `dir` pins the project
 * directory; without it the server uses the directory Claude Code starts it in, which is
 * the project. Whether the command really starts a server is `verifyLaunch`'s question.
 *
 * @example
 * resolveLaunch({ env: process.env }) // { command: 'cortex', args: ['mcp'], portable: true, found: '/usr/local/bin/cortex' }
 */
export function resolveLaunch(options: { env: NodeJS.ProcessEnv; dir?: string; cliPath?: string }): McpLaunch {
  const extra = options.dir !== undefined ? ['--dir', options.dir] : [];
  const found = onPath(options.env)[0];
  if (found !== undefined) return { command: 'cortex', args: ['mcp', ...extra], portable: extra.length === 0, found };
  return { command: 'node', args: [ownCli(options.cliPath), 'mcp', ...extra], portable: false };
}

export type LaunchCheck = { ok: true; tools: string[] } | { ok: false; problem: string };

/** How long `verifyLaunch` waits for each answer (a cold start of Node and the SDK on a slow disk). */
export const VERIFY_TIMEOUT_MS = 20_000;

/**
 * Starts `launch` the way Claude Code would (the same PATH, in the project directory) and
 * asks it for its tools through the MCP SDK's own client: `ok` when it answers `tools/list`
 * with Cortex's tools, else the problem in a few words (with the first line the command
 * wrote on stderr, if any). The server is stopped before this returns.
 *
 * @example
 * await verifyLaunch({ command: 'cortex', args: ['mcp'], portable: true }, { cwd: '/path/to/repo', env: process.env })
 * // { ok: true, tools: ['memory_recall', 'memory_get', …] }
 */
export async function verifyLaunch(launch: McpLaunch, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<LaunchCheck> {
  const timeout = options.timeoutMs ?? VERIFY_TIMEOUT_MS;
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({ command: launch.command, args: launch.args, cwd: options.cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4_000) stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'cortex-init', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout });
    const { tools } = await client.listTools(undefined, { timeout });
    const names = tools.map((t) => t.name);
    if (!names.includes('memory_recall')) {
      return { ok: false, problem: `it answered tools/list without memory_recall (${names.slice(0, 4).join(', ') || 'no tools'}), so it is not Cortex's server` };
    }
    return { ok: true, tools: names };
  } catch (err) {
    const said = stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '');
    const e = err as NodeJS.ErrnoException;
    const what = e.code === 'ENOENT' ? 'it could not be started' : /timed out/i.test(e.message) ? `it did not answer within ${Math.round(timeout / 1000)} s` : 'it did not answer as an MCP server';
    return { ok: false, problem: said !== undefined ? `${what}; it said: ${said.length > 160 ? `${said.slice(0, 159)}…` : said}` : what };
  } finally {
    await client.close().catch(() => undefined);
  }
}

type McpDoc = { ok: true; doc: Record<string, unknown>; servers: Record<string, unknown> | undefined } | { ok: false; problem: string; hint?: string };

function parseMcpJson(text: string | undefined): McpDoc {
  if (text === undefined || text.trim() === '') return { ok: true, doc: {}, servers: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `.mcp.json is not valid JSON (${(err as Error).message}); it was left untouched.` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, problem: '.mcp.json is not a JSON object; it was left untouched.' };
  const doc = parsed as Record<string, unknown>;
  const servers = doc.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    return { ok: false, problem: '.mcp.json has an "mcpServers" that is not an object; it was left untouched.', hint: 'Fix the file by hand.' };
  }
  return { ok: true, doc, servers: servers as Record<string, unknown> | undefined };
}

/**
 * Adds the server to the project's `.mcp.json` (Claude Code's project-scoped servers,
 * committed for the team; Claude Code asks each person before starting them), with
 * `alwaysLoad: true`. Every other server and key is kept, and an existing `cortex` entry
 * keeps its command (it only gains `alwaysLoad` when it has no such key). The entry is
 * `cortex mcp`, written only after that command, started from PATH in the project, has
 * answered `tools/list` (see `verifyLaunch`). When there is no `cortex` on PATH, or it does
 * not answer, nothing is written: the step is `skipped`, and its detail says what went
 * wrong and the `claude mcp add --scope local` line that registers this copy for this
 * machine only. Throws `ParseError` when `.mcp.json` exists but is not a JSON object (it
 * is left untouched).
 *
 * @example
 * await setupMcpJson({ root: '/path/to/repo', env: process.env })
 * // { target: '.mcp.json', action: 'created', detail: 'registers the cortex MCP server for Claude Code: `cortex mcp` …' }
 */
export async function setupMcpJson(options: { root: string; env: NodeJS.ProcessEnv; cliPath?: string; timeoutMs?: number }): Promise<InitStep> {
  const cliPath = ownCli(options.cliPath);
  const reg = buildRegistration(resolveLaunch({ env: options.env, cliPath }));
  const local = buildRegistration({ command: 'node', args: [cliPath, 'mcp'], portable: false }).claudeAdd;
  const path = join(options.root, '.mcp.json');
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const parsed = parseMcpJson(before);
  const write = (doc: Record<string, unknown>): void => writeFileAtomic(path, `${JSON.stringify(doc, null, 2)}\n`);

  if (parsed.ok && parsed.servers && Object.hasOwn(parsed.servers, reg.name)) {
    const entry = parsed.servers[reg.name];
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry) && !Object.hasOwn(entry, 'alwaysLoad')) {
      // An entry from an older cortex (or by hand): its command stays, its tools stop hiding behind tool search.
      write({ ...parsed.doc, mcpServers: { ...parsed.servers, [reg.name]: { ...entry, alwaysLoad: true } } });
      return { target: '.mcp.json', action: 'updated', detail: `"${reg.name}" server: alwaysLoad added (its command kept)` };
    }
    return { target: '.mcp.json', action: 'unchanged', detail: `has a "${reg.name}" server (kept as it is)` };
  }
  if (!reg.portable) {
    // The only command that works here names this machine's paths: not for a shared file.
    return {
      target: '.mcp.json',
      action: 'skipped',
      detail:
        `not written: \`cortex\` is not on PATH, and .mcp.json is shared with the team. Put it on PATH ` +
        `(\`npm link\` in the cortex clone) and run \`cortex init --claude\` again, or register the server ` +
        `for this machine only: ${local}`,
    };
  }
  if (!parsed.ok) throw new ParseError(parsed.problem, { hint: parsed.hint ?? `Fix the file, or register the server with \`${reg.claudeAdd}\`.` });
  const check = await verifyLaunch(reg, { cwd: options.root, env: options.env, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  if (!check.ok) {
    return {
      target: '.mcp.json',
      action: 'skipped',
      detail:
        `not written: \`cortex mcp\` (the cortex on PATH is ${reg.found}) was started to check it, and ${check.problem}. ` +
        `Fix or reinstall that cortex and run \`cortex init --claude\` again, or register this copy for this machine only: ${local}`,
    };
  }
  write({ ...parsed.doc, mcpServers: { ...parsed.servers, ...reg.mcpJson.mcpServers } });
  return {
    target: '.mcp.json',
    action: before === undefined ? 'created' : 'updated',
    detail: `registers the ${reg.name} MCP server for Claude Code: \`cortex mcp\` (${reg.found}) answered with ${check.tools.length} tools; alwaysLoad keeps them in view`,
  };
}
