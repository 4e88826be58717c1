/**
 * `export`: the memories as the files other tools read. `jsonl` is lossless (importing it
 * gives back the same files); the others are best-effort (docs/interop.md says what each
 * keeps). Private memories (`.cortex/local/`) are left out unless asked for; every byte
 * written passes the redaction gate; a file that holds more than the export (`AGENTS.md`,
 * `MEMORY.md`) keeps everything outside the export's markers.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import type { Edge } from '../core/edge.js';
import { redactSecrets } from '../core/redact.js';
import { redactEdge, redactMemory } from '../core/redact-memory.js';
import { exportBasicMemory } from '../core/interop/basic-memory.js';
import { exportClaudeMemory } from '../core/interop/claude.js';
import { exportJsonl } from '../core/interop/jsonl.js';
import { exportInstructions, exportMemoryBank } from '../core/interop/markdown-files.js';
import { exportMcpMemory } from '../core/interop/mcp-memory.js';
import { EXPORT_FORMATS, type ExportFile, type ExportFormat } from '../core/interop/types.js';
import { readFileIfExists, writeIfChanged } from '../store/atomic.js';
import { readAllEdges } from '../store/edge-store.js';
import { findGitRoot } from '../store/paths.js';
import { checkWritableDirectory } from '../store/safe-read.js';
import type { Context } from '../services/context.js';
import { trashDirFor } from '../services/undo.js';
import { claudeMemoryDir } from './import.js';
import { loadMemories } from './surface.js';

export interface ExportInput {
  format?: ExportFormat;
  /** A file (jsonl, mcp-memory, agents-md, claude-md) or directory (claude, memory-bank, basic-memory); `-` for stdout. */
  out?: string;
  /** Include the private tier (`.cortex/local/`). */
  includePrivate?: boolean;
  /** Include archived and superseded memories (default: active only, except jsonl which keeps everything). */
  includeInactive?: boolean;
  /** Base for a relative `out` (the working directory). */
  cwd?: string;
}

export interface ExportOutput {
  format: ExportFormat;
  /** Where it went: a path relative to the repository (or absolute outside it), or `-`. */
  out: string;
  /** The text, when written to stdout. */
  text?: string | undefined;
  memories: number;
  edges: number;
  privateIncluded: boolean;
  files: Array<{ path: string; state: 'created' | 'updated' | 'unchanged' | 'removed' }>;
  /** Kinds of secrets redacted on the way out (a secret typed into a file by hand). */
  redacted: string[];
  /** How to undo what was written. */
  undo: string[];
}

/** Formats written to one file, and the default path of each (`-`: stdout). */
const DEFAULT_OUT: Record<ExportFormat, string> = {
  jsonl: '-',
  'mcp-memory': '-',
  'agents-md': 'AGENTS.md',
  'claude-md': 'CLAUDE.md',
  'memory-bank': 'memory-bank',
  'basic-memory': 'basic-memory',
  claude: '',
};

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function shown(ctx: Context, path: string): string {
  return isInside(ctx.root, path) ? relative(ctx.root, path).split(sep).join('/') : path;
}

/**
 * Writes (or prints) the export.
 *
 * @example
 * const { text } = await exportMemories(ctx, { format: 'jsonl', out: '-' });
 */
