/**
 * Use cases on single memories: get (show), list, update (edit), forget.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryNotFoundError, ParseError, UsageError } from '../errors.js';
import {
  MEMORY_STATUSES,
  MEMORY_TYPES,
  SCOPES,
  formatDate,
  isMemoryStatus,
  isMemoryType,
  normalizeTags,
  type Diagnostic,
  type Memory,
  type MemoryStatus,
  type MemoryType,
  type Scope,
} from '../core/memory.js';
import { normalizeBody, parseMemory, renderMemory } from '../core/memory-format.js';
import { redactSecrets } from '../core/redact.js';
import { edgeFileName, parseEdgeFileName, type EdgeKey } from '../core/edge.js';
import { redactMemory, redactTags } from '../core/redact-memory.js';
import { nearestIds } from '../core/suggest.js';
import type { IndexedDoc } from '../cache/index/search-index.js';
import { withLock } from '../store/lock.js';
import { listEdgeNames } from '../store/edge-store.js';
import { deleteMemory, displayPath, readAllMemories, readMemoryById } from '../store/memory-store.js';
import { matchesWholeWords } from '../core/word-match.js';
import { writeMemory } from '../store/memory-write.js';
import { type TierPaths } from '../store/paths.js';
import { assertSafeId, memoryPath } from '../store/memory-path.js';
import { keepForUndo, type UndoInfo } from '../services/undo.js';
import { scopePaths, type Context } from '../services/context.js';
import { allDiagnostics, openIndexes, openTierIndex, saveQuietly } from '../services/indexes.js';
import { recall, searchOptionsOf, toResult, type RecallInput, type RecallResult } from './recall/recall.js';
import { assertBodyFits, repoFiles } from './remember.js';
import { lockPath } from '../cache/layout.js';
import { tryGit } from '../git/cli.js';
import { findGitRoot } from '../store/paths.js';
import { loadSignals } from '../services/signals.js';
import type { UsageSignal } from '../core/rank.js';

export interface GetResult {
  memory: Memory;
  /** Path of the file, relative to the repository root for project memories. */
  file: string;
  scope: Scope;
  /** The file's problems that did not make it unusable (warnings). */
  diagnostics: Diagnostic[];
}

/** Finds which tier holds `id` (project first). */
function locate(ctx: Context, id: string): { scope: Scope; path: string; base: string } | undefined {
  assertSafeId(id);
  const tiers: { scope: Scope; paths: TierPaths; base: string }[] = [
    { scope: 'project', paths: ctx.paths, base: ctx.root },
    { scope: 'local', paths: ctx.local, base: ctx.root },
  ];
  if (ctx.includeGlobal) tiers.push({ scope: 'global', paths: ctx.global, base: ctx.global.cortexDir });
  for (const tier of tiers) {
    const path = memoryPath(tier.paths, id);
    try {
      if (statSync(path).isFile()) return { scope: tier.scope, path, base: tier.base };
    } catch {
      // Not in this tier.
    }
  }
  return undefined;
}

/**
 * Reads one memory by id. Throws `UsageError` for an unsafe id, `MemoryNotFoundError`
 * when no tier has it, and `ParseError` when its file is broken.
 *
 * @example
 * const { memory } = getMemory(ctx, 'chose-sqlite-over-postgres-k3f9qa');
 */
export function getMemory(ctx: Context, id: string): GetResult {
  const where = locate(ctx, id);
  if (!where) throw new MemoryNotFoundError(id);
  const paths = scopePaths(ctx, where.scope);
  const read = readMemoryById(paths, id, where.base);
  if (!read.memory) throw unreadable(read.diagnostics.find((d) => d.severity === 'error'), id);
  return {
    memory: read.memory,
    file: read.diagnostics[0]?.file ?? (where.scope !== 'global' ? displayPath(read.path, ctx.root) : read.path),
    scope: where.scope,
    diagnostics: read.diagnostics,
  };
}

