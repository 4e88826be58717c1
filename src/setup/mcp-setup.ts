/**
 * Registering the MCP server with Claude Code: the `claude mcp add` command line and the
 * `.mcp.json` entry for the way this copy of cortex is installed, and the init step that
 * writes the entry into the project's `.mcp.json`.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../core/shell.js';
import { ParseError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { InitStep } from './step.js';

export interface McpLaunch {
  /** The executable Claude Code runs. */
  command: string;
  args: string[];
  /**
   * True when `command` works on any machine with cortex installed (`cortex` on PATH),
   * so the entry can be committed in `.mcp.json` for the whole team.
   */
  portable: boolean;
}

export interface McpRegistration extends McpLaunch {
  /** Server name in Claude Code. */
  name: string;
  /** Claude Code scope to register in: `project` (`.mcp.json`, shared) or `local` (this machine). */
  scope: 'project' | 'local';
  /** The `claude mcp add …` command line. */
  claudeAdd: string;
  /** The `.mcp.json` document that registers the server. */
  mcpJson: { mcpServers: Record<string, { command: string; args: string[] }> };
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
    mcpJson: { mcpServers: { [name]: { command: launch.command, args: [...launch.args] } } },
  };
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
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

/**
 * How to start this copy of cortex as an MCP server: `cortex mcp` when the `cortex` on
 * PATH is this installation, else `node <absolute path of cli.js> mcp` (a checkout, npx).
 * `dir` pins the project directory; without it the server uses the directory Claude
 * Code starts it in, which is the project.
 *
 * @example
 * resolveLaunch({ env: process.env }) // { command: 'cortex', args: ['mcp'], portable: true }
 */
export function resolveLaunch(options: { env: NodeJS.ProcessEnv; dir?: string; cliPath?: string }): McpLaunch {
  const cli = options.cliPath ?? fileURLToPath(new URL('../cli.js', import.meta.url));
  const extra = options.dir !== undefined ? ['--dir', options.dir] : [];
  const first = onPath(options.env)[0];
  if (first !== undefined && sameFile(first, cli)) return { command: 'cortex', args: ['mcp', ...extra], portable: extra.length === 0 };
  return { command: 'node', args: [cli, 'mcp', ...extra], portable: false };
}

/**
 * Adds the server to the project's `.mcp.json` (Claude Code's project-scoped servers,
 * committed for the team; Claude Code asks each person before starting them). Every other
 * server and key is kept, and an existing `cortex` entry is never replaced. When this
 * install has no portable command (no `cortex` on PATH), nothing is written: the step is
 * `skipped`, and its detail says how to fix that, or the `claude mcp add --scope local`
 * line that registers the server for this machine only. Throws `ParseError` when
 * `.mcp.json` exists but is not a JSON object (it is left untouched).
 *
 * @example
 * setupMcpJson({ root: '/path/to/repo', env: process.env }) // { target: '.mcp.json', action: 'created', detail: 'registers the cortex MCP server' }
 */
export function setupMcpJson(options: { root: string; env: NodeJS.ProcessEnv; cliPath?: string }): InitStep {
  const reg = buildRegistration(resolveLaunch({ env: options.env, ...(options.cliPath !== undefined ? { cliPath: options.cliPath } : {}) }));
  if (!reg.portable) {
    // The only command that works here names this machine's paths: not for a shared file.
    return {
      target: '.mcp.json',
      action: 'skipped',
      detail:
        `not written: \`cortex\` is not on PATH, and .mcp.json is shared with the team. Put it on PATH ` +
        `(\`npm link\` in the cortex clone) and run \`cortex init --claude\` again, or register the server ` +
        `for this machine only: ${reg.claudeAdd}`,
    };
  }
  const path = join(options.root, '.mcp.json');
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  let doc: Record<string, unknown> = {};
  if (before !== undefined && before.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(before);
    } catch (err) {
      throw new ParseError(`.mcp.json is not valid JSON (${(err as Error).message}); it was left untouched.`, {
        hint: `Fix the file, or register the server with \`${reg.claudeAdd}\`.`,
      });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ParseError('.mcp.json is not a JSON object; it was left untouched.', { hint: `Fix the file, or register the server with \`${reg.claudeAdd}\`.` });
    }
    doc = parsed as Record<string, unknown>;
  }
  const servers = doc.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new ParseError('.mcp.json has an "mcpServers" that is not an object; it was left untouched.', { hint: 'Fix the file by hand.' });
  }
  if (servers && Object.hasOwn(servers, reg.name)) {
    return { target: '.mcp.json', action: 'unchanged', detail: `has a "${reg.name}" server (kept as it is)` };
  }
  const next = { ...doc, mcpServers: { ...(servers as Record<string, unknown> | undefined), ...reg.mcpJson.mcpServers } };
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return { target: '.mcp.json', action: before === undefined ? 'created' : 'updated', detail: `registers the ${reg.name} MCP server for Claude Code` };
}
