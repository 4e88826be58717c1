/**
 * The memory lifecycle (DESIGN §3), planned as data; the shell applies the plan as
 * ordinary file changes (status edits, deletions) that show up in a diff.
 *
 * - active → archived: the decayed confidence has been below `lifecycle.archiveBelow`
 *   for `lifecycle.archiveAfterDays`, the memory is not pinned, and its centrality is at
 *   most `lifecycle.hubCentrality` (hub protection). "Has been below since" needs no stored
 *   history: it is solved from the decay formula (`belowThresholdSince`).
 *   Memories that do not decay (pinned, architecture, decision, rejected, code…) are never
 *   archived by the lifecycle: archiving is the consequence of decay, and decisions get
 *   decision tiering instead, so a low-confidence decision stays readable in decisions.md.
 * - archived → active: accessed after it was archived.
 * - archived → pruned (file deleted; git history keeps it): untouched — neither edited nor
 *   accessed — for `lifecycle.pruneAfterDays`. Pinned memories and hubs are never pruned:
 *   deleting a hub would leave the edges that point at it dangling.
 * - superseded: never touched. A person (or a confirmed consolidation) set that status and
 *   a `supersedes` edge points at the memory; it is the record of what used to be true,
 *   and deleting it automatically would break that edge.
 *
 * The archive date is the memory's `updated`: applying a transition is an edit, so the
 * shell writes `updated: <transition.at>` with the new status. That is what lets
 * "accessed after it was archived" be decided from the file and the usage signal alone.
 */
import { DEFAULT_CONFIG, type CortexConfig } from './config.js';
import { DAY_MS, belowThresholdSince, clamp01, decayedConfidence, halfLifeFor, parseTime, toEpochMs } from './decay.js';
import { formatDate, type Memory, type MemoryStatus } from './memory.js';
import { accessCountOf, rankMemories, type RankContext, type UsageSignal } from './rank.js';

export interface LifecycleTransition {
  id: string;
  from: MemoryStatus;
  to: 'archived' | 'active' | 'pruned';
  reason: string;
  /** When the transition is applied: the shell writes it as the memory's `updated` (not for `pruned`). */
  at: string;
}

export interface LifecycleOptions {
  now: Date | number;
  config?: CortexConfig;
  signals?: Record<string, UsageSignal>;
  centrality?: Record<string, number>;
  /**
   * When the shell has observed it itself: ISO date since which a memory's decayed
   * confidence has been below the threshold. Overrides the value solved from the formula.
   */
  belowSince?: Record<string, string>;
}

export const DEFAULT_LIFECYCLE: Omit<Required<LifecycleOptions>, 'now'> = {
  config: DEFAULT_CONFIG,
  signals: {},
  centrality: {},
  belowSince: {},
};

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function round2(value: number): string {
  return (Math.floor(value * 100) / 100).toFixed(2);
}

/**
 * Plans the lifecycle transitions due at `now`, sorted by id. Pure: nothing is written.
 *
 * @example
 * // A progress memory (7-day half-life) of confidence 0.8, last edited 2026-10-01:
 * planLifecycle([progress], { now: new Date('2026-12-01T00:00:00Z') })
 * // [{ id: progress.id, from: 'active', to: 'archived', at: '2026-12-01T00:00:00Z',
 * //    reason: 'decayed confidence 0.00 has been below 0.3 since 2026-10-10 (at least 14 days)' }]
 */
