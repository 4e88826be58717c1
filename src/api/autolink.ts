/**
 * Auto-linking after a write (DESIGN §2.1): the new or changed memory is compared with
 * its closest memories — found through the keyword index, never by reading every
 * file — and linked in tiers by similarity: `relates_to` (active), `relates_to`
 * (suggested), or a consolidation candidate in the local review queue. Automatic
 * processes never write `supersedes`.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { planAutoLinks, type AutoLinkCandidate, type ConsolidationCandidate } from '../core/autolink.js';
import { RELATIONS, checkEdgeId, edgeFileName, type Edge } from '../core/edge.js';
import { formatDate, type Memory } from '../core/memory.js';
import { jaccard, tokenSet } from '../core/similarity.js';
import { EdgeCache } from '../search/edge-cache.js';
import { readMemoryById } from '../store/memory-store.js';
import type { Context } from './context.js';
import { writeEdgeRecorded } from './graph.js';
import type { TierIndex } from './indexes.js';
import { appendReview, listReview, pairId, type ReviewEntry } from './review-queue.js';

/** Finds vectors for memories, when an embedding cache exists. */
export interface VectorLookup {
  get(memory: Pick<Memory, 'type' | 'summary' | 'body'>): Float32Array | undefined;
}

export interface AutoLinkOptions {
  /** How many keyword-index hits are compared. */
  candidates: number;
  /**
   * Vectors for the cosine score; `undefined` reads `.memory/vectors.bin` when it exists
   * (no model is ever loaded here), `null` disables the cosine.
   */
  vectors: VectorLookup | null | undefined;
}

export const DEFAULT_AUTO_LINK: AutoLinkOptions = { candidates: 20, vectors: undefined };

export interface AutoLinkResult {
  /** Edge files written: `relates_to`, active or suggested. */
  edges: Array<Pick<Edge, 'source' | 'target' | 'relation' | 'status' | 'strength' | 'origin'> & { file: string }>;
  /** Likely duplicates queued for `cortex consolidate`. */
  consolidate: ConsolidationCandidate[];
  /** Memories compared. */
  compared: number;
  /** Set when auto-linking failed; the memory itself was written. */
  error?: string;
}

/**
 * Key of a memory's vector in `.memory/vectors.bin`: SHA-256 of its embedding text.
 * It must equal the key the embedding indexer writes, or no cosine is found (then the
 * score is Jaccard alone, which is the documented degraded mode).
 *
 * @example
 * vectorKeyOf(memory, embeddingText) // '9f86d081884c7d65…' (64 hex digits)
 */
export function vectorKeyOf(memory: Pick<Memory, 'type' | 'summary' | 'body'>, embeddingText: (m: Pick<Memory, 'type' | 'summary' | 'body'>) => string): string {
  return createHash('sha256').update(embeddingText(memory)).digest('hex');
}

async function cachedVectors(ctx: Context, tier: TierIndex): Promise<VectorLookup | undefined> {
  const file = join(tier.paths.cacheDir, 'vectors.bin');
  if (!existsSync(file)) return undefined;
  const [{ loadVectorCache }, { embeddingText, resolveEmbedOptions }] = await Promise.all([
    import('../search/vectors.js'),
    import('../embed/embedder.js'),
  ]);
  const embed = resolveEmbedOptions({ env: ctx.env, config: ctx.config });
  if (!embed.enabled) return undefined;
  const cache = await loadVectorCache(file, { model: `${embed.model}:${embed.dtype}` });
  if (cache.status !== 'loaded' || cache.size === 0) return undefined;
  return { get: (m) => cache.get(vectorKeyOf(m, (x) => embeddingText(x))) };
}

