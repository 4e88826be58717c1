/**
 * `link` and `unlink`: an edge file between two memories, written or deleted under the
 * tier's write lock, with the edge cache kept in step (DESIGN §2.1).
 */
import { join } from 'node:path';
import { MemoryNotFoundError, UsageError } from '../errors.js';
import { RELATIONS, buildEdge, edgeFileName, type Edge, type Relation } from '../core/edge.js';
import { formatDate, type Scope } from '../core/memory.js';
import type { IndexedDoc } from '../cache/index/search-index.js';
import { readEdge } from '../store/edge-store.js';
import { displayPath } from '../store/memory-store.js';
import { type TierPaths } from '../store/paths.js';
import { assertSafeId } from '../store/memory-path.js';
import { edgeScopeOf, scopePaths, type Context } from '../services/context.js';
import { keepForUndo, type UndoInfo } from '../services/undo.js';
import { tierBase, type TierIndex } from '../services/indexes.js';
import { deleteEdgeRecorded, findDoc, graphTiers, relationOf, withEdgeWrite, writeEdgeRecorded } from '../services/graph.js';

function edgeTier(ctx: Context, a: { tier: TierIndex }, b: { tier: TierIndex }): { paths: TierPaths; base: string; scope: Scope } {
  const scope: Scope = edgeScopeOf(a.tier.scope, b.tier.scope);
  return { scope, paths: scopePaths(ctx, scope), base: tierBase(ctx, scope) };
}

function locateBoth(ctx: Context, source: string, target: string): { tiers: TierIndex[]; a: { doc: IndexedDoc; tier: TierIndex }; b: { doc: IndexedDoc; tier: TierIndex } } {
  assertSafeId(source);
  assertSafeId(target);
  const tiers = graphTiers(ctx, undefined);
  const a = findDoc(tiers, source);
  if (!a) throw new MemoryNotFoundError(source);
  const b = findDoc(tiers, target);
  if (!b) throw new MemoryNotFoundError(target);
  return { tiers, a, b };
}

export interface LinkInput {
  source: string;
  /** A relation or an alias; a reversed alias (`superseded_by`) swaps the endpoints. */
  relation: string;
  target: string;
  /** 0..1 (default 0.5 for a new edge; unchanged for an existing one). */
  strength?: number;
  /** The rationale, written as the edge file's body. */
  note?: string;
  /** Write the edge as `suggested` (awaiting review) instead of `active`. */
  suggested?: boolean;
  bidirectional?: boolean;
}

export interface LinkResult {
  action: 'created' | 'updated' | 'unchanged';
  edge: Edge;
  /** Path of the edge file, relative to the repository root for project edges. */
  file: string;
  /** True when a reversed alias swapped source and target. */
  reversed: boolean;
}

/**
 * Links two memories with an edge file. Linking an existing edge again updates the
 * fields given (and makes a suggested edge active unless `suggested` is set).
 *
 * @example
 * await link(ctx, { source: 'wal-mode-p2x81d', relation: 'refines', target: 'chose-sqlite-k3f9qa', note: 'WAL is how SQLite copes with the hooks.' });
 */
export async function link(ctx: Context, input: LinkInput): Promise<LinkResult> {
  const { relation, reversed } = relationOf(input.relation);
  const [source, target] = reversed ? [input.target, input.source] : [input.source, input.target];
  if (input.strength !== undefined && !(input.strength >= 0 && input.strength <= 1)) {
    throw new UsageError(`Strength must be a number from 0 to 1, got ${input.strength}.`);
  }
  if (source === target) throw new UsageError(`Cannot link ${source} to itself.`, { hint: 'An edge joins two different memories.' });
  const { a, b } = locateBoth(ctx, source, target);
  const tier = edgeTier(ctx, a, b);
  return withEdgeWrite(tier, (cache) => {
    const existing = readEdge(tier.paths, { source, relation, target }, tier.base)?.edge;
    const edge: Edge = existing
      ? {
          ...existing,
          ...(input.strength !== undefined ? { strength: input.strength } : {}),
          status: input.suggested ? 'suggested' : 'active',
          ...(input.bidirectional !== undefined ? { bidirectional: input.bidirectional } : {}),
          ...(input.note !== undefined ? { body: input.note } : {}),
        }
      : buildEdge({
          source,
          target,
          relation,
          created: formatDate(ctx.now()),
          origin: 'manual',
          status: input.suggested ? 'suggested' : 'active',
          ...(input.strength !== undefined ? { strength: input.strength } : {}),
          ...(input.bidirectional !== undefined ? { bidirectional: input.bidirectional } : {}),
          ...(input.note !== undefined ? { body: input.note } : {}),
        });
    const { file, result } = writeEdgeRecorded(tier, cache, edge);
    return { action: result, edge, file, reversed };
  });
}

export interface UnlinkInput {
  source: string;
  target: string;
  /** Only this relation (aliases accepted); every relation in both directions when omitted. */
  relation?: string;
}

export interface UnlinkOutput {
  removed: Array<{ source: string; relation: Relation; target: string; file: string }>;
  /** Set when a `[[link]]` in a body joins the two: it is an edge no file holds. */
  wikilinkFrom?: string | undefined;
  /** How to get the removed edge files back. */
  undo?: UndoInfo | undefined;
}

/**
 * Removes the edge files between two memories: the one named by `relation`, or every
 * one between them in either direction. `[[links]]` in bodies are reported, not edited.
 *
 * @example
 * await unlink(ctx, { source: 'a-k3f9qa', target: 'b-p2x81d' }); // { removed: [...] }
 */
export async function unlink(ctx: Context, input: UnlinkInput): Promise<UnlinkOutput> {
  const { a, b } = locateBoth(ctx, input.source, input.target);
  const keys: Array<{ source: string; relation: Relation; target: string }> = [];
  if (input.relation !== undefined) {
    const { relation, reversed } = relationOf(input.relation);
    keys.push(reversed ? { source: input.target, relation, target: input.source } : { source: input.source, relation, target: input.target });
  } else {
    for (const relation of RELATIONS) {
      keys.push({ source: input.source, relation, target: input.target }, { source: input.target, relation, target: input.source });
    }
  }
  const tier = edgeTier(ctx, a, b);
  const undo = await keepForUndo(
    ctx,
    keys.filter((k) => k.source !== k.target).map((k) => ({ path: join(tier.paths.edgesDir, edgeFileName(k)), scope: tier.scope })),
    'unlink',
  );
  const removed = await withEdgeWrite(tier, (cache) => {
    const done: UnlinkOutput['removed'] = [];
    for (const key of keys) {
      if (key.source === key.target) continue;
      const file = displayPath(join(tier.paths.edgesDir, edgeFileName(key)), tier.base);
      if (deleteEdgeRecorded(tier, cache, key)) done.push({ ...key, file });
    }
    return done;
  });
  const wikilinkFrom = a.doc.links?.includes(b.doc.id) ? a.doc.id : b.doc.links?.includes(a.doc.id) ? b.doc.id : undefined;
  return { removed, ...(wikilinkFrom ? { wikilinkFrom } : {}), ...(removed.length > 0 ? { undo } : {}) };
}