export function planLifecycle(memories: readonly Memory[], options: LifecycleOptions): LifecycleTransition[] {
  const { now: nowInput, config, signals, centrality, belowSince } = { ...DEFAULT_LIFECYCLE, ...options };
  const now = toEpochMs(nowInput);
  const at = formatDate(new Date(now));
  const { archiveBelow, archiveAfterDays, pruneAfterDays, hubCentrality } = config.lifecycle;
  const out: LifecycleTransition[] = [];

  for (const memory of memories) {
    const signal = signals[memory.id];
    const accessCount = accessCountOf(signal);
    const hub = clamp01(centrality[memory.id] ?? 0);
    const lastAccess = parseTime(signal?.lastAccess);

    if (memory.status === 'active') {
      if (memory.pinned || hub > hubCentrality) continue;
      const decay = { now, config, accessCount, centrality: hub, lastAccess: signal?.lastAccess };
      if (halfLifeFor(memory, decay) === Infinity) continue;
      const decayed = decayedConfidence(memory, decay);
      if (!(decayed < archiveBelow)) continue;
      const since = parseTime(belowSince[memory.id]) ?? belowThresholdSince(memory, { now, config, accessCount, centrality: hub, lastAccess: signal?.lastAccess, threshold: archiveBelow });
      if (since === null || now - since < archiveAfterDays * DAY_MS) continue;
      out.push({
        id: memory.id,
        from: 'active',
        to: 'archived',
        at,
        reason: `decayed confidence ${round2(decayed)} has been below ${archiveBelow} since ${day(since)} (at least ${archiveAfterDays} days)`,
      });
    } else if (memory.status === 'archived') {
      const archivedAt = parseTime(memory.updated) ?? parseTime(memory.created);
      if (lastAccess !== undefined && (archivedAt === undefined || lastAccess > archivedAt)) {
        out.push({
          id: memory.id,
          from: 'archived',
          to: 'active',
          at,
          reason: `accessed on ${day(lastAccess)}, after it was archived${archivedAt === undefined ? '' : ` on ${day(archivedAt)}`}`,
        });
        continue;
      }
      if (memory.pinned || hub > hubCentrality || archivedAt === undefined) continue;
      const touched = Math.max(archivedAt, lastAccess ?? -Infinity);
      if (now - touched >= pruneAfterDays * DAY_MS) {
        out.push({
          id: memory.id,
          from: 'archived',
          to: 'pruned',
          at,
          reason: `archived and untouched since ${day(touched)} (at least ${pruneAfterDays} days)`,
        });
      }
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** How a decision or rejected approach appears in the briefing and the projections. */
export type DecisionTierName = 'full' | 'one-line' | 'archive-only';

export interface DecisionTier {
  id: string;
  tier: DecisionTierName;
  rank: number;
  reason: string;
}

export interface TierDecisionsOptions {
  now: Date | number;
  config?: CortexConfig;
  signals?: Record<string, UsageSignal>;
}

export const DEFAULT_TIER_DECISIONS: Omit<Required<TierDecisionsOptions>, 'now'> = {
  config: DEFAULT_CONFIG,
  signals: {},
};

/**
 * True for the memories decision tiering applies to: active decisions and rejected approaches.
 *
 * @example
 * isTieredDecision({ type: 'rejected', status: 'active' }) // true
 */
export function isTieredDecision(memory: Pick<Memory, 'type' | 'status'>): boolean {
  return memory.status === 'active' && (memory.type === 'decision' || memory.type === 'rejected');
}

/**
 * Tiers already-ranked memories (best first; see `rankMemories`). Only active decisions
 * and rejected approaches are tiered; others are skipped. Recent ones (edited within
 * `surface.decisions.recentDays`), recently accessed ones and pinned ones get the full
 * text, up to `fullCap` in rank order; the rest are one line — recent ones beyond the
 * full cap before aging ones, each group in rank order — up to `oneLineCap`; everything
 * further is archive-only (decisions-archive.md). A decision accessed long ago counts as
 * aging: it is neither recent nor "never accessed", and the design gives it no third tier.
 *
 * @example
 * tierRankedDecisions(rankMemories(decisions, { now }), { now }).map((t) => t.tier) // ['full', 'one-line']
 */
export function tierRankedDecisions(
  ranked: readonly { memory: Memory; rank: number }[],
  options: TierDecisionsOptions,
): DecisionTier[] {
  const { now: nowInput, config, signals } = { ...DEFAULT_TIER_DECISIONS, ...options };
  const now = toEpochMs(nowInput);
  const { fullCap, oneLineCap, recentDays } = config.surface.decisions;
  const recentMs = recentDays * DAY_MS;
  const fresh: DecisionTier[] = [];
  const aging: DecisionTier[] = [];
  for (const { memory, rank } of ranked) {
    if (!isTieredDecision(memory)) continue;
    const edited = Math.max(parseTime(memory.created) ?? -Infinity, parseTime(memory.updated) ?? -Infinity);
    const accessed = parseTime(signals[memory.id]?.lastAccess);
    const id = memory.id;
    if (memory.pinned) fresh.push({ id, rank, tier: 'full', reason: 'pinned' });
    else if (now - edited <= recentMs) {
      fresh.push({ id, rank, tier: 'full', reason: `recent: updated ${day(edited)} (within ${recentDays} days)` });
    } else if (accessed !== undefined && now - accessed <= recentMs) {
      fresh.push({ id, rank, tier: 'full', reason: `recently accessed: ${day(accessed)} (within ${recentDays} days)` });
    } else {
      const when = Number.isFinite(edited) ? `updated ${day(edited)}` : 'no valid date';
      aging.push({
        id,
        rank,
        tier: 'one-line',
        reason: `aging: ${when}, ${accessed === undefined ? 'never accessed' : `last accessed ${day(accessed)}`}`,
      });
    }
  }
  const out: DecisionTier[] = fresh.slice(0, fullCap);
  const oneLine = [
    ...fresh.slice(fullCap).map((t) => ({
      ...t,
      tier: 'one-line' as const,
      reason: `${t.reason}; beyond the full-text cap of ${fullCap}`,
    })),
    ...aging,
  ];
  out.push(...oneLine.slice(0, oneLineCap));
  for (const t of oneLine.slice(oneLineCap)) {
    out.push({
      ...t,
      tier: 'archive-only',
      reason: `${t.reason}; beyond the caps of ${fullCap} full and ${oneLineCap} one-line decisions`,
    });
  }
  return out;
}

/**
 * Ranks and tiers decisions (see `tierRankedDecisions`); the projections use it to split
 * decisions.md from decisions-archive.md, the briefing to choose full text or one line.
 *
 * @example
 * // One decision, confidence 0.95, priority 7, last edited 2026-11-21, never accessed:
 * tierDecisions([decision], { now: new Date('2026-12-01T00:00:00Z') })
 * // [{ id: decision.id, tier: 'full', rank: 0.615, reason: 'recent: updated 2026-11-21 (within 30 days)' }]
 */
export function tierDecisions(memories: readonly Memory[], ctx: RankContext): DecisionTier[] {
  return tierRankedDecisions(rankMemories(memories.filter(isTieredDecision), ctx), {
    now: ctx.now,
    config: ctx.config ?? DEFAULT_CONFIG,
    signals: ctx.signals ?? {},
  });
}
