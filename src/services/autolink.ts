/**
 * Auto-linking after a write (DESIGN §2.1): the new or changed memory is compared with
 * its closest memories — found through the keyword index, never by reading every
 * file — and linked in tiers by similarity: `relates_to` (active), `relates_to`
 * (suggested), or a consolidation candidate in the local review queue. Words count by
 * their rarity in the index (a store of chat turns all saying "said" and a date is not a
 * web of related memories), and a write adds at most `autolink.maxEdges` edges. The cost
 * is bounded: one exact-term query, a fixed number of candidates, a few hundred stats.
 * Automatic processes never write `supersedes`.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { autoLinkScore, planAutoLinks, type AutoLinkCandidate, type ConsolidationCandidate } from '../core/autolink.js';
import { RELATIONS, checkEdgeId, edgeFileName, type Edge } from '../core/edge.js';
import { cosine as cosineSimilarity } from '../core/fusion.js';
import { formatDate, type Memory } from '../core/memory.js';
import { rarityOverlap } from '../core/similarity.js';
import { analyze } from '../core/text.js';
import { embeddingText } from '../embed/embedder.js';
import { contentKeyOf } from '../cache/index/search-index.js';
import { writeEdge } from '../store/edge-write.js';
import { displayPath, readMemoryById } from '../store/memory-store.js';
import type { Context } from './context.js';
import { embedSettings, vectorsFile } from './embed-settings.js';
import type { TierIndex } from './indexes.js';
import { appendReview, pairId, queuedIds, type ReviewEntry } from '../cache/review-queue.js';

/** Finds vectors for memories, when an embedding cache exists. */
export interface VectorLookup {
  get(memory: Pick<Memory, 'type' | 'summary' | 'body'>): Float32Array | undefined;
  /** The vector of a memory not in the cache (the one just written), when an embedder is at hand. */
  embed?(memory: Pick<Memory, 'type' | 'summary' | 'body'>): Promise<Float32Array | undefined>;
}

export interface AutoLinkOptions {
  /** How many keyword-index hits are compared. */
  candidates: number;
  /**
   * Vectors for the cosine score; `undefined` reads `.memory/vectors.bin` when it exists
   * (no model is ever loaded here: the new memory has a vector when its text was embedded
   * before or the context holds an embedder), `null` disables the cosine.
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

/** The vector lookup of a tier's `vectors.bin`, kept while the file is unchanged (a batch of writes reads it once). */
const lookups = new WeakMap<TierIndex, { stamp: string; lookup: Promise<VectorLookup | undefined> }>();

/**
 * Vectors from the tier's `.memory/vectors.bin`, under the key and model identity the
 * embedding indexer writes (`vectorKey`, `embedSettings(ctx).identity`), so a memory
 * embedded by `cortex index --embed` or a hybrid recall is found. No model is loaded.
 */
function cachedVectors(ctx: Context, tier: TierIndex): Promise<VectorLookup | undefined> {
  const file = vectorsFile(tier.paths);
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return Promise.resolve(undefined);
  }
  // Resolved only when there are vectors: most stores have none.
  const settings = embedSettings(ctx);
  if (!settings.enabled) return Promise.resolve(undefined);
  const stamp = `${settings.identity}\n${stat.size}\n${stat.mtimeMs}`;
  const known = lookups.get(tier);
  if (known?.stamp === stamp) return known.lookup;
  const lookup = (async (): Promise<VectorLookup | undefined> => {
    const [{ loadVectorCache }, { projectFor, vectorKey }] = await Promise.all([import('../cache/vectors.js'), import('./embed.js')]);
    const cache = await loadVectorCache(file, { model: settings.identity }).catch(() => undefined);
    if (cache?.status !== 'loaded' || cache.size === 0) return undefined;
    const project = projectFor(ctx, tier.scope);
    const embedder = ctx.embedder;
    return {
      get: (m) => cache.get(vectorKey({ contentKey: contentKeyOf(m) }, project)),
      // Only an embedder the process already holds (library, MCP server): a write never loads a model.
      ...(embedder ? { embed: async (m) => (await embedder.embed([embeddingText(m, { project })]))[0] } : {}),
    };
  })();
  lookups.set(tier, { stamp, lookup });
  return lookup;
}

/** The terms a memory is compared by: its summary and body, analysed as the index analyses them. */
function termsOf(memory: Pick<Memory, 'summary' | 'body'>): Set<string> {
  return new Set(analyze(`${memory.summary}\n${memory.body}`));
}

/** How many memories' terms {@link recentTerms} keeps. */
export const TERMS_KEPT = 8192;

/**
 * The terms of the memories compared lately, by id, content key and summary (the key stands
 * for the body: leading blank lines and trailing space aside, which analyse to nothing): in a
 * long-lived process (the MCP server) the same memories are candidates write after write, and
 * a body longer than the index's preview would be read from its file each time. Least
 * recently used first.
 */
const recentTerms = new Map<string, Set<string>>();

function termsKey(doc: { id: string; contentKey: string; summary: string }): string {
  return `${doc.id}\0${doc.contentKey}\0${doc.summary}`;
}

function keptTerms(key: string): Set<string> | undefined {
  const terms = recentTerms.get(key);
  if (terms !== undefined) {
    recentTerms.delete(key);
    recentTerms.set(key, terms);
  }
  return terms;
}

