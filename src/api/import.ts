/**
 * `import`: the memory files people already have — Claude Code's auto memory, CLAUDE.md,
 * AGENTS.md, a Cline memory bank, the MCP memory server's graph, basic-memory notes,
 * Cortex's own JSONL — mapped to memories (core/interop) and written through the same
 * gate as every write: redaction, dedup, the review threshold, one lock per tier.
 * Idempotent: each record's topic is `import/<format>/<key>`, so importing again updates
 * what changed and leaves the rest byte for byte.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import { ParseError, UsageError } from '../errors.js';
import { resolveRelation } from '../core/edge.js';
import { redactDeep, redactParts, redactSecrets } from '../core/redact.js';
import { normalizeBody, parseMemory, renderMemory } from '../core/memory-format.js';
import type { Memory, Scope } from '../core/memory.js';
import { claudeProjectDirName, parseClaudeMemory } from '../core/interop/claude.js';
import { MEMORY_BANK_FILES, parseMarkdownFile, parseMemoryBank } from '../core/interop/markdown-files.js';
import { parseBasicMemory } from '../core/interop/basic-memory.js';
import { parseMcpMemory, type JsonlLineError } from '../core/interop/mcp-memory.js';
import { parseJsonl } from '../core/interop/jsonl.js';
import { INTEROP_FORMATS, type ImportRecord, type ImportSkip, type InteropFormat, type ParsedSource, type SourceFile } from '../core/interop/types.js';
import { contentKeyOf } from '../cache/index/search-index.js';
import { lockPath } from '../cache/layout.js';
import { withLock } from '../store/lock.js';
import { listEdgeNames } from '../store/edge-store.js';
import { readMemoryById } from '../store/memory-store.js';
import { writeMemory } from '../store/memory-write.js';
import { memoryPath } from '../store/memory-path.js';
import { findGitRoot, gitCommonDir } from '../store/paths.js';
import { readRegularFile } from '../store/safe-read.js';
import { scopePaths, type Context } from '../services/context.js';
import { openTierIndex, saveQuietly, type TierIndex } from '../services/indexes.js';
import { rememberMany, type RememberInput } from './remember.js';
import { keepForUndo, trashDirFor } from '../services/undo.js';

export interface ImportInput {
  /** A file or directory; for `claude`, default Claude Code's memory directory of this repository. */
  source?: string;
  from?: InteropFormat;
  /** Say what would happen; write nothing. */
  dryRun?: boolean;
  /** Where the memories go: `project` (default), `local` (private), `global`. A record marked private goes to `local` unless this says otherwise. */
  scope?: Scope;
  /** Base for a relative `source` (the working directory). */
  cwd?: string;
}

export interface ImportItem {
  key: string;
  file: string;
  line?: number | undefined;
  id?: string | undefined;
  summary: string;
  scope?: Scope | undefined;
  /** Why it was skipped or left unchanged. */
  reason?: string | undefined;
}

export interface ImportOutput {
  format: InteropFormat;
  source: string;
  dryRun: boolean;
  created: ImportItem[];
  updated: ImportItem[];
  unchanged: ImportItem[];
  skipped: ImportItem[];
  edges: { created: number; unchanged: number; skipped: ImportItem[] };
  /** Kinds of secrets redacted before writing. */
  redacted: string[];
  /** Commands that undo this import (none for a dry run or when nothing was written). */
  undo: string[];
  /** Files created (relative to the repository), for staging. */
  files: string[];
}

/** A source file larger than this is refused: no memory source is that large. */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
const MAX_SOURCE_FILES = 5000;

/**
 * Claude Code's auto-memory directory for a repository, found as Claude Code finds it: the
 * `autoMemoryDirectory` setting when one is set (local settings, `.claude/settings.local.json`,
 * then user settings, `$CLAUDE_CONFIG_DIR/settings.json`; an absolute or `~/` path; project
 * settings are not read, as Claude Code does not), else `$CLAUDE_CONFIG_DIR` (default
 * `~/.claude`) `/projects/<canonical root with non-alphanumerics as ->/memory`, where the
 * canonical root is the main work tree's, so every linked `git worktree` shares it.
 *
 * @example
 * claudeMemoryDir('/home/me/repo', {}) // '/home/me/.claude/projects/-home-me-repo/memory'
 */
