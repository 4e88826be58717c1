/**
 * `consolidate`: review what auto-linking proposed — likely duplicates and suggested
 * edges — and merge two memories into one. Every outcome is a plain file change that
 * git can show and roll back.
 */
import { join } from 'node:path';
import { ConflictError, MemoryNotFoundError, UsageError } from '../errors.js';
import { buildEdge, edgeFileName, RELATIONS, type Edge, type Relation } from '../core/edge.js';
import { buildId, formatDate, normalizeTags, type Memory } from '../core/memory.js';
import { renderMemory } from '../core/memory-format.js';
import { redactSecrets } from '../core/redact.js';
import { readHead } from '../git/head.js';
import { readEdge } from '../store/edge-store.js';
import { withLock } from '../store/lock.js';
import { displayPath } from '../store/memory-store.js';
import { writeMemory } from '../store/memory-write.js';
import { type TierPaths } from '../store/paths.js';
import { assertSafeId, memoryPath } from '../store/memory-path.js';
import { edgeScopeOf, scopePaths, type Context } from '../services/context.js';
import { deleteEdgeRecorded, findDoc, openGraph, relationOf, withEdgeWrite, writeEdgeRecorded } from '../services/graph.js';
import { summaryOf, type GraphNodeSummary } from './traverse.js';
import { saveEdgeCacheQuietly } from '../services/graph-view.js';
import { EdgeCache } from '../cache/edge-cache.js';
import { openTierIndex, tierBase } from '../services/indexes.js';
import { getMemory, regenerateProjections } from './memories.js';
import { markForCommit } from '../services/stage.js';
import { keepForUndo, type UndoInfo } from '../services/undo.js';
import { appendReview, listReview, pairId, removeReview } from '../cache/review-queue.js';
import { lockPath } from '../cache/layout.js';
import { proposeSupersedes, type SupersedeCandidate } from '../core/supersede-proposals.js';

export interface DuplicateProposal {
  /** Queue id. */
  id: string;
  a: GraphNodeSummary;
  b: GraphNodeSummary;
  score: number;
  created: string;
}

export interface SuggestedEdge {
  source: GraphNodeSummary;
  target: GraphNodeSummary;
  relation: Relation;
  strength: number;
  origin: Edge['origin'];
  file: string;
}

export interface SupersedeListing {
  /** The later decision: it would supersede `older`. */
  newer: GraphNodeSummary;
  older: GraphNodeSummary;
  /** Why the two look like one line of decisions (`same topic "…"`, `same subject "…"`). */
  reason: string;
}

export interface ConsolidateList {
  duplicates: DuplicateProposal[];
  suggested: SuggestedEdge[];
  /** Decisions that look replaced by a later one (core/supersede-proposals.ts), for a person to confirm. */
  supersedes: SupersedeListing[];
}

/** Active decisions of every tier, the edges between memories and the rejected pairs: what supersede proposals are made from. */
function supersedeProposals(view: ReturnType<typeof openGraph>): Array<{ newer: string; older: string; reason: string }> {
  const decisions: SupersedeCandidate[] = [];
  for (const tier of view.tiers) {
    for (const f of tier.index.docs.allFacets()) {
      if (f.type !== 'decision' || f.status !== 'active') continue;
      const doc = tier.index.docs.get(f.id);
      if (doc) decisions.push(doc);
    }
  }
  const rejected = view.tiers.flatMap((t) => listReview(t.paths, { kind: 'rejected' })).flatMap((e) => (typeof e.a === 'string' && typeof e.b === 'string' ? [[e.a, e.b] as const] : []));
  return proposeSupersedes(decisions, { edges: view.graph.edges, rejected });
}

/**
 * Likely duplicate pairs from the review queue (both memories still active) and every
 * suggested edge, strongest first.
 *
 * @example
 * listConsolidation(ctx).duplicates[0] // { a: {...}, b: {...}, score: 0.62, … }
 */
