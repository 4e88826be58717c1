import { undoLines } from '../api/undo.js';
import type { Scope } from '../core/memory.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { columns } from '../term/output.js';
import { open, printJson, warnDiagnostics } from './shared.js';

const VERB = { archived: 'archive', active: 'reactivate', pruned: 'prune' } as const;

const command: CommandDef = {
  name: 'lifecycle',
  summary: 'Archive decayed memories, reactivate accessed ones, prune old archives',
  usage: ['lifecycle [--dry-run] [--scope project|global|all]'],
  description:
    'Applies the memory lifecycle as ordinary file changes that show up in `git diff`:\n' +
    '- active → archived when the decayed confidence has been below lifecycle.archiveBelow (0.3)\n' +
    '  for lifecycle.archiveAfterDays (14), unless pinned or a hub (centrality > lifecycle.hubCentrality);\n' +
    '  types that never decay (architecture, decision, rejected, code…) are never archived;\n' +
    '- archived → active when the memory was accessed (recall, show) after it was archived;\n' +
    '- archived → pruned (the file is deleted, with the edge files that link it; git history keeps\n' +
    '  it) when untouched for lifecycle.pruneAfterDays (30), unless pinned or a hub.\n' +
    'Status edits also set `updated` to now (the archive date). The projections are regenerated,\n' +
    'and how to undo the changes is printed (git restore, or copies under .memory/trash/).\n' +
    '--dry-run lists the changes only.',
  options: {
    'dry-run': { type: 'boolean', short: 'n', description: 'List what would change; write nothing.' },
    scope: { type: 'string', value: '<scope>', description: 'project (default), global ($CORTEX_HOME) or all.' },
  },
  examples: ['cortex lifecycle --dry-run', 'cortex lifecycle && git diff --stat .cortex/'],
  async run(inv, io) {
    const scope = str(inv, 'scope') ?? 'project';
    if (!['project', 'local', 'global', 'all'].includes(scope)) throw new UsageError(`--scope must be project, local, global or all, got "${scope}".`);
    if (inv.positionals.length > 0) throw new UsageError('cortex lifecycle takes no arguments.', { hint: 'Run `cortex lifecycle --dry-run` to preview.' });
    const cortex = await open(inv, io);
    const dryRun = bool(inv, 'dry-run');
    const out = await cortex.lifecycle({ dryRun, scope: scope as Scope | 'all' });
    warnDiagnostics(io, out.diagnostics);
    if (inv.json) {
      printJson(io, { dryRun, applied: out.applied, now: out.now, changes: out.changes, edges: out.edges, projections: out.projections, undo: out.undo });
      return 0;
    }
    if (out.changes.length === 0) {
      io.err('Nothing to do: no memory is due for a lifecycle change.\n');
      return 0;
    }
    const rows = out.changes.map((c) => [VERB[c.to], c.file, c.reason]);
    for (const line of columns(rows)) io.out(`${line}\n`);
    const counts = (['archived', 'active', 'pruned'] as const)
      .map((to) => [to, out.changes.filter((c) => c.to === to).length] as const)
      .filter(([, n]) => n > 0)
      .map(([to, n]) => `${n} ${to === 'active' ? 'reactivated' : to}`)
      .join(', ');
    const n = `${out.changes.length} ${out.changes.length === 1 ? 'change' : 'changes'}`;
    io.err(dryRun ? `Dry run: would apply ${n} (${counts}).\n` : `Applied ${n} (${counts}).\n`);
    if (out.edges.length > 0) io.out(`Deleted ${out.edges.length} edge file${out.edges.length === 1 ? '' : 's'} linking pruned memories:\n${out.edges.map((e) => `  ${e.file}\n`).join('')}`);
    if (out.projections.length > 0) io.out(`Regenerated ${out.projections.join(', ')}\n`);
    for (const l of undoLines(out.undo)) io.out(`${l}\n`);
    return 0;
  },
};
export default command;