export function claudeMemoryDir(root: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  const base = env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.trim() !== '' ? resolve(env.CLAUDE_CONFIG_DIR) : join(home, '.claude');
  for (const settings of [join(root, '.claude', 'settings.local.json'), join(base, 'settings.json')]) {
    const dir = autoMemoryDirectory(settings, home);
    if (dir !== undefined) return dir;
  }
  const common = gitCommonDir(root);
  const canonical = common !== undefined && basename(common) === '.git' ? dirname(common) : root;
  return join(base, 'projects', claudeProjectDirName(canonical), 'memory');
}

/** The `autoMemoryDirectory` of a Claude Code settings file, when it sets a usable one. */
function autoMemoryDirectory(file: string, home: string): string | undefined {
  let value: unknown;
  try {
    value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)?.autoMemoryDirectory;
  } catch {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return isAbsolute(value) ? value : undefined;
}

function shownPath(ctx: Context, path: string): string {
  const rel = relative(ctx.root, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel.split(sep).join('/');
}

/**
 * Redacts a source's text as a whole, before anything splits, lower-cases or derives a key
 * from it (a key block split at its blank line, a token lower-cased in a tag, an id built
 * from raw text would each slip past a later check). JSON Lines are redacted value by value
 * (each line parsed, its strings redacted, written back) so that a redaction can never
 * break a line's JSON; a line that is not JSON is left for the parser to report.
 */
function redactSourceText(text: string, jsonLines: boolean, kinds: Set<string>): string {
  if (!jsonLines) {
    const r = redactSecrets(text);
    r.findings.forEach((f) => kinds.add(f.kind));
    return r.text;
  }
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === '') return line;
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch {
        // Not JSON: the parser names the line; redact it as text so the error echoes no secret.
        const r = redactSecrets(line);
        r.findings.forEach((f) => kinds.add(f.kind));
        return r.text;
      }
      const r = redactDeep(value);
      if (r.kinds.length === 0) return line;
      r.kinds.forEach((k) => kinds.add(k));
      return JSON.stringify(r.value);
    })
    .join('\n');
}

/** A path as it may be shown and stored: redacted (a token in a file name stays out of ids, topics and output). */
function redactPath(path: string, kinds: Set<string>): string {
  const r = redactSecrets(path);
  r.findings.forEach((f) => kinds.add(f.kind));
  return r.text;
}

/**
 * Reads a source the person named: one file, or the markdown and JSONL files of a directory
 * (recursively, bounded). The source may be anywhere (Claude Code's memory lives in the home
 * directory), but only regular files are read, never more than a bound, and no symbolic link
 * inside a source directory is followed (it is listed as skipped). The text is redacted whole
 * before any parser sees it, and so is every path.
 */
function readSource(ctx: Context, path: string, recursive: boolean, kinds: Set<string>): { files: SourceFile[]; dir: boolean; skipped: ImportSkip[] } {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined) {
    throw new UsageError(`Cannot import ${redactPath(shownPath(ctx, path), kinds)}: no such file or directory.`, { hint: 'Check the path (relative to the working directory), or pass --from claude to read Claude Code\'s memory of this repository.' });
  }
  const isDir = statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const readOne = (file: string, boundary: string, rel: string): SourceFile => {
    const read = readRegularFile(file, { boundary, maxBytes: MAX_SOURCE_BYTES });
    if ('problem' in read) {
      const shown = redactPath(shownPath(ctx, file), kinds);
      const fix = read.problem.code === 'unreadable' ? `make it readable (chmod u+r ${shown}) or move it out of the source` : 'import a regular file inside the source, or move this one away';
      throw new UsageError(`Cannot import ${shown}: it ${read.problem.reason}.`, { hint: `Nothing was imported; ${fix}, then run the import again.` });
    }
    return { path: redactPath(rel, kinds), text: redactSourceText(read.buffer.toString('utf8'), /\.jsonl?$/i.test(file), kinds) };
  };
  // The file the person named: a link they named is theirs to follow, to a regular file only.
  if (!isDir) return { files: [readOne(path, realParent(path), basename(path))], dir: false, skipped: [] };
  const files: SourceFile[] = [];
  const skipped: ImportSkip[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const full = join(dir, name);
      const s = lstatSync(full);
      const rel = relative(path, full).split(sep).join('/');
      if (s.isSymbolicLink()) {
        if (/\.(md|jsonl)$/i.test(name) || s.isDirectory()) skipped.push({ file: redactPath(rel, kinds), reason: 'is a symbolic link (links inside a source are not followed)' });
        continue;
      }
      if (s.isDirectory() && recursive && depth < 6) walk(full, depth + 1);
      else if (/\.(md|jsonl)$/i.test(name)) {
        if (files.length >= MAX_SOURCE_FILES) throw new UsageError(`Cannot import ${redactPath(shownPath(ctx, path), kinds)}: more than ${MAX_SOURCE_FILES} files.`, { hint: 'Import its folders one at a time.' });
        files.push(readOne(full, path, rel));
      }
    }
  };
  walk(path, 0);
  return { files, dir: true, skipped };
}

