/**
 * Semantic and hybrid recall: cosine similarity over the cached vectors of the memories
 * that pass the filters, fused with the keyword ranking by reciprocal rank fusion.
 * Imported dynamically by `recall.ts`, only when the mode is not `keyword`.
 */
import { reciprocalRankFusion, topKByCosine, type ScoredId } from '../../core/fusion.js';
import { EmbedUnavailableError, isEmbeddable, queryEmbeddingText, type Embedder } from '../../embed/embedder.js';
import type { IndexedDoc, SearchOptions } from '../../cache/index/search-index.js';
import { embedMissing } from '../../cache/vectors.js';
import type { Context } from '../../services/context.js';
import { degradedNotice, embedItemsFor, loadEmbedder, loadTierVectors, missingDocs, projectName, saveTierVectors, type TierVectors } from '../../services/embed.js';
import { embedSettings } from '../../services/embed-settings.js';
import { allDiagnostics, openIndexes, type TierIndex } from '../../services/indexes.js';
import { keywordResults } from './keyword.js';
import { DEFAULT_GLOBAL_WEIGHT } from '../../core/recall-rank.js';
import { DEFAULT_EMBED_ON_RECALL, relevanceOf, toResult, type RecallInput, type RecallOutput, type RecallResult } from './results.js';

/**
 * Length of each ranking that is fused: deep enough that a memory ranked low by one
 * signal and high by the other still surfaces, shallow enough to stay cheap.
 */
export const FUSION_DEPTH = 50;

/**
 * The guard that keeps hybrid recall from ranking worse than keyword recall: the first
 * keyword results that pass the relevance floor's coverage test (`recall.minCoverage`) lead
 * the hybrid list, up to this many, ordered among themselves by fusion; fusion orders everything after them.
 * So an embedder that knows nothing (a random one, a model for another language) cannot
 * push down what keyword search found, while meaning still reorders the rest of the list
 * and leads when no keyword result says enough of the question (a paraphrase).
 */
export const KEYWORD_HEAD = 3;

export interface VectorRecallPlan extends RecallInput {
  query: string;
  limit: number;
  options: SearchOptions & { limit: number; globalWeight?: number; neighbourWeight?: number };
  mode: 'semantic' | 'hybrid';
  /** The tiers' indexes, when the caller has opened them already. */
  tiers?: TierIndex[];
}

interface Candidate {
  tier: TierIndex;
  doc: IndexedDoc;
}

const keyOf = (scope: string, id: string) => `${scope}:${id}`;

/**
 * Semantic or hybrid recall. Never fails for want of a model: without one (or when it
 * breaks mid-way) the keyword results come back with `mode: 'keyword'` and a notice.
 *
 * @example
 * const out = await recallWithVectors(ctx, { query: 'storage engine', limit: 10, options: { limit: 10 }, mode: 'hybrid' })
 * out.mode // 'hybrid', or 'keyword' with out.notice when no model could be loaded
 */
export async function recallWithVectors(ctx: Context, plan: VectorRecallPlan): Promise<RecallOutput> {
  const { query, limit, options, mode } = plan;
  const tiers = plan.tiers ?? openIndexes(ctx, plan.scope ? { scope: plan.scope } : {});
  const diagnostics = allDiagnostics(tiers);
  const keywordOnly = (notice: string): RecallOutput => ({ query, mode: 'keyword', results: keywordResults(tiers, query, options), diagnostics, notice });

  const loaded = await loadEmbedder(ctx, { timeoutMs: plan.modelTimeoutMs });
  if (!loaded.embedder) return keywordOnly(loaded.notice);
  const embedder = loaded.embedder;
  try {
    const vectors = await Promise.all(tiers.map((tier) => loadTierVectors(ctx, tier, embedder)));
    const notice = await embedNewMemories(vectors, embedder, options, plan.embedOnRecall ?? DEFAULT_EMBED_ON_RECALL);
    const types = plan.types ?? [];
    const [queryVector] = await embedder.embed([queryEmbeddingText(query, { project: projectName(ctx), type: types.length === 1 ? types[0] : undefined })]);
    if (!queryVector) throw new EmbedUnavailableError(`the embedder ${embedder.model} returned no vector for the query`);
    const minSimilarity = plan.minSimilarity ?? embedSettings(ctx).minSimilarity;
    const semantic = semanticRanking(vectors, queryVector, options, { depth: mode === 'semantic' ? limit : Math.max(FUSION_DEPTH, limit), minSimilarity });
    const results = mode === 'semantic' ? semantic.map(({ candidate, similarity, score }) => withSimilarity(toResult(candidate.doc, score, []), similarity)) : fuse(tiers, query, options, semantic, relevanceOf(ctx, plan).minCoverage);
    return { query, mode, results: results.slice(0, limit), diagnostics, ...(notice ? { notice } : {}) };
  } catch (err) {
    // The model loaded but failed on real input (a broken graph, out of memory): still answer.
    if (err instanceof EmbedUnavailableError) return keywordOnly(degradedNotice(err));
    throw err;
  }
}

function withSimilarity(result: RecallResult, similarity: number | undefined): RecallResult {
  return similarity === undefined ? result : { ...result, similarity };
}