function cosineOf(a: Float32Array, b: Float32Array): number | undefined {
  if (a.length !== b.length) return undefined;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The words a memory is compared by: its summary and body. */
function wordsOf(memory: Pick<Memory, 'summary' | 'body'>): Set<string> {
  return tokenSet(`${memory.summary}\n${memory.body}`);
}

/**
 * Links `memory` (just written to `tier`) to its most similar memories. The caller holds
 * the tier's write lock and has recorded the memory in `tier.index`.
 *
 * @example
 * const result = await autoLinkMemory(ctx, { tier, memory }); // { edges: [...], consolidate: [...], compared: 20 }
 */
export async function autoLinkMemory(ctx: Context, input: { tier: TierIndex; memory: Memory; options?: Partial<AutoLinkOptions> }): Promise<AutoLinkResult> {
  const o = { ...DEFAULT_AUTO_LINK, ...input.options };
  const { tier, memory } = input;
  const result: AutoLinkResult = { edges: [], consolidate: [], compared: 0 };
  if (memory.status !== 'active') return result;

  const query = [memory.summary, ...memory.tags].join(' ');
  const hits = tier.index.query(query, { limit: o.candidates + 1, statuses: ['active'], expand: false }).filter((h) => h.id !== memory.id);
  if (hits.length === 0) return result;

  const vectors = o.vectors === null ? undefined : (o.vectors ?? (await cachedVectors(ctx, tier)));
  const mine = wordsOf(memory);
  const myVector = vectors?.get(memory);
  const candidates: AutoLinkCandidate[] = [];
  for (const hit of hits.slice(0, o.candidates)) {
    const doc = tier.index.docs.get(hit.id);
    if (!doc) continue;
    // The index keeps a preview, not the body: read the file (20 small reads, not a scan).
    let other: Pick<Memory, 'type' | 'summary' | 'body'> = { type: doc.type, summary: doc.summary, body: doc.preview };
    try {
      other = readMemoryById(tier.paths, doc.id, tier.base).memory ?? other;
    } catch {
      // Deleted meanwhile: compare what the index knows.
    }
    const theirVector = myVector ? vectors?.get(other) : undefined;
    const cosine = myVector && theirVector ? cosineOf(myVector, theirVector) : undefined;
    candidates.push({ id: doc.id, jaccard: jaccard(mine, wordsOf(other)), ...(cosine !== undefined ? { cosine } : {}) });
  }
  result.compared = candidates.length;

  // Existing edges of each candidate pair: a few hundred stats, not the edge cache (MBs).
  const existingEdges: Array<Pick<Edge, 'source' | 'target' | 'relation'>> = [];
  const exists = (key: Pick<Edge, 'source' | 'target' | 'relation'>) => existsSync(join(tier.paths.edgesDir, edgeFileName(key)));
  const myDoc = tier.index.docs.get(memory.id);
  for (const c of candidates) {
    if (checkEdgeId(c.id) !== undefined || checkEdgeId(memory.id) !== undefined) continue;
    for (const relation of RELATIONS) {
      const out = { source: memory.id, relation, target: c.id };
      const back = { source: c.id, relation, target: memory.id };
      if (exists(out)) existingEdges.push(out);
      if (exists(back)) existingEdges.push(back);
    }
    if (myDoc?.links?.includes(c.id)) existingEdges.push({ source: memory.id, relation: 'relates_to', target: c.id });
    if (tier.index.docs.get(c.id)?.links?.includes(memory.id)) existingEdges.push({ source: c.id, relation: 'relates_to', target: memory.id });
  }
  // Pairs a person rejected stay apart: no edge, no new proposal.
  const rejected = new Set(listReview(tier.paths, { kind: 'rejected' }).map((e) => e.id));
  const plan = planAutoLinks({
    memory,
    candidates: candidates.filter((c) => !rejected.has(pairId('rejected', memory.id, c.id))),
    thresholds: ctx.config.autolink,
    existingEdges,
    now: ctx.now(),
  });

  // planAutoLinks only plans relates_to; the filter keeps that a property of the shell too.
  const edges = plan.edges.filter((edge) => edge.relation === 'relates_to');
  if (edges.length > 0) {
    const cache = EdgeCache.load(tier.paths);
    cache.refresh(tier.paths, { base: tier.base });
    for (const edge of edges) {
      const { file } = writeEdgeRecorded(tier, cache, edge);
      result.edges.push({ source: edge.source, target: edge.target, relation: edge.relation, status: edge.status, strength: edge.strength, origin: edge.origin, file });
    }
    try {
      cache.save(tier.paths);
    } catch {
      // A cache.
    }
  }
  const created = formatDate(ctx.now());
  const entries: ReviewEntry[] = plan.consolidate.map((c) => ({
    kind: 'consolidate',
    id: pairId('consolidate', c.a, c.b),
    created,
    a: c.a,
    b: c.b,
    score: Math.round(c.score * 1000) / 1000,
  }));
  await appendReview(tier.paths, entries);
  result.consolidate = plan.consolidate;
  return result;
}
