/**
 * Ranking (DESIGN §3):
 *
 *   rank = decayed × w.confidence + priority/10 × w.priority + centrality × w.centrality
 *        + log(access+1)/log(maxAccess+1) × w.usage + branchBoost (when source.branch = current)
 *   clamped to [0, 1]
 *
 * Weights and the boost come from `config.ranking`. Pure: signals, centrality and `now`
 * are plain data passed in.
 */
import { DEFAULT_CONFIG, type CortexConfig } from './config.js';
import { clamp01, decayedConfidence } from './decay.js';
import type { Memory } from './memory.js';

/** Personal usage of one memory, kept in `.memory/` (never tracked). */
export interface UsageSignal {
  accessCount: number;
  /** ISO-8601 date of the last access. */
  lastAccess?: string | undefined;
}

export interface RankContext {
  now: Date | number;
  config?: CortexConfig;
  /** Usage signals by memory id; absent ids have never been accessed. */
  signals?: Record<string, UsageSignal>;
  /** Centrality by memory id, 0..1; absent ids count as 0. */
  centrality?: Record<string, number>;
  /** The checked-out branch; memories recorded on it get the branch boost. */
  currentBranch?: string | undefined;
  /**
   * Largest access count, the usage normaliser. Defaults to the maximum over all of
   * `signals`, so a memory's rank does not depend on which others are ranked with it.
   * `rankMemories` computes it once; pass it when calling `scoreMemory` in a loop.
   */
  maxAccess?: number | undefined;
}

export const DEFAULT_RANK: Omit<Required<RankContext>, 'now' | 'currentBranch' | 'maxAccess'> & {
  currentBranch: string | undefined;
  maxAccess: number | undefined;
} = {
  config: DEFAULT_CONFIG,
  signals: {},
  centrality: {},
  currentBranch: undefined,
  maxAccess: undefined,
};

/** The normalised inputs of the rank, each 0..1 except `branchBoost` (0 or the boost). */
export interface ScoreParts {
  decayed: number;
  priority: number;
  centrality: number;
  usage: number;
  branchBoost: number;
}

export interface MemoryScore {
  rank: number;
  parts: ScoreParts;
}

export interface RankedMemory extends MemoryScore {
  memory: Memory;
}

type RankedFields = Pick<Memory, 'id' | 'type' | 'pinned' | 'confidence' | 'priority' | 'created' | 'updated' | 'source'>;

function finiteOr(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * Access count of a signal, sanitised: signals come from a cache file and may be damaged.
 *
 * @example
 * accessCountOf({ accessCount: Number.NaN }) // 0
 */
export function accessCountOf(signal: UsageSignal | undefined): number {
  return Math.max(0, finiteOr(signal?.accessCount, 0));
}

/**
 * The usage normaliser: the largest access count among `signals`.
 *
 * @example
 * maxAccessCount({ a: { accessCount: 3 }, b: { accessCount: 9 } }) // 9
 */
export function maxAccessCount(signals: Record<string, UsageSignal>): number {
  let max = 0;
  for (const id in signals) max = Math.max(max, accessCountOf(signals[id]));
  return max;
}

/**
 * Scores one memory. `parts` are the normalised inputs, so an explanation can show why
 * one memory outranks another.
 *
 * @example
 * // A gotcha (45-day half-life) of confidence 0.8 and priority 6, last edited 45 days ago
 * // on branch main, accessed 3 times (the most-used memory has 15), centrality 0.2:
 * scoreMemory(gotcha, { now, signals, centrality, currentBranch: 'main' })
 * // { rank: 0.525, parts: { decayed: 0.4, priority: 0.6, centrality: 0.2, usage: 0.5, branchBoost: 0.1 } }
 */
export function scoreMemory(memory: RankedFields, ctx: RankContext): MemoryScore {
  // Destructuring defaults, not an object spread: this runs once per memory.
  const {
    now,
    config = DEFAULT_RANK.config,
    signals = DEFAULT_RANK.signals,
    centrality: centralities = DEFAULT_RANK.centrality,
    currentBranch,
    maxAccess,
  } = ctx;
  const signal = signals[memory.id];
  const accessCount = accessCountOf(signal);
  const centrality = clamp01(finiteOr(centralities[memory.id], 0));
  // Only computed when not given: it is O(|signals|), and rankMemories passes it in.
  const normaliser = typeof maxAccess === 'number' && Number.isFinite(maxAccess) ? maxAccess : maxAccessCount(signals);
  const max = Math.max(accessCount, normaliser);
  const parts: ScoreParts = {
    decayed: decayedConfidence(memory, { now, config, accessCount, centrality, lastAccess: signal?.lastAccess }),
    priority: clamp01(finiteOr(memory.priority, 0) / 10),
    centrality,
    usage: max > 0 ? clamp01(Math.log(accessCount + 1) / Math.log(max + 1)) : 0,
    branchBoost:
      currentBranch !== undefined && memory.source.branch === currentBranch ? finiteOr(config.ranking.branchBoost, 0) : 0,
  };
  const w = config.ranking.weights;
  const raw =
    parts.decayed * w.confidence +
    parts.priority * w.priority +
    parts.centrality * w.centrality +
    parts.usage * w.usage +
    parts.branchBoost;
  return { rank: clamp01(raw), parts };
}

/**
 * Orders memories for display: rank descending, then id ascending (then scope, for the
 * same id in the project and global tiers), so the result does not depend on input order.
 *
 * @example
 * compareRanked({ rank: 0.5, memory: a }, { rank: 0.7, memory: b }) > 0 // b first
 */
export function compareRanked(
  a: { rank: number; memory: Pick<Memory, 'id' | 'scope'> },
  b: { rank: number; memory: Pick<Memory, 'id' | 'scope'> },
): number {
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.memory.id !== b.memory.id) return a.memory.id < b.memory.id ? -1 : 1;
  if (a.memory.scope !== b.memory.scope) return a.memory.scope === 'project' ? -1 : 1;
  return 0;
}

/**
 * Scores and sorts memories, best first (see `compareRanked` for ties). O(n log n).
 *
 * @example
 * rankMemories(memories, { now: Date.parse('2026-12-01T00:00:00Z') }).map((r) => r.memory.id)
 */
export function rankMemories(memories: readonly Memory[], ctx: RankContext): RankedMemory[] {
  const full = { ...DEFAULT_RANK, ...ctx };
  const maxAccess =
    typeof full.maxAccess === 'number' && Number.isFinite(full.maxAccess) ? full.maxAccess : maxAccessCount(full.signals);
  const scoreCtx: RankContext = { ...full, maxAccess };
  return memories
    .map((memory) => {
      const { rank, parts } = scoreMemory(memory, scoreCtx);
      return { memory, rank, parts };
    })
    .sort(compareRanked);
}