/**
 * Embeds memories that pass the filters but have no vector yet (written since the last
 * backfill), when there are few enough; otherwise returns the notice to run the backfill.
 */
async function embedNewMemories(vectors: TierVectors[], embedder: Embedder, options: SearchOptions, budget: number): Promise<string | undefined> {
  const missing = vectors.map((tv) => missingDocs(tv, tv.tier.index.filter(options)));
  const count = missing.reduce((n, docs) => n + docs.length, 0);
  if (count === 0) return undefined;
  if (count > budget) {
    return `semantic recall is incomplete: ${count} ${count === 1 ? 'memory has' : 'memories have'} no vector yet. Fix: run \`cortex index --embed\`.`;
  }
  for (const [i, tv] of vectors.entries()) {
    const docs = missing[i] ?? [];
    if (docs.length === 0) continue;
    const { items } = embedItemsFor(tv, docs);
    await embedMissing({ items, cache: tv.cache, embedder, batchSize: 32 });
    await saveTierVectors(tv, { prune: true });
  }
  return undefined;
}

interface SemanticHit {
  candidate: Candidate;
  /** Raw cosine similarity. */
  similarity: number;
  /** Similarity weighted by tier (global memories slightly below project ones). */
  score: number;
}

/** Memories passing the filters, by cosine similarity to the query, best first. */
function semanticRanking(
  vectors: TierVectors[],
  queryVector: Float32Array,
  options: SearchOptions & { globalWeight?: number },
  settings: { depth: number; minSimilarity: number },
): SemanticHit[] {
  const hits: SemanticHit[] = [];
  for (const tv of vectors) {
    const byKey = new Map<string, Candidate>();
    const entries: { id: string; vector: Float32Array }[] = [];
    for (const doc of tv.tier.index.filter(options)) {
      if (!isEmbeddable(doc)) continue;
      const key = tv.keys.get(doc.id);
      const vector = key === undefined ? undefined : tv.cache.get(key);
      if (!vector) continue;
      byKey.set(doc.id, { tier: tv.tier, doc });
      entries.push({ id: doc.id, vector });
    }
    const factor = tv.tier.scope === 'global' ? (options.globalWeight ?? DEFAULT_GLOBAL_WEIGHT) : 1;
    for (const { id, score: similarity } of topKByCosine(queryVector, entries, settings.depth)) {
      if (similarity < settings.minSimilarity) break;
      const candidate = byKey.get(id) as Candidate;
      hits.push({ candidate, similarity, score: similarity > 0 ? similarity * factor : similarity });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.candidate.doc.id < b.candidate.doc.id ? -1 : a.candidate.doc.id > b.candidate.doc.id ? 1 : 0));
  return hits.slice(0, settings.depth);
}

/**
 * Reciprocal rank fusion of the keyword ranking and the semantic one, after the keyword
 * head (see {@link KEYWORD_HEAD}).
 */
function fuse(
  tiers: TierIndex[],
  query: string,
  options: SearchOptions & { limit: number; globalWeight?: number; neighbourWeight?: number },
  semantic: SemanticHit[],
  headCoverage: number,
): RecallResult[] {
  const keyword = keywordResults(tiers, query, { ...options, limit: Math.max(FUSION_DEPTH, options.limit) });
  const byKey = new Map<string, { result: RecallResult | undefined; hit: SemanticHit | undefined }>();
  for (const result of keyword) byKey.set(keyOf(result.scope, result.id), { result, hit: undefined });
  for (const hit of semantic) {
    const key = keyOf(hit.candidate.tier.scope, hit.candidate.doc.id);
    const entry = byKey.get(key);
    if (entry) entry.hit = hit;
    else byKey.set(key, { result: undefined, hit });
  }
  const head: string[] = [];
  for (const r of keyword) {
    if (head.length >= KEYWORD_HEAD || (r.coverage ?? 0) < headCoverage) break;
    head.push(keyOf(r.scope, r.id));
  }
  const fused: ScoredId[] = reciprocalRankFusion([keyword.map((r) => keyOf(r.scope, r.id)), semantic.map((h) => keyOf(h.candidate.tier.scope, h.candidate.doc.id))]);
  const top = fused[0]?.score ?? 0;
  const inHead = new Set(head);
  // The head, ordered among itself by fusion (what both signals agree on first), scores
  // just above the best fused score, so scores still order the list.
  const headFused = fused.filter((f) => inHead.has(f.id));
  const ordered: ScoredId[] = [
    ...headFused.map((f, i) => ({ id: f.id, score: top * (1 + (headFused.length - i) * 1e-3) })),
    ...fused.filter((f) => !inHead.has(f.id)),
  ];
  return ordered.map(({ id, score }) => {
    const entry = byKey.get(id) as { result: RecallResult | undefined; hit: SemanticHit | undefined };
    const base = entry.result ?? toResult((entry.hit as SemanticHit).candidate.doc, 0, []);
    // What meaning found is judged by its similarity floor, not by the words it shares.
    return withSimilarity({ ...base, score, coverage: entry.hit ? undefined : base.coverage }, entry.hit?.similarity);
  });
}
