import { UsageError } from '../errors.js';
import { renderMemory } from '../core/memory-format.js';
import { redactMemory } from '../core/redact-memory.js';
import type { CommandDef } from '../term/args.js';
import { formatDiagnostic } from '../term/output.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'show',
  summary: 'Print one memory in full',
  usage: ['show <id>'],
  description:
    'Prints the memory file (frontmatter and body). With --json, the parsed fields.\n' +
    'Secrets in a file typed by hand are printed as [REDACTED:<kind>], like everything Cortex prints.\n' +
    'The id may be shortened to a prefix that only one memory has; a mistyped id is an error that\n' +
    'names the nearest ids. A file that does not parse is reported with its line and the fix.',
  options: {},
  examples: ['cortex show chose-sqlite-over-postgres-k3f9qa'],
  async run(inv, io) {
    const id = inv.positionals[0];
    if (!id || inv.positionals.length > 1) throw new UsageError('cortex show takes exactly one memory id.', { hint: 'Find ids with `cortex list` or `cortex recall <query>`.' });
    const cortex = await open(inv, io);
    const got = cortex.get(id);
    for (const d of got.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
    // The output gate (issue 36): a file typed by hand never passed the store's gate.
    const memory = redactMemory(got.memory).value;
    if (inv.json) {
      printJson(io, { file: got.file, scope: got.scope, memory });
      return 0;
    }
    io.err(`${io.paint.dim(got.file)}\n`);
    io.out(renderMemory(memory));
    return 0;
  },
};
export default command;
