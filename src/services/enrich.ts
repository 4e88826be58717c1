/**
 * Recall enrichment (DESIGN §7): each result brings the code it describes (over
 * `source_of` edges) and a few graph neighbours, compactly.
 */
import type { Relation } from '../core/edge.js';
import { followSourceOf, neighbours } from '../core/graph.js';
import type { MemoryType } from '../core/memory.js';
import type { Context } from './context.js';
import { findDoc, openGraph } from './graph.js';
import type { TierIndex } from './indexes.js';

/** A neighbour of a recall result. */
export interface RelatedMemory {
  id: string;
  type: MemoryType;
  summary: string;
  relation: Relation;
  /** `out`: the edge points away from the memory one level up; `in`: towards it. */
  direction: 'out' | 'in';
  /** 1 or 2. */
  depth: number;
  /** The memory one level up (the result itself at depth 1). */
  from: string;
}

/** A memory that is the `source_of` a result: the code a description describes. */
export interface CodeLink {
  id: string;
  type: MemoryType;
  summary: string;
  /** Path of the memory file. */
  file: string;
}

export interface EnrichOptions {
  /** Neighbour depth, at most 2. */
  depth: number;
  /** Neighbours per result. */
  limit: number;
  /** Code links per result. */
  codeLimit: number;
}

export const DEFAULT_ENRICH: EnrichOptions = { depth: 2, limit: 5, codeLimit: 3 };

export interface Enrichment {
  related: RelatedMemory[];
  code: CodeLink[];
}

/**
 * Adds `related` and `code` to each result. The graph comes from the cache, so this
 * costs one small file read on a warm run; a missing or broken graph enriches nothing.
 *
 * @example
 * const enriched = enrichResults(ctx, results, { tiers });
 * enriched[0].code // [{ id: 'db-code-ghijkl', type: 'code', summary: 'src/db.ts', file: '…' }]
 */
export function enrichResults<R extends { id: string }>(
  ctx: Context,
  results: R[],
  input: { tiers?: TierIndex[]; options?: Partial<EnrichOptions> } = {},
): Array<R & Enrichment> {
  if (results.length === 0) return [];
  const o = { ...DEFAULT_ENRICH, ...input.options };
  const view = openGraph(ctx, input.tiers ? { tiers: input.tiers } : {});
  return results.map((result) => {
    const code: CodeLink[] = [];
    for (const link of followSourceOf(view.graph, [result.id])) {
      if (link.direction !== 'in' || code.length >= o.codeLimit) continue;
      const found = findDoc(view.tiers, link.id);
      if (found) code.push({ id: link.id, type: found.doc.type, summary: found.doc.summary, file: found.doc.file });
    }
    const shown = new Set(code.map((c) => c.id));
    const related: RelatedMemory[] = [];
    // Depth-1 neighbours come first in `neighbours`: when they fill the list, the depth-2
    // walk (thousands of memories next to a hub) is skipped with the same answer.
    const limit = o.limit + shown.size;
    let near = neighbours(view.graph, result.id, { depth: 1, limit });
    if (near.length < limit && o.depth > 1) near = neighbours(view.graph, result.id, { depth: Math.min(2, o.depth), limit });
    for (const n of near) {
      if (shown.has(n.id) || related.length >= o.limit) continue;
      const found = findDoc(view.tiers, n.id);
      if (!found) continue;
      related.push({ id: n.id, type: found.doc.type, summary: found.doc.summary, relation: n.relation, direction: n.direction, depth: n.depth, from: n.from });
    }
    return { ...result, related, code };
  });
}