/** The real directory a named file's link may lead to: the file's own real parent (a named link is followed, to a regular file only). */
function realParent(path: string): string {
  try {
    return dirname(realpathSync(path));
  } catch {
    return resolve(path, '..');
  }
}

/**
 * A source path as provenance: inside the repository relative to its root, elsewhere
 * absolute with the home directory written as `~` (no user name in a shared repository).
 *
 * @example
 * provenancePath('/repo', '/home/me', '/home/me/.mcp/memory.jsonl') // '~/.mcp/memory.jsonl'
 */
export function provenancePath(root: string, home: string, path: string): string {
  const rel = relative(root, path);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  if (rel === '') return '.';
  const fromHome = home !== '' ? relative(home, path) : '..';
  if (fromHome === '') return '~';
  if (!fromHome.startsWith('..') && !isAbsolute(fromHome)) return `~/${fromHome.split(sep).join('/')}`;
  return path.split(sep).join('/');
}

/**
 * The format of a source, from its name and content.
 *
 * @example
 * detectFormat('/x/AGENTS.md', [{ path: 'AGENTS.md', text: '# Agents' }], false) // 'agents-md'
 */
export function detectFormat(path: string, files: readonly SourceFile[], isDir: boolean): InteropFormat | undefined {
  const name = basename(path);
  if (!isDir) {
    const text = files[0]?.text ?? '';
    if (/\.jsonl?$/i.test(name)) {
      // The first line that says what it is (a comment line {"//": …} says nothing).
      const first = text.split('\n').find((l) => /"(format|kind|type)"\s*:/.test(l)) ?? '';
      if (/"format"\s*:\s*"cortex-jsonl"|"kind"\s*:\s*"(memory|edge)"/.test(first)) return 'jsonl';
      if (/"type"\s*:\s*"(entity|relation)"/.test(first)) return 'mcp-memory';
      return undefined;
    }
    if (/^agents\.md$/i.test(name)) return 'agents-md';
    if (/^claude(\.local)?\.md$/i.test(name)) return 'claude-md';
    if (name === 'MEMORY.md') return 'claude';
    return /\.md$/i.test(name) ? 'claude-md' : undefined;
  }
  const names = new Set(files.map((f) => f.path));
  if (names.has('MEMORY.md')) return 'claude';
  if (name === 'memory-bank' || MEMORY_BANK_FILES.some(([n]) => names.has(n))) return 'memory-bank';
  if (files.some((f) => /^\s*[-*]\s+\[[^\]]+\]\s+\S|^\s*[-*]\s+[A-Za-z][\w-]*\s+\[\[[^\]]+\]\]|^permalink:/m.test(f.text))) return 'basic-memory';
  return undefined;
}

