import type { CommandDef } from '../term/args.js';
import { bool } from '../term/args.js';
import { openIndexes } from '../api/indexes.js';
import { open, printJson, warnDiagnostics } from './shared.js';

const command: CommandDef = {
  name: 'index',
  summary: 'Rebuild or refresh the local search index',
  usage: ['index [--rebuild]'],
  description:
    'Brings .memory/ (the local, gitignored search cache) up to date with .cortex/. Only changed files\n' +
    'are re-read; --rebuild starts from scratch. Every command does this on its own when needed:\n' +
    'running it by hand is only useful after large changes or to check timings.',
  options: {
    rebuild: { type: 'boolean', description: 'Ignore the cache and index every file again.' },
  },
  async run(inv, io) {
    const cortex = open(inv, io);
    const started = Date.now();
    const tiers = openIndexes(cortex.context, { rebuild: bool(inv, 'rebuild') });
    const ms = Date.now() - started;
    warnDiagnostics(io, tiers.flatMap((t) => t.report.diagnostics));
    const summary = tiers.map((t) => ({ scope: t.scope, memories: t.index.size, ...t.report, diagnostics: t.report.diagnostics.length }));
    if (inv.json) {
      printJson(io, { ms, tiers: summary });
      return 0;
    }
    for (const t of summary) io.out(`${t.scope}: ${t.memories} memories (${t.added} added, ${t.updated} updated, ${t.removed} removed)\n`);
    io.err(`${io.paint.dim(`${ms} ms`)}\n`);
    return 0;
  },
};
export default command;
