/**
 * `recall`: find the memories relevant to a query, across the project and global tiers.
 */
import { UsageError } from '../errors.js';
import type { Diagnostic, MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { MEMORY_STATUSES, MEMORY_TYPES, isMemoryStatus, isMemoryType, normalizeTag } from '../core/memory.js';
import { EXPANSION_WEIGHT, type IndexedDoc, type SearchOptions } from '../search/keyword-index.js';
import { expansionsOf, planQuery } from '../core/query.js';
import { aboveFloor, idf, type RelevanceOptions } from '../core/relevance.js';
import type { Context } from './context.js';
import { enrichResults, type CodeLink, type RelatedMemory } from './enrich.js';
import { hasVectors } from './embed-settings.js';
import { allDiagnostics, openIndexes, type TierIndex } from './indexes.js';

/**
 * `keyword`: BM25 only. `semantic`: cosine similarity of embeddings only. `hybrid`: both
 * rankings fused by reciprocal rank fusion.
 */
export type RecallMode = 'keyword' | 'semantic' | 'hybrid';
export const RECALL_MODES: readonly RecallMode[] = ['keyword', 'semantic', 'hybrid'];

/**
 * Memories without a vector that one recall embeds on the fly (a fresh `remember`, an
 * edit). Beyond this, recall searches the vectors it has and says to run `index --embed`.
 */
export const DEFAULT_EMBED_ON_RECALL = 64;
import { recordAccess } from './signals.js';

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
  /** Idf-weighted share of the query's words this memory contains (0..1), for keyword matches. */
  coverage?: number | undefined;
  /** Cosine similarity to the query, when vectors were used and the memory has one. */
  similarity?: number | undefined;
  /** Set when the memory was read from another branch (`--branch`, `--all-branches`). */
  ref?: import('./branches.js').RefInfo | undefined;
  /** Graph neighbours (depth ≤ 2), when enriched. */
  related?: RelatedMemory[];
  /** The code this memory describes (over `source_of`), when enriched. */
  code?: CodeLink[];
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
 * Global memories rank just below project memories of the same relevance: their score is
 * multiplied by this (config `recall.globalWeight`). The scores it scales are on one scale
 * (see {@link keywordResults}), so this is the whole project preference.
 */
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
 * Keyword hits of every tier merged into one ranking, best first.
 *
 * Each tier is a separate index, and BM25 weighs a word by how rare it is *in that index*:
 * the same match scores less in a small global tier than in a large project. So each hit's
 * score is moved onto one scale — the idf of its matched words over both tiers together,
 * instead of its own tier's — and global memories then weigh `globalWeight` (default
 * {@link GLOBAL_SCORE_FACTOR}) of project ones. With one tier (or an empty one) nothing moves.
 * Each result also carries its `coverage` of the query, on the same scale.
 */
export function keywordResults(
  tiers: TierIndex[],
  query: string,
  options: SearchOptions & { limit: number; globalWeight?: number },
): RecallResult[] {
  const plan = planQuery(query);
  const terms = [...new Set(plan.terms)];
  const expansions = new Set(plan.expansions);
  const stats = tiers.map((tier) => tier.index.termStats([...terms, ...expansions]));
  const documents = stats.reduce((n, s) => n + s.documents, 0);
  const unionIdf = new Map([...terms, ...expansions].map((t) => [t, idf(stats.reduce((n, s) => n + (s.docFreq.get(t) ?? 0), 0), documents)]));
  // Rarity for coverage is judged as if there were at least COVERAGE_MIN_DOCS memories: in a
  // project of three, every word it has would otherwise look common beside one it lacks.
  const coverageIdf = new Map(terms.map((t) => [t, idf(stats.reduce((n, s) => n + (s.docFreq.get(t) ?? 0), 0), Math.max(documents, COVERAGE_MIN_DOCS))]));
  const weight = (t: string) => coverageIdf.get(t) ?? 0;
  const globalWeight = options.globalWeight ?? GLOBAL_SCORE_FACTOR;
  const merged: RecallResult[] = [];
  tiers.forEach((tier, i) => {
    const own = stats[i]!;
    const factor = tier.scope === 'global' ? globalWeight : 1;
    for (const hit of tier.index.query(query, options)) {
      const doc = tier.index.docs.get(hit.id);
      if (!doc) continue;
      const matched = (hit.queryTerms ?? []).filter((t) => unionIdf.has(t));
      let local = 0;
      let union = 0;
      for (const t of matched) {
        const w = expansions.has(t) ? EXPANSION_WEIGHT : 1;
        local += w * idf(own.docFreq.get(t) ?? 0, own.documents);
        union += w * (unionIdf.get(t) ?? 0);
      }
      const scale = local > 0 ? union / local : 1;
      const result = toResult(doc, hit.score * scale * factor, hit.terms);
      result.coverage = coverageOf(terms, new Set(matched), weight);
      merged.push(result);
    }
  });
  merged.sort((a, b) => b.score - a.score || (a.scope === b.scope ? a.id.localeCompare(b.id) : a.scope === 'project' ? -1 : 1));
  return merged.slice(0, options.limit);
}

