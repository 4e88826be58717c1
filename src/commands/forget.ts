import { UsageError } from '../errors.js';
import { bool, type CommandDef } from '../term/args.js';
import { formatResultLine, open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'forget',
  summary: 'Archive (or delete) a memory by id or query',
  usage: ['forget <id>', 'forget <query> [--yes]', 'forget <id> --hard'],
  description:
    'Archives the memory: it leaves the briefing and recall but stays in .cortex/ (and comes back if\n' +
    'recalled with --status archived). --hard deletes the file; git history keeps it.\n' +
    'Given a query instead of an id, acts only when exactly one memory matches, or on all with --yes.',
  options: {
    hard: { type: 'boolean', description: 'Delete the file instead of archiving it.' },
    yes: { type: 'boolean', short: 'y', description: 'Act on every memory a query matches.' },
  },
  examples: ['cortex forget chose-sqlite-k3f9qa', 'cortex forget "old deploy notes" --yes', 'cortex forget chose-sqlite-k3f9qa --hard'],
  async run(inv, io) {
    const target = inv.positionals.join(' ');
    if (target.trim() === '') throw new UsageError('Say what to forget: an id or a query.', { hint: 'Example: cortex forget chose-sqlite-k3f9qa' });
    const cortex = await open(inv, io);
    const out = await cortex.forget({ target, hard: bool(inv, 'hard'), yes: bool(inv, 'yes') });
    if (inv.json) printJson(io, { action: out.action, memories: out.memories });
    if (out.action === 'none') {
      io.err(`No memory matches "${target}".\n`);
      return 1;
    }
    if (out.action === 'ambiguous') {
      if (!inv.json) {
        io.err(`${out.memories.length} memories match "${target}"; nothing was changed:\n`);
        for (const m of out.memories) io.err(`  ${formatResultLine({ ...m, status: 'active', scope: 'project' }, io)}\n`);
        io.err('Re-run with one id, or with --yes to act on all of them.\n');
      }
      return 1;
    }
    if (!inv.json) for (const m of out.memories) io.out(`${out.action === 'deleted' ? 'Deleted' : 'Archived'}: ${formatResultLine({ ...m, status: 'active', scope: 'project' }, io)}\n`);
    return 0;
  },
};
export default command;
