import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { isTieredDecision, planLifecycle, tierDecisions, tierRankedDecisions } from './lifecycle.js';
import type { Memory } from './memory.js';
import { rankMemories } from './rank.js';

const NOW = new Date('2026-12-01T00:00:00Z');

function memory(id: string, over: Partial<Memory> = {}): Memory {
  return {
    id,
    type: 'progress',
    summary: id,
    scope: 'project',
    priority: 5,
    confidence: 0.8,
    pinned: false,
    status: 'active',
    tags: [],
    created: '2025-01-01T00:00:00Z',
    updated: '2026-10-01T00:00:00Z',
    source: { kind: 'manual' },
    body: '',
    extra: {},
    ...over,
  };
}

describe('planLifecycle', () => {
  // Expectations computed by hand from DESIGN §3 (threshold 0.3 for 14 days, prune after
  // 30, hub protection above 0.5). Progress has a 7-day half-life: 0.8 × 0.5^(t/7) < 0.3
  // from t = 7 × log2(0.8/0.3) ≈ 9.9 days after the last confirmation.
  const memories: Memory[] = [
    // 61 days old: below 0.3 since Oct 10 (51 days) → archived.
    memory('progress-stale-aaaaaa'),
    // 21 days old: below since Nov 19.9, only 11 days → stays.
    memory('progress-recent-bbbbbb', { updated: '2026-11-10T00:00:00Z' }),
    memory('progress-pinned-cccccc', { pinned: true }),
    // Hub (centrality 0.6 > 0.5) → protected.
    memory('progress-hub-dddddd'),
    // Centrality exactly 0.5 is not a hub → archived.
    memory('progress-edge-hub-eeeeee'),
    // Decisions never decay: not archived even at confidence 0.2.
    memory('decision-weak-ffffff', { type: 'decision', confidence: 0.2, updated: '2025-01-01T00:00:00Z' }),
    // Accessed 6 days ago: 0.9 × 0.5^(6/30) ≈ 0.78 → stays.
    memory('context-used-gggggg', { type: 'context', confidence: 0.9, updated: '2026-06-01T00:00:00Z' }),
    // 45 × log2(0.5/0.3) ≈ 33.2 days after June 1 → below since July 4 → archived.
    memory('gotcha-faded-hhhhhh', { type: 'gotcha', confidence: 0.5, updated: '2026-06-01T00:00:00Z' }),
    // Archived Nov 20, accessed Nov 25 → active again.
    memory('archived-reused-iiiiii', { type: 'gotcha', status: 'archived', updated: '2026-11-20T00:00:00Z' }),
    // Archived Oct 1, never touched since: 61 days → pruned.
    memory('archived-old-jjjjjj', { type: 'gotcha', status: 'archived' }),
    // Archived 16 days ago → stays.
    memory('archived-young-kkkkkk', { type: 'gotcha', status: 'archived', updated: '2026-11-15T00:00:00Z' }),
    // The last access was before it was archived: untouched since Oct 1 → pruned.
    memory('archived-touched-before-llllll', { type: 'gotcha', status: 'archived' }),
    memory('superseded-old-mmmmmm', { status: 'superseded', updated: '2025-01-01T00:00:00Z' }),
    memory('archived-pinned-nnnnnn', { status: 'archived', pinned: true, updated: '2025-01-01T00:00:00Z' }),
    // Starts below 0.3: below since exactly 14 days → archived; one second later → stays.
    memory('progress-boundary-oooooo', { confidence: 0.25, updated: '2026-11-17T00:00:00Z' }),
    memory('progress-boundary-late-pppppp', { confidence: 0.25, updated: '2026-11-17T00:00:01Z' }),
    // Archived exactly 30 days ago → pruned.
    memory('archived-boundary-qqqqqq', { status: 'archived', updated: '2026-11-01T00:00:00Z' }),
    // 11 accesses double the half-life to 14; last access Nov 10: below since Nov 29.8 → stays.
    memory('progress-used-rrrrrr', { updated: '2026-09-01T00:00:00Z' }),
    // Like bbbbbb, but the shell observed it below the threshold since Nov 1 → archived.
    memory('progress-known-low-ssssss', { updated: '2026-11-10T00:00:00Z' }),
    // An archived hub is never pruned.
    memory('hub-archived-tttttt', { status: 'archived', updated: '2025-01-01T00:00:00Z' }),
  ];
  const options = {
    now: NOW,
    signals: {
      'context-used-gggggg': { accessCount: 2, lastAccess: '2026-11-25T00:00:00Z' },
      'archived-reused-iiiiii': { accessCount: 1, lastAccess: '2026-11-25T00:00:00Z' },
      'archived-touched-before-llllll': { accessCount: 1, lastAccess: '2026-09-15T00:00:00Z' },
      'progress-used-rrrrrr': { accessCount: 11, lastAccess: '2026-11-10T00:00:00Z' },
    },
    centrality: { 'progress-hub-dddddd': 0.6, 'progress-edge-hub-eeeeee': 0.5, 'hub-archived-tttttt': 0.9 },
    belowSince: { 'progress-known-low-ssssss': '2026-11-01T00:00:00Z' },
  };
  const at = '2026-12-01T00:00:00Z';

  it('lists exactly the transitions DESIGN §3 implies, sorted by id', () => {
    expect(planLifecycle(memories, options)).toEqual([
      {
        id: 'archived-boundary-qqqqqq',
        from: 'archived',
        to: 'pruned',
        at,
        reason: 'archived and untouched since 2026-11-01 (at least 30 days)',
      },
      {
        id: 'archived-old-jjjjjj',
        from: 'archived',
        to: 'pruned',
        at,
        reason: 'archived and untouched since 2026-10-01 (at least 30 days)',
      },
      {
        id: 'archived-reused-iiiiii',
        from: 'archived',
        to: 'active',
        at,
        reason: 'accessed on 2026-11-25, after it was archived on 2026-11-20',
      },
      {
        id: 'archived-touched-before-llllll',
        from: 'archived',
        to: 'pruned',
        at,
        reason: 'archived and untouched since 2026-10-01 (at least 30 days)',
      },
      {
        id: 'gotcha-faded-hhhhhh',
        from: 'active',
        to: 'archived',
        at,
        reason: 'decayed confidence 0.02 has been below 0.3 since 2026-07-04 (at least 14 days)',
      },
      {
        id: 'progress-boundary-oooooo',
        from: 'active',
        to: 'archived',
        at,
        reason: 'decayed confidence 0.06 has been below 0.3 since 2026-11-17 (at least 14 days)',
      },
      {
        id: 'progress-edge-hub-eeeeee',
        from: 'active',
        to: 'archived',
        at,
        reason: 'decayed confidence 0.00 has been below 0.3 since 2026-10-10 (at least 14 days)',
      },
      {
        id: 'progress-known-low-ssssss',
        from: 'active',
        to: 'archived',
        at,
        reason: 'decayed confidence 0.10 has been below 0.3 since 2026-11-01 (at least 14 days)',
      },
      {
        id: 'progress-stale-aaaaaa',
        from: 'active',
        to: 'archived',
        at,
        reason: 'decayed confidence 0.00 has been below 0.3 since 2026-10-10 (at least 14 days)',
      },
    ]);
  });

  it('does not depend on input order', () => {
    const reversed = [...memories].reverse();
    expect(planLifecycle(reversed, options)).toEqual(planLifecycle(memories, options));
  });

  it('follows the configured thresholds', () => {
    const { config } = resolveConfig({ lifecycle: { archiveAfterDays: 0, archiveBelow: 0.5 } });
    // 0.8 × 0.5^(21/7) = 0.1 < 0.5, and no waiting period.
    const plan = planLifecycle([memory('progress-recent-bbbbbb', { updated: '2026-11-10T00:00:00Z' })], { now: NOW, config });
    expect(plan.map((t) => t.to)).toEqual(['archived']);
  });

  it('plans nothing for an empty store', () => {
    expect(planLifecycle([], { now: NOW })).toEqual([]);
  });
});

