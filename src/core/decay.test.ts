import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from './config.js';
import { DAY_MS, belowThresholdSince, confirmedAt, decayedConfidence, halfLifeFor } from './decay.js';
import { IMMORTAL_TYPES, MEMORY_TYPES, type Memory, type MemoryType } from './memory.js';
import { testMemory } from '../../test/helpers/arbitrary.js';

const T0 = '2026-01-01T00:00:00Z';
const T0_MS = Date.parse(T0);
const at = (days: number): number => T0_MS + days * DAY_MS;

const memory = (over: Partial<Memory> = {}): Memory =>
  testMemory('note-abcdef', { type: 'gotcha', summary: 'A note', confidence: 0.8, created: T0, updated: T0, ...over });

const DECAYING: MemoryType[] = MEMORY_TYPES.filter((t) => !IMMORTAL_TYPES.includes(t));

describe('halfLifeFor', () => {
  it.each([
    ['preference', 90],
    ['pattern', 60],
    ['gotcha', 45],
    ['context', 30],
    ['plan', 14],
    ['progress', 7],
  ] as const)('gives %s a half-life of %d days by default', (type, days) => {
    expect(halfLifeFor(memory({ type }))).toBe(days);
  });

  it.each(IMMORTAL_TYPES)('never lets %s decay', (type) => {
    expect(halfLifeFor(memory({ type }), { accessCount: 100, centrality: 1 })).toBe(Infinity);
  });

  it('doubles when the access count exceeds 10, not at 10', () => {
    expect(halfLifeFor(memory(), { accessCount: 10 })).toBe(45);
    expect(halfLifeFor(memory(), { accessCount: 11 })).toBe(90);
  });

  it('doubles when centrality exceeds 0.5, not at 0.5', () => {
    expect(halfLifeFor(memory(), { centrality: 0.5 })).toBe(45);
    expect(halfLifeFor(memory(), { centrality: 0.51 })).toBe(90);
  });

  it('doubles twice when both thresholds are exceeded', () => {
    expect(halfLifeFor(memory(), { accessCount: 11, centrality: 0.9 })).toBe(180);
  });

  it('is infinite for a pinned memory of any type', () => {
    for (const type of MEMORY_TYPES) expect(halfLifeFor(memory({ type, pinned: true }))).toBe(Infinity);
  });

  it('follows the configured half-lives and thresholds', () => {
    const { config } = resolveConfig({
      decay: { halfLives: { gotcha: 10, decision: 100 }, accessDoublingThreshold: 2 },
    });
    expect(halfLifeFor(memory(), { config, accessCount: 3 })).toBe(20);
    expect(halfLifeFor(memory({ type: 'decision' }), { config })).toBe(100);
  });
});

describe('confirmedAt', () => {
  it('is the later of the last edit and the last access', () => {
    const m = memory({ updated: '2026-01-05T00:00:00Z' });
    expect(confirmedAt(m, { now: 0, lastAccess: '2026-01-03T00:00:00Z' })).toBe(at(4));
    expect(confirmedAt(m, { now: 0, lastAccess: '2026-01-09T00:00:00Z' })).toBe(at(8));
    expect(confirmedAt(m, { now: 0 })).toBe(at(4));
  });

  it('falls back to created when updated is unreadable, and to now when no date is', () => {
    expect(confirmedAt(memory({ updated: 'soon' }), { now: 0 })).toBe(T0_MS);
    expect(confirmedAt(memory({ updated: 'soon', created: 'once' }), { now: 123 })).toBe(123);
  });
});

describe('decayedConfidence', () => {
  it('halves after one half-life, measured from updated', () => {
    const m = memory({ type: 'progress', created: '2025-06-01T00:00:00Z' });
    expect(decayedConfidence(m, { now: at(7) })).toBeCloseTo(0.4, 12);
    expect(decayedConfidence(m, { now: new Date(at(14)) })).toBeCloseTo(0.2, 12);
  });

  it('counts an access as a confirmation: age runs from the later access', () => {
    const m = memory({ type: 'progress' });
    expect(decayedConfidence(m, { now: at(14), lastAccess: new Date(at(7)).toISOString() })).toBeCloseTo(0.4, 12);
  });

  it('uses the doubled half-life of a much-used memory', () => {
    expect(decayedConfidence(memory({ type: 'progress' }), { now: at(14), accessCount: 11 })).toBeCloseTo(0.4, 12);
  });

  it('does not rise above the stored confidence for a date in the future', () => {
    expect(decayedConfidence(memory({ updated: '2027-01-01T00:00:00Z' }), { now: at(1) })).toBe(0.8);
  });

  it('clamps a stored confidence outside 0..1', () => {
    expect(decayedConfidence(memory({ type: 'decision', confidence: 7 }), { now: at(1) })).toBe(1);
    expect(decayedConfidence(memory({ confidence: -1 }), { now: at(1) })).toBe(0);
  });

  it('never increases with age (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MEMORY_TYPES),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -30, max: 5000, noNaN: true }),
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.nat(30),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (type, confidence, age, extra, accessCount, centrality) => {
          const m = memory({ type, confidence });
          const opts = { accessCount, centrality, config: DEFAULT_CONFIG };
          const younger = decayedConfidence(m, { ...opts, now: at(age) });
          const older = decayedConfidence(m, { ...opts, now: at(age + extra) });
          expect(older).toBeLessThanOrEqual(younger);
          expect(younger).toBeLessThanOrEqual(confidence);
          expect(older).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('never decays pinned memories or immortal types (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MEMORY_TYPES),
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (type, pinned, confidence, age) => {
          fc.pre(pinned || IMMORTAL_TYPES.includes(type));
          expect(decayedConfidence(memory({ type, pinned, confidence }), { now: at(age) })).toBe(confidence);
        },
      ),
    );
  });
});

describe('belowThresholdSince', () => {
  it('solves the crossing time from the formula', () => {
    // 0.6 × 0.5^(t/7) < 0.3 ⇔ t > 7 days.
    const m = memory({ type: 'progress', confidence: 0.6 });
    expect(belowThresholdSince(m, { now: 0, threshold: 0.3 })).toBeCloseTo(at(7), -1);
  });

  it('is the confirmation time when the memory starts below the threshold', () => {
    expect(belowThresholdSince(memory({ confidence: 0.2 }), { now: 0, threshold: 0.3 })).toBe(T0_MS);
  });

  it('is null for a memory that never decays and starts above the threshold', () => {
    expect(belowThresholdSince(memory({ type: 'decision' }), { now: 0, threshold: 0.3 })).toBeNull();
    expect(belowThresholdSince(memory({ pinned: true }), { now: 0, threshold: 0.3 })).toBeNull();
  });

  it('agrees with decayedConfidence on both sides of the crossing (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DECAYING),
        fc.double({ min: 0.31, max: 1, noNaN: true }),
        fc.nat(20),
        (type, confidence, accessCount) => {
          const m = memory({ type, confidence });
          const since = belowThresholdSince(m, { now: 0, threshold: 0.3, accessCount });
          expect(since).not.toBeNull();
          const cross = since as number;
          expect(decayedConfidence(m, { now: cross - DAY_MS / 100, accessCount })).toBeGreaterThanOrEqual(0.3);
          expect(decayedConfidence(m, { now: cross + DAY_MS / 100, accessCount })).toBeLessThan(0.3);
        },
      ),
    );
  });
});