/** See `keywordResults`: the smallest corpus size rarity is judged on. */
export const COVERAGE_MIN_DOCS = 100;

/**
 * The idf-weighted share of the query's terms a memory contains; a term it has only
 * through the thesaurus counts {@link EXPANSION_WEIGHT} per synonym found, up to a whole term
 * (the weight synonyms are searched with: "database" is covered by "SQLite" and "Postgres"
 * together more than by either alone).
 */
function coverageOf(terms: readonly string[], matched: ReadonlySet<string>, weight: (t: string) => number): number {
  let total = 0;
  let found = 0;
  for (const t of terms) {
    const w = weight(t);
    total += w;
    if (matched.has(t)) found += w;
    else found += Math.min(1, EXPANSION_WEIGHT * expansionsOf(t).filter((e) => matched.has(e)).length) * w;
  }
  return total > 0 ? found / total : 0;
}

/** The relevance floor in force: the call's own, else the config's. */
export function relevanceOf(ctx: Context, input: Pick<RecallInput, 'relevance'>): Required<RelevanceOptions> {
  return {
    minScoreShare: input.relevance?.minScoreShare ?? ctx.config.recall.minScoreShare,
    minCoverage: input.relevance?.minCoverage ?? ctx.config.recall.minCoverage,
  };
}

/**
 * Recall over both tiers: keyword, semantic or hybrid (see {@link RecallMode}).
 * The keyword path loads neither the vector cache nor the embedding library; deciding
 * the default mode costs one small read of `.memory/vectors.bin`'s header.
 *
 * @example
 * const { results, mode } = await recall(ctx, { query: 'which database did we pick' });
 */
export async function recall(ctx: Context, input: RecallInput): Promise<RecallOutput> {
  if (input.branch !== undefined || input.allBranches) return (await import('./branches.js')).recallBranches(ctx, input);
  const query = input.query.trim();
  if (query === '') throw new UsageError('The query is empty.', { hint: 'Example: cortex recall "database choice"' });
  if (input.mode !== undefined && !RECALL_MODES.includes(input.mode)) {
    throw new UsageError(`Unknown recall mode "${input.mode}".`, { hint: `Use one of: ${RECALL_MODES.join(', ')}.` });
  }
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit, globalWeight: ctx.config.recall.globalWeight };
  const scope = input.scope ? { scope: input.scope } : {};
  const mode = input.mode ?? (hasVectors(ctx, scope) ? 'hybrid' : 'keyword');
  const tiers = openIndexes(ctx, scope);
  let out: RecallOutput;
  if (mode !== 'keyword') {
    const { recallWithVectors } = await import('./hybrid.js');
    out = await recallWithVectors(ctx, { ...input, query, limit, options, mode, tiers });
  } else {
    out = { query, mode: 'keyword', results: keywordResults(tiers, query, options), diagnostics: allDiagnostics(tiers) };
  }
  // `limit` is a maximum: the ranking stops where relevance does.
  const relevant = aboveFloor(out.results, relevanceOf(ctx, input));
  out = { ...out, results: relevant, belowFloor: out.results.length - relevant.length };
  // Graph neighbours and linked code, over the indexes already open.
  if (input.enrich !== false) out = { ...out, results: enrichResults(ctx, out.results, { tiers }) };
  if (input.recordAccess !== false) recordAccess(ctx, out.results);
  return out;
}