function unreadable(d: Diagnostic | undefined, id?: string, action = 'read'): ParseError {
  const where = d ? `${d.file}${d.line ? `:${d.line}` : ''}: ${d.reason}` : 'The memory file cannot be read';
  const fix =
    id === undefined || d?.ruleId === 'not-utf8' || d?.ruleId === 'file-too-large'
      ? (d?.hint ?? 'Run `cortex lint` to see what is wrong.')
      : `Fix it with \`cortex edit ${id}\` (it opens broken files too), or delete it with \`cortex forget ${id} --hard\`.`;
  return new ParseError(action === 'read' ? where : `Cannot ${action} it: ${where}`, { hint: fix, data: { id, file: d?.file, line: d?.line } });
}

export interface ListInput extends Omit<RecallInput, 'query' | 'limit'> {
  limit?: number;
  /** `updated` (newest first, default), `created`, `priority`, `id`. */
  sort?: 'updated' | 'created' | 'priority' | 'id';
}

export interface ListOutput {
  memories: RecallResult[];
  total: number;
  diagnostics: Diagnostic[];
}

/**
 * Lists memories matching the filters, from the index (no file is read on a warm run).
 *
 * @example
 * listMemories(ctx, { types: ['decision'] }).memories.length
 */
export function listMemories(ctx: Context, input: ListInput = {}): ListOutput {
  const options = searchOptionsOf(ctx, input);
  const tiers = openIndexes(ctx, input.scope ? { scope: input.scope } : {});
  const docs: IndexedDoc[] = tiers.flatMap((t) => t.index.filter(options));
  const sort = input.sort ?? 'updated';
  const cmp: Record<string, (a: IndexedDoc, b: IndexedDoc) => number> = {
    updated: (a, b) => b.updated.localeCompare(a.updated),
    created: (a, b) => b.created.localeCompare(a.created),
    priority: (a, b) => b.priority - a.priority,
    id: () => 0,
  };
  if (!cmp[sort]) throw new UsageError(`Unknown sort "${sort}".`, { hint: 'Use updated, created, priority or id.' });
  docs.sort((a, b) => cmp[sort]!(a, b) || a.id.localeCompare(b.id));
  const limited = input.limit !== undefined ? docs.slice(0, input.limit) : docs;
  return {
    memories: limited.map((doc) => toResult(doc, 0, [])),
    total: docs.length,
    diagnostics: allDiagnostics(tiers),
  };
}


export interface UpdateInput {
  summary?: string;
  body?: string;
  type?: MemoryType;
  priority?: number;
  confidence?: number;
  pinned?: boolean;
  status?: MemoryStatus;
  topic?: string | null;
  addTags?: string[];
  removeTags?: string[];
  /** Replaces `source.files`: repository paths (absolute ones inside it are made relative); `[]` clears them. */
  files?: string[];
}

export interface UpdateResult {
  memory: Memory;
  file: string;
  changed: boolean;
}

/**
 * Changes fields of a memory. The id never changes; `updated` moves only when
 * something else changed, so a no-op edit leaves the file byte-identical.
 *
 * @example
 * await updateMemory(ctx, 'chose-sqlite-k3f9qa', { priority: 8, addTags: ['db'] });
 */
