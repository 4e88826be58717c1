import { undoLines } from '../services/undo.js';
import { UsageError } from '../errors.js';
import type { CommandDef } from '../term/args.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'unlink',
  summary: 'Remove the edge files between two memories',
  usage: ['unlink <a> <b>', 'unlink <a> <relation> <b>'],
  description:
    'With a relation, deletes .cortex/edges/<a>--<relation>--<b>.md; without one, every edge file\n' +
    'between a and b in either direction. A `[[b]]` link in the body of a is an edge without a\n' +
    'file: edit the body (cortex edit a) to remove it. Prints how to undo the removal.',
  options: {},
  exitCodes: ['1 when there was no edge file to remove'],
  examples: ['cortex unlink wal-mode-p2x81d chose-sqlite-k3f9qa', 'cortex unlink wal-mode-p2x81d refines chose-sqlite-k3f9qa'],
  async run(inv, io) {
    const n = inv.positionals.length;
    if (n !== 2 && n !== 3) throw new UsageError('cortex unlink needs <a> <b> or <a> <relation> <b>.');
    const [source, relation, target] = n === 3 ? (inv.positionals as [string, string, string]) : [inv.positionals[0]!, undefined, inv.positionals[1]!];
    const cortex = await open(inv, io);
    const out = await cortex.unlink({ source, target, ...(relation !== undefined ? { relation } : {}) });
    if (inv.json) {
      printJson(io, { removed: out.removed, wikilinkFrom: out.wikilinkFrom ?? null, undo: out.undo ?? null });
      return out.removed.length > 0 ? 0 : 1;
    }
    const p = io.paint;
    for (const r of out.removed) io.out(`Unlinked: ${p.cyan(r.source)} ${p.bold(r.relation)} ${p.cyan(r.target)}  ${p.dim(r.file)}\n`);
    if (out.wikilinkFrom) {
      const other = out.wikilinkFrom === source ? target : source;
      io.err(`${p.yellow('note')}: the body of ${out.wikilinkFrom} links [[${other}]]; edit it (cortex edit ${out.wikilinkFrom}) to remove that link\n`);
    }
    for (const l of undoLines(out.undo)) io.out(`${l}\n`);
    if (out.removed.length === 0) {
      io.err(`No edge file links ${source} and ${target}${relation ? ` with ${relation}` : ''}.\n`);
      return 1;
    }
    return 0;
  },
};
export default command;
