import { UsageError } from '../errors.js';
import type { TraverseDirection } from '../core/graph.js';
import { bool, int, list, num, str, type CommandDef } from '../term/args.js';
import { open, printJson, warnDiagnostics } from './shared.js';

const command: CommandDef = {
  name: 'traverse',
  summary: 'Walk the graph from a memory, level by level',
  usage: ['traverse <id> [--depth 0-10] [--direction out|in|both] [--types r1,r2] [--min-strength 0-1]'],
  description:
    'Breadth-first: every memory appears once, at its shallowest depth, so cycles end. Each line\n' +
    'shows the edge it was reached by: → along the arrow, ← against it. Only active edges are\n' +
    'walked unless --suggested; broken edge files (see cortex lint) are skipped.',
  options: {
    depth: { type: 'string', short: 'd', value: '<n>', description: 'Levels to walk, 0 to 10 (default 2).' },
    direction: { type: 'string', value: '<dir>', description: 'out (follow arrows), in (walk them backwards) or both (default).' },
    types: { type: 'string', short: 't', value: '<r1,r2>', multiple: true, description: 'Only these relations (aliases accepted).' },
    'min-strength': { type: 'string', value: '<0-1>', description: 'Skip edges weaker than this.' },
    suggested: { type: 'boolean', description: 'Walk suggested edges too.' },
  },
  examples: ['cortex traverse chose-sqlite-k3f9qa', 'cortex traverse chose-sqlite-k3f9qa --depth 3 --direction out --types refines,derived_from --json'],
  async run(inv, io) {
    if (inv.positionals.length !== 1) throw new UsageError('cortex traverse needs one memory id.', { hint: 'Example: cortex traverse chose-sqlite-k3f9qa --depth 3' });
    const direction = str(inv, 'direction');
    if (direction !== undefined && !['out', 'in', 'both'].includes(direction)) {
      throw new UsageError(`--direction must be out, in or both, got "${direction}".`);
    }
    const depth = int(inv, 'depth', [0, 10]);
    const minStrength = num(inv, 'min-strength', [0, 1]);
    const types = list(inv, 'types');
    const cortex = await open(inv, io);
    const out = cortex.traverse({
      id: inv.positionals[0]!,
      ...(depth !== undefined ? { depth } : {}),
      ...(direction !== undefined ? { direction: direction as TraverseDirection } : {}),
      ...(types ? { types } : {}),
      ...(minStrength !== undefined ? { minStrength } : {}),
      ...(bool(inv, 'suggested') ? { includeSuggested: true } : {}),
    });
    warnDiagnostics(io, out.diagnostics);
    if (inv.json) {
      printJson(io, { start: out.start, depth: out.depth, direction: out.direction, total: out.total, levels: out.levels });
      return 0;
    }
    const p = io.paint;
    io.out(`${p.cyan(out.start.id)}  ${p.dim(`[${out.start.type}]`)}  ${out.start.summary}\n`);
    for (const level of out.levels) {
      io.out(`${p.bold(`depth ${level.depth}`)} ${p.dim(`(${level.nodes.length})`)}\n`);
      for (const n of level.nodes) {
        const arrow = n.via.direction === 'out' ? '→' : '←';
        const from = level.depth > 1 ? p.dim(`  (via ${n.via.from})`) : '';
        const status = n.status !== 'active' ? p.dim(` (${n.status})`) : '';
        io.out(`  ${arrow} ${n.via.relation.padEnd(12)} ${p.cyan(n.id)}  ${p.dim(`[${n.type}]`)}  ${n.summary}${status}${from}\n`);
      }
    }
    if (out.total === 0) io.err(`No memory is linked to ${out.start.id} within depth ${out.depth}.\n`);
    return 0;
  },
};
export default command;