export async function updateMemory(ctx: Context, id: string, input: UpdateInput): Promise<UpdateResult> {
  if (input.type !== undefined && !isMemoryType(input.type)) {
    throw new UsageError(`Unknown memory type "${input.type}".`, { hint: `Use one of: ${MEMORY_TYPES.join(', ')}.` });
  }
  if (input.status !== undefined && !isMemoryStatus(input.status)) {
    throw new UsageError(`Unknown status "${input.status}".`, { hint: `Use one of: ${MEMORY_STATUSES.join(', ')}.` });
  }
  if (input.priority !== undefined && (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 10)) {
    throw new UsageError(`Priority must be an integer from 1 to 10, got ${input.priority}.`);
  }
  if (input.confidence !== undefined && !(input.confidence >= 0 && input.confidence <= 1)) {
    throw new UsageError(`Confidence must be a number from 0 to 1, got ${input.confidence}.`);
  }
  const { scope } = getMemory(ctx, id);
  const paths = scopePaths(ctx, scope);
  return withLock(lockPath(paths.cacheDir, 'write'), async () => {
    // Read under the lock: a concurrent edit's change is in the file we modify, not lost.
    const { memory, file } = getMemory(ctx, id);
    const next: Memory = { ...memory, tags: [...memory.tags] };
    if (input.summary !== undefined) {
      const s = input.summary.replace(/\s+/g, ' ').trim();
      if (s === '') throw new UsageError('The summary must not be empty.');
      next.summary = redactSecrets(s).text;
    }
    if (input.body !== undefined) {
      next.body = redactSecrets(normalizeBody(input.body)).text;
      assertBodyFits(next.body);
    }
    if (input.type !== undefined) next.type = input.type;
    if (input.priority !== undefined) next.priority = input.priority;
    if (input.confidence !== undefined) next.confidence = input.confidence;
    if (input.pinned !== undefined) next.pinned = input.pinned;
    if (input.status !== undefined) next.status = input.status;
    if (input.topic !== undefined) {
      if (input.topic === null || input.topic.trim() === '') delete next.topic;
      else next.topic = input.topic.trim();
    }
    // Redacted as given: a token lower-cased by normalisation could slip past the rules.
    if (input.addTags) next.tags = normalizeTags([...next.tags, ...redactTags(input.addTags).value]);
    if (input.removeTags) {
      const drop = new Set(normalizeTags(input.removeTags));
      next.tags = next.tags.filter((t) => !drop.has(t));
    }
    if (input.files !== undefined) {
      const files = repoFiles(ctx.root, input.files, 'refuse').files;
      const { files: _old, ...source } = next.source;
      next.source = files.length > 0 ? { ...source, files } : source;
    }
    if (renderMemory(redactMemory(next).value) === renderMemory(memory)) return { memory, file, changed: false };
    next.updated = formatDate(ctx.now());
    const written = writeMemory(paths, next).memory;
    const tier = openTierIndex(ctx, scope);
    saveQuietly(tier.index, paths);
    return { memory: written, file, changed: true };
  });
}

/**
 * Replaces a memory with the full text of its file as a person edited it (frontmatter and
 * body, e.g. in the web viewer's editor). The text must parse as a valid memory with the
 * same id; otherwise a `ParseError` carries the diagnostics in `data.diagnostics` and the
 * file is left exactly as it was. A valid text is written like every edit: redacted, in
 * canonical form, `updated` stamped only when something changed.
 *
 * @example
 * await updateMemorySource(ctx, 'chose-sqlite-k3f9qa', '---\nid: chose-sqlite-k3f9qa\ntype: decision\nsummary: …\n---\nWhy.\n');
 */
export async function updateMemorySource(ctx: Context, id: string, text: string): Promise<UpdateResult> {
  const where = memoryFileOf(ctx, id);
  const parsed = parseMemory(text, { file: where.file, expectedId: id });
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!parsed.memory || errors.length > 0) {
    const first = errors[0] ?? parsed.diagnostics[0];
    throw new ParseError(`The edited text of ${where.file} is not a valid memory${first ? `: ${first.reason}` : '.'}`, {
      hint: 'Fix the frontmatter (YAML between the --- lines) and save again; the file was not changed.',
      data: { file: where.file, diagnostics: parsed.diagnostics },
    });
  }
  assertBodyFits(parsed.memory.body);
  const paths = scopePaths(ctx, where.scope);
  return withLock(lockPath(paths.cacheDir, 'write'), async () => {
    const next: Memory = { ...parsed.memory!, id };
    let current: string;
    try {
      current = readFileSync(where.path, 'utf8');
    } catch {
      throw new MemoryNotFoundError(id);
    }
    // Compared in canonical form: saving the text unchanged is no edit, whatever the file's layout.
    const before = parseMemory(current, { file: where.file, expectedId: id }).memory;
    if (renderMemory(redactMemory(next).value) === (before ? renderMemory(before) : current)) return { memory: before ?? next, file: where.file, changed: false };
    next.updated = formatDate(ctx.now());
    const written = writeMemory(paths, next).memory;
    saveQuietly(openTierIndex(ctx, where.scope).index, paths);
    return { memory: written, file: where.file, changed: true };
  });
}

