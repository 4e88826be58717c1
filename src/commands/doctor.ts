import { doctor } from '../setup/doctor.js';
import type { CommandDef } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'doctor',
  summary: 'Check the git integration, projections and index, with fixes',
  usage: ['doctor'],
  description:
    'Checks that this clone is set up for Cortex: .gitattributes declares the merge driver and this\n' +
    'clone configures it (a declared but unconfigured driver silently falls back to a text merge), the\n' +
    'git hooks are installed, .memory/ is ignored, the projections match the memories, and the search\n' +
    'index is healthy. Every problem comes with the command that fixes it.',
  options: {},
  exitCodes: ['1 when a check found something wrong'],
  examples: ['cortex doctor', 'cortex doctor --json | jq ".checks[] | select(.severity == \\"error\\")"'],
  async run(inv, io) {
    const out = await doctor(openContextOf(inv, io));
    if (inv.json) {
      printJson(io, { ok: out.ok, checks: out.checks });
      return out.ok ? 0 : 1;
    }
    const p = io.paint;
    const mark = { ok: p.green('ok     '), info: p.cyan('note   '), warning: p.yellow('warning'), error: p.red('problem') };
    for (const c of out.checks) {
      io.out(`${mark[c.severity]}  ${c.message}\n`);
      if (c.fix && c.severity !== 'ok') io.out(`         fix: ${c.fix}\n`);
    }
    const problems = out.checks.filter((c) => c.severity === 'error').length;
    io.err(problems === 0 ? 'Everything is set up.\n' : `${problems} problem(s) found.\n`);
    return out.ok ? 0 : 1;
  },
};
export default command;
