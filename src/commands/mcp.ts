import { resolve } from 'node:path';
import { bool, str, type CommandDef } from '../term/args.js';
// Not ./shared.js: it imports the API, which the server must not load before a tool call.
import { jsonDocument } from '../term/output.js';

const command: CommandDef = {
  name: 'mcp',
  summary: 'Serve the memory tools to an assistant over MCP (stdio)',
  usage: ['mcp [--dir <path>]', 'mcp --print-config'],
  description:
    'Runs a Model Context Protocol server on stdin/stdout with seven tools: memory_recall, memory_get,\n' +
    'memory_remember, memory_forget, memory_link, memory_traverse and memory_status. Each calls the same\n' +
    'library API as the CLI; errors come back as tool errors with the CLI\'s messages. stdout carries only\n' +
    'protocol messages; diagnostics go to stderr. The project is looked up on every call from --dir (or\n' +
    'the directory the server was started in), so `cortex init` may run after the server started.\n' +
    '\n' +
    '--print-config prints the `claude mcp add` command line and the .mcp.json entry that register the\n' +
    'server with Claude Code.',
  options: {
    'print-config': { type: 'boolean', description: 'Print how to register the server with Claude Code (with --json, as one document), and exit.' },
  },
  examples: ['cortex mcp --print-config', 'claude mcp add --scope project cortex -- cortex mcp', 'cortex mcp --dir ~/src/my-project'],
  async run(inv, io) {
    const dirFlag = str(inv, 'dir');
    if (bool(inv, 'print-config')) {
      const { buildRegistration, resolveLaunch } = await import('../setup/mcp-setup.js');
      const reg = buildRegistration(resolveLaunch({ env: io.env, ...(dirFlag !== undefined ? { dir: resolve(io.cwd, dirFlag) } : {}) }));
      if (inv.json) {
        io.out(jsonDocument({ name: reg.name, command: reg.command, args: reg.args, scope: reg.scope, claudeAdd: reg.claudeAdd, mcpJson: reg.mcpJson }));
        return 0;
      }
      const p = io.paint;
      const shared = reg.scope === 'project';
      io.out(
        [
          'Register the Cortex MCP server with Claude Code (run in the repository root):',
          '',
          `  ${p.bold(reg.claudeAdd)}`,
          '',
          ...(shared
            ? ['or add this to .mcp.json in the repository root (shared with the team through git):', '', JSON.stringify(reg.mcpJson, null, 2), '']
            : [
                '`cortex` is not on PATH here, so the command above names this machine\'s paths and registers the',
                'server for you only (--scope local; Claude Code keeps it in ~/.claude.json). To share it with the',
                'team in .mcp.json, put cortex on PATH (`npm link` in the cortex clone) and run',
                '`cortex init --claude`, or `claude mcp add --scope project cortex -- cortex mcp`.',
                '',
              ]),
          'Check it with `claude mcp list`, or /mcp inside Claude Code.',
          '',
        ].join('\n'),
      );
      return 0;
    }
    if (io.stdinIsTTY) {
      // Someone typed `cortex mcp` by hand: say what it is waiting for (on stderr).
      io.err('cortex mcp: serving MCP on stdin/stdout for an assistant; Ctrl-C to stop. To register it: cortex mcp --print-config\n');
    }
    const { serveStdio } = await import('../mcp/server.js');
    await serveStdio({ ...(dirFlag !== undefined ? { dir: resolve(io.cwd, dirFlag) } : { dir: io.cwd }), env: io.env });
    return 0;
  },
};
export default command;
