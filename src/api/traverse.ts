/**
 * `traverseMemories`: the memories linked to one, level by level, over the cached graph.
 */
import { MemoryNotFoundError, UsageError } from '../errors.js';
import { traverse, type TraverseDirection, type TraverseVia } from '../core/graph.js';
import { type Diagnostic, type MemoryStatus, type MemoryType, type Scope } from '../core/memory.js';
import type { IndexedDoc } from '../cache/index/search-index.js';
import { assertSafeId } from '../store/memory-path.js';
import type { Context } from '../services/context.js';
import { findDoc, openGraph, relationOf } from '../services/graph.js';

export interface TraverseInput {
  id: string;
  /** 0..10, default 2. */
  depth?: number;
  /** Only these relations (aliases accepted). */
  types?: readonly string[] | undefined;
  direction?: TraverseDirection;
  minStrength?: number;
  /** Also walk `suggested` edges. */
  includeSuggested?: boolean;
}

export interface GraphNodeSummary {
  id: string;
  type: MemoryType;
  summary: string;
  status: MemoryStatus;
  scope: Scope;
}

export interface TraverseOutput {
  start: GraphNodeSummary;
  depth: number;
  direction: TraverseDirection;
  levels: Array<{ depth: number; nodes: Array<GraphNodeSummary & { via: TraverseVia }> }>;
  /** Memories reached, all levels together. */
  total: number;
  diagnostics: Diagnostic[];
}

export const DEFAULT_TRAVERSE_INPUT = { depth: 2, direction: 'both' as TraverseDirection, minStrength: 0 };

export function summaryOf(doc: Pick<IndexedDoc, 'id' | 'type' | 'summary' | 'status' | 'scope'>): GraphNodeSummary {
  return { id: doc.id, type: doc.type, summary: doc.summary, status: doc.status, scope: doc.scope };
}

/**
 * Breadth-first walk from a memory, grouped by depth. Each memory appears once, at its
 * shallowest depth, so cycles end; broken edges are skipped.
 *
 * @example
 * traverseMemories(ctx, { id: 'chose-sqlite-k3f9qa', depth: 3, direction: 'out' }).levels[0].nodes
 */
export function traverseMemories(ctx: Context, input: TraverseInput): TraverseOutput {
  const o = { ...DEFAULT_TRAVERSE_INPUT, ...input };
  assertSafeId(o.id);
  if (!Number.isInteger(o.depth) || o.depth < 0 || o.depth > 10) throw new UsageError(`--depth must be an integer from 0 to 10, got ${o.depth}.`);
  if (!['out', 'in', 'both'].includes(o.direction)) throw new UsageError(`--direction must be out, in or both, got "${o.direction}".`);
  if (!(o.minStrength >= 0 && o.minStrength <= 1)) throw new UsageError(`--min-strength must be a number from 0 to 1, got ${o.minStrength}.`);
  const types = o.types?.map((t) => relationOf(t).relation);
  const view = openGraph(ctx);
  const start = findDoc(view.tiers, o.id);
  if (!start) throw new MemoryNotFoundError(o.id);
  const levels = traverse(view.graph, o.id, {
    depth: o.depth,
    direction: o.direction,
    types,
    minStrength: o.minStrength,
    includeSuggested: o.includeSuggested === true,
  });
  const out: TraverseOutput['levels'] = levels.map((level) => ({
    depth: level.depth,
    nodes: level.nodes.map((n) => {
      const found = findDoc(view.tiers, n.id);
      return { ...(found ? summaryOf(found.doc) : { id: n.id, type: 'context' as MemoryType, summary: '', status: 'active' as MemoryStatus, scope: 'project' as Scope }), via: n.via };
    }),
  }));
  return {
    start: summaryOf(start.doc),
    depth: o.depth,
    direction: o.direction,
    levels: out,
    total: out.reduce((n, l) => n + l.nodes.length, 0),
    diagnostics: view.diagnostics,
  };
}