describe('tierRankedDecisions', () => {
  // Ranks (confidence 0.9 never decays → 0.45, + priority/10 × 0.2, + usage × 0.15;
  // the largest access count is 1, so any accessed memory has usage 1):
  // B 0.74 (accessed Nov 30), E 0.72 (accessed in March), A 0.63 (recent),
  // D 0.61 (old, never accessed), C 0.55 (recent), P 0.49 (pinned).
  const decision = (id: string, priority: number, updated: string, over: Partial<Memory> = {}): Memory =>
    memory(id, { type: 'decision', confidence: 0.9, priority, updated, created: updated, ...over });
  const memories = [
    decision('a-recent', 9, '2026-11-20T00:00:00Z'),
    decision('b-accessed', 7, '2026-01-01T00:00:00Z'),
    decision('c-recent', 5, '2026-11-28T00:00:00Z', { type: 'rejected' }),
    decision('p-pinned', 2, '2026-01-01T00:00:00Z', { pinned: true }),
    decision('d-aging', 8, '2026-01-01T00:00:00Z'),
    decision('e-aging-accessed', 6, '2026-01-01T00:00:00Z'),
    decision('x-archived', 10, '2026-11-30T00:00:00Z', { status: 'archived' }),
    memory('y-gotcha', { type: 'gotcha', updated: '2026-11-30T00:00:00Z' }),
  ];
  const signals = {
    'b-accessed': { accessCount: 1, lastAccess: '2026-11-30T00:00:00Z' },
    'e-aging-accessed': { accessCount: 1, lastAccess: '2026-03-01T00:00:00Z' },
  };

  it('gives full text to recent, recently accessed and pinned decisions up to the cap, then one line, then archive-only', () => {
    const { config } = resolveConfig({ surface: { decisions: { fullCap: 2, oneLineCap: 2 } } });
    const ranked = rankMemories(memories, { now: NOW, signals, config });
    const tiers = tierRankedDecisions(ranked, { now: NOW, signals, config });
    expect(tiers.map(({ id, tier, reason }) => ({ id, tier, reason }))).toEqual([
      { id: 'b-accessed', tier: 'full', reason: 'recently accessed: 2026-11-30 (within 30 days)' },
      { id: 'a-recent', tier: 'full', reason: 'recent: updated 2026-11-20 (within 30 days)' },
      // Recent ones beyond the full cap come before aging ones, whatever their rank.
      { id: 'c-recent', tier: 'one-line', reason: 'recent: updated 2026-11-28 (within 30 days); beyond the full-text cap of 2' },
      { id: 'p-pinned', tier: 'one-line', reason: 'pinned; beyond the full-text cap of 2' },
      {
        id: 'e-aging-accessed',
        tier: 'archive-only',
        reason: 'aging: updated 2026-01-01, last accessed 2026-03-01; beyond the caps of 2 full and 2 one-line decisions',
      },
      {
        id: 'd-aging',
        tier: 'archive-only',
        reason: 'aging: updated 2026-01-01, never accessed; beyond the caps of 2 full and 2 one-line decisions',
      },
    ]);
  });

  it('keeps every decision within the default caps: recent ones full, aging ones one line', () => {
    const tiers = tierRankedDecisions(rankMemories(memories, { now: NOW, signals }), { now: NOW, signals });
    expect(Object.fromEntries(tiers.map((t) => [t.id, t.tier]))).toEqual({
      'b-accessed': 'full',
      'a-recent': 'full',
      'c-recent': 'full',
      'p-pinned': 'full',
      'e-aging-accessed': 'one-line',
      'd-aging': 'one-line',
    });
  });
});

