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
    'running it by hand is only useful after large changes or to check timings. It also re-checks\n' +
    'every edge file, which catches edge files edited in place (other commands notice an edge change\n' +
    'when a file is added, deleted or replaced).',
  options: {
    rebuild: { type: 'boolean', description: 'Ignore the cache and index every file again.' },
  },
  async run(inv, io) {
    const cortex = open(inv, io);
    const started = Date.now();
    const tiers = openIndexes(cortex.context, { rebuild: bool(inv, 'rebuild') });
    const graph = cortex.graph({ tiers, verify: true });
    const ms = Date.now() - started;
    warnDiagnostics(io, [...tiers.flatMap((t) => t.report.diagnostics), ...graph.diagnostics]);
    const summary = tiers.map((t) => ({ scope: t.scope, memories: t.index.size, ...t.report, diagnostics: t.report.diagnostics.length }));
    const edges = graph.graph.edges.length;
    if (inv.json) {
      printJson(io, { ms, tiers: summary, edges });
      return 0;
    }
    for (const t of summary) io.out(`${t.scope}: ${t.memories} memories (${t.added} added, ${t.updated} updated, ${t.removed} removed)\n`);
    io.out(`graph: ${edges} edges\n`);
    io.err(`${io.paint.dim(`${ms} ms`)}\n`);
    return 0;
  },
};
export default command;