function keepTerms(key: string, terms: Set<string>): void {
  recentTerms.set(key, terms);
  if (recentTerms.size > TERMS_KEPT) recentTerms.delete(recentTerms.keys().next().value as string);
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
  // No feedback: its extra terms find memories that share words with the hits, not with this
  // one. Exact words: the candidates are compared by the words they share (a prefix or fuzzy
  // match counts for nothing there), and at 100,000 memories fuzzy matching a summary's words
  // was half the query.
  const hits = tier.index
    .query(query, { limit: o.candidates + 1, statuses: ['active'], expand: false, feedback: false, exact: true })
    .filter((h) => h.id !== memory.id);
  if (hits.length === 0) return result;

  const vectors = o.vectors === null ? undefined : (o.vectors ?? (await cachedVectors(ctx, tier)));
  const mine = termsOf(memory);
  const myDoc = tier.index.docs.get(memory.id);
  if (myDoc && myDoc.contentKey === contentKeyOf(memory)) keepTerms(termsKey(myDoc), mine);
  const rarity = { ...tier.index.rarity(), commonShare: ctx.config.autolink.commonShare };
  const myVector = vectors?.get(memory) ?? (await vectors?.embed?.(memory).catch(() => undefined));
  const candidates: AutoLinkCandidate[] = [];
  for (const hit of hits.slice(0, o.candidates)) {
    const doc = tier.index.docs.get(hit.id);
    if (!doc) continue;
    const key = termsKey(doc);
    // Known terms do without the text, unless a vector of it is wanted.
    let theirs = myVector ? undefined : keptTerms(key);
    let other: Pick<Memory, 'type' | 'summary' | 'body'> = { type: doc.type, summary: doc.summary, body: doc.preview };
    if (theirs === undefined) {
      // The index keeps the body's first 240 characters: the whole body of most memories. A
      // longer one is read from its file (at most `candidates` small reads, never a scan).
      let whole = doc.bodyLength <= doc.preview.length;
      if (!whole) {
        try {
          const read = readMemoryById(tier.paths, doc.id, tier.base).memory;
          if (read) [other, whole] = [read, read.summary === doc.summary && contentKeyOf(read) === doc.contentKey];
        } catch {
          // Deleted meanwhile: compare what the index knows.
        }
      }
      theirs = termsOf(other);
      if (whole) keepTerms(key, theirs);
    }
    const theirVector = myVector ? vectors?.get(other) : undefined;
    const cosine = myVector && theirVector && myVector.length === theirVector.length ? cosineSimilarity(myVector, theirVector) : undefined;
    candidates.push({ id: doc.id, jaccard: rarityOverlap(mine, theirs, rarity).score, ...(cosine !== undefined ? { cosine } : {}) });
  }
  result.compared = candidates.length;

  // Pairs a person rejected stay apart: no edge, no new proposal.
  const rejected = queuedIds(tier.paths, 'rejected');
  const eligible = candidates.filter((c) => !rejected.has(pairId('rejected', memory.id, c.id)));
  // Existing edges of the pairs that could be linked or merged, strongest first: a few stats
  // each, not the edge cache (its size grows with the store). Pairs below relatesMin need
  // none, and once maxEdges pairs are free to link the weaker ones cannot be linked anyway.
  const t = ctx.config.autolink;
  const existingEdges: Array<Pick<Edge, 'source' | 'target' | 'relation'>> = [];
  const exists = (key: Pick<Edge, 'source' | 'target' | 'relation'>) => existsSync(join(tier.paths.edgesDir, edgeFileName(key)));
  let free = 0;
  // In planAutoLinks' order (score, then id), so the pairs it links are the pairs checked here.
  for (const c of [...eligible].sort((a, b) => autoLinkScore(b) - autoLinkScore(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const score = autoLinkScore(c);
    if (!(score >= t.relatesMin) || (score < t.consolidateMin && free >= t.maxEdges)) continue;
    if (checkEdgeId(c.id) !== undefined || checkEdgeId(memory.id) !== undefined) continue;
    const before = existingEdges.length;
    for (const relation of RELATIONS) {
      const out = { source: memory.id, relation, target: c.id };
      const back = { source: c.id, relation, target: memory.id };
      if (exists(out)) existingEdges.push(out);
      if (exists(back)) existingEdges.push(back);
    }
    if (myDoc?.links?.includes(c.id)) existingEdges.push({ source: memory.id, relation: 'relates_to', target: c.id });
    if (tier.index.docs.get(c.id)?.links?.includes(memory.id)) existingEdges.push({ source: c.id, relation: 'relates_to', target: memory.id });
    if (score < t.consolidateMin && existingEdges.length === before) free++;
  }
  const plan = planAutoLinks({
    memory,
    candidates: eligible,
    thresholds: t,
    existingEdges,
    now: ctx.now(),
  });

  // planAutoLinks only plans relates_to; the filter keeps that a property of the shell too.
  const edges = plan.edges.filter((edge) => edge.relation === 'relates_to');
  // Written without loading `.memory/edges.json` (its load and save grow with the store): the
  // next reader sees the edges directory changed and reads just the new files.
  for (const edge of edges) {
    const written = writeEdge(tier.paths, edge);
    const file = displayPath(written.path, tier.base);
    result.edges.push({ source: edge.source, target: edge.target, relation: edge.relation, status: edge.status, strength: edge.strength, origin: edge.origin, file });
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