export function listConsolidation(ctx: Context): ConsolidateList {
  const view = openGraph(ctx);
  const duplicates: DuplicateProposal[] = [];
  // Auto-linking queues a pair in the tier of its memories: the global tier's are there.
  for (const entry of view.tiers.flatMap((t) => listReview(t.paths, { kind: 'consolidate' }))) {
    const a = typeof entry.a === 'string' ? findDoc(view.tiers, entry.a) : undefined;
    const b = typeof entry.b === 'string' ? findDoc(view.tiers, entry.b) : undefined;
    if (!a || !b || a.doc.status !== 'active' || b.doc.status !== 'active') continue;
    duplicates.push({ id: entry.id, a: summaryOf(a.doc), b: summaryOf(b.doc), score: typeof entry.score === 'number' ? entry.score : 0, created: entry.created });
  }
  duplicates.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  const suggested: SuggestedEdge[] = [];
  for (const e of view.graph.edges) {
    if (e.status !== 'suggested') continue;
    const a = findDoc(view.tiers, e.source);
    const b = findDoc(view.tiers, e.target);
    if (!a || !b) continue;
    const scope = edgeScopeOf(a.tier.scope, b.tier.scope);
    const tier = view.tiers.find((t) => t.scope === scope) ?? view.tiers[0]!;
    suggested.push({
      source: summaryOf(a.doc),
      target: summaryOf(b.doc),
      relation: e.relation,
      strength: e.strength,
      origin: e.origin,
      file: displayPath(join(tier.paths.edgesDir, edgeFileName(e)), tier.base),
    });
  }
  suggested.sort((x, y) => y.strength - x.strength || (x.file < y.file ? -1 : 1));
  const supersedes: SupersedeListing[] = [];
  for (const p of supersedeProposals(view)) {
    const newer = findDoc(view.tiers, p.newer);
    const older = findDoc(view.tiers, p.older);
    if (newer && older) supersedes.push({ newer: summaryOf(newer.doc), older: summaryOf(older.doc), reason: p.reason });
  }
  return { duplicates, suggested, supersedes };
}

export interface ReviewPairInput {
  a: string;
  b: string;
  /** Only this relation (aliases accepted); any relation when omitted. */
  relation?: string;
}

export interface ReviewPairOutput {
  /** Edge files changed (accept) or removed (reject). */
  edges: Array<{ source: string; relation: Relation; target: string; file: string }>;
  /** True when a duplicate proposal for the pair was taken off the queue. */
  dismissed: boolean;
  /** Accept of a supersede proposal: the older decision, now marked `superseded`. */
  superseded?: { id: string; file: string; by: string } | undefined;
  /** Reject of a supersede proposal: true when it was recorded as rejected (not proposed again). */
  supersedeRejected?: boolean | undefined;
  /** How to undo an accepted supersede proposal (the memory rewritten, the edge file created). */
  undo?: UndoInfo | undefined;
  /** Projection files regenerated after a supersede was accepted. */
  projections?: string[] | undefined;
}

/** The supersede proposal for the pair a/b (either order), when one is made now. */
function proposalFor(ctx: Context, a: string, b: string): { newer: string; older: string; reason: string } | undefined {
  return supersedeProposals(openGraph(ctx)).find((p) => (p.newer === a && p.older === b) || (p.newer === b && p.older === a));
}

/**
 * Confirms a supersede proposal: writes the `supersedes` edge from the newer decision to the
 * older (origin `consolidation`; an edge a person already wrote is kept as it is) and marks the
 * older one `superseded`. The older file is kept for undo first (git restore, or a copy in the
 * trash when it has uncommitted changes).
 */
