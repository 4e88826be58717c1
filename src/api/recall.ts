/**
 * `recall`: find the memories relevant to a query, across the project and global tiers.
 */
import { UsageError } from '../errors.js';
import type { Diagnostic, MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { MEMORY_STATUSES, MEMORY_TYPES, isMemoryStatus, isMemoryType, normalizeTag } from '../core/memory.js';
import type { IndexedDoc, SearchOptions } from '../search/keyword-index.js';
import type { Context } from './context.js';
import { enrichResults, type CodeLink, type RelatedMemory } from './enrich.js';
import { allDiagnostics, openIndexes } from './indexes.js';

export interface RecallInput {
  query: string;
  limit?: number;
  types?: MemoryType[];
  tags?: string[];
  /** Statuses to include (default: active). `all` is accepted by the CLI. */
  statuses?: MemoryStatus[];
  scope?: Scope;
  /** ISO date or a relative age such as `7d`, `2w`. */
  since?: string;
  /** Add graph neighbours and linked code to each result (default true). */
  enrich?: boolean;
}

export interface RecallResult {
  id: string;
  type: MemoryType;
  summary: string;
  score: number;
  status: MemoryStatus;
  scope: Scope;
  tags: string[];
  priority: number;
  confidence: number;
  updated: string;
  branch?: string | undefined;
  /** Path of the memory file. */
  file: string;
  /** The first characters of the body. */
  preview: string;
  /** Query terms that matched. */
  matched: string[];
  /** Graph neighbours (depth ≤ 2), when enriched. */
  related?: RelatedMemory[];
  /** The code this memory describes (over `source_of`), when enriched. */
  code?: CodeLink[];
}

export interface RecallOutput {
  query: string;
  mode: 'keyword';
  results: RecallResult[];
  /** Problems with individual memory files (they were skipped, not fatal). */
  diagnostics: Diagnostic[];
}

/** Global memories rank just below project memories of the same relevance. */
export const GLOBAL_SCORE_FACTOR = 0.9;

/**
 * Parses `7d`, `12h`, `2w` or an ISO date into an ISO date, relative to `now`.
 *
 * @example
 * parseSince('7d', new Date('2026-11-21T00:00:00Z')) // '2026-11-14T00:00:00.000Z'
 */
export function parseSince(since: string, now: Date): string {
  const rel = /^(\d+)\s*([hdwmy])$/.exec(since.trim());
  if (rel) {
    const n = Number(rel[1]);
    const hours = { h: 1, d: 24, w: 24 * 7, m: 24 * 30, y: 24 * 365 }[rel[2] as 'h' | 'd' | 'w' | 'm' | 'y'];
    return new Date(now.getTime() - n * hours * 3_600_000).toISOString();
  }
  if (Number.isNaN(Date.parse(since))) {
    throw new UsageError(`Cannot read --since "${since}".`, { hint: 'Use an ISO date (2026-11-01) or an age such as 7d, 2w, 12h.' });
  }
  return new Date(Date.parse(since)).toISOString();
}

/** Validates filter arguments shared by recall and list. */
export function searchOptionsOf(ctx: Context, input: Omit<RecallInput, 'query'>): SearchOptions {
  for (const t of input.types ?? []) {
    if (!isMemoryType(t)) throw new UsageError(`Unknown memory type "${t}".`, { hint: `Use one of: ${MEMORY_TYPES.join(', ')}.` });
  }
  for (const s of input.statuses ?? []) {
    if (!isMemoryStatus(s)) throw new UsageError(`Unknown status "${s}".`, { hint: `Use one of: ${MEMORY_STATUSES.join(', ')}, all.` });
  }
  if (input.limit !== undefined && (!Number.isInteger(input.limit) || input.limit < 1)) {
    throw new UsageError(`--limit must be a positive integer, got ${input.limit}.`);
  }
  return {
    ...(input.types ? { types: input.types } : {}),
    ...(input.tags ? { tags: input.tags.map(normalizeTag) } : {}),
    ...(input.statuses ? { statuses: input.statuses } : {}),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.since ? { since: parseSince(input.since, ctx.now()) } : {}),
  };
}

export function toResult(doc: IndexedDoc, score: number, matched: string[]): RecallResult {
  return {
    id: doc.id,
    type: doc.type,
    summary: doc.summary,
    score,
    status: doc.status,
    scope: doc.scope,
    tags: doc.tags,
    priority: doc.priority,
    confidence: doc.confidence,
    updated: doc.updated,
    branch: doc.branch,
    file: doc.file,
    preview: doc.preview,
    matched,
  };
}

/**
 * Keyword recall over both tiers.
 *
 * @example
 * const { results } = await recall(ctx, { query: 'which database did we pick' });
 */
export async function recall(ctx: Context, input: RecallInput): Promise<RecallOutput> {
  const query = input.query.trim();
  if (query === '') throw new UsageError('The query is empty.', { hint: 'Example: cortex recall "database choice"' });
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit };
  const tiers = openIndexes(ctx, input.scope ? { scope: input.scope } : {});
  const merged: RecallResult[] = [];
  for (const tier of tiers) {
    const factor = tier.scope === 'global' ? GLOBAL_SCORE_FACTOR : 1;
    for (const hit of tier.index.query(query, options)) {
      const doc = tier.index.docs.get(hit.id);
      if (doc) merged.push(toResult(doc, hit.score * factor, hit.terms));
    }
  }
  merged.sort((a, b) => b.score - a.score || (a.scope === b.scope ? a.id.localeCompare(b.id) : a.scope === 'project' ? -1 : 1));
  const results = input.enrich === false ? merged.slice(0, limit) : enrichResults(ctx, merged.slice(0, limit), { tiers });
  return { query, mode: 'keyword', results, diagnostics: allDiagnostics(tiers) };
}
