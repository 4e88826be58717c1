/**
 * Confidence decay (DESIGN §3): `decayed = confidence × 0.5^(age_days / half_life)`.
 * Pure: `now` and the usage signals arrive as arguments.
 *
 * Age is measured from the memory's last *confirmation*: the later of its last edit
 * (`updated`) and its last access. An edit re-states the memory, so it is as fresh as
 * the day it was written. An access means a session used it, and counting that as
 * confirmation is what makes the lifecycle rule "archived → active again on access"
 * stable: a reactivated memory starts a new half-life instead of being archived again
 * on the very next run because its `updated` date is still old. Accesses are personal
 * signals, so decay (like the rank) is a per-developer view; it is never written to
 * the tracked file.
 */
import { DEFAULT_CONFIG, type CortexConfig } from './config.js';
import type { Memory } from './memory.js';

export const DAY_MS = 86_400_000;

export interface HalfLifeOptions {
  config?: CortexConfig;
  /** Total accesses of this memory (usage signal). */
  accessCount?: number;
  /** In-degree centrality of this memory, 0..1. */
  centrality?: number;
}

export const DEFAULT_HALF_LIFE: Required<HalfLifeOptions> = { config: DEFAULT_CONFIG, accessCount: 0, centrality: 0 };

export interface DecayOptions extends HalfLifeOptions {
  now: Date | number;
  /** ISO date of the last access, if any: an access confirms the memory (see the module comment). */
  lastAccess?: string | undefined;
}

export const DEFAULT_DECAY: Required<HalfLifeOptions> & { lastAccess: string | undefined } = {
  ...DEFAULT_HALF_LIFE,
  lastAccess: undefined,
};

/**
 * Epoch milliseconds of a `Date | number` time.
 *
 * @example
 * toEpochMs(new Date('1970-01-01T00:00:01Z')) // 1000
 */
export function toEpochMs(time: Date | number): number {
  return typeof time === 'number' ? time : time.getTime();
}

/**
 * Epoch ms of an ISO date, or `undefined` when absent or unparseable.
 *
 * @example
 * parseTime('not a date') // undefined
 */
export function parseTime(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Clamps to [0, 1]; NaN becomes 0.
 *
 * @example
 * clamp01(1.7) // 1
 */
export function clamp01(value: number): number {
  if (!(value > 0)) return 0;
  return value > 1 ? 1 : value;
}

/**
 * Half-life in days, after the doublings: once when the access count exceeds
 * `config.decay.accessDoublingThreshold`, again when centrality exceeds
 * `config.decay.centralityDoublingThreshold`. `Infinity` for pinned memories and for
 * types whose configured half-life is `null` (architecture, decision, rejected, code…).
 *
 * @example
 * halfLifeFor({ type: 'gotcha', pinned: false }, { accessCount: 11, centrality: 0.6 }) // 180
 * halfLifeFor({ type: 'decision', pinned: false }) // Infinity
 */
export function halfLifeFor(memory: Pick<Memory, 'type' | 'pinned'>, options: HalfLifeOptions = {}): number {
  // Destructuring defaults, not an object spread: this runs once per memory per ranking.
  const {
    config = DEFAULT_HALF_LIFE.config,
    accessCount = DEFAULT_HALF_LIFE.accessCount,
    centrality = DEFAULT_HALF_LIFE.centrality,
  } = options;
  if (memory.pinned) return Infinity;
  const base = config.decay.halfLives[memory.type];
  if (base === null || base === undefined || !(base > 0)) return Infinity;
  let halfLife = base;
  if (accessCount > config.decay.accessDoublingThreshold) halfLife *= 2;
  if (centrality > config.decay.centralityDoublingThreshold) halfLife *= 2;
  return halfLife;
}

/**
 * Epoch ms of the last confirmation: the later of `updated` (falling back to `created`)
 * and `lastAccess`. Unparseable dates are ignored; with none at all the memory counts as
 * confirmed `now`, so a damaged date never makes a memory look ancient.
 *
 * @example
 * confirmedAt({ created: '2026-01-01T00:00:00Z', updated: '2026-01-05T00:00:00Z' }, { now: 0, lastAccess: '2026-01-03T00:00:00Z' })
 * // Date.parse('2026-01-05T00:00:00Z')
 */
export function confirmedAt(
  memory: Pick<Memory, 'created' | 'updated'>,
  options: { now: Date | number; lastAccess?: string | undefined },
): number {
  const edited = parseTime(memory.updated) ?? parseTime(memory.created);
  const accessed = parseTime(options.lastAccess);
  if (edited === undefined && accessed === undefined) return toEpochMs(options.now);
  return Math.max(edited ?? -Infinity, accessed ?? -Infinity);
}

/**
 * Confidence after decay, in [0, 1]. Never above the stored confidence: a date in the
 * future (clock skew between machines) counts as age 0.
 *
 * @example
 * decayedConfidence(
 *   { type: 'progress', pinned: false, confidence: 0.8, created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z' },
 *   { now: new Date('2026-01-08T00:00:00Z') },
 * ) // 0.4 (one 7-day half-life)
 */
export function decayedConfidence(
  memory: Pick<Memory, 'type' | 'pinned' | 'confidence' | 'created' | 'updated'>,
  options: DecayOptions,
): number {
  const { now, lastAccess = DEFAULT_DECAY.lastAccess } = options;
  const confidence = clamp01(memory.confidence);
  const halfLife = halfLifeFor(memory, options);
  if (halfLife === Infinity || confidence === 0) return confidence;
  const ageDays = Math.max(0, (toEpochMs(now) - confirmedAt(memory, { now, lastAccess })) / DAY_MS);
  return clamp01(confidence * 0.5 ** (ageDays / halfLife));
}

/**
 * Epoch ms from which the decayed confidence is below `threshold`, solved from the decay
 * formula: `c × 0.5^(t/h) < θ  ⇔  t > h × log2(c/θ)`. A memory already below at its last
 * confirmation crossed at that instant. `null` when it never goes below (no decay and
 * not below already). The half-life used is today's (with today's doublings); history of
 * the signals is not kept, and the lifecycle only needs "has it been low long enough".
 *
 * @example
 * belowThresholdSince(
 *   { type: 'progress', pinned: false, confidence: 0.6, created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z' },
 *   { now: 0, threshold: 0.3 },
 * ) // Date.parse('2026-01-08T00:00:00Z') (one half-life of 7 days)
 */
export function belowThresholdSince(
  memory: Pick<Memory, 'type' | 'pinned' | 'confidence' | 'created' | 'updated'>,
  options: DecayOptions & { threshold: number },
): number | null {
  const { now, lastAccess = DEFAULT_DECAY.lastAccess, threshold } = options;
  const confidence = clamp01(memory.confidence);
  const start = confirmedAt(memory, { now, lastAccess });
  if (confidence < threshold) return start;
  const halfLife = halfLifeFor(memory, options);
  if (halfLife === Infinity || !(threshold > 0)) return null;
  return start + halfLife * Math.log2(confidence / threshold) * DAY_MS;
}
