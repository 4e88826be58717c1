import { undoLines } from '../services/undo.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { formatResultLine, open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'forget',
  summary: 'Archive (or delete) memories by id, or by whole words with --query',
  usage: ['forget <id>… [--hard]', 'forget --query "<text>" [--yes] [--hard]'],
  description:
    'Archives the memories named by id (or by a prefix of the id that only one memory has): they\n' +
    'leave the briefing and recall but stay in .cortex/ (recall --status archived finds them).\n' +
    '--hard deletes the files instead, with every edge file that links to them.\n' +
    'A typo is never a search: an id that does not exist is an error that names the nearest ids.\n' +
    'To forget by what memories say, use --query: it matches whole words as typed (every word, any\n' +
    'case; no stemming, no fuzzy matching: "probe" does not match "probes"), in the summary, body,\n' +
    'tags and topic of every memory. It lists the matches and changes nothing until you re-run it\n' +
    'with --yes, even for a single match; with --yes it acts on exactly the memories it lists.\n' +
    'Every change is printed with how to undo it: a `git restore` line for files committed as they\n' +
    'were, and a copy under .memory/trash/ of every other file. The projections are regenerated.',
  options: {
    hard: { type: 'boolean', description: 'Delete the files and their edge files instead of archiving.' },
    query: { type: 'string', value: '<words>', description: 'Forget the memories that hold every one of these whole words (lists them; acts only with --yes).' },
    yes: { type: 'boolean', short: 'y', description: 'With --query: act on every memory it matches.' },
  },
  examples: [
    'cortex forget chose-sqlite-k3f9qa',
    'cortex forget chose-sqlite            # a unique prefix of the id',
    'cortex forget chose-sqlite-k3f9qa --hard',
    'cortex forget --query "old deploy notes"          # lists the matches',
    'cortex forget --query "old deploy notes" --yes    # archives them',
  ],
  async run(inv, io) {
    const query = str(inv, 'query');
    if (query === undefined && inv.positionals.length === 0) {
      throw new UsageError('Say which memory to forget: its id, or --query "text" to search.', { hint: 'Example: cortex forget chose-sqlite-k3f9qa' });
    }
    if (query !== undefined && inv.positionals.length > 0) {
      throw new UsageError('Give either ids or --query, not both.', { hint: 'Example: cortex forget --query "old deploy notes"' });
    }
    if (bool(inv, 'yes') && query === undefined) {
      throw new UsageError('--yes only applies to --query: ids are already exact.', { hint: 'Example: cortex forget chose-sqlite-k3f9qa' });
    }
    const cortex = await open(inv, io);
    const hard = bool(inv, 'hard');
    const out = await cortex.forget(query !== undefined ? { query, hard, yes: bool(inv, 'yes') } : { ids: inv.positionals, hard });
    if (inv.json) printJson(io, { action: out.action, memories: out.memories, edges: out.edges, projections: out.projections, undo: out.undo ?? null });
    const line = (m: (typeof out.memories)[number]) => formatResultLine({ ...m, status: m.was === 'unreadable' ? 'active' : m.was }, io);
    if (out.action === 'none') {
      if (!inv.json) io.err(`No memory matches "${query}"; nothing was changed.\n`);
      return 1;
    }
    if (out.action === 'confirm') {
      if (!inv.json) {
        const n = out.memories.length;
        io.err(`${n} ${n === 1 ? 'memory matches' : 'memories match'} "${query}"; nothing was changed:\n`);
        for (const m of out.memories) io.err(`  ${line(m)}\n`);
        io.err(`To ${hard ? 'delete' : 'archive'} ${n === 1 ? 'it' : 'all of them'}, re-run with --yes; or name the ids: cortex forget <id>…\n`);
      }
      return 1;
    }
    if (inv.json) return 0;
    const p = io.paint;
    if (out.action === 'unchanged') {
      for (const m of out.memories) io.out(`Already archived: ${line(m)}\n`);
      io.err('Nothing was changed. To delete the files, add --hard.\n');
      return 0;
    }
    const verb = out.action === 'deleted' ? 'Deleted' : 'Archived';
    for (const m of out.memories) io.out(`${verb}: ${line(m)}\n  ${p.dim(m.file)}\n`);
    if (out.edges.length > 0) {
      io.out(`Deleted ${out.edges.length} edge file${out.edges.length === 1 ? '' : 's'} linking to ${out.memories.length === 1 ? 'it' : 'them'}:\n`);
      for (const e of out.edges) io.out(`  ${p.dim(e.file)}\n`);
    }
    if (out.projections.length > 0) io.out(`Regenerated ${out.projections.join(', ')}\n`);
    for (const l of undoLines(out.undo)) io.out(`${l}\n`);
    return 0;
  },
};
export default command;