async function confirmSupersede(ctx: Context, proposal: { newer: string; older: string; reason: string }): Promise<Pick<ReviewPairOutput, 'edges' | 'superseded' | 'undo' | 'projections'>> {
  const found = getMemory(ctx, proposal.older);
  const paths = scopePaths(ctx, found.scope);
  const base = tierBase(ctx, found.scope);
  const undo = await keepForUndo(ctx, [{ path: memoryPath(paths, proposal.older), scope: found.scope }], 'supersede');
  const result = await withEdgeWrite({ paths, base }, (cache) => {
    // Read again under the lock: what is marked is what the file holds now.
    const older = getMemory(ctx, proposal.older).memory;
    assertMergeable(older);
    const now = formatDate(ctx.now());
    const key = { source: proposal.newer, relation: 'supersedes' as const, target: proposal.older };
    const edges: ReviewPairOutput['edges'] = [];
    const created: string[] = [];
    const existing = readEdge(paths, key, base)?.edge;
    if (existing === undefined || existing.status !== 'active') {
      const edge = buildEdge({ ...key, created: now, strength: 1, origin: 'consolidation', body: `Confirmed with cortex consolidate --accept: ${proposal.newer} replaces ${proposal.older} (${proposal.reason}).` });
      const { file } = writeEdgeRecorded({ paths, base }, cache, existing === undefined ? edge : { ...existing, status: 'active' });
      edges.push({ ...key, file });
      if (existing === undefined) created.push(file);
    }
    const written = writeMemory(paths, { ...older, status: 'superseded', updated: now });
    // Re-reads the changed memory file and saves the index.
    openTierIndex(ctx, found.scope);
    return { edges, created, superseded: { id: older.id, file: displayPath(written.path, base), by: proposal.newer } };
  });
  const full: UndoInfo = { ...undo, ...(result.created.length > 0 ? { created: result.created } : {}) };
  let projections: string[] = [];
  if (found.scope === 'project') {
    projections = await regenerateProjections(ctx);
    if (projections.length > 0) full.then = 'cortex project';
    markForCommit(ctx, [...result.created, result.superseded.file]);
  }
  return { edges: result.edges, superseded: result.superseded, undo: full, projections };
}

/** The tier whose edge directory holds edges between these two memories. */
function pairTier(ctx: Context, a: string, b: string): { paths: TierPaths; base: string } {
  const view = openGraph(ctx);
  const x = findDoc(view.tiers, a);
  const y = findDoc(view.tiers, b);
  if (!x) throw new MemoryNotFoundError(a, { hint: 'Run `cortex consolidate` to see the pending proposals.' });
  if (!y) throw new MemoryNotFoundError(b, { hint: 'Run `cortex consolidate` to see the pending proposals.' });
  const scope = edgeScopeOf(x.tier.scope, y.tier.scope);
  return { paths: scopePaths(ctx, scope), base: tierBase(ctx, scope) };
}

function suggestedBetween(tier: { paths: TierPaths; base: string }, a: string, b: string, relation: string | undefined): Edge[] {
  const relations: Relation[] = relation === undefined ? [...RELATIONS] : [relationOf(relation).relation];
  const found: Edge[] = [];
  for (const r of relations) {
    for (const [source, target] of [
      [a, b],
      [b, a],
    ] as const) {
      const edge = readEdge(tier.paths, { source, relation: r, target }, tier.base)?.edge;
      if (edge && edge.status === 'suggested') found.push(edge);
    }
  }
  return found;
}

/**
 * Accepts the suggested edges between two memories: they become active.
 *
 * @example
 * await acceptSuggested(ctx, { a: 'wal-mode-p2x81d', b: 'locking-q7m2zz' }); // { edges: [{ … }], dismissed: false }
 */
export async function acceptSuggested(ctx: Context, input: ReviewPairInput): Promise<ReviewPairOutput> {
  assertSafeId(input.a);
  assertSafeId(input.b);
  const tier = pairTier(ctx, input.a, input.b);
  const edges = await withEdgeWrite(tier, (cache) =>
    suggestedBetween(tier, input.a, input.b, input.relation).map((edge) => {
      const { file } = writeEdgeRecorded(tier, cache, { ...edge, status: 'active' });
      return { source: edge.source, relation: edge.relation, target: edge.target, file };
    }),
  );
  const proposal = wantsSupersede(input.relation) ? proposalFor(ctx, input.a, input.b) : undefined;
  if (proposal === undefined) return { edges, dismissed: false };
  const confirmed = await confirmSupersede(ctx, proposal);
  return { ...confirmed, edges: [...edges, ...confirmed.edges], dismissed: false };
}

/** Whether --relation (when given) asks for `supersedes`. */
function wantsSupersede(relation: string | undefined): boolean {
  return relation === undefined || relationOf(relation).relation === 'supersedes';
}

/**
 * Rejects what was proposed for two memories: their suggested edges are deleted and a
 * duplicate proposal is dismissed. The pair is remembered locally, so auto-linking does
 * not propose it again.
 *
 * @example
 * await rejectSuggested(ctx, { a: 'wal-mode-p2x81d', b: 'locking-q7m2zz' });
 */