describe('tierDecisions', () => {
  it('ranks and tiers in one call, with the same result as tierRankedDecisions on a full ranking', () => {
    const memories = [
      memory('old-decision', { type: 'decision', updated: '2025-01-01T00:00:00Z' }),
      memory('new-decision', { type: 'decision', updated: '2026-11-30T00:00:00Z' }),
      memory('a-gotcha', { type: 'gotcha' }),
    ];
    const ctx = { now: NOW, signals: { 'a-gotcha': { accessCount: 5 } } };
    expect(tierDecisions(memories, ctx)).toEqual(tierRankedDecisions(rankMemories(memories, ctx), ctx));
    expect(tierDecisions(memories, ctx).map((t) => [t.id, t.tier])).toEqual([
      ['new-decision', 'full'],
      ['old-decision', 'one-line'],
    ]);
  });
});

describe('isTieredDecision', () => {
  it('is true only for active decisions and rejected approaches', () => {
    expect(isTieredDecision({ type: 'decision', status: 'active' })).toBe(true);
    expect(isTieredDecision({ type: 'rejected', status: 'active' })).toBe(true);
    expect(isTieredDecision({ type: 'decision', status: 'superseded' })).toBe(false);
    expect(isTieredDecision({ type: 'gotcha', status: 'active' })).toBe(false);
  });
});
