/**
 * How to register the MCP server with Claude Code: the `claude mcp add` command line and
 * the `.mcp.json` entry, for the way this copy of cortex is installed.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

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
  const claudeAdd = ['claude', 'mcp', 'add', '--scope', scope, name, '--', launch.command, ...launch.args].map(shellWord).join(' ');
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
function onPath(env: NodeJS.ProcessEnv): string[] {
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
