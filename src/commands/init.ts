import { init } from '../api/init.js';
import { registerDefaultSteps } from '../api/setup.js';
import type { CommandDef } from '../term/args.js';
import { printJson } from './shared.js';

const command: CommandDef = {
  name: 'init',
  summary: 'Set up .cortex/ in this repository (safe to re-run)',
  usage: ['init [--dir <path>]'],
  description:
    'Creates .cortex/memories/ and .cortex/edges/ at the repository root and adds .memory/ (the local\n' +
    'search cache) to .gitignore. Re-running changes nothing that is already set up.',
  options: {},
  examples: ['cortex init', 'cortex init --json'],
  async run(inv, io) {
    registerDefaultSteps();
    const out = await init({ dir: inv.dir, env: io.env, ...inv.values });
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