export async function rejectSuggested(ctx: Context, input: ReviewPairInput): Promise<ReviewPairOutput> {
  assertSafeId(input.a);
  assertSafeId(input.b);
  const tier = pairTier(ctx, input.a, input.b);
  const edges = await withEdgeWrite(tier, (cache) =>
    suggestedBetween(tier, input.a, input.b, input.relation).map((edge) => {
      deleteEdgeRecorded(tier, cache, edge);
      return {
        source: edge.source,
        relation: edge.relation,
        target: edge.target,
        file: displayPath(join(tier.paths.edgesDir, edgeFileName(edge)), tier.base),
      };
    }),
  );
  // The queue of the pair's tier, which auto-linking writes and reads for this pair.
  const dismissed = (await removeReview(tier.paths, [pairId('consolidate', input.a, input.b)])) > 0;
  const supersedeRejected = wantsSupersede(input.relation) && proposalFor(ctx, input.a, input.b) !== undefined;
  if (edges.length > 0 || dismissed || supersedeRejected) {
    await appendReview(tier.paths, [{ kind: 'rejected', id: pairId('rejected', input.a, input.b), created: formatDate(ctx.now()), a: input.a, b: input.b }]);
  }
  return { edges, dismissed, ...(supersedeRejected ? { supersedeRejected } : {}) };
}

export interface MergeInput {
  a: string;
  b: string;
  /** Merge even when the two files have uncommitted changes (git cannot roll those back). */
  force?: boolean;
  /** Summary of the merged memory (default: that of the memory with the higher priority). */
  summary?: string;
}

export interface MergeResult {
  memory: Memory;
  /** Path of the new memory file. */
  file: string;
  superseded: Array<{ id: string; file: string }>;
  edges: Array<{ source: string; relation: Relation; target: string; file: string }>;
  /** How to undo the merge: restore the two memories, delete the files it created. */
  undo: UndoInfo;
  /** Projection files regenerated. */
  projections: string[];
}

function mergedBody(summary: string, primary: Memory, secondary: Memory): string {
  const parts: string[] = [];
  for (const text of [primary.summary, primary.body, secondary.summary, secondary.body]) {
    const t = text.trim();
    if (t === '' || t === summary.trim() || parts.includes(t)) continue;
    parts.push(t);
  }
  return parts.join('\n\n');
}

function assertMergeable(...memories: Memory[]): void {
  for (const m of memories) {
    if (m.status === 'superseded') {
      throw new UsageError(`${m.id} is already superseded.`, { hint: `Run \`cortex traverse ${m.id} --types supersedes --direction in\` to find what replaced it.` });
    }
  }
}

/**
 * Merges two memories: writes one new memory (confidence 1.0, the higher priority, the
 * union of tags, both bodies), `supersedes` edges from it to both, and marks both
 * `superseded`. Refuses when either file has uncommitted changes, unless `force`.
 *
 * @example
 * const { memory } = await mergeMemories(ctx, { a: 'use-wal-k3f9qa', b: 'wal-mode-p2x81d' });
 */