/**
 * Sets `updated` to now and rewrites the file in canonical form (after a hand edit).
 *
 * @example
 * await touchMemory(ctx, 'chose-sqlite-k3f9qa');
 */
export async function touchMemory(ctx: Context, id: string): Promise<UpdateResult> {
  const { scope } = getMemory(ctx, id);
  const paths = scopePaths(ctx, scope);
  return withLock(lockPath(paths.cacheDir, 'write'), () => {
    const { memory, file } = getMemory(ctx, id);
    const next: Memory = { ...memory, updated: formatDate(ctx.now()) };
    return { memory: writeMemory(paths, next).memory, file, changed: true };
  });
}

/**
 * Validates a memory file after a person edited it (e.g. in $EDITOR). Returns the
 * diagnostics; the file itself is never touched, so nothing typed is lost.
 */
export function checkMemoryFile(ctx: Context, id: string): { file: string; diagnostics: Diagnostic[]; memory: Memory | undefined } {
  const where = locate(ctx, id);
  if (!where) throw new MemoryNotFoundError(id);
  const paths = scopePaths(ctx, where.scope);
  const read = readMemoryById(paths, id, where.base);
  return { file: read.diagnostics[0]?.file ?? where.path, diagnostics: read.diagnostics, memory: read.memory };
}

/**
 * Where a memory's file is (for `$EDITOR`), whether or not it parses.
 *
 * @example
 * memoryFileOf(ctx, 'chose-sqlite-k3f9qa') // { path: '/repo/.cortex/memories/chose-sqlite-k3f9qa.md', file: '.cortex/memories/…', scope: 'project' }
 */
export function memoryFileOf(ctx: Context, id: string): { path: string; file: string; scope: Scope } {
  const where = locate(ctx, id);
  if (!where) throw new MemoryNotFoundError(id);
  return { path: where.path, file: displayPath(where.path, where.base), scope: where.scope };
}

/**
 * The memory a person named: the exact id, else the one id that starts with `ref` (in either
 * tier, project first). Throws `UsageError` for an unsafe id or a prefix of several ids,
 * and `MemoryNotFoundError` with the nearest ids ("did you mean …?") for a typo.
 *
 * @example
 * resolveMemoryId(ctx, 'chose-sqlite') // 'chose-sqlite-over-postgres-k3f9qa' (when it is the only one)
 */
