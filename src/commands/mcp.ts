import { resolve } from 'node:path';
import { bool, str, type CommandDef } from '../term/args.js';
// Not ./shared.js: it imports the API, which the server must not load before a tool call.
import { jsonDocument } from '../term/output.js';

const command: CommandDef = {
  name: 'mcp',
  summary: 'Serve the memory tools to an assistant over MCP (stdio)',
  usage: ['mcp [--dir <path>]', 'mcp --print-config'],
  description:
    'Runs a Model Context Protocol server on stdin/stdout with eight tools: memory_recall, memory_get,\n' +
    'memory_remember, memory_forget, memory_review, memory_link, memory_traverse and memory_status. Each\n' +
    'calls the same library API as the CLI; errors come back as tool errors with the CLI\'s messages. stdout\n' +
    'carries only protocol messages; diagnostics go to stderr. The project is looked up on every call from\n' +
    '--dir (or the directory the server was started in), so `cortex init` may run after the server started.\n' +
    'The server\'s instructions tell the assistant when to recall and when to remember, and memory_recall\n' +
    'and memory_remember ask Claude Code to keep them loaded (_meta "anthropic/alwaysLoad"). The files\n' +
    'memory_remember and memory_link create are staged (`git add`) once per burst of calls: 100 ms after\n' +
    'the last (at most 2 s after the first), when the client closes the connection, and on exit.\n' +
    '\n' +
    '--print-config prints the `claude mcp add` command line and the .mcp.json entry that register the\n' +
    'server with Claude Code. The entry has "alwaysLoad": true, so Claude Code shows the model every\n' +
    'memory tool with its description at session start instead of deferring them behind its tool search.\n' +
    '`cortex init --claude` writes the same entry into .mcp.json, after starting `cortex mcp` from PATH\n' +
    '(a link, a package manager\'s shim or a wrapper script alike) and checking that it lists its tools.',
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
            ? [
                'or add this to .mcp.json in the repository root (shared with the team through git; `cortex init --claude`',
                'does it, after checking that `cortex mcp` starts):',
                '',
                JSON.stringify(reg.mcpJson, null, 2),
                '',
              ]
            : reg.found !== undefined
              ? [
                  '--dir names this machine\'s paths, so the command above registers the server for you only (--scope',
                  'local; Claude Code keeps it in ~/.claude.json). Without --dir, the server serves the directory Claude',
                  'Code starts it in, and the entry can be shared in .mcp.json: `cortex mcp --print-config`.',
                  '',
                ]
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
