import { realpathSync } from 'node:fs';
import { init } from '../api/init.js';
import { shellQuote } from '../api/git-setup.js';
import { registerDefaultSteps } from '../api/setup.js';
import { str, type CommandDef } from '../term/args.js';
import { printJson } from './shared.js';

/**
 * How git should run this very cortex (hooks, merge driver): the node binary and the
 * script that is running now, by absolute path, so it works without cortex on PATH.
 */
function currentCommand(): string {
  try {
    return `${shellQuote(process.execPath)} ${shellQuote(realpathSync(process.argv[1] ?? ''))}`;
  } catch {
    return 'cortex';
  }
}

const command: CommandDef = {
  name: 'init',
  summary: 'Set up .cortex/ in this repository (safe to re-run)',
  usage: ['init [--dir <path>]'],
  description:
    'Creates .cortex/memories/ and .cortex/edges/ at the repository root and adds .memory/ (the local\n' +
    'search cache) to .gitignore. In a git repository it also declares the merge driver for .cortex/\n' +
    'in .gitattributes, configures it in this clone (merge.cortex.driver, cortex.command in .git/config)\n' +
    'and installs the pre-commit, post-merge, post-checkout and post-rewrite hooks: existing hooks are\n' +
    'kept and run first; core.hooksPath, husky and lefthook are respected. It also generates the\n' +
    'projections (.cortex/decisions.md, plan.md, decisions-archive.md). See docs/git.md.\n' +
    'Re-running changes nothing that is already set up; run it in every fresh clone.',
  options: {
    command: {
      type: 'string',
      value: '<cmd>',
      description: 'How git hooks and the merge driver run cortex (default: this node and cortex, by absolute path).',
    },
  },
  examples: ['cortex init', 'cortex init --json', "cortex init --command 'npx --no-install cortex'"],
  async run(inv, io) {
    registerDefaultSteps();
    const out = await init({ dir: inv.dir, env: io.env, ...inv.values, cortexCommand: str(inv, 'command') ?? currentCommand() });
    if (inv.json) {
      printJson(io, { root: out.root, steps: out.steps });
      return 0;
    }
    const p = io.paint;
    for (const s of out.steps) {
      const mark = s.action === 'unchanged' ? p.dim('ok     ') : s.action === 'created' ? p.green('created') : p.yellow('updated');
      io.out(`${mark}  ${s.target}  ${p.dim(s.detail)}\n`);
    }
    io.out(`Cortex is set up in ${out.root}\n`);
    return 0;
  },
};
export default command;
