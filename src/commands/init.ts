import { setupClaude } from '../setup/claude-setup.js';
import { init, type InitStep } from '../setup/init.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef, type IO } from '../term/args.js';
import { printJson } from './shared.js';

function printSteps(io: IO, steps: InitStep[]): void {
  const p = io.paint;
  for (const s of steps) {
    const mark = s.action === 'unchanged' ? p.dim('ok     ') : s.action === 'created' ? p.green('created') : s.action === 'skipped' ? p.red('skipped') : s.action === 'removed' ? p.yellow('removed') : p.yellow('updated');
    io.out(`${mark}  ${s.target}  ${p.dim(s.detail)}\n`);
  }
}

/**
 * One line after `init --claude`: which capture mode is on and what the other choice costs.
 *
 * @example
 * captureChoiceLine('off', 5) // 'Capture: rules only (capture.mode off), nothing sent anywhere; --capture reflect …'
 */
export function captureChoiceLine(mode: string, everyTurns: number): string {
  const reflect = `at most once per ${everyTurns} prompts, when the rules found candidates they did not store, the assistant is asked to record them as [MEMORY: type] lines (one short extra turn of the session)`;
  switch (mode) {
    case 'reflect':
      return `Capture: reflect — ${reflect}; --capture off keeps to the rules alone.`;
    case 'claude':
      return 'Capture: claude — at session end headless `claude -p` reads the condensed, redacted session (one call on your account); --capture off keeps to the rules alone.';
    case 'endpoint':
      return 'Capture: endpoint — at session end the condensed, redacted session goes to capture.endpoint.url (one call); --capture off keeps to the rules alone.';
    default:
      return `Capture: rules only (capture.mode off), nothing sent anywhere; --capture reflect: ${reflect}.`;
  }
}

const command: CommandDef = {
  name: 'init',
  summary: 'Set up .cortex/ in this repository (safe to re-run)',
  usage: ['init [--dir <path>] [--command <cmd>]', 'init --claude [--capture reflect|claude|endpoint|off]', 'init --claude --global'],
  description:
    'Creates .cortex/memories/ and .cortex/edges/ at the repository root and adds .memory/ (the local\n' +
    'search cache) to .gitignore. In a git repository it also declares the merge driver for .cortex/\n' +
    'in .gitattributes, configures it in this clone (merge.cortex.driver, cortex.command in .git/config)\n' +
    'and installs the pre-commit, post-merge, post-checkout and post-rewrite hooks: existing hooks are\n' +
    'kept and run first; core.hooksPath, husky and lefthook are respected. It also generates the\n' +
    'projections (.cortex/decisions.md, plan.md, decisions-archive.md). Files an earlier Cortex\n' +
    'marked intent-to-add (a mark that breaks git stash) are staged as real entries. See docs/git.md.\n' +
    'Re-running changes nothing that is already set up; run it in every fresh clone. When .cortex,\n' +
    '.cortex/memories, .cortex/edges or .memory is a file, a FIFO or a symbolic link, it stops before\n' +
    'writing anything, naming it and the fix (exit 1). Private memories live in .git/cortex/local/.\n' +
    '\n' +
    'With --claude it also wires Claude Code: the Cortex hooks are merged into .claude/settings.json\n' +
    '(every existing setting and hook is kept), and .claude/rules/cortex-memory.md (how to record a\n' +
    'memory with a [MEMORY: type] tag) and the /recall and /remember skills (.claude/skills/) are\n' +
    'written unless they exist (unedited /recall and /remember commands an older version wrote in the\n' +
    'deprecated .claude/commands/ are removed), and the MCP server is registered in .mcp.json. The\n' +
    'hooks and .mcp.json run `cortex` from PATH (the files are shared): hooks do nothing until\n' +
    '`cortex` is on PATH (`npm link` in a clone).\n' +
    '.mcp.json gets `cortex mcp` with "alwaysLoad": true (the tools in view, not behind tool search),\n' +
    'written only after the cortex on PATH (a link, a shim or a wrapper script) was started and\n' +
    'listed its tools; when it is missing or does not answer, .mcp.json is left alone and the step\n' +
    'says why and prints the `claude mcp add --scope local` line to run instead.\n' +
    'Its last line names the capture mode in effect (--capture) and what the other choice costs.\n' +
    'With --global as well, the same goes into your own Claude Code settings ($CLAUDE_CONFIG_DIR or\n' +
    '~/.claude) for every project, and the repository is left alone. The Claude Code plugin\n' +
    '(/plugin install cortex@cortex) sets up the same hooks, skills and MCP server instead; with both,\n' +
    'each hook still runs once. See docs/claude-code.md and docs/install.md.',
  options: {
    command: {
      type: 'string',
      value: '<cmd>',
      description: 'How git hooks and the merge driver run cortex (default: this node and cortex, by absolute path).',
    },
    claude: { type: 'boolean', description: 'Also set up Claude Code hooks, rules, skills and the MCP server (.mcp.json).' },
    global: { type: 'boolean', description: 'With --claude: set up your user-level Claude Code settings instead.' },
    capture: {
      type: 'string',
      value: '<mode>',
      description:
        'Opt-in model capture (capture.mode in .cortex/config.yaml): reflect (the assistant is asked once in a while to record what it decided), claude (headless `claude -p` reads the session at its end), endpoint (an OpenAI-compatible or Anthropic API), off. Default off: nothing is sent anywhere.',
    },
  },
  examples: ['cortex init', 'cortex init --claude', 'cortex init --claude --capture reflect', 'cortex init --claude --global', 'cortex init --json', "cortex init --command 'npx --no-install cortex'"],
  async run(inv, io) {
    if (bool(inv, 'global')) {
      if (!bool(inv, 'claude')) {
        throw new UsageError('--global only applies to --claude.', { hint: 'Run `cortex init --claude --global`.' });
      }
      const steps = await setupClaude({ global: true, env: io.env });
      if (inv.json) {
        printJson(io, { root: null, steps });
        return 0;
      }
      printSteps(io, steps);
      io.out('Claude Code is set up for Cortex in your user settings. Run `cortex init` in each repository to start its memory.\n');
      return 0;
    }
    const command = str(inv, 'command');
    const capture = str(inv, 'capture');
    const out = await init({ dir: inv.dir, env: io.env, claude: bool(inv, 'claude'), ...(command !== undefined ? { cortexCommand: command } : {}), ...(capture !== undefined ? { capture } : {}) });
    if (inv.json) {
      printJson(io, { root: out.root, steps: out.steps });
      return 0;
    }
    printSteps(io, out.steps);
    if (out.steps.some((st) => st.target === 'git' && st.detail?.startsWith('not a git repository'))) {
      // Half a setup is not "set up": say what did not happen and how to finish.
      io.out(`Cortex memory is set up in ${out.root}, but not its git integration: this is not a git repository, so there is no merge driver, no git hooks (projections regenerated on commit, briefing refreshed on checkout) and no branch awareness.\n`);
      io.err(`${io.paint.yellow('to finish')}: git init && cortex init\n`);
      return 0;
    }
    io.out(`Cortex is set up in ${out.root}\n`);
    if (bool(inv, 'claude')) {
      const { openContext } = await import('../services/context.js');
      const config = openContext({ dir: out.root, env: io.env }).config.capture;
      io.out(`${captureChoiceLine(config.mode, config.reflectEveryTurns)} (docs/claude-code.md, Model capture)\n`);
    }
    return 0;
  },
};
export default command;
