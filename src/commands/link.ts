import { UsageError } from '../errors.js';
import { RELATIONS } from '../core/edge.js';
import { bool, num, str, type CommandDef } from '../term/args.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'link',
  summary: 'Link two memories with a relation (an edge file)',
  usage: ['link <a> <relation> <b> [--strength 0-1] [--note <why>] [--suggested] [--bidirectional]'],
  description:
    `Writes .cortex/edges/<a>--<relation>--<b>.md. Relations: ${RELATIONS.join(', ')}.\n` +
    'Aliases are normalised (related, derives, example, refine, contradict, supersede, source …);\n' +
    'a reversed alias such as "superseded_by" or "describes" swaps a and b. Linking an existing\n' +
    'edge again updates the strength, note and status given (and makes a suggested edge active).\n' +
    'A `[[id]]` in a memory body is a relates_to link too, without a file.\n' +
    'a and b may be shortened to prefixes that only one memory has. A new edge file is staged\n' +
    '(git add), so `git commit -a` commits it.',
  options: {
    strength: { type: 'string', short: 's', value: '<0-1>', description: 'How strong the relation is (default 0.5).' },
    note: { type: 'string', short: 'm', value: '<text>', description: 'Why they are linked: the edge file body.' },
    suggested: { type: 'boolean', description: 'Write it as suggested (awaiting review) instead of active.' },
    bidirectional: { type: 'boolean', description: 'The relation holds both ways (walked both ways, counted at both ends).' },
  },
  examples: [
    'cortex link wal-mode-p2x81d refines chose-sqlite-k3f9qa --note "WAL is how SQLite copes with concurrent hooks"',
    'cortex link db-code-a1b2c3 source_of db-description-d4e5f6',
    'cortex link new-plan-x1y2z3 supersedes old-plan-q9r8s7 --strength 1',
  ],
  async run(inv, io) {
    if (inv.positionals.length !== 3) {
      throw new UsageError('cortex link needs three arguments: <a> <relation> <b>.', { hint: 'Example: cortex link wal-mode-p2x81d refines chose-sqlite-k3f9qa' });
    }
    const [source, relation, target] = inv.positionals as [string, string, string];
    const cortex = await open(inv, io);
    const strength = num(inv, 'strength', [0, 1]);
    const note = str(inv, 'note');
    const result = await cortex.link({
      source,
      relation,
      target,
      ...(strength !== undefined ? { strength } : {}),
      ...(note !== undefined ? { note } : {}),
      ...(bool(inv, 'suggested') ? { suggested: true } : {}),
      ...(bool(inv, 'bidirectional') ? { bidirectional: true } : {}),
    });
    if (inv.json) {
      printJson(io, { action: result.action, file: result.file, reversed: result.reversed, edge: result.edge });
      return 0;
    }
    const p = io.paint;
    const verb = { created: 'Linked', updated: 'Updated', unchanged: 'Unchanged' }[result.action];
    const e = result.edge;
    io.out(`${verb}: ${p.cyan(e.source)} ${p.bold(e.relation)} ${p.cyan(e.target)}  ${p.dim(`(${e.status}, strength ${e.strength})`)}\n`);
    if (result.reversed) io.err(`${p.yellow('note')}: "${relation}" reads from ${target} to ${source}, so the edge is ${e.source} ${e.relation} ${e.target}\n`);
    io.err(`${p.dim(result.file)}\n`);
    return 0;
  },
};
export default command;
