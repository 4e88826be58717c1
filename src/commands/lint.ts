import { bool, type CommandDef } from '../term/args.js';
import { formatDiagnostic } from '../term/output.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'lint',
  summary: 'Check every file in .cortex/ and explain each problem',
  usage: ['lint [--strict]'],
  description:
    'Reads every memory file (and the config) without using the cache and prints one\n' +
    '`path:line: severity: reason [rule]` line per problem, with a hint on how to fix it.\n' +
    'Among them: entries that are not regular files inside the repository (FIFOs, devices,\n' +
    'directories, links out or in a loop: never read) [file-not-regular, file-outside-repository],\n' +
    'temporary files of interrupted writes [temp-file], and merges a crash interrupted\n' +
    '[merge-incomplete, edge-dangling], and secrets the redaction gate finds in a memory file as\n' +
    'written, with the line and the rule [secret:<kind>] (an error in the shared tier: use\n' +
    '`cortex lint --strict` in CI). See docs/security.md.',
  options: {
    strict: { type: 'boolean', description: 'Fail (exit 1) on warnings too.' },
  },
  exitCodes: ['1 when there are errors (or, with --strict, warnings)'],
  examples: ['cortex lint', 'cortex lint --strict --json'],
  async run(inv, io) {
    const cortex = await open(inv, io);
    const out = await cortex.lint();
    const failed = out.errors > 0 || (bool(inv, 'strict') && out.warnings > 0);
    if (inv.json) {
      printJson(io, { ok: !failed, errors: out.errors, warnings: out.warnings, filesChecked: out.filesChecked, diagnostics: out.diagnostics });
      return failed ? 1 : 0;
    }
    for (const d of out.diagnostics) io.out(`${formatDiagnostic(d, io.paint)}\n`);
    io.err(`${out.errors} error(s), ${out.warnings} warning(s) in ${out.filesChecked} memory file(s)\n`);
    return failed ? 1 : 0;
  },
};
export default command;