export async function mergeMemories(ctx: Context, input: MergeInput): Promise<MergeResult> {
  if (input.a === input.b) throw new UsageError('Cannot merge a memory with itself.', { hint: 'Name two different memories.' });
  const x = getMemory(ctx, input.a);
  const y = getMemory(ctx, input.b);
  if (x.scope !== y.scope) {
    throw new UsageError(`${input.a} is a ${x.scope} memory and ${input.b} a ${y.scope} one.`, { hint: 'Merge memories of the same scope.' });
  }
  assertMergeable(x.memory, y.memory);
  const paths = scopePaths(ctx, x.scope);
  const base = tierBase(ctx, x.scope);
  const files = [memoryPath(paths, input.a), memoryPath(paths, input.b)];
  if (!input.force) {
    const { fileStatuses } = await import('../git/status.js');
    const statuses = await fileStatuses(x.scope === 'project' ? ctx.root : paths.cortexDir, files);
    if (!statuses) {
      throw new ConflictError('Not in a git repository: nothing could undo this merge.', { hint: 'Run it inside a git repository, or pass --force.' });
    }
    const dirty = statuses.filter((s) => !s.clean);
    if (dirty.length > 0) {
      throw new ConflictError(`Uncommitted changes: ${dirty.map((s) => `${s.path} (${s.status.replace(/^\*/, '')})`).join(', ')}.`, {
        hint: 'Commit them first so git can undo the merge, or pass --force.',
        data: { files: dirty.map((s) => s.path) },
      });
    }
  }
  const head = x.scope === 'project' ? readHead(ctx.root) : undefined;
  // With --force, files git cannot restore are copied to .memory/trash/ first.
  const undo = await keepForUndo(ctx, files.map((path) => ({ path, scope: x.scope })), 'merge');

  const result = await withLock(lockPath(paths.cacheDir, 'write'), async () => {
    // Read again under the lock: what is merged is what the files hold now.
    const a = getMemory(ctx, input.a).memory;
    const b = getMemory(ctx, input.b).memory;
    assertMergeable(a, b);
    const aFirst = a.priority !== b.priority ? a.priority > b.priority : a.updated >= b.updated;
    const [primary, secondary] = aFirst ? [a, b] : [b, a];
    // Redacted before the id is made from it: an id (and file name) never holds a secret.
    const summary = redactSecrets((input.summary ?? primary.summary).replace(/\s+/g, ' ').trim()).text;
    if (summary === '') throw new UsageError('The summary must not be empty.');
    const now = formatDate(ctx.now());
    const tier = openTierIndex(ctx, x.scope, { save: false });
    let id = buildId(summary, ctx.randomBytes);
    while (tier.index.docs.has(id)) id = buildId(summary, ctx.randomBytes);
    const files = [...new Set([...(primary.source.files ?? []), ...(secondary.source.files ?? [])])];
    const merged: Memory = {
      id,
      type: primary.type,
      summary,
      scope: primary.scope,
      priority: Math.max(a.priority, b.priority),
      confidence: 1,
      pinned: a.pinned || b.pinned,
      status: 'active',
      tags: normalizeTags([...primary.tags, ...secondary.tags]),
      ...((primary.topic ?? secondary.topic) !== undefined ? { topic: primary.topic ?? secondary.topic } : {}),
      created: now,
      updated: now,
      source: {
        kind: 'consolidation',
        layer: 'manual',
        ...(head?.branch !== undefined ? { branch: head.branch } : {}),
        ...(head?.commit !== undefined ? { commit: head.commit.slice(0, 12) } : {}),
        ...(files.length > 0 ? { files } : {}),
      },
      body: mergedBody(summary, primary, secondary),
      extra: { ...secondary.extra, ...primary.extra },
    };
    // Sanity: the rendering must parse back before anything is touched.
    renderMemory(merged);
    // Crash-safe order. Each step leaves a state `cortex lint` names with its fix: the
    // edges alone are `edge-dangling` (delete them, merge again); edges and the merged
    // memory with an original still active are `merge-incomplete` (mark it superseded).
    const tierPaths = { paths, base };
    const cache = EdgeCache.load(paths);
    cache.refresh(paths, { base });
    const edges: MergeResult['edges'] = [];
    for (const old of [a, b]) {
      const edge = buildEdge({
        source: id,
        target: old.id,
        relation: 'supersedes',
        created: now,
        strength: 1,
        origin: 'consolidation',
        body: `Merged ${a.id} and ${b.id} into ${id} (cortex consolidate --merge).`,
      });
      const { file } = writeEdgeRecorded(tierPaths, cache, edge);
      edges.push({ source: id, relation: 'supersedes', target: old.id, file });
    }
    const written = writeMemory(paths, merged);
    const superseded: MergeResult['superseded'] = [];
    for (const old of [a, b]) {
      const w = writeMemory(paths, { ...old, status: 'superseded', updated: now });
      superseded.push({ id: old.id, file: displayPath(w.path, base) });
    }
    saveEdgeCacheQuietly(cache, paths);
    // Re-reads the three changed memory files and saves the index.
    openTierIndex(ctx, x.scope);
    await removeReview(paths, [pairId('consolidate', a.id, b.id)]);
    const file = displayPath(written.path, base);
    return { memory: written.memory, file, superseded, edges, undo: { ...undo, created: [file, ...edges.map((e) => e.file)] }, projections: [] as string[] };
  });
  if (x.scope === 'project') {
    result.projections = await regenerateProjections(ctx);
    if (result.projections.length > 0) result.undo.then = 'cortex project';
    markForCommit(ctx, result.undo.created ?? []);
  }
  return result;
}
