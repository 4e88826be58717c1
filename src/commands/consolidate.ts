import { undoLines } from '../services/undo.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'consolidate',
  summary: 'Review likely duplicates and suggested links; merge two memories',
  usage: ['consolidate', 'consolidate --accept <a> <b> [--relation <r>]', 'consolidate --reject <a> <b> [--relation <r>]', 'consolidate --merge <a> <b> [--summary <text>] [--force]'],
  description:
    'Without options, lists what auto-linking proposed: pairs similar enough to be duplicates (from\n' +
    'the local review queue) and suggested edges; and decisions that look replaced by a later one\n' +
    '(same topic, or the same numbered subject such as "Index format 8" / "Index format 9"), proposed\n' +
    'as supersedes edges. --accept makes the suggested edges between a and b active, and confirms a\n' +
    'supersede proposal: writes the supersedes edge and marks the older decision superseded (it leaves\n' +
    'the briefing and default recall; `cortex show` and `recall --status all` still find it), printing\n' +
    'the undo. --reject deletes the suggested edges and dismisses the duplicate or supersede proposal\n' +
    '(the pair is not proposed again). --merge writes one new memory (confidence 1.0, the higher priority, the union of tags,\n' +
    'both bodies) with supersedes edges to a and b, and marks a and b superseded: plain file changes\n' +
    'that `git diff` shows. It refuses when a or b has uncommitted changes (git is the undo), unless\n' +
    '--force.',
  options: {
    accept: { type: 'boolean', description: 'Accept the suggested edges between <a> and <b>, and a supersede proposal for them.' },
    reject: { type: 'boolean', description: 'Reject the suggested edges and the duplicate or supersede proposal for <a> and <b>.' },
    merge: { type: 'boolean', description: 'Merge <a> and <b> into a new memory.' },
    relation: { type: 'string', value: '<r>', description: 'With --accept/--reject: only edges of this relation.' },
    summary: { type: 'string', value: '<text>', description: 'With --merge: the summary of the merged memory.' },
    force: { type: 'boolean', description: 'With --merge: merge even with uncommitted changes to a or b.' },
  },
  exitCodes: ['1 when --merge refuses (uncommitted changes, not a git repository) or nothing matched'],
  examples: ['cortex consolidate', 'cortex consolidate --accept index-format-9-dzddnt index-format-8-k4c2fr', 'cortex consolidate --merge use-wal-k3f9qa wal-mode-p2x81d', 'cortex consolidate --reject wal-mode-p2x81d locking-q7m2zz'],
  async run(inv, io) {
    const modes = ['accept', 'reject', 'merge'].filter((m) => bool(inv, m));
    if (modes.length > 1) throw new UsageError(`Use one of --accept, --reject and --merge, not ${modes.map((m) => `--${m}`).join(' and ')}.`);
    const mode = modes[0];
    const cortex = await open(inv, io);
    const p = io.paint;
    if (mode === undefined) {
      if (inv.positionals.length > 0) throw new UsageError('Listing takes no arguments.', { hint: 'Did you mean --merge, --accept or --reject?' });
      const out = await cortex.consolidate.list();
      if (inv.json) {
        printJson(io, { duplicates: out.duplicates, suggested: out.suggested, supersedes: out.supersedes });
        return 0;
      }
      if (out.duplicates.length === 0 && out.suggested.length === 0 && out.supersedes.length === 0) {
        io.err('Nothing to review.\n');
        return 0;
      }
      if (out.duplicates.length > 0) io.out(`${p.bold('Likely duplicates')} ${p.dim('(cortex consolidate --merge <a> <b>, or --reject <a> <b>)')}\n`);
      for (const d of out.duplicates) {
        io.out(`  ${p.dim(d.score.toFixed(2))}  ${p.cyan(d.a.id)}  ${d.a.summary}\n`);
        io.out(`        ${p.cyan(d.b.id)}  ${d.b.summary}\n`);
      }
      if (out.suggested.length > 0) io.out(`${p.bold('Suggested links')} ${p.dim('(cortex consolidate --accept <a> <b>, or --reject <a> <b>)')}\n`);
      for (const s of out.suggested) {
        io.out(`  ${p.dim(s.strength.toFixed(2))}  ${p.cyan(s.source.id)} ${p.bold(s.relation)} ${p.cyan(s.target.id)}\n`);
        io.out(`        ${s.source.summary} ${p.dim('/')} ${s.target.summary}\n`);
      }
      if (out.supersedes.length > 0) io.out(`${p.bold('Replaced decisions')} ${p.dim('(cortex consolidate --accept <newer> <older>, or --reject <newer> <older>)')}\n`);
      for (const s of out.supersedes) {
        io.out(`  ${p.cyan(s.newer.id)} ${p.bold('supersedes')} ${p.cyan(s.older.id)}  ${p.dim(s.reason)}\n`);
        io.out(`        ${s.newer.summary} ${p.dim('/')} ${s.older.summary}\n`);
      }
      return 0;
    }
    if (inv.positionals.length !== 2) throw new UsageError(`--${mode} needs two memory ids: <a> <b>.`);
    const [a, b] = inv.positionals as [string, string];
    const relation = str(inv, 'relation');
    if (mode === 'merge') {
      const summary = str(inv, 'summary');
      const out = await cortex.consolidate.merge({ a, b, ...(bool(inv, 'force') ? { force: true } : {}), ...(summary !== undefined ? { summary } : {}) });
      if (inv.json) {
        printJson(io, { id: out.memory.id, file: out.file, superseded: out.superseded, edges: out.edges, memory: out.memory, projections: out.projections, undo: out.undo });
        return 0;
      }
      io.out(`Merged: ${p.cyan(out.memory.id)}  ${p.dim(`[${out.memory.type}]`)}  ${out.memory.summary}\n  ${p.dim(out.file)}\n`);
      for (const s of out.superseded) io.out(`Superseded: ${p.cyan(s.id)}  ${p.dim(s.file)}\n`);
      if (out.projections.length > 0) io.out(`Regenerated ${out.projections.join(', ')}\n`);
      for (const l of undoLines(out.undo)) io.out(`${l}\n`);
      return 0;
    }
    const input = { a, b, ...(relation !== undefined ? { relation } : {}) };
    const out = mode === 'accept' ? await cortex.consolidate.accept(input) : await cortex.consolidate.reject(input);
    const acted = out.edges.length > 0 || out.dismissed || out.superseded !== undefined || out.supersedeRejected === true;
    if (inv.json) {
      printJson(io, {
        action: mode === 'accept' ? 'accepted' : 'rejected',
        edges: out.edges,
        dismissed: out.dismissed,
        ...(out.superseded ? { superseded: out.superseded, projections: out.projections ?? [], undo: out.undo } : {}),
        ...(out.supersedeRejected ? { supersedeRejected: true } : {}),
      });
      return acted ? 0 : 1;
    }
    const verb = mode === 'accept' ? 'Accepted' : 'Rejected';
    for (const e of out.edges) io.out(`${verb}: ${p.cyan(e.source)} ${p.bold(e.relation)} ${p.cyan(e.target)}  ${p.dim(e.file)}\n`);
    if (out.dismissed) io.out(`Dismissed the duplicate proposal for ${p.cyan(a)} and ${p.cyan(b)}\n`);
    if (out.superseded) {
      io.out(`Superseded: ${p.cyan(out.superseded.id)} (replaced by ${p.cyan(out.superseded.by)})  ${p.dim(out.superseded.file)}\n`);
      if (out.projections && out.projections.length > 0) io.out(`Regenerated ${out.projections.join(', ')}\n`);
      for (const l of undoLines(out.undo)) io.out(`${l}\n`);
    }
    if (out.supersedeRejected) io.out(`Rejected the supersede proposal for ${p.cyan(a)} and ${p.cyan(b)} (not proposed again)\n`);
    if (!acted) {
      io.err(`Nothing proposed for ${a} and ${b}${relation ? ` with ${relation}` : ''}.\n`);
      return 1;
    }
    return 0;
  },
};
export default command;
