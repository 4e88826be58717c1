import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type CortexConfig } from './config.js';
import { DAY_MS } from './decay.js';
import { MEMORY_TYPES, type Memory } from './memory.js';
import { compareRanked, maxAccessCount, rankMemories, scoreMemory, type UsageSignal } from './rank.js';
import { testMemory } from '../../test/helpers/arbitrary.js';

const NOW = Date.parse('2026-12-01T00:00:00Z');
const daysAgo = (days: number): string => new Date(NOW - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');

const memory = (over: Partial<Memory> = {}): Memory =>
  testMemory('note-abcdef', { type: 'gotcha', summary: 'A note', confidence: 0.8, created: daysAgo(0), updated: daysAgo(0), ...over });

describe('scoreMemory', () => {
  it('follows the DESIGN formula term by term', () => {
    // decayed 0.8 × 0.5^(45/45) = 0.4; priority 6/10; centrality 0.2;
    // usage log(3+1)/log(15+1) = 0.5; same branch: +0.1.
    const m = memory({ id: 'a-abcdef', priority: 6, updated: daysAgo(45), source: { kind: 'manual', branch: 'main' } });
    const score = scoreMemory(m, {
      now: NOW,
      signals: { 'a-abcdef': { accessCount: 3, lastAccess: daysAgo(60) }, other: { accessCount: 15 } },
      centrality: { 'a-abcdef': 0.2 },
      currentBranch: 'main',
    });
    expect(score.parts.decayed).toBeCloseTo(0.4, 12);
    expect(score.parts.priority).toBeCloseTo(0.6, 12);
    expect(score.parts.centrality).toBe(0.2);
    expect(score.parts.usage).toBeCloseTo(0.5, 12);
    expect(score.parts.branchBoost).toBe(0.1);
    expect(score.rank).toBeCloseTo(0.4 * 0.5 + 0.6 * 0.2 + 0.2 * 0.15 + 0.5 * 0.15 + 0.1, 12);
  });

  it('gives the branch boost only on the current branch', () => {
    const m = memory({ source: { kind: 'manual', branch: 'feat/x' } });
    expect(scoreMemory(m, { now: NOW, currentBranch: 'main' }).parts.branchBoost).toBe(0);
    expect(scoreMemory(m, { now: NOW }).parts.branchBoost).toBe(0);
    expect(scoreMemory(m, { now: NOW, currentBranch: 'feat/x' }).parts.branchBoost).toBe(0.1);
  });

  it('scores usage 0 when nothing was ever accessed', () => {
    expect(scoreMemory(memory(), { now: NOW }).parts.usage).toBe(0);
  });

  it('normalises usage by the largest access count of all signals, not of the memories ranked', () => {
    const signals = { 'note-abcdef': { accessCount: 1 }, gone: { accessCount: 3 } };
    expect(scoreMemory(memory(), { now: NOW, signals }).parts.usage).toBeCloseTo(0.5, 12);
    expect(scoreMemory(memory(), { now: NOW, signals, maxAccess: 1 }).parts.usage).toBe(1);
  });

  it('clamps the rank to 1 when configured weights add up to more', () => {
    const config: CortexConfig = {
      ...DEFAULT_CONFIG,
      ranking: { weights: { confidence: 1, priority: 1, centrality: 1, usage: 1 }, branchBoost: 1 },
    };
    const m = memory({ priority: 10, confidence: 1, source: { kind: 'manual', branch: 'main' } });
    expect(scoreMemory(m, { now: NOW, config, currentBranch: 'main' }).rank).toBe(1);
  });

  it('stays in [0, 1] whatever the inputs (property)', () => {
    const weight = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom(...MEMORY_TYPES),
          priority: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constant(Number.NaN)),
          confidence: fc.oneof(fc.double({ min: -1, max: 2 }), fc.constant(Number.NaN)),
          pinned: fc.boolean(),
          age: fc.double({ min: -100, max: 10_000, noNaN: true }),
          access: fc.oneof(fc.nat(1000), fc.constant(-3), fc.constant(Number.NaN)),
          maxOther: fc.nat(1000),
          centrality: fc.oneof(fc.double({ min: -1, max: 2 }), fc.constant(Number.NaN)),
          sameBranch: fc.boolean(),
        }),
        fc.record({ confidence: weight, priority: weight, centrality: weight, usage: weight }),
        weight,
        (input, weights, branchBoost) => {
          const m = memory({
            type: input.type,
            priority: input.priority,
            confidence: input.confidence,
            pinned: input.pinned,
            updated: daysAgo(input.age),
            source: { kind: 'manual', branch: 'b' },
          });
          const signals: Record<string, UsageSignal> = {
            'note-abcdef': { accessCount: input.access },
            other: { accessCount: input.maxOther },
          };
          const config: CortexConfig = { ...DEFAULT_CONFIG, ranking: { weights, branchBoost } };
          const { rank, parts } = scoreMemory(m, {
            now: NOW,
            config,
            signals,
            centrality: { 'note-abcdef': input.centrality },
            currentBranch: input.sameBranch ? 'b' : 'c',
          });
          expect(rank).toBeGreaterThanOrEqual(0);
          expect(rank).toBeLessThanOrEqual(1);
          for (const v of [parts.decayed, parts.priority, parts.centrality, parts.usage]) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });
});