export async function exportMemories(ctx: Context, input: ExportInput = {}): Promise<ExportOutput> {
  const format = input.format ?? 'jsonl';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`Unknown export format "${format}".`, { hint: `Use one of: ${EXPORT_FORMATS.join(', ')}.` });
  }
  const includePrivate = input.includePrivate === true;
  const scopes = includePrivate ? (['project', 'local'] as const) : (['project'] as const);
  const loaded = loadMemories(ctx, scopes);
  const keepAll = format === 'jsonl' || input.includeInactive === true;
  const memories = loaded.memories.filter((m) => keepAll || m.status === 'active').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set(memories.map((m) => m.id));
  const edges: Edge[] = [];
  for (const tier of includePrivate ? [ctx.paths, ctx.local] : [ctx.paths]) {
    for (const { edge } of readAllEdges(tier, ctx.root).edges) if (ids.has(edge.source) && ids.has(edge.target)) edges.push(edge);
  }
  const base = { format, memories: memories.length, edges: edges.length, privateIncluded: includePrivate, redacted: [] as string[], undo: [] as string[] };

  let outPath: string;
  const given = input.out ?? DEFAULT_OUT[format];
  if (format === 'claude' && (input.out === undefined || input.out === '')) outPath = claudeMemoryDir(findGitRoot(ctx.root) ?? ctx.root, ctx.env);
  else if (given === '-') outPath = '-';
  else {
    outPath = resolve(input.cwd ?? process.cwd(), given);
    // Only Claude Code's own directory lies outside the repository on purpose.
    if (!isInside(ctx.root, outPath)) {
      throw new UsageError(`Cannot export to ${outPath}: it is outside the repository ${ctx.root}.`, {
        hint: format === 'jsonl' || format === 'mcp-memory' ? `Print it and redirect: cortex export --format ${format} > ${given}` : 'Export inside the repository and copy the files, or omit --out for the default place.',
      });
    }
    // No directory on the way may be a link: it would carry the files out of the repository.
    const linked = checkWritableDirectory(ctx.root, relative(ctx.root, dirname(outPath)));
    if (linked !== undefined) throw new UsageError(`Cannot export to ${given}: ${linked}.`, { hint: 'Export to a real directory inside the repository; nothing was written.' });
  }
  const kinds = new Set<string>();
  // Each memory and edge through the gate before any format renders it: once serialised, a
  // body line's start is `\n` inside a JSON string, and a secret there has no boundary
  // before it for a rule to see. The rendered text is gated again as a whole.
  for (let i = 0; i < memories.length; i++) {
    const r = redactMemory(memories[i]!);
    r.kinds.forEach((k) => kinds.add(k));
    memories[i] = r.value;
  }
  for (let i = 0; i < edges.length; i++) {
    const r = redactEdge(edges[i]!);
    r.kinds.forEach((k) => kinds.add(k));
    edges[i] = r.value;
  }
  const gate = (text: string): string => {
    const r = redactSecrets(text);
    r.findings.forEach((f) => kinds.add(f.kind));
    return r.text;
  };

  const single = (text: string): ExportOutput => {
    if (outPath === '-') return { ...base, out: '-', text: gate(text), files: [], redacted: [...kinds] };
    const keep = backups(ctx);
    const existed = existsSync(outPath);
    const next = gate(text);
    keep.before(outPath, next);
    const state = writeIfChanged(outPath, next);
    return { ...base, out: shown(ctx, outPath), files: [{ path: shown(ctx, outPath), state }], redacted: [...kinds], undo: undoFor(ctx, [{ path: outPath, existed, state }], keep) };
  };

  switch (format) {
    case 'jsonl':
      return single(exportJsonl(memories, edges));
    case 'mcp-memory':
      return single(exportMcpMemory(memories, edges));
    case 'agents-md':
    case 'claude-md': {
      if (outPath === '-') return single(exportInstructions(memories, undefined).ok ? (exportInstructions(memories, undefined) as { text: string }).text : '');
      const existing = readFileIfExists(outPath)?.toString('utf8');
      const next = exportInstructions(memories, existing);
      if (!next.ok) throw new UsageError(`Cannot export to ${shown(ctx, outPath)}: it ${next.reason}.`, { hint: 'Fix the markers by hand (or remove both), then export again; nothing was written.' });
      return single(next.text);
    }
    case 'memory-bank':
    case 'basic-memory': {
      if (outPath === '-') throw new UsageError(`--format ${format} writes a directory, not stdout.`, { hint: `Pass --out <dir>, or omit it for ./${DEFAULT_OUT[format]}.` });
      const files = format === 'memory-bank' ? exportMemoryBank(memories) : exportBasicMemory(memories, edges);
      return writeDir(ctx, outPath, files, [], base, gate, kinds);
    }
    case 'claude': {
      if (outPath === '-') throw new UsageError('--format claude writes a directory, not stdout.', { hint: 'Omit --out to write Claude Code\'s memory directory of this repository.' });
      let existingFiles: string[] = [];
      try {
        existingFiles = readdirSync(outPath);
      } catch {
        // A new directory.
      }
      const exported = exportClaudeMemory(memories, { existingIndex: readFileIfExists(join(outPath, 'MEMORY.md'))?.toString('utf8'), existingFiles });
      if (!exported.index.ok) throw new UsageError(`Cannot export to ${join(outPath, 'MEMORY.md')}: it ${exported.index.reason}.`, { hint: 'Fix the markers by hand (or remove both), then export again; nothing was written.' });
      // Only files an earlier export wrote are removed: they carry the export's cortex_id.
      const stale = exported.stale.filter((f) => /^cortex_id:/m.test(readFileIfExists(join(outPath, f))?.toString('utf8') ?? ''));
      return writeDir(ctx, outPath, [...exported.files, { path: 'MEMORY.md', text: exported.index.text }], stale, base, gate, kinds);
    }
  }
}

