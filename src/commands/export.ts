import { EXPORT_FORMATS, type ExportFormat } from '../core/interop/types.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'export',
  summary: 'Export memories as JSONL, Claude Code auto memory, a memory bank, AGENTS.md or MCP memory',
  usage: ['export [--format <format>] [--out <path>|-] [--include-private] [--all]'],
  description:
    `Formats: ${EXPORT_FORMATS.join(', ')} (default jsonl).\n` +
    'jsonl is lossless: importing it into another repository gives back the same memory and edge files.\n' +
    'The others are best-effort (docs/interop.md lists what each keeps):\n' +
    '  claude        Claude Code\'s auto memory of this repository (~/.claude/projects/<path>/memory/): one\n' +
    '                cortex-<id>.md topic file per memory and an index section in MEMORY.md, which Claude\n' +
    '                Code loads at session start; the rest of MEMORY.md is kept.\n' +
    '  agents-md     a section between CORTEX_EXPORT markers in AGENTS.md (claude-md: CLAUDE.md); the rest kept.\n' +
    '  memory-bank   Cline\'s six core files in ./memory-bank/.\n' +
    '  mcp-memory    the MCP memory server\'s knowledge graph (entities and relations, JSONL).\n' +
    '  basic-memory  one note per memory with its relations, in ./basic-memory/.\n' +
    'jsonl and mcp-memory print to stdout unless --out names a file. --out must be inside the repository.\n' +
    'Private memories (.git/cortex/local/) are exported only with --include-private; secrets are redacted.\n' +
    'Active memories only, except jsonl (everything) or with --all.',
  options: {
    format: { type: 'string', short: 'f', value: '<format>', description: `One of ${EXPORT_FORMATS.join(', ')} (default jsonl).` },
    out: { type: 'string', short: 'o', value: '<path>', description: 'File or directory to write (inside the repository); - for stdout.' },
    'include-private': { type: 'boolean', description: 'Include the private tier (.git/cortex/local/).' },
    all: { type: 'boolean', description: 'Include archived and superseded memories.' },
  },
  examples: ['cortex export > memories.jsonl', 'cortex export --format claude', 'cortex export --format agents-md', 'cortex export --format memory-bank --out docs/memory-bank'],
  async run(inv, io) {
    if (inv.positionals.length > 0) throw new UsageError('cortex export takes no arguments.', { hint: 'Use --format and --out.' });
    const format = str(inv, 'format');
    if (format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${format}".`);
    }
    const ctx = openContextOf(inv, io);
    const { exportMemories } = await import('../api/export.js');
    const out = await exportMemories(ctx, {
      ...(format !== undefined ? { format: format as ExportFormat } : {}),
      ...(str(inv, 'out') !== undefined ? { out: str(inv, 'out')! } : {}),
      includePrivate: bool(inv, 'include-private'),
      includeInactive: bool(inv, 'all'),
      cwd: io.cwd,
    });
    if (inv.json) {
      printJson(io, { ...out });
      return 0;
    }
    const p = io.paint;
    if (out.text !== undefined) io.out(out.text);
    else {
      const changed = out.files.filter((f) => f.state !== 'unchanged');
      io.out(`Exported ${out.memories} memories and ${out.edges} edges as ${out.format} to ${out.out}: ${changed.length} file(s) written or removed, ${out.files.length - changed.length} unchanged\n`);
      for (const f of changed) io.out(`  ${f.state.padEnd(8)} ${f.path}\n`);
    }
    io.err(`${p.dim(`${out.memories} memories, ${out.edges} edges${out.privateIncluded ? ', private included' : ', private left out (--include-private)'}`)}\n`);
    if (out.redacted.length > 0) io.err(`${p.yellow('note')}: redacted ${out.redacted.join(', ')} on the way out\n`);
    if (out.undo.length > 0) io.err(`${p.dim(`undo: ${out.undo.join(' && ')}`)}\n`);
    return 0;
  },
};
export default command;
