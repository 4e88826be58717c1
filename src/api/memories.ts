/**
 * Use cases on single memories: get (show), list, update (edit), forget.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryNotFoundError, ParseError, UsageError } from '../errors.js';
import {
  MEMORY_STATUSES,
  MEMORY_TYPES,
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
import { normalizeBody, renderMemory } from '../core/memory-format.js';
import { redactSecrets } from '../core/redact.js';
import { redactMemory, redactTags } from '../core/redact-memory.js';
import type { IndexedDoc } from '../search/keyword-index.js';
import { withLock } from '../store/lock.js';
import { deleteMemory, readMemoryById } from '../store/memory-store.js';
import { writeMemory } from '../store/memory-write.js';
import { assertSafeId, memoryPath } from '../store/paths.js';
import type { Context } from './context.js';
import { allDiagnostics, openIndexes, openTierIndex, saveQuietly } from './indexes.js';
import { recall, searchOptionsOf, toResult, type RecallInput, type RecallResult } from './recall.js';

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
  const tiers: { scope: Scope; paths: typeof ctx.paths | typeof ctx.global; base: string }[] = [
    { scope: 'project', paths: ctx.paths, base: ctx.root },
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
  const paths = where.scope === 'project' ? ctx.paths : ctx.global;
  const read = readMemoryById(paths, id, where.base);
  if (!read.memory) throw unreadable(read.diagnostics.find((d) => d.severity === 'error'));
  return {
    memory: read.memory,
    file: read.diagnostics[0]?.file ?? (where.scope === 'project' ? `.cortex/memories/${id}.md` : read.path),
    scope: where.scope,
    diagnostics: read.diagnostics,
  };
}

function unreadable(d: Diagnostic | undefined): ParseError {
  return new ParseError(d ? `${d.file}${d.line ? `:${d.line}` : ''}: ${d.reason}` : 'The memory file cannot be read.', {
    hint: d?.hint ?? 'Run `cortex lint` to see what is wrong.',
  });
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
  const paths = scope === 'project' ? ctx.paths : ctx.global;
  return withLock(join(paths.cacheDir, 'locks', 'write.lock'), async () => {
    // Read under the lock: a concurrent edit's change is in the file we modify, not lost.
    const { memory, file } = getMemory(ctx, id);
    const next: Memory = { ...memory, tags: [...memory.tags] };
    if (input.summary !== undefined) {
      const s = input.summary.replace(/\s+/g, ' ').trim();
      if (s === '') throw new UsageError('The summary must not be empty.');
      next.summary = redactSecrets(s).text;
    }
    if (input.body !== undefined) next.body = redactSecrets(normalizeBody(input.body)).text;
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
    if (renderMemory(redactMemory(next).value) === renderMemory(memory)) return { memory, file, changed: false };
    next.updated = formatDate(ctx.now());
    const written = writeMemory(paths, next).memory;
    const tier = openTierIndex(ctx, scope);
    saveQuietly(tier.index, paths);
    return { memory: written, file, changed: true };
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
  const paths = scope === 'project' ? ctx.paths : ctx.global;
  return withLock(join(paths.cacheDir, 'locks', 'write.lock'), () => {
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
  const paths = where.scope === 'project' ? ctx.paths : ctx.global;
  const read = readMemoryById(paths, id, where.base);
  return { file: read.diagnostics[0]?.file ?? where.path, diagnostics: read.diagnostics, memory: read.memory };
}

/** The path of a memory's file (for `$EDITOR`). */
export function memoryFileOf(ctx: Context, id: string): string {
  const where = locate(ctx, id);
  if (!where) throw new MemoryNotFoundError(id);
  return where.path;
}

export interface ForgetInput {
  /** An id, or a query that selects memories. */
  target: string;
  /** Delete the file instead of archiving (git history keeps it). */
  hard?: boolean;
  /** Act even when a query matches several memories. */
  yes?: boolean;
}

export interface ForgetOutput {
  /** `archived` / `deleted` when acted; `ambiguous` when several matched without `yes`; `none` when nothing matched. */
  action: 'archived' | 'deleted' | 'ambiguous' | 'none';
  /** The memories acted on (or the candidates, when ambiguous). */
  memories: { id: string; type: MemoryType; summary: string; file: string }[];
}

/**
 * Archives (or with `hard` deletes) a memory by id, or the memories a query matches.
 * A query matching several memories acts only with `yes`.
 *
 * @example
 * await forget(ctx, { target: 'chose-sqlite-k3f9qa' }); // { action: 'archived', … }
 */
export async function forget(ctx: Context, input: ForgetInput): Promise<ForgetOutput> {
  const target = input.target.trim();
  if (target === '') throw new UsageError('Say what to forget: an id or a query.');
  let ids: { id: string; scope: Scope }[];
  let candidates: RecallResult[] = [];
  const isId = /^[a-z0-9][a-z0-9_-]*$/.test(target) && locate(ctx, target) !== undefined;
  if (isId) {
    ids = [{ id: target, scope: locate(ctx, target)!.scope }];
  } else {
    candidates = (await recall(ctx, { query: target, limit: 20, recordAccess: false, enrich: false } satisfies RecallInput)).results;
    if (candidates.length === 0) return { action: 'none', memories: [] };
    if (candidates.length > 1 && !input.yes) {
      return { action: 'ambiguous', memories: candidates.map((c) => ({ id: c.id, type: c.type, summary: c.summary, file: c.file })) };
    }
    ids = candidates.map((c) => ({ id: c.id, scope: c.scope }));
  }
  const done: ForgetOutput['memories'] = [];
  for (const { id, scope } of ids) {
    const got = getMemory(ctx, id);
    const paths = scope === 'project' ? ctx.paths : ctx.global;
    if (input.hard) {
      await withLock(join(paths.cacheDir, 'locks', 'write.lock'), () => deleteMemory(paths, id));
    } else if (got.memory.status !== 'archived') {
      await updateMemory(ctx, id, { status: 'archived' });
    }
    done.push({ id, type: got.memory.type, summary: got.memory.summary, file: got.file });
  }
  return { action: input.hard ? 'deleted' : 'archived', memories: done };
}