function lineError(ctx: Context, file: string, errors: JsonlLineError[], format: InteropFormat): never {
  const e = errors[0]!;
  const shown = redactSecrets(shownPath(ctx, file)).text;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more line${errors.length > 2 ? 's' : ''})` : '';
  throw new ParseError(`${shown}:${e.line} ${e.reason}${more}.`, {
    hint: `Nothing was imported. Fix or delete line ${e.line} (each line is one JSON object${format === 'mcp-memory' ? ' as the MCP memory server writes them' : ''}), then run the import again.`,
  });
}

function parseAs(ctx: Context, format: InteropFormat, path: string, files: SourceFile[]): ParsedSource {
  switch (format) {
    case 'claude':
      return parseClaudeMemory(files);
    case 'claude-md':
    case 'agents-md': {
      const out: ParsedSource = { records: [], relations: [], edges: [], skipped: [] };
      for (const f of files) {
        const p = parseMarkdownFile(f, 'context');
        out.records.push(...p.records);
      }
      return out;
    }
    case 'memory-bank':
      return parseMemoryBank(files);
    case 'basic-memory':
      return parseBasicMemory(files);
    case 'mcp-memory':
    case 'jsonl': {
      const out: ParsedSource = { records: [], relations: [], edges: [], skipped: [] };
      for (const f of files) {
        const parsed = format === 'jsonl' ? parseJsonl(f.text, f.path) : parseMcpMemory(f.text, f.path);
        if (parsed.errors.length > 0) lineError(ctx, files.length === 1 ? path : join(path, f.path), parsed.errors, format);
        out.records.push(...parsed.source.records);
        out.relations.push(...parsed.source.relations);
        out.edges.push(...parsed.source.edges);
      }
      return out;
    }
  }
}

function checkInput(input: ImportInput): void {
  if (input.from !== undefined && !(INTEROP_FORMATS as readonly string[]).includes(input.from)) {
    throw new UsageError(`Unknown import format "${input.from}".`, { hint: `Use one of: ${INTEROP_FORMATS.join(', ')}.` });
  }
  if (input.scope !== undefined && !['project', 'local', 'global'].includes(input.scope)) {
    throw new UsageError(`Unknown scope "${input.scope}".`, { hint: 'Use project, local or global.' });
  }
}

function scopeOf(input: ImportInput, rec: ImportRecord): Scope {
  if (input.scope !== undefined) return input.scope;
  if (rec.memory) return rec.memory.scope === 'local' || rec.memory.extra?.private === true ? 'local' : rec.memory.scope;
  return rec.private ? 'local' : 'project';
}

/** What remember would store for a record equals the memory: compared after redaction, as written. */
function sameContent(current: Memory, rec: ImportRecord, topic: string): boolean {
  const [summary, body] = redactParts([rec.summary.replace(/\s+/g, ' ').trim(), normalizeBody(rec.body)]).parts;
  return (
    current.type === rec.type &&
    current.summary === (summary ?? '').replace(/\s+/g, ' ').trim() &&
    normalizeBody(current.body) === normalizeBody(body ?? '') &&
    JSON.stringify(current.tags) === JSON.stringify(rec.tags) &&
    current.topic === topic &&
    (rec.updated === undefined || current.updated === rec.updated)
  );
}

/**
 * Imports a source. Reads and maps everything first: a malformed line or an unreadable
 * file stops it before anything is written.
 *
 * @example
 * const out = await importMemories(ctx, { source: 'memory-bank', from: 'memory-bank' });
 * out.created.length // 12
 */
export async function importMemories(ctx: Context, input: ImportInput): Promise<ImportOutput> {
  checkInput(input);
  const cwd = input.cwd ?? process.cwd();
  let path: string;
  if (input.source !== undefined && input.source !== '') path = resolve(cwd, input.source);
  else if (input.from === 'claude') path = claudeMemoryDir(findGitRoot(ctx.root) ?? ctx.root, ctx.env);
  else throw new UsageError('Name the file or directory to import.', { hint: 'e.g. `cortex import memory-bank/`, `cortex import CLAUDE.md`, or `cortex import --from claude` for Claude Code\'s memory of this repository.' });
  const kinds = new Set<string>();
  const probe = readSource(ctx, path, input.from === 'basic-memory', kinds);
  const format = input.from ?? detectFormat(path, probe.files, probe.dir);
  if (format === undefined) {
    throw new UsageError(`Cannot tell the format of ${redactPath(shownPath(ctx, path), kinds)}.`, { hint: `Pass --from with one of: ${INTEROP_FORMATS.join(', ')}.` });
  }
  // basic-memory folders nest notes; read them again recursively when detected.
  const read = format === 'basic-memory' && input.from === undefined ? readSource(ctx, path, true, kinds) : probe;
  const parsed = parseAs(ctx, format, path, read.files);
  const dryRun = input.dryRun === true;
  const shownSource = redactPath(shownPath(ctx, path), kinds);
  const out: ImportOutput = { format, source: shownSource, dryRun, created: [], updated: [], unchanged: [], skipped: [], edges: { created: 0, unchanged: 0, skipped: [] }, redacted: [], undo: [], files: [] };
  for (const s of read.skipped) out.skipped.push({ key: '', file: s.file, summary: '', reason: s.reason });
  // Provenance (source.from): the format and the file as given, home as ~, never a code anchor.
  const origin = redactPath(provenancePath(ctx.root, ctx.env.HOME && ctx.env.HOME !== '' ? ctx.env.HOME : homedir(), path), kinds);
  const fromOf = (rec: ImportRecord): string => `${format}:${probe.dir ? `${origin}/${rec.file}` : origin}${rec.line !== undefined ? `:${rec.line}` : ''}`;
  for (const s of parsed.skipped) out.skipped.push({ key: '', file: s.file, line: s.line, summary: '', reason: s.reason });

  const threshold = ctx.config.extraction.threshold;
  // One index per tier for the whole import: refreshing it per record would stat every file each time.
  const tiers = new Map<Scope, TierIndex>();
  const tierOf = (scope: Scope): TierIndex => {
    let t = tiers.get(scope);
    if (!t) tiers.set(scope, (t = openTierIndex(ctx, scope, { save: false })));
    return t;
  };
  const keyToId = new Map<string, string>();
  const nameToId = new Map<string, string>();
  const undoFiles: { path: string; scope: Scope }[] = [];
  const createdPaths: string[] = [];
  // Edge files the import created (shown paths): its undo removes them with the memories.
  const createdEdges: string[] = [];
  // Each tier's edge files as they were (name → text): the undo removes the ones the import
  // created and puts back the ones it changed (a strength, a note, an auto-link's update).
  const edgeTiers = (['project', 'local', 'global'] as const).map((scope) => {
    const paths = scopePaths(ctx, scope);
    return { scope, paths, before: dryRun ? new Map<string, string>() : edgeTexts(paths.edgesDir, listEdgeNames(paths)) };
  });

  if (format === 'jsonl') await importJsonl(ctx, parsed, input, out, { keyToId, undoFiles, createdPaths, createdEdges, threshold, path, dir: probe.dir });
  else {
    const inputs: { rec: ImportRecord; scope: Scope; input: RememberInput; existing: Memory | undefined }[] = [];
    const seen = new Set<string>();
    for (const rec of parsed.records) {
      const item: ImportItem = { key: rec.key, file: rec.file, line: rec.line, summary: rec.summary };
      if (rec.summary.trim() === '') {
        out.skipped.push({ ...item, reason: 'has no text' });
        continue;
      }
      if (rec.confidence !== undefined && rec.confidence < threshold) {
        out.skipped.push({ ...item, reason: `confidence ${rec.confidence} is below the review threshold ${threshold} (extraction.threshold)` });
        continue;
      }
      const topic = `import/${format}/${rec.key}`;
      if (seen.has(topic)) {
        out.skipped.push({ ...item, reason: 'repeats an earlier record of the source (same heading and text)' });
        continue;
      }
      seen.add(topic);
      const scope = scopeOf(input, rec);
      const tier = tierOf(scope);
      const existingDoc = tier.index.findByTopic(topic, scope)[0];
      const existing = existingDoc ? readMemoryById(tier.paths, existingDoc.id, tier.base).memory : undefined;
      inputs.push({
        rec,
        scope,
        existing,
        input: {
          summary: rec.summary,
          body: rec.body,
          type: rec.type,
          tags: rec.tags,
          topic,
          scope,
          ...(rec.priority !== undefined ? { priority: rec.priority } : {}),
          ...(rec.confidence !== undefined ? { confidence: rec.confidence } : {}),
          ...(rec.pinned !== undefined ? { pinned: rec.pinned } : {}),
          ...(rec.status === 'archived' ? { status: 'archived' as const } : {}),
          ...(rec.created !== undefined ? { created: rec.created } : {}),
          ...(rec.updated !== undefined ? { updated: rec.updated } : {}),
          source: {
            kind: 'import',
            layer: 'manual',
            from: fromOf(rec),
            // The provenance of an update stays what the first import recorded: a moved HEAD is no change.
            ...(existing ? { branch: existing.source.branch, commit: existing.source.commit } : {}),
          },
        },
      });
    }
    if (dryRun) {
      for (const x of inputs) {
        const item: ImportItem = { key: x.rec.key, file: x.rec.file, line: x.rec.line, summary: x.rec.summary, scope: x.scope };
        const topic = x.input.topic!;
        if (x.existing && sameContent(x.existing, x.rec, topic)) out.unchanged.push({ ...item, id: x.existing.id, reason: 'already imported, unchanged' });
        else if (x.existing) out.updated.push({ ...item, id: x.existing.id });
        else {
          const tier = tierOf(x.scope);
          const dup = tier.index.findByContentKey(contentKeyOf({ type: x.rec.type, summary: x.rec.summary, body: normalizeBody(x.rec.body) }));
          if (dup) out.skipped.push({ ...item, id: dup.id, reason: `duplicate of ${dup.id}` });
          else out.created.push(item);
        }
      }
    } else if (inputs.length > 0) {
      for (const x of inputs) if (x.existing && !sameContent(x.existing, x.rec, x.input.topic!)) undoFiles.push({ path: memoryPath(scopePaths(ctx, x.scope), x.existing.id), scope: x.scope });
      const undo = undoFiles.length > 0 ? await keepForUndo(ctx, undoFiles, 'import') : undefined;
      const results = await rememberMany(ctx, inputs.map((x) => x.input));
      results.forEach((r, i) => {
        const x = inputs[i]!;
        if (r.action === 'created' || r.action === 'updated') r.redacted.forEach((k) => kinds.add(k));
        const item: ImportItem = { key: x.rec.key, file: x.rec.file, line: x.rec.line, summary: r.memory.summary, id: r.memory.id, scope: x.scope };
        keyToId.set(x.rec.key, r.memory.id);
        nameToId.set(x.rec.summary, r.memory.id);
        if (r.action === 'created') {
          out.created.push(item);
          createdPaths.push(memoryPath(scopePaths(ctx, x.scope), r.memory.id));
          if (x.scope === 'project') out.files.push(r.file);
        } else if (r.action === 'updated') out.updated.push(item);
        else if (r.action === 'unchanged') out.unchanged.push({ ...item, reason: 'already imported, unchanged' });
        else out.skipped.push({ ...item, reason: `duplicate of ${r.memory.id}` });
      });
      if (undo?.gitRestore) out.undo.push(undo.gitRestore);
      if (undo?.trashRestore) out.undo.push(undo.trashRestore);
    }
  }

  if (!dryRun) await importRelations(ctx, parsed, out, keyToId, nameToId, createdEdges);
  else for (const r of parsed.relations) out.edges.skipped.push({ key: `${r.from} ${r.relation} ${r.to}`, file: r.file, line: r.line, summary: '', reason: 'dry run' });
  out.redacted = [...new Set([...kinds, ...out.redacted])];
  // Auto-links written with the memories are new edge files too: every edge file that was not there before goes.
  if (!dryRun) for (const t of edgeTiers) for (const n of listEdgeNames(t.paths)) if (!t.before.has(n)) createdEdges.push(shownPath(ctx, join(t.paths.edgesDir, n)));
  const created = [...new Set([...createdPaths.map((p) => shownPath(ctx, p)), ...createdEdges])];
  if (created.length > 0) out.undo.unshift(`rm ${created.map((p) => shellQuote(p)).join(' ')}`);
  if (!dryRun) out.undo.push(...restoreChangedEdges(ctx, edgeTiers));
  return out;
}

/** The text of each named edge file in `dir` (unreadable ones are left out). */
function edgeTexts(dir: string, names: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of names) {
    try {
      out.set(n, readFileSync(join(dir, n), 'utf8'));
    } catch {
      // Gone or unreadable: nothing to restore from.
    }
  }
  return out;
}

/**
 * Edge files that existed before the import and read differently now: their old text goes
 * to `.memory/trash/<time>-import-edges/`, and `cp` lines put it back (one for every file
 * under the project root, one per file outside it, e.g. the global tier).
 */
function restoreChangedEdges(ctx: Context, tiers: { paths: { edgesDir: string }; before: Map<string, string> }[]): string[] {
  const changed: { path: string; text: string }[] = [];
  for (const t of tiers) {
    const now = edgeTexts(t.paths.edgesDir, [...t.before.keys()]);
    for (const [name, text] of t.before) if (now.get(name) !== text) changed.push({ path: join(t.paths.edgesDir, name), text });
  }
  if (changed.length === 0) return [];
  const dir = trashDirFor(ctx, 'import-edges');
  const lines: string[] = [];
  let inRoot = false;
  for (const c of changed) {
    const rel = relative(ctx.root, c.path);
    const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    // Copies of files under the root mirror their path under tree/; others are put back one by one.
    const copy = inside ? join(dir, 'tree', rel) : join(dir, 'outside', `${lines.length}-${basename(c.path)}`);
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, c.text);
    if (inside) inRoot = true;
    else lines.push(`cp ${shellQuote(shownPath(ctx, copy))} ${shellQuote(c.path)}`);
  }
  if (inRoot) lines.unshift(`cp -R ${shellQuote(shownPath(ctx, join(dir, 'tree')))}/. .`);
  return lines;
}

function shellQuote(s: string): string {
  return /^[\w./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

async function importRelations(ctx: Context, parsed: ParsedSource, out: ImportOutput, keyToId: Map<string, string>, nameToId: Map<string, string>, createdEdges: string[]): Promise<void> {
  if (parsed.relations.length === 0) return;
  const { link } = await import('./link.js');
  const lower = new Map([...nameToId].map(([k, v]) => [k.toLowerCase(), v]));
  const find = (ref: string): string | undefined => keyToId.get(ref) ?? nameToId.get(ref) ?? lower.get(ref.toLowerCase()) ?? keyToId.get(ref.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  for (const r of parsed.relations) {
    const item: ImportItem = { key: `${r.from} ${r.relation} ${r.to}`, file: r.file, line: r.line, summary: '' };
    const source = find(r.from);
    const target = find(r.to);
    if (!source || !target) {
      out.edges.skipped.push({ ...item, reason: `"${!source ? r.from : r.to}" is not among the imported records` });
      continue;
    }
    if (source === target) {
      out.edges.skipped.push({ ...item, reason: 'links a record to itself' });
      continue;
    }
    const resolved = resolveRelation(r.relation);
    const relation = resolved?.relation ?? 'relates_to';
    try {
      const result = await link(ctx, {
        source: resolved?.reversed ? target : source,
        target: resolved?.reversed ? source : target,
        relation,
        ...(resolved ? {} : { note: `Imported relation "${r.relation}".` }),
        // Only a person supersedes a memory: an imported claim waits for review.
        ...(relation === 'supersedes' ? { suggested: true } : {}),
      });
      if (result.action === 'unchanged') out.edges.unchanged++;
      else {
        out.edges.created++;
        if (result.action === 'created') createdEdges.push(result.file);
        if (result.file.startsWith('.cortex/') && !result.file.startsWith('.cortex/local/')) out.files.push(result.file);
      }
    } catch (err) {
      out.edges.skipped.push({ ...item, reason: (err as Error).message });
    }
  }
}

/** Cortex JSONL: each memory written as it is (same id), validated by rendering and parsing it. */
async function importJsonl(
  ctx: Context,
  parsed: ParsedSource,
  input: ImportInput,
  out: ImportOutput,
  state: { keyToId: Map<string, string>; undoFiles: { path: string; scope: Scope }[]; createdPaths: string[]; createdEdges: string[]; threshold: number; path: string; dir: boolean },
): Promise<void> {
  const plans: { memory: Memory; scope: Scope; action: 'created' | 'updated'; item: ImportItem }[] = [];
  // A record that is not a whole memory (missing fields) stops the import, naming its line.
  const invalid: (JsonlLineError & { file: string })[] = [];
  for (const rec of parsed.records) {
    const item: ImportItem = { key: rec.key, file: rec.file, line: rec.line, summary: rec.summary, id: rec.key };
    const scope = scopeOf(input, rec);
    const memory: Memory = { ...rec.memory!, scope };
    let text: string;
    try {
      text = renderMemory(memory);
    } catch (err) {
      invalid.push({ line: rec.line ?? 0, reason: `is not a valid memory (${(err as Error).message})`, file: rec.file });
      continue;
    }
    const check = parseMemory(text, { file: rec.file, expectedId: memory.id });
    const error = check.diagnostics.find((d) => d.severity === 'error');
    if (!check.memory || error) {
      invalid.push({ line: rec.line ?? 0, reason: `is not a valid memory: ${error?.reason ?? 'unreadable'}`, file: rec.file });
      continue;
    }
    if (memory.confidence < state.threshold) {
      out.skipped.push({ ...item, reason: `confidence ${memory.confidence} is below the review threshold ${state.threshold} (extraction.threshold)` });
      continue;
    }
    const tier = openTierIndex(ctx, scope, { save: false });
    state.keyToId.set(memory.id, memory.id);
    const here = tier.index.docs.get(memory.id);
    if (here) {
      const current = readMemoryById(tier.paths, memory.id, tier.base).memory;
      if (current && renderMemory(current) === renderMemory(check.memory)) {
        out.unchanged.push({ ...item, scope, reason: 'already imported, unchanged' });
        continue;
      }
      plans.push({ memory: check.memory, scope, action: 'updated', item: { ...item, scope } });
      continue;
    }
    const dup = tier.index.findByContentKey(contentKeyOf(check.memory));
    if (dup && dup.status !== 'superseded') {
      out.skipped.push({ ...item, scope, reason: `duplicate of ${dup.id}` });
      continue;
    }
    plans.push({ memory: check.memory, scope, action: 'created', item: { ...item, scope } });
  }
  if (invalid.length > 0) {
    const first = invalid[0]!;
    lineError(ctx, state.dir ? join(state.path, first.file) : state.path, invalid.filter((e) => e.file === first.file), 'jsonl');
  }
  if (input.dryRun) {
    for (const p of plans) (p.action === 'created' ? out.created : out.updated).push(p.item);
    for (const e of parsed.edges) out.edges.skipped.push({ key: `${e.source} ${e.relation} ${e.target}`, file: '', summary: '', reason: 'dry run' });
    return;
  }
  const updates = plans.filter((p) => p.action === 'updated').map((p) => ({ path: memoryPath(scopePaths(ctx, p.scope), p.memory.id), scope: p.scope }));
  const undo = updates.length > 0 ? await keepForUndo(ctx, updates, 'import') : undefined;
  const kinds = new Set<string>();
  for (const scope of ['project', 'local', 'global'] as const) {
    const mine = plans.filter((p) => p.scope === scope);
    if (mine.length === 0) continue;
    const paths = scopePaths(ctx, scope);
    await withLock(lockPath(paths.cacheDir, 'write'), async () => {
      for (const p of mine) {
        const { path, memory } = writeMemory(paths, p.memory);
        if (renderMemory(memory) !== renderMemory(p.memory)) kinds.add('secret');
        (p.action === 'created' ? out.created : out.updated).push({ ...p.item, summary: memory.summary });
        if (p.action === 'created') {
          state.createdPaths.push(path);
          if (scope === 'project') out.files.push(shownPath(ctx, path));
        }
      }
      saveQuietly(openTierIndex(ctx, scope, { save: false }).index, paths);
    });
  }
  out.redacted = [...kinds];
  if (undo?.gitRestore) out.undo.push(undo.gitRestore);
  if (undo?.trashRestore) out.undo.push(undo.trashRestore);
  await importEdges(ctx, parsed, out, state.createdEdges);
}

async function importEdges(ctx: Context, parsed: ParsedSource, out: ImportOutput, createdEdges: string[]): Promise<void> {
  if (parsed.edges.length === 0) return;
  const { findDoc, withEdgeWrite, writeEdgeRecorded } = await import('../services/graph.js');
  const { edgeScopeOf } = await import('../services/context.js');
  const { tierBase } = await import('../services/indexes.js');
  const { openIndexes } = await import('../services/indexes.js');
  const tiers = openIndexes(ctx);
  for (const edge of parsed.edges) {
    const item: ImportItem = { key: `${edge.source} ${edge.relation} ${edge.target}`, file: '', summary: '' };
    const a = findDoc(tiers, edge.source);
    const b = findDoc(tiers, edge.target);
    if (!a || !b) {
      out.edges.skipped.push({ ...item, reason: `"${!a ? edge.source : edge.target}" is not a memory here` });
      continue;
    }
    const scope = edgeScopeOf(a.tier.scope, b.tier.scope);
    const tier = { paths: scopePaths(ctx, scope), base: tierBase(ctx, scope) };
    try {
      const { result, file } = await withEdgeWrite(tier, (cache) => writeEdgeRecorded(tier, cache, edge));
      if (result === 'unchanged') out.edges.unchanged++;
      else {
        out.edges.created++;
        if (result === 'created') createdEdges.push(file);
        if (scope === 'project' && result === 'created') out.files.push(file);
      }
    } catch (err) {
      out.edges.skipped.push({ ...item, reason: (err as Error).message });
    }
  }
}