export function resolveMemoryId(ctx: Context, ref: string): string {
  const id = ref.trim();
  if (/\s/.test(id)) {
    throw new UsageError(`${JSON.stringify(id)} is not a memory id: ids have no spaces.`, {
      hint: `To find memories by what they say: \`cortex recall ${JSON.stringify(id)}\` (to forget what a search finds: \`cortex forget --query ${JSON.stringify(id)}\`).`,
    });
  }
  if (locate(ctx, id)) return id;
  const ids = new Set<string>();
  for (const tier of [ctx.paths, ctx.local, ...(ctx.includeGlobal ? [ctx.global] : [])]) {
    let names: string[] = [];
    try {
      names = readdirSync(tier.memoriesDir);
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith('.md') && !name.startsWith('.')) ids.add(name.slice(0, -3));
  }
  const matches = [...ids].filter((x) => x.startsWith(id)).sort();
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const shown = matches.slice(0, 5).join(', ');
    throw new UsageError(`"${id}" is the start of ${matches.length} memory ids: ${shown}${matches.length > 5 ? ', …' : ''}.`, {
      hint: 'Give more of the id (`cortex list` shows them).',
      data: { matches },
    });
  }
  const near = nearestIds(id, [...ids]);
  throw new MemoryNotFoundError(id, {
    hint: near.length > 0 ? `Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : 'Run `cortex list` or `cortex recall <query>` to find the id.',
    data: { suggestions: near },
  });
}

export interface ForgetInput {
  /** Memory ids (each exact, or a unique prefix) to forget. */
  ids?: string[];
  /** One id (exact, or a unique prefix). */
  id?: string;
  /** The old name of `id`: only ever an id now; a search goes in `query`. */
  target?: string;
  /**
   * Forget what a search finds instead of named ids. Without `yes` nothing is changed and
   * the matches come back (`action: 'confirm'`), even when there is only one.
   */
  query?: string;
  /** Delete the files, and every edge file touching them, instead of archiving. */
  hard?: boolean;
  /** Act on what `query` matches. */
  yes?: boolean;
}

export interface ForgottenMemory {
  id: string;
  type: MemoryType;
  summary: string;
  /** The file, relative to the repository root for project memories. */
  file: string;
  scope: Scope;
  /** Status before forgetting (`archived` means there was nothing to do without `hard`). */
  was: MemoryStatus | 'unreadable';
}

export interface ForgetOutput {
  /**
   * `archived` / `deleted` when acted; `unchanged` when every memory named was already
   * archived; `confirm` when a query matched and `yes` was not given (nothing changed);
   * `none` when a query matched nothing.
   */
  action: 'archived' | 'deleted' | 'unchanged' | 'confirm' | 'none';
  /** The memories acted on (or, for `confirm`, the matches). */
  memories: ForgottenMemory[];
  /** Edge files deleted with the memories (`hard`). */
  edges: { file: string; source: string; relation: string; target: string }[];
  /** How to get everything back (absent when nothing changed). */
  undo?: UndoInfo | undefined;
  /** Projection files regenerated so they stay in sync with the memories. */
  projections: string[];
}

/**
 * Edge files of a tier whose source or target is one of `ids`.
 *
 * @example
 * edgesTouching(ctx.paths, new Set(['a-abcdef'])) // [{ source: 'a-abcdef', relation: 'refines', target: 'b-ghijkl' }]
 */
export function edgesTouching(paths: TierPaths, ids: ReadonlySet<string>): EdgeKey[] {
  const out: EdgeKey[] = [];
  for (const name of listEdgeNames(paths)) {
    const key = parseEdgeFileName(name);
    if (key && (ids.has(key.source) || ids.has(key.target))) out.push(key);
  }
  return out;
}

/**
 * Every memory (all tiers, any status) whose summary, body, tags and topic hold each word
 * of `query` as a whole word, case-insensitive: the matching of a command that deletes.
 *
 * @example
 * memoriesMatchingWords(ctx, 'timing probe') // the memories that say "timing" and "probe", never "timestamps"
 */
export function memoriesMatchingWords(ctx: Context, query: string): ForgottenMemory[] {
  const tiers: { scope: Scope; paths: TierPaths; base: string }[] = [
    { scope: 'project', paths: ctx.paths, base: ctx.root },
    { scope: 'local', paths: ctx.local, base: ctx.root },
  ];
  if (ctx.includeGlobal) tiers.push({ scope: 'global', paths: ctx.global, base: ctx.global.cortexDir });
  const out: ForgottenMemory[] = [];
  for (const tier of tiers) {
    for (const m of readAllMemories(tier.paths, tier.base).memories) {
      if (!matchesWholeWords(query, [m.summary, m.body, m.tags.join(' '), m.topic ?? ''])) continue;
      out.push({ id: m.id, type: m.type, summary: m.summary, file: displayPath(memoryPath(tier.paths, m.id), tier.base), scope: tier.scope, was: m.status });
    }
  }
  return out;
}

/**
 * Archives (or with `hard` deletes, with the edge files that touch them) the memories
 * named by id or unique id prefix. A text `query` is an explicit choice: it returns the
 * matches and acts only with `yes`. Projections are regenerated; `undo` says how to
 * restore every file changed.
 *
 * @example
 * await forget(ctx, { id: 'chose-sqlite-k3f9qa' }); // { action: 'archived', memories: [...], undo: { gitRestore: 'git restore …' } }
 * await forget(ctx, { query: 'old deploy notes' }); // { action: 'confirm', memories: [matches] }: nothing changed yet
 */
export async function forget(ctx: Context, input: ForgetInput): Promise<ForgetOutput> {
  const named = [...(input.ids ?? []), ...(input.id !== undefined ? [input.id] : []), ...(input.target !== undefined ? [input.target] : [])]
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const query = input.query?.trim() ?? '';
  if (named.length > 0 && query !== '') throw new UsageError('Give either ids or a query to forget, not both.');
  if (named.length === 0 && query === '') {
    throw new UsageError('Say which memory to forget: its id, or --query "text" to search.', { hint: 'Example: cortex forget chose-sqlite-k3f9qa' });
  }
  const empty = { edges: [], projections: [] };
  let targets: { id: string; scope: Scope }[];
  if (query !== '') {
    // Whole words as typed (no stemming, no fuzzy): what is deleted is what was named.
    const found = memoriesMatchingWords(ctx, query);
    if (found.length === 0) return { action: 'none', memories: [], ...empty };
    if (!input.yes) return { action: 'confirm', memories: found, ...empty };
    targets = found.map((c) => ({ id: c.id, scope: c.scope }));
  } else {
    targets = [...new Set(named.map((ref) => resolveMemoryId(ctx, ref)))].map((id) => ({ id, scope: locate(ctx, id)!.scope }));
  }

  const memories: ForgottenMemory[] = targets.map(({ id, scope }) => {
    const where = locate(ctx, id)!;
    const paths = scopePaths(ctx, scope);
    const read = readMemoryById(paths, id, where.base);
    const file = read.diagnostics[0]?.file ?? displayPath(where.path, where.base);
    if (!read.memory) {
      if (!input.hard) throw unreadable(read.diagnostics.find((d) => d.severity === 'error'), id, 'archive');
      return { id, type: 'context', summary: '(unreadable file)', file, scope, was: 'unreadable' };
    }
    return { id, type: read.memory.type, summary: read.memory.summary, file, scope, was: read.memory.status };
  });
  const toChange = input.hard ? memories : memories.filter((m) => m.was !== 'archived');
  if (toChange.length === 0) return { action: 'unchanged', memories, ...empty };

  // Edges live in the project tier unless both ends are global.
  const ids = new Set(toChange.map((m) => m.id));
  const edgeTiers: { scope: Scope; paths: TierPaths; base: string }[] = [{ scope: 'project', paths: ctx.paths, base: ctx.root }];
  if (existsSync(ctx.local.edgesDir)) edgeTiers.push({ scope: 'local', paths: ctx.local, base: ctx.root });
  if (toChange.some((m) => m.scope === 'global')) edgeTiers.push({ scope: 'global', paths: ctx.global, base: ctx.global.cortexDir });
  const edgeKeys = input.hard ? edgeTiers.map((t) => ({ tier: t, keys: edgesTouching(t.paths, ids) })) : [];
  const undo = await keepForUndo(
    ctx,
    [
      ...toChange.map((m) => ({ path: memoryPath(scopePaths(ctx, m.scope), m.id), scope: m.scope })),
      ...edgeKeys.flatMap(({ tier, keys }) => keys.map((k) => ({ path: join(tier.paths.edgesDir, edgeFileName(k)), scope: tier.scope }))),
    ],
    'forget',
  );

  const edges: ForgetOutput['edges'] = [];
  if (input.hard) {
    for (const scope of SCOPES) {
      const mine = toChange.filter((m) => m.scope === scope);
      if (mine.length === 0) continue;
      const paths = scopePaths(ctx, scope);
      await withLock(lockPath(paths.cacheDir, 'write'), () => {
        for (const m of mine) deleteMemory(paths, m.id);
      });
    }
    const { withEdgeWrite, deleteEdgeRecorded } = await import('../services/graph.js');
    for (const { tier, keys } of edgeKeys) {
      if (keys.length === 0) continue;
      await withEdgeWrite(tier, (cache) => {
        for (const key of keys) {
          if (deleteEdgeRecorded(tier, cache, key)) edges.push({ ...key, file: displayPath(join(tier.paths.edgesDir, edgeFileName(key)), tier.base) });
        }
      });
    }
  } else {
    for (const m of toChange) await updateMemory(ctx, m.id, { status: 'archived' });
  }
  const projections = toChange.some((m) => m.scope === 'project') ? await regenerateProjections(ctx) : [];
  if (projections.length > 0) undo.then = 'cortex project';
  return { action: input.hard ? 'deleted' : 'archived', memories: toChange, edges, undo, projections };
}

/**
 * Regenerates the projections after memories changed, so a commit of the change is
 * already in sync; returns the files rewritten. Does nothing where no projection exists. Never fails the change that was made:
 * a projection that cannot be written is left for the pre-commit hook to regenerate.
 *
 * @example
 * await regenerateProjections(ctx) // ['.cortex/decisions.md']
 */
export async function regenerateProjections(ctx: Context): Promise<string[]> {
  // A repository that keeps no projections (never `cortex init`ed, or removed by choice) gets
  // none. The names are PROJECTION_FILES'; core/projection.js is not imported (it loads remark).
  if (!['decisions.md', 'plan.md', 'decisions-archive.md'].some((f) => existsSync(join(ctx.paths.cortexDir, f)))) return [];
  try {
    const { project } = await import('./project.js');
    return (await project(ctx)).files.filter((f) => f.state === 'created' || f.state === 'updated').map((f) => f.file);
  } catch {
    return [];
  }
}

export interface MemoryCommit {
  commit: string;
  /** Author date, ISO 8601. */
  date: string;
  author: string;
  subject: string;
}

export interface MemoryHistory {
  id: string;
  file: string;
  /** Personal usage from `.memory/` (absent when the memory was never recalled). */
  usage: UsageSignal | undefined;
  /** `git log` of the memory's file, newest first (empty outside git or before its first commit). */
  commits: MemoryCommit[];
}

export const DEFAULT_HISTORY = { limit: 50 };

/**
 * The usage signals and the `git log` of one memory's file (following renames), for the
 * web viewer's memory view. Reading it records no access.
 *
 * @example
 * memoryHistory(ctx, 'chose-sqlite-k3f9qa').commits[0]?.subject // 'Record the storage decision'
 */
export function memoryHistory(ctx: Context, id: string, options: Partial<typeof DEFAULT_HISTORY> = {}): MemoryHistory {
  const o = { ...DEFAULT_HISTORY, ...options };
  const got = getMemory(ctx, id);
  const usage = loadSignals(ctx)[id];
  const root = got.scope === 'global' ? undefined : findGitRoot(ctx.root);
  const commits: MemoryCommit[] = [];
  if (root) {
    const where = memoryFileOf(ctx, id);
    // \x1f between fields, \x1e between commits: a subject may hold anything else.
    const out = tryGit(['log', '--follow', `--max-count=${o.limit}`, '--format=%H%x1f%aI%x1f%an%x1f%s%x1e', '--', where.path], { cwd: root });
    for (const record of (out ?? '').split('\x1e')) {
      const [commit, date, author, subject] = record.trim().split('\x1f');
      if (commit && date) commits.push({ commit, date, author: author ?? '', subject: subject ?? '' });
    }
  }
  return { id, file: got.file, usage, commits };
}
