import { INTEROP_FORMATS, type InteropFormat } from '../core/interop/types.js';
import type { Scope } from '../core/memory.js';
import { UsageError } from '../errors.js';
import type { ImportItem } from '../api/import.js';
import { markForCommit } from '../services/stage.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'import',
  summary: 'Import memories from Claude Code, CLAUDE.md/AGENTS.md, a memory bank, MCP memory, basic-memory or JSONL',
  usage: ['import <file-or-dir> [--from <format>] [--dry-run] [--scope project|local|global]', 'import --from claude   (Claude Code\'s auto memory of this repository)'],
  description:
    `Formats: ${INTEROP_FORMATS.join(', ')} (detected from the name and content when --from is not given).\n` +
    'Each record becomes a memory: the type from the source\'s own field or its section heading, tags, dates,\n' +
    'and provenance (source.kind: import; source.from: <format>:<file>[:<line>], home as ~ — not a code\n' +
    'anchor, so a source that moves flags nothing as outdated); relations become edges. The source may be\n' +
    'anywhere you name it (regular files only; links inside a source directory are not followed).\n' +
    'Each file\'s whole text is redacted before it is split into records, then everything goes through\n' +
    'the same gate as `cortex remember`: secrets are redacted, identical content is\n' +
    'not stored twice, and records below the review threshold are skipped. Importing again changes nothing\n' +
    'unless the source changed (each record is keyed by topic import/<format>/<key>). A malformed line or\n' +
    'an unreadable file stops the import before anything is written, naming the line (a JSONL record with\n' +
    'missing fields too). The undo line it prints runs as printed. Private records (private: true,\n' +
    'Claude\'s "user" memories) go to the private tier (.git/cortex/local/); --scope overrides that for all.\n' +
    'See docs/interop.md for the mapping of each format.',
  options: {
    from: { type: 'string', value: '<format>', description: `Source format: ${INTEROP_FORMATS.join(', ')}.` },
    'dry-run': { type: 'boolean', short: 'n', description: 'Show what would be created, updated and skipped; write nothing.' },
    scope: { type: 'string', value: '<scope>', description: 'project (default), local (private: .git/cortex/local/, never committed) or global.' },
  },
  examples: [
    'cortex import --from claude --dry-run',
    'cortex import CLAUDE.md',
    'cortex import memory-bank/',
    'cortex import ~/.mcp/memory.jsonl --from mcp-memory',
    'cortex export --format jsonl > all.jsonl && cortex -C ../other import all.jsonl',
  ],
  async run(inv, io) {
    if (inv.positionals.length > 1) throw new UsageError('cortex import takes one file or directory.', { hint: 'Import several sources one at a time.' });
    const from = str(inv, 'from');
    if (from !== undefined && !(INTEROP_FORMATS as readonly string[]).includes(from)) {
      throw new UsageError(`--from must be one of ${INTEROP_FORMATS.join(', ')}, got "${from}".`);
    }
    const scope = str(inv, 'scope');
    if (scope !== undefined && !['project', 'local', 'global'].includes(scope)) throw new UsageError(`--scope must be project, local or global, got "${scope}".`);
    const ctx = openContextOf(inv, io);
    const { importMemories } = await import('../api/import.js');
    const out = await importMemories(ctx, {
      ...(inv.positionals[0] !== undefined ? { source: inv.positionals[0] } : {}),
      ...(from !== undefined ? { from: from as InteropFormat } : {}),
      ...(scope !== undefined ? { scope: scope as Scope } : {}),
      dryRun: bool(inv, 'dry-run'),
      cwd: io.cwd,
    });
    if (!out.dryRun) markForCommit(ctx, out.files);
    if (inv.json) {
      printJson(io, { ...out });
      return 0;
    }
    const p = io.paint;
    const would = out.dryRun ? 'would be ' : '';
    const line = (i: ImportItem): string => `  ${i.id ? p.cyan(i.id) : p.dim(`${i.file}${i.line ? `:${i.line}` : ''}`)}  ${i.summary}${i.scope === 'local' ? p.dim(' (private)') : ''}${i.reason ? p.dim(` — ${i.reason}`) : ''}`;
    io.out(`${out.dryRun ? 'Dry run: ' : ''}${out.source} (${out.format}): ${out.created.length} ${would}created, ${out.updated.length} ${would}updated, ${out.unchanged.length} unchanged, ${out.skipped.length} skipped\n`);
    for (const [label, items] of [['created', out.created], ['updated', out.updated], ['skipped', out.skipped]] as const) {
      if (items.length === 0) continue;
      io.out(`${p.bold(`${would}${label}`)}:\n${items.map(line).join('\n')}\n`);
    }
    if (out.edges.created + out.edges.unchanged + out.edges.skipped.length > 0) {
      io.out(`edges: ${out.edges.created} written, ${out.edges.unchanged} unchanged, ${out.edges.skipped.length} skipped\n`);
      for (const s of out.edges.skipped) if (s.reason !== 'dry run') io.err(`${p.dim(`  ${s.key}: ${s.reason}`)}\n`);
    }
    if (out.redacted.length > 0) io.err(`${p.yellow('note')}: redacted ${out.redacted.join(', ')} before writing\n`);
    if (out.undo.length > 0) io.err(`${p.dim(`undo: ${out.undo.join(' && ')}`)}\n`);
    return 0;
  },
};
export default command;