describe('maxAccessCount', () => {
  it('is the largest access count, ignoring damaged entries', () => {
    expect(maxAccessCount({})).toBe(0);
    expect(maxAccessCount({ a: { accessCount: 3 }, b: { accessCount: Number.NaN }, c: { accessCount: 9 } })).toBe(9);
  });
});

describe('compareRanked', () => {
  it('puts the higher rank first, then the smaller id, then the project scope', () => {
    const a = { rank: 0.5, memory: { id: 'b', scope: 'project' as const } };
    const b = { rank: 0.7, memory: { id: 'a', scope: 'project' as const } };
    const c = { rank: 0.5, memory: { id: 'a', scope: 'global' as const } };
    const d = { rank: 0.5, memory: { id: 'a', scope: 'project' as const } };
    expect([a, b, c, d].sort(compareRanked)).toEqual([b, d, c, a]);
  });
});

describe('rankMemories', () => {
  it('sorts by rank, best first', () => {
    const ranked = rankMemories(
      [
        memory({ id: 'low-abcdef', priority: 1 }),
        memory({ id: 'high-abcdef', priority: 9 }),
        memory({ id: 'mid-abcdef', priority: 5 }),
      ],
      { now: NOW },
    );
    expect(ranked.map((r) => r.memory.id)).toEqual(['high-abcdef', 'mid-abcdef', 'low-abcdef']);
  });

  it('breaks ties by id', () => {
    const ranked = rankMemories([memory({ id: 'b-abcdef' }), memory({ id: 'a-abcdef' })], { now: NOW });
    expect(ranked[0]?.rank).toBe(ranked[1]?.rank);
    expect(ranked.map((r) => r.memory.id)).toEqual(['a-abcdef', 'b-abcdef']);
  });

  it('lets a fresh memory outrank the same memory gone stale', () => {
    const ranked = rankMemories(
      [memory({ id: 'old-abcdef', updated: daysAgo(90) }), memory({ id: 'new-abcdef', updated: daysAgo(1) })],
      { now: NOW },
    );
    expect(ranked[0]?.memory.id).toBe('new-abcdef');
  });

  it('does not depend on input order (property)', () => {
    const arbMemory = fc.record({
      id: fc.stringMatching(/^[a-z]{1,6}$/),
      type: fc.constantFrom(...MEMORY_TYPES),
      priority: fc.integer({ min: 1, max: 10 }),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      age: fc.nat(400),
      access: fc.nat(30),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(arbMemory, { selector: (m) => m.id, maxLength: 40 }),
        fc.func(fc.integer()),
        (specs, key) => {
          const signals: Record<string, UsageSignal> = {};
          const memories = specs.map((s) => {
            signals[s.id] = { accessCount: s.access };
            return memory({ id: s.id, type: s.type, priority: s.priority, confidence: s.confidence, updated: daysAgo(s.age) });
          });
          const shuffled = memories
            .map((m, i) => ({ m, k: key(i) }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.m);
          const ids = (list: Memory[]): string[] => rankMemories(list, { now: NOW, signals }).map((r) => r.memory.id);
          expect(ids(shuffled)).toEqual(ids(memories));
        },
      ),
    );
  });
});
