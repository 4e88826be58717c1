/**
 * Golden briefings: each `test/fixtures/surface-<scenario>/` holds `memories/*.md`, a
 * `context.json` (now, branch, signals, centrality, staleness, budget, config overrides)
 * and the `expected.md` briefing, checked by hand.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { parseMemory } from './memory-format.js';
import type { Memory } from './memory.js';
import type { UsageSignal } from './rank.js';
import { renderSurface, renderSurfaceText } from './surface-render.js';
import { SURFACE_TEMPLATE } from '../../test/helpers/templates.js';
import { buildSurface, type ExplainRow, type SurfaceContext } from './surface.js';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url);
const SCENARIOS = readdirSync(FIXTURES)
  .filter((name) => name.startsWith('surface-'))
  .sort();

interface FixtureContext {
  now: string;
  currentBranch?: string;
  budget?: number;
  signals?: Record<string, UsageSignal>;
  centrality?: Record<string, number>;
  staleness?: Record<string, string[]>;
  config?: unknown;
}

function loadFixture(name: string): { memories: Memory[]; ctx: SurfaceContext; expected: string } {
  const dir = new URL(`${name}/`, FIXTURES);
  const memories = readdirSync(new URL('memories/', dir))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const { memory, diagnostics } = parseMemory(readFileSync(new URL(`memories/${file}`, dir), 'utf8'), {
        file,
        expectedId: file.slice(0, -3),
      });
      expect(diagnostics).toEqual([]);
      return memory as Memory;
    });
  const raw = JSON.parse(readFileSync(new URL('context.json', dir), 'utf8')) as FixtureContext;
  const { config, diagnostics } = resolveConfig(raw.config);
  expect(diagnostics).toEqual([]);
  const ctx: SurfaceContext = {
    now: new Date(raw.now),
    currentBranch: raw.currentBranch,
    budget: raw.budget,
    signals: raw.signals ?? {},
    centrality: raw.centrality ?? {},
    staleness: raw.staleness ?? {},
    config,
    template: SURFACE_TEMPLATE,
  };
  return { memories, ctx, expected: readFileSync(new URL('expected.md', dir), 'utf8') };
}

describe('renderSurfaceText (golden briefings)', () => {
  it('has the three scenarios', () => {
    expect(SCENARIOS).toEqual(['surface-basic', 'surface-decision-tiers', 'surface-overflow']);
  });

  it.each(SCENARIOS)('renders %s exactly as expected.md', (name) => {
    const { memories, ctx, expected } = loadFixture(name);
    expect(renderSurfaceText(memories, ctx)).toBe(expected);
  });
});

describe('buildSurface explain (surface-overflow)', () => {
  const { memories, ctx } = loadFixture('surface-overflow');
  const surface = buildSurface(memories, ctx);
  const rendered = renderSurface(surface);
  const rows = new Map(rendered.explain.map((r) => [r.id, r]));
  const at = (id: string): ExplainRow => rows.get(id) as ExplainRow;

  it('says why each memory is in or out', () => {
    expect(rendered.explain.map((r) => [r.id, r.included, r.stage, r.reason])).toEqual([
      ['hooks-call-the-api-only-a2b3cc', true, 'budget', 'within the architecture budget: line 1 of 1'],
      ['prefer-rrf-fusion-c2d3ff', false, undefined, 'the decision budget is 0 lines'],
      ['hook-stdout-is-context-h6j7kk', true, 'budget', 'within the gotcha budget: line 1 of 2'],
      ['index-is-a-cache-d4e5gg', true, 'overflow',
        'overflow: the architecture budget of 1 line is used by higher-ranked hooks-call-the-api-only-a2b3cc; took 1 of the 2 lines other categories left unused'],
      ['injection-cap-10000-m8n9pp', true, 'budget', 'within the gotcha budget: line 2 of 2'],
      ['session-end-budget-q2r3ss', false, 'overflow',
        'token budget reached: needs ~19 tokens, 9 of 160 left after higher-priority items'],
      ['transcript-lags-t4u5vv', false, undefined,
        'the gotcha budget of 2 lines is used by higher-ranked hook-stdout-is-context-h6j7kk, injection-cap-10000-m8n9pp; no unused lines left in other categories (2 lines went to higher-ranked overflow)'],
      ['git-exit-above-128-w6x7yy', false, undefined,
        'the gotcha budget of 2 lines is used by higher-ranked hook-stdout-is-context-h6j7kk, injection-cap-10000-m8n9pp; no unused lines left in other categories (2 lines went to higher-ranked overflow)'],
      ['windows-needs-shell-key-z8a9bb', false, undefined,
        'the gotcha budget of 2 lines is used by higher-ranked hook-stdout-is-context-h6j7kk, injection-cap-10000-m8n9pp; no unused lines left in other categories (2 lines went to higher-ranked overflow)'],
    ]);
  });

  it('shows for every included/excluded pair why the included one won', () => {
    const included = rendered.explain.filter((r) => r.included);
    const excluded = rendered.explain.filter((r) => !r.included);
    const stageOrder = { plan: 0, budget: 1, overflow: 2 } as const;
    for (const loser of excluded) {
      for (const winner of included) {
        const why = loser.reason;
        if (why.startsWith('the decision budget is 0')) {
          // Never a candidate: its category has no lines at all.
          expect(loser.budget).toBe(0);
        } else if (why.startsWith('the gotcha budget')) {
          // Lost on lines: every memory named as using the budget is included and ranks higher,
          // and the overflow lines went to higher-ranked memories.
          for (const id of ['hook-stdout-is-context-h6j7kk', 'injection-cap-10000-m8n9pp']) {
            expect(at(id).included).toBe(true);
            expect(at(id).rank).toBeGreaterThan(loser.rank);
          }
          if (winner.stage === 'overflow') expect(winner.rank).toBeGreaterThan(loser.rank);
        } else {
          // Lost on tokens: every winner came earlier in the priority order (an earlier
          // stage, or the same stage and a higher rank), so it was filled in first.
          expect(why).toMatch(/^token budget reached/);
          const earlier =
            stageOrder[winner.stage as keyof typeof stageOrder] < stageOrder[loser.stage as keyof typeof stageOrder] ||
            (winner.stage === loser.stage && winner.rank > loser.rank);
          expect(earlier).toBe(true);
        }
      }
    }
  });

  it('names the token budget as the limit that stopped the filling', () => {
    expect(rendered.tokens).toBeLessThanOrEqual(160);
    expect(at('session-end-budget-q2r3ss').tokens).toBeGreaterThan(160 - surface.tokens);
  });
});
