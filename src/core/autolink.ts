/**
 * Automatic links for a new or changed memory, in three tiers by similarity score
 * (DESIGN §2.1, config `autolink`):
 *
 * | score                          | outcome                               |
 * | ------------------------------ | ------------------------------------- |
 * | below relatesMin (0.1)         | nothing                               |
 * | relatesMin ≤ s < suggestedMin  | `relates_to`, status `active`         |
 * | suggestedMin ≤ s < consolidateMin (0.4–0.5) | `relates_to`, status `suggested` |
 * | consolidateMin (0.5) ≤ s       | a consolidation candidate, no edge    |
 *
 * Lower bounds are inclusive. At most `maxEdges` (3) edges per write, the strongest: a
 * memory with twenty weak neighbours is not twenty times better connected, and every edge
 * is a file in the repository. Automatic processes never create `supersedes` (or any
 * relation but `relates_to`): only a person or a confirmed consolidation does. Pure.
 */
import { DEFAULT_CONFIG, type CortexConfig } from './config.js';
import { buildEdge, checkEdgeId, type Edge, type Relation } from './edge.js';
import { formatDate } from './memory.js';

export interface AutoLinkCandidate {
  id: string;
  /** Lexical overlap, 0..1: the rarity-weighted Jaccard of their terms (`rarityOverlap`). */
  jaccard: number;
  /** Cosine similarity of embeddings, when an embedding model is available. */
  cosine?: number | undefined;
}

export interface ConsolidationCandidate {
  /** The memory being linked. */
  a: string;
  /** The near-duplicate. */
  b: string;
  score: number;
}

export interface PlanAutoLinksOptions {
  memory: { id: string };
  candidates: readonly AutoLinkCandidate[];
  /** Thresholds and the edge cap; missing keys take `DEFAULT_CONFIG.autolink`'s. */
  thresholds?: Partial<CortexConfig['autolink']>;
  /** Edges that already exist (files and wikilinks): no new edge repeats one in either direction. */
  existingEdges?: ReadonlyArray<Pick<Edge, 'source' | 'target' | 'relation'>>;
  now: Date;
}

/** Defaults of `planAutoLinks`: the thresholds of `DEFAULT_CONFIG.autolink`, no existing edges. */
export const DEFAULT_PLAN_AUTO_LINKS = {
  thresholds: DEFAULT_CONFIG.autolink,
  existingEdges: [] as ReadonlyArray<Pick<Edge, 'source' | 'target' | 'relation'>>,
};

export interface AutoLinkPlan {
  /** New `relates_to` edges, strongest first. */
  edges: Edge[];
  /** Pairs similar enough to merge, strongest first. */
  consolidate: ConsolidationCandidate[];
}

/**
 * Relations a person sets to say two memories are knowingly distinct: such a pair is
 * never proposed for consolidation.
 */
const DISTINCT_RELATIONS: ReadonlySet<Relation> = new Set(['contradicts', 'supersedes']);

/**
 * The score of a candidate: max(jaccard, cosine) when a cosine exists. Max, not a mean:
 * the two measures miss in different ways (paraphrase vs. shared jargon), and either
 * one being high is evidence enough for a link that a person can still delete.
 *
 * @example
 * autoLinkScore({ id: 'b', jaccard: 0.2, cosine: 0.45 }) // 0.45
 */
export function autoLinkScore(candidate: AutoLinkCandidate): number {
  const cosine = candidate.cosine;
  return cosine === undefined || !Number.isFinite(cosine) ? candidate.jaccard : Math.max(candidate.jaccard, cosine);
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Plans the automatic links of `memory` to its most similar memories. Each edge is
 * `relates_to`, bidirectional (similarity is symmetric), its strength the rounded score,
 * origin `embedding` when the cosine decided the score and `jaccard` otherwise, and a
 * one-line rationale as body. Candidates that are the memory itself, have no usable
 * score or an id that cannot name an edge file are skipped; a candidate listed twice
 * counts once, with its best score. An existing edge between the pair (any relation,
 * either direction) blocks a new edge but not a consolidation proposal, unless it is
 * `contradicts` or `supersedes`: then someone already decided they are distinct.
 *
 * @example
 * planAutoLinks({ memory: { id: 'a' }, candidates: [{ id: 'b', jaccard: 0.2 }], now: new Date('2026-01-01') })
 * // { edges: [{ source: 'a', target: 'b', relation: 'relates_to', status: 'active', strength: 0.2, … }], consolidate: [] }
 */
export function planAutoLinks(options: PlanAutoLinksOptions): AutoLinkPlan {
  const thresholds = { ...DEFAULT_PLAN_AUTO_LINKS.thresholds, ...options.thresholds };
  const existingEdges = options.existingEdges ?? DEFAULT_PLAN_AUTO_LINKS.existingEdges;
  const self = options.memory.id;
  const created = formatDate(options.now);

  const linked = new Set<string>();
  const distinct = new Set<string>();
  for (const e of existingEdges) {
    const other = e.source === self ? e.target : e.target === self ? e.source : undefined;
    if (other === undefined) continue;
    linked.add(other);
    if (DISTINCT_RELATIONS.has(e.relation)) distinct.add(other);
  }

  const best = new Map<string, { score: number; candidate: AutoLinkCandidate }>();
  for (const candidate of options.candidates) {
    const score = autoLinkScore(candidate);
    if (candidate.id === self || !Number.isFinite(score) || checkEdgeId(candidate.id) !== undefined) continue;
    const previous = best.get(candidate.id);
    if (!previous || score > previous.score) best.set(candidate.id, { score, candidate });
  }
  const ranked = [...best.values()].sort(
    (x, y) => y.score - x.score || (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0),
  );

  const edges: Edge[] = [];
  const consolidate: ConsolidationCandidate[] = [];
  for (const { score, candidate } of ranked) {
    const id = candidate.id;
    if (score >= thresholds.consolidateMin) {
      if (!distinct.has(id)) consolidate.push({ a: self, b: id, score });
      continue;
    }
    if (score < thresholds.relatesMin || linked.has(id) || edges.length >= thresholds.maxEdges) continue;
    const byCosine = candidate.cosine !== undefined && Number.isFinite(candidate.cosine) && candidate.cosine > candidate.jaccard;
    const measures = [`weighted jaccard ${round3(candidate.jaccard)}`];
    if (candidate.cosine !== undefined && Number.isFinite(candidate.cosine)) measures.push(`cosine ${round3(candidate.cosine)}`);
    edges.push(
      buildEdge({
        source: self,
        target: id,
        relation: 'relates_to',
        created,
        strength: Math.min(1, Math.max(0, round3(score))),
        status: score >= thresholds.suggestedMin ? 'suggested' : 'active',
        bidirectional: true,
        origin: byCosine ? 'embedding' : 'jaccard',
        body: `Linked automatically: ${measures.join(', ')}.`,
      }),
    );
  }
  return { edges, consolidate };
}
