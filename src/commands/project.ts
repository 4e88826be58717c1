import { project } from '../api/project.js';
import { bool, type CommandDef } from '../term/args.js';
import { openContextOf, printJson, warnDiagnostics } from './shared.js';

const command: CommandDef = {
  name: 'project',
  summary: 'Regenerate .cortex/decisions.md, plan.md and decisions-archive.md (--check for CI)',
  usage: ['project [--check]'],
  description:
    'The projections are generated from .cortex/memories/: the same memories always give the same\n' +
    'bytes, so they can be committed, reviewed and merged. Do not edit them by hand.\n' +
    'With --check nothing is written: the exit status says whether they are up to date (for CI).',
  options: {
    check: { type: 'boolean', description: 'Write nothing; exit 1 when a projection is stale or missing.' },
  },
  exitCodes: ['1 with --check when a projection is stale or missing'],
  examples: ['cortex project', 'cortex project --check'],
  async run(inv, io) {
    const ctx = openContextOf(inv, io);
    const check = bool(inv, 'check');
    const out = await project(ctx, { check });
    warnDiagnostics(io, out.diagnostics);
    const failed = check && out.stale;
    if (inv.json) {
      printJson(io, { ok: !failed, check, stale: out.stale, listed: out.listed, files: out.files });
      return failed ? 1 : 0;
    }
    const p = io.paint;
    for (const f of out.files) {
      const mark =
        f.state === 'unchanged' ? p.dim('ok     ') : f.state === 'stale' || f.state === 'missing' ? p.red(f.state.padEnd(7)) : p.green(f.state.padEnd(7));
      io.out(`${mark}  ${f.file}\n`);
    }
    if (failed) io.err('Projections are out of date. Fix: run `cortex project` and commit the result.\n');
    return failed ? 1 : 0;
  },
};
export default command;
