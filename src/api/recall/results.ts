/**
 * What recall takes and gives (the input, the results, the modes) and the helpers every
 * way of searching shares: filter validation and the result of an indexed document.
 * Cheap to import: no index, no vectors (the MCP server takes its mode list from here).
 */
import { UsageError } from '../../errors.js';
import type { Diagnostic, MemoryStatus, MemoryType, Scope } from '../../core/memory.js';
import { MEMORY_STATUSES, MEMORY_TYPES, isMemoryStatus, isMemoryType, normalizeTag } from '../../core/memory.js';
import type { IndexedDoc, SearchOptions } from '../../cache/index/search-index.js';
import type { RelevanceOptions } from '../../core/recall-rank.js';
import type { Context } from '../../services/context.js';
import type { CodeLink, RelatedMemory } from '../../services/enrich.js';

/**
 * `keyword`: BM25 only. `semantic`: cosine similarity of embeddings only. `hybrid`: both
 * rankings fused by reciprocal rank fusion.
 */
export const RECALL_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type RecallMode = (typeof RECALL_MODES)[number];

/** What `--status` (and the MCP tool's `status`) accepts beyond the statuses: every one of them. */
export const ALL_STATUSES = 'all';

/**
 * The statuses a filter names, with `all` standing for every status.
 *
 * @example
 * expandStatuses(['all']) // ['active', 'archived', 'superseded']
 * expandStatuses(['archived']) // ['archived']
 */
export function expandStatuses(values: readonly string[]): MemoryStatus[] {
  return values.includes(ALL_STATUSES) ? [...MEMORY_STATUSES] : (values as MemoryStatus[]);
}

/**
 * Memories without a vector that one recall embeds on the fly (a fresh `remember`, an
 * edit). Beyond this, recall searches the vectors it has and says to run `index --embed`.
 */
export const DEFAULT_EMBED_ON_RECALL = 64;

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
  /**
   * Default: `hybrid` when vectors for the configured model exist (after
   * `cortex index --embed`), else `keyword`. Without a usable model, `semantic` and
   * `hybrid` fall back to keyword search and say why in `notice`.
   */
  mode?: RecallMode;
  /**
   * At most this many memories without a vector are embedded during the recall
   * (default {@link DEFAULT_EMBED_ON_RECALL}); 0 searches only vectors already computed.
   */
  embedOnRecall?: number;
  /** Fall back to keyword search when the model is not ready within this many ms (default: wait). */
  modelTimeoutMs?: number;
  /** Drop semantic candidates below this cosine similarity (default: `embed.minSimilarity`). */
  minSimilarity?: number;
  /** Count the results as accessed in the usage signals (default true). */
  recordAccess?: boolean;
  /** Read this branch's `.cortex/` from git instead of the work tree (keyword search; see branches.ts). */
  branch?: string;
  /** The work tree plus every other local branch. */
  allBranches?: boolean;
  /** Add graph neighbours and linked code to each result (default true). */
  enrich?: boolean;
  /**
   * Where results stop (default: `recall.minScoreShare` and `recall.minCoverage` of the
   * config); `{ minScoreShare: 0, minCoverage: 0 }` returns the whole ranking up to `limit`.
   */
  relevance?: RelevanceOptions;
  /**
   * Let a review candidate the query needs come among the results, marked `unconfirmed`
   * (default true; see candidates.ts).
   */
  candidates?: boolean;
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
  /** Path of the memory file; '' for an unconfirmed review candidate (it has none). */
  file: string;
  /** The first characters of the body. */
  preview: string;
  /** Query terms that matched. */
  matched: string[];
  /** Idf-weighted share of the query's words this memory contains (0..1), for keyword matches. */
  coverage?: number | undefined;
  /** Cosine similarity to the query, when vectors were used and the memory has one. */
  similarity?: number | undefined;
  /** Set when the memory was read from another branch (`--branch`, `--all-branches`). */
  ref?: RefInfo | undefined;
  /** Graph neighbours (depth ≤ 2), when enriched. */
  related?: RelatedMemory[];
  /** The code this memory describes (over `source_of`), when enriched. */
  code?: CodeLink[];
  /**
   * A captured candidate from the review queue (id `candidate-<hex>`), not a stored memory:
   * nobody accepted it yet. Its preview is its whole body; its score is on the prompt hook's scale.
   */
  unconfirmed?: true;
}

export interface RecallOutput {
  query: string;
  /** The mode actually used: `keyword` also when semantic search was asked for but unavailable. */
  mode: RecallMode;
  results: RecallResult[];
  /** Problems with individual memory files (they were skipped, not fatal). */
  diagnostics: Diagnostic[];
  /** One line for people when recall was degraded or incomplete: the cause and the fix. */
  notice?: string | undefined;
  /** Results the relevance floor left out (see `RecallInput.relevance`). */
  belowFloor?: number;
}

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

/** Where a result was read from, when it came from another ref. */
export interface RefInfo {
  /** The branch (or ref) as named. */
  branch: string;
  commit: string;
  /** True when the ref's commit is in the current branch's history, or the current branch has this exact memory. */
  merged: boolean;
  /** How the current branch holds this memory: the same file, another version, or not at all. */
  inCurrent: 'same' | 'changed' | 'absent';
}

/** The relevance floor in force: the call's own, else the config's. */
export function relevanceOf(ctx: Context, input: Pick<RecallInput, 'relevance'>): Required<RelevanceOptions> {
  return {
    minScoreShare: input.relevance?.minScoreShare ?? ctx.config.recall.minScoreShare,
    minCoverage: input.relevance?.minCoverage ?? ctx.config.recall.minCoverage,
  };
}