function writeDir(
  ctx: Context,
  dir: string,
  files: ExportFile[],
  stale: string[],
  base: Omit<ExportOutput, 'out' | 'files'>,
  gate: (text: string) => string,
  kinds: Set<string>,
): ExportOutput {
  const written: ExportOutput['files'] = [];
  const changes: { path: string; existed: boolean; state: string }[] = [];
  const keep = backups(ctx);
  // Every directory a file goes into, checked before anything is written (a link inside the
  // output directory would carry files out of it).
  for (const f of files) {
    const path = join(dir, f.path);
    if (!isInside(dir, path) || !isInside(ctx.root, path)) continue;
    const linked = checkWritableDirectory(ctx.root, relative(ctx.root, dirname(path)));
    if (linked !== undefined) throw new UsageError(`Cannot export to ${shown(ctx, dir)}: ${linked}.`, { hint: 'Export to a real directory inside the repository; nothing was written.' });
  }
  for (const f of files) {
    const path = join(dir, f.path);
    if (!isInside(dir, path)) continue;
    const existed = existsSync(path);
    const next = gate(f.text);
    keep.before(path, next);
    const state = writeIfChanged(path, next);
    written.push({ path: shown(ctx, path), state });
    changes.push({ path, existed, state });
  }
  for (const f of stale) {
    keep.before(join(dir, f), undefined);
    rmSync(join(dir, f), { force: true });
    written.push({ path: shown(ctx, join(dir, f)), state: 'removed' });
  }
  return { ...base, out: shown(ctx, dir), files: written, redacted: [...kinds], undo: undoFor(ctx, changes, keep) };
}

interface Backups {
  /** Copies `path` to the trash when it exists and `next` (undefined: removal) would change it. */
  before(path: string, next: string | undefined): void;
  /** Original path → its copy. */
  copies: Map<string, string>;
}

/**
 * Copies of the files an export rewrites or removes, under `.memory/trash/<time>-export/`
 * (numbered, so two files of the same name never collide), for an undo that runs as printed.
 */
function backups(ctx: Context): Backups {
  let dir: string | undefined;
  const copies = new Map<string, string>();
  return {
    copies,
    before(path, next) {
      const current = readFileIfExists(path);
      if (current === undefined || (next !== undefined && current.toString('utf8') === next)) return;
      dir ??= trashDirFor(ctx, 'export');
      const copy = join(dir, `${copies.size + 1}-${basename(path)}`);
      mkdirSync(dir, { recursive: true });
      copyFileSync(path, copy);
      copies.set(path, copy);
    },
  };
}

/**
 * The undo of an export, as commands that run as printed from the repository's root: `rm`
 * of the files it created, `cp` of each copy kept before a file was rewritten or removed.
 */
function undoFor(ctx: Context, changes: { path: string; existed: boolean; state: string }[], keep: Backups): string[] {
  const created = changes.filter((c) => !c.existed && c.state === 'created').map((c) => shown(ctx, c.path));
  const undo: string[] = [];
  if (created.length > 0) undo.push(`rm ${created.map(q).join(' ')}`);
  for (const [path, copy] of keep.copies) undo.push(`cp ${q(shown(ctx, copy))} ${q(shown(ctx, path))}`);
  return undo;
}

function q(s: string): string {
  return /^[\w./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
