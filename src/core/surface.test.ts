import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig, type CortexConfig } from './config.js';
import { MEMORY_TYPES, type Memory } from './memory.js';
import {
  bodyExcerpt,
  buildSurface as buildWith,
  cleanInline,
  confidenceMarker,
  parseSurfaceTemplate,
  planSteps,
  provenanceLabel,
  sanitizeLabel,
  staleNote,
  surfaceLimits,
  type SurfaceContext,
  type SurfaceResult,
} from './surface.js';
import { testMemory } from '../../test/helpers/arbitrary.js';
import { SURFACE_TEMPLATE } from '../../test/helpers/templates.js';

/** A briefing context as the shell builds it: the shipped template unless a test gives one. */
type Ctx = Omit<SurfaceContext, 'template'> & { template?: string };
const withTemplate = (ctx: Ctx): SurfaceContext => ({ template: SURFACE_TEMPLATE, ...ctx });
const buildSurface = (memories: readonly Memory[], ctx: Ctx) => buildWith(memories, withTemplate(ctx));

const NOW = new Date('2026-12-01T00:00:00Z');

const memory = (id: string, over: Partial<Memory> = {}): Memory =>
  testMemory(id, { type: 'gotcha', confidence: 0.9, created: '2026-11-30T00:00:00Z', updated: '2026-11-30T00:00:00Z', ...over });

/** Budgets: 0 lines everywhere except the given ones. */
function budgets(over: Partial<CortexConfig['surface']['budgets']>): CortexConfig {
  const zero = Object.fromEntries(MEMORY_TYPES.map((t) => [t, 0]));
  return resolveConfig({ surface: { budgets: { ...zero, ...over } } }).config;
}

const row = (surface: SurfaceResult, id: string) => surface.explain.find((r) => r.id === id);

describe('templates/surface.md', () => {
  it('states facts, not instructions to the assistant', () => {
    const { template } = parseSurfaceTemplate(SURFACE_TEMPLATE);
    const shown = [template.title, ...template.intro, ...template.sections.map((s) => s.title)].join('\n');
    expect(shown).not.toMatch(/\b(you must|you should|always|never|do not|don't|make sure|remember to|ignore)\b/i);
  });
});

describe('parseSurfaceTemplate', () => {
  it('reads the title, the introduction and the sections of the default template', () => {
    const { template, diagnostics } = parseSurfaceTemplate(SURFACE_TEMPLATE);
    expect(diagnostics).toEqual([]);
    expect(template.title).toBe('Project memory');
    expect(template.titleDepth).toBe(1);
    expect(template.intro).toHaveLength(1);
    expect(template.sections.map((s) => s.title)).toEqual([
      'Plan and progress',
      'Architecture',
      'Decisions',
      'Rejected approaches',
      'Gotchas',
      'Patterns',
      'Preferences',
      'Context',
      'Code',
    ]);
    expect(template.sections.flatMap((s) => s.types).sort()).toEqual([...MEMORY_TYPES].sort());
  });

  it('joins wrapped introduction lines and keeps paragraphs apart; CRLF is fine', () => {
    const { template } = parseSurfaceTemplate('# T\r\n\r\nOne\r\ntwo.\r\n\r\nThree.\r\n\r\n## S\r\n<!-- types: gotcha -->\r\n');
    expect(template.intro).toEqual(['One two.', 'Three.']);
    expect(template.sections).toEqual([{ title: 'S', depth: 2, types: ['gotcha'] }]);
  });

  it('warns about unknown and repeated types, empty sections and text inside sections', () => {
    const text = [
      '# T',
      '## A',
      '<!-- types: gotcha, gotchas -->',
      'stray text',
      '## B',
      '<!-- types: gotcha pattern -->',
      '## C',
      '',
    ].join('\n');
    const { template, diagnostics } = parseSurfaceTemplate(text, { file: 'custom.md' });
    expect(template.sections).toEqual([
      { title: 'A', depth: 2, types: ['gotcha'] },
      { title: 'B', depth: 2, types: ['pattern'] },
    ]);
    expect(diagnostics.map((d) => [d.line, d.ruleId])).toEqual([
      [3, 'template-unknown-type'],
      [4, 'template-section-text'],
      [6, 'template-duplicate-type'],
      [7, 'template-section-empty'],
    ]);
    expect(diagnostics.every((d) => d.file === 'custom.md' && d.severity === 'warning')).toBe(true);
  });

  it('reports an error when no section is usable: such a briefing lists no memory', () => {
    const { template, diagnostics } = parseSurfaceTemplate('# Just a title\n');
    expect(diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['template-no-sections', 'error']]);
    expect(template.sections).toEqual([]);
    expect(buildSurface([memory('a-gotcha')], { now: NOW, template: '# Just a title\n' }).items).toEqual([]);
  });

  it('keeps line numbers right across multi-line comments', () => {
    const { diagnostics } = parseSurfaceTemplate('<!--\nx\ny\n-->\n## S\n<!-- types: nope -->\n');
    expect(diagnostics[0]?.line).toBe(6);
  });
});

describe('surfaceLimits', () => {
  it('uses the configured target and maximum', () => {
    expect(surfaceLimits({ config: DEFAULT_CONFIG })).toEqual({
      targetTokens: 400,
      maxTokens: 550,
      maxChars: 10_000,
      charsPerToken: 4,
    });
  });

  it('lets a budget override set both target and maximum', () => {
    expect(surfaceLimits({ config: DEFAULT_CONFIG, budget: 200 })).toMatchObject({ targetTokens: 200, maxTokens: 200 });
    expect(surfaceLimits({ config: DEFAULT_CONFIG, budget: -5 })).toMatchObject({ targetTokens: 0, maxTokens: 0 });
    expect(surfaceLimits({ config: DEFAULT_CONFIG, budget: Number.NaN })).toMatchObject({ targetTokens: 400 });
  });

  it('never allows more than 10,000 characters, whatever the configuration says', () => {
    const config = { ...DEFAULT_CONFIG, surface: { ...DEFAULT_CONFIG.surface, maxChars: 50_000 } };
    expect(surfaceLimits({ config, budget: Infinity }).maxChars).toBe(10_000);
  });

  it('keeps the target at or below the maximum', () => {
    const config = { ...DEFAULT_CONFIG, surface: { ...DEFAULT_CONFIG.surface, targetTokens: 900, maxTokens: 300 } };
    expect(surfaceLimits({ config })).toMatchObject({ targetTokens: 300, maxTokens: 300 });
  });
});

describe('cleanInline', () => {
  it('collapses white space to one line', () => {
    expect(cleanInline('  two\n\t lines  ', 80)).toBe('two lines');
  });

  it('cuts at a word boundary with an ellipsis', () => {
    expect(cleanInline('alpha beta gamma delta', 13)).toBe('alpha beta…');
    expect(cleanInline('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('defuses the briefing markers', () => {
    expect(cleanInline('<!-- CORTEX_MEMORY_END --> gotcha', 80)).toBe('<!-- CORTEX MEMORY END --> gotcha');
  });
});

describe('planSteps', () => {
  it('reads list items as steps, with [x] marking done ones', () => {
    expect(planSteps('Goal text.\n\n- [x] parse\n* [ ] render\n  1. nested step\nnot a step\n')).toEqual([
      { text: 'parse', done: true },
      { text: 'render', done: false },
      { text: 'nested step', done: false },
    ]);
  });

  it('finds no steps in prose', () => {
    expect(planSteps('Just a paragraph.')).toEqual([]);
  });
});

describe('sanitizeLabel', () => {
  it('keeps characters that need no markdown escaping', () => {
    expect(sanitizeLabel('feat/x_y*[z]')).toBe('feat/x-y-z');
  });
});

describe('provenanceLabel', () => {
  it('joins session and branch', () => {
    expect(provenanceLabel({ session: 's4b2c', branch: 'feat/x' })).toBe('s4b2c, feat/x');
    expect(provenanceLabel({ session: undefined, branch: undefined })).toBe('');
  });
});

describe('confidenceMarker', () => {
  it('rounds down to one decimal so it never overstates', () => {
    expect(confidenceMarker(0.69)).toBe('(~0.6)');
    expect(confidenceMarker(0.04)).toBe('(~0.0)');
  });
});

describe('staleNote', () => {
  it('shows the first reason and counts the others', () => {
    expect(staleNote(['src/db.ts no longer exists'])).toBe('src/db.ts no longer exists');
    expect(staleNote(['a', 'b', 'c'])).toBe('a; +2 more');
  });
});

describe('buildSurface', () => {
  it('leaves out archived and superseded memories, types without budget, archive-only decisions and older plans', () => {
    const config = resolveConfig({ surface: { decisions: { fullCap: 0, oneLineCap: 0 } } }).config;
    const surface = buildSurface(
      [
        memory('kept-gotcha'),
        memory('archived-gotcha', { status: 'archived' }),
        memory('superseded-gotcha', { status: 'superseded' }),
        memory('raw-code', { type: 'code' }),
        memory('old-decision', { type: 'decision' }),
        memory('plan-a', { type: 'plan', priority: 9 }),
        memory('plan-b', { type: 'plan', priority: 2 }),
      ],
      { now: NOW, config },
    );
    expect(surface.items.map((i) => i.id)).toEqual(['plan-a', 'kept-gotcha']);
    expect(Object.fromEntries(surface.excluded.map((e) => [e.id, e.reason]))).toEqual({
      'archived-gotcha': 'archived',
      'superseded-gotcha': 'superseded',
      'raw-code': 'the code budget is 0 lines',
      'old-decision':
        'archive-only decision tier (recent: updated 2026-11-30 (within 30 days); beyond the full-text cap of 0; beyond the caps of 0 full and 0 one-line decisions)',
      'plan-b': 'only the active plan is shown: plan-a ranks higher',
    });
  });

  it('shows the active plan first with its steps, open steps first when the plan budget is short', () => {
    const config = budgets({ plan: 3, gotcha: 5 });
    const plan = memory('the-plan', {
      type: 'plan',
      priority: 1,
      body: '- [x] one\n- [x] two\n- [ ] three\n- [x] four\n- [ ] five\n',
    });
    const surface = buildSurface([memory('a-gotcha', { priority: 10 }), plan], { now: NOW, config });
    const first = surface.items[0];
    expect(first?.id).toBe('the-plan');
    expect(first?.stage).toBe('plan');
    expect(first?.steps).toEqual([
      { text: 'three', done: false },
      { text: 'five', done: false },
    ]);
    expect(first?.stepsOmitted).toBe(3);
    expect(first?.lines).toBe(3);
  });

  it('gives the plan steps at most its share of the token target', () => {
    const plan = memory('the-plan', {
      type: 'plan',
      body: Array.from({ length: 30 }, (_, i) => `- [ ] step number ${i} with a fairly long description`).join('\n'),
    });
    const surface = buildSurface([plan], { now: NOW, budget: 300 });
    const steps = surface.items[0]?.steps ?? [];
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThan(30);
    expect(surface.items[0]?.tokens).toBeLessThanOrEqual(300 * 0.5 + 40);
  });

  it('fills each category budget in rank order and gives unused lines to the best leftovers of any category', () => {
    // gotcha: 2 lines; pattern: 3 lines but only one pattern → 2 unused lines.
    const config = budgets({ gotcha: 2, pattern: 3 });
    const gotchas = [9, 8, 7, 6, 5].map((p) => memory(`gotcha-p${p}`, { priority: p }));
    const surface = buildSurface([...gotchas, memory('pattern-low', { type: 'pattern', priority: 1 })], { now: NOW, config });
    expect(surface.items.map((i) => [i.id, i.stage])).toEqual([
      ['gotcha-p9', 'budget'],
      ['gotcha-p8', 'budget'],
      ['pattern-low', 'budget'],
      ['gotcha-p7', 'overflow'],
      ['gotcha-p6', 'overflow'],
    ]);
    expect(row(surface, 'gotcha-p7')?.reason).toBe(
      'overflow: the gotcha budget of 2 lines is used by higher-ranked gotcha-p9, gotcha-p8; took 1 of the 2 lines other categories left unused',
    );
    expect(row(surface, 'gotcha-p5')?.reason).toBe(
      'the gotcha budget of 2 lines is used by higher-ranked gotcha-p9, gotcha-p8; no unused lines left in other categories (2 lines went to higher-ranked overflow)',
    );
  });

  it('fills the token target in priority order, skipping what does not fit and trying smaller items after it', () => {
    const surface = buildSurface(
      [
        memory('a-short', { priority: 9 }),
        memory('b-long', { priority: 8, summary: 'long '.repeat(60) }),
        memory('c-short', { priority: 7 }),
      ],
      { now: NOW, budget: 110 },
    );
    expect(surface.items.map((i) => i.id)).toEqual(['a-short', 'c-short']);
    expect(row(surface, 'b-long')?.reason).toMatch(/^token budget reached: needs ~\d+ tokens, \d+ of 110 left after higher-priority items$/);
    expect(row(surface, 'b-long')?.stage).toBe('budget');
    expect(surface.tokens).toBeLessThanOrEqual(110);
  });

  it('measures with an injected tokenizer', () => {
    const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;
    const mems = Array.from({ length: 20 }, (_, i) => memory(`m${String(i).padStart(2, '0')}`));
    const byWords = buildSurface(mems, { now: NOW, budget: 80, tokenizer: words });
    const byChars = buildSurface(mems, { now: NOW, budget: 80 });
    expect(byWords.items.length).toBeGreaterThan(byChars.items.length);
  });

  it('marks provenance, low confidence and staleness on items', () => {
    const surface = buildSurface(
      [
        memory('other-branch', { source: { kind: 'extraction', session: '4B2C-8e1a', branch: 'feat/x' }, confidence: 0.65 }),
        memory('same-branch', { source: { kind: 'extraction', session: 'abcdef', branch: 'main' } }),
      ],
      { now: NOW, currentBranch: 'main', staleness: { 'same-branch': ['src/db.ts no longer exists', ''] } },
    );
    const other = surface.items.find((i) => i.id === 'other-branch');
    const same = surface.items.find((i) => i.id === 'same-branch');
    expect([other?.session, other?.branch, other?.lowConfidence]).toEqual(['s4b2c', 'feat/x', true]);
    expect([same?.session, same?.branch, same?.lowConfidence, same?.stale]).toEqual([
      'sabcd',
      undefined,
      false,
      ['src/db.ts no longer exists'],
    ]);
  });

  it('gives full-tier decisions a body excerpt and one-line ones only the summary', () => {
    const body = 'No server on laptops.\n\nSecond paragraph is not shown. See [[x-abcdef]].';
    const surface = buildSurface(
      [
        memory('new-decision', { type: 'decision', body }),
        memory('old-decision', { type: 'decision', body, created: '2025-01-01T00:00:00Z', updated: '2025-01-01T00:00:00Z' }),
      ],
      { now: NOW },
    );
    const byId = Object.fromEntries(surface.items.map((i) => [i.id, [i.tier, i.detail]]));
    expect(byId).toEqual({
      'new-decision': ['full', 'No server on laptops.'],
      'old-decision': ['one-line', undefined],
    });
  });

  it('has one explain row per memory, and excluded lists exactly the rows not included', () => {
    const mems = [memory('a'), memory('b', { status: 'archived' }), memory('c', { type: 'code' })];
    const surface = buildSurface(mems, { now: NOW });
    expect(surface.explain.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
    expect(surface.excluded.map((e) => e.id).sort()).toEqual(['b', 'c']);
    expect(surface.items.map((i) => i.id)).toEqual(surface.explain.filter((r) => r.included).map((r) => r.id));
  });

  const arbSpec = fc.record({
    type: fc.constantFrom(...MEMORY_TYPES),
    status: fc.constantFrom('active', 'active', 'active', 'archived', 'superseded'),
    priority: fc.integer({ min: 1, max: 10 }),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    age: fc.nat(200),
    words: fc.nat(40),
    access: fc.nat(20),
    branch: fc.constantFrom('main', 'feat/x', undefined),
  });
  type Spec = typeof arbSpec extends fc.Arbitrary<infer T> ? T : never;
  const build = (specs: Spec[]): { mems: Memory[]; signals: Record<string, { accessCount: number }> } => {
    const signals: Record<string, { accessCount: number }> = {};
    const mems = specs.map((s, i) => {
      const id = `m${i}`;
      if (s.access > 0) signals[id] = { accessCount: s.access };
      const date = new Date(NOW.getTime() - s.age * 86_400_000).toISOString();
      return memory(id, {
        type: s.type,
        status: s.status as Memory['status'],
        priority: s.priority,
        confidence: s.confidence,
        created: date,
        updated: date,
        summary: `note ${i} ${'word '.repeat(s.words)}`,
        body: `- [ ] step ${i}\n- [x] done ${i}`,
        source: { kind: 'extraction', session: `sess${i}`, branch: s.branch },
      });
    });
    return { mems, signals };
  };

  it('always shows pinned memories, counting their lines and tokens first, and says so in the explanation', () => {
    const zero = Object.fromEntries(MEMORY_TYPES.map((t) => [t, 0]));
    // No lines for decisions, none left to pool: only what is pinned gets past the gotcha budget.
    const config = resolveConfig({ surface: { budgets: { ...zero, gotcha: 2 }, decisions: { fullCap: 0, oneLineCap: 0 } } }).config;
    const mems = [
      memory('high-1', { priority: 10 }),
      memory('high-2', { priority: 10 }),
      memory('high-3', { priority: 10 }),
      memory('pinned-low', { priority: 1, confidence: 0.1, pinned: true, summary: 'The pinned gotcha' }),
      // Beyond the decision caps (archive-only), and pinned: still shown.
      memory('pinned-old-decision', { type: 'decision', pinned: true, created: '2020-01-01T00:00:00Z', updated: '2020-01-01T00:00:00Z' }),
    ];
    const surface = buildSurface(mems, { now: NOW, config, budget: 150 });
    const ids = surface.items.map((i) => i.id);
    expect(ids.slice(0, 2).sort()).toEqual(['pinned-low', 'pinned-old-decision']);
    // The gotcha budget of 2 lines: the pinned one first, then the best unpinned one.
    expect(ids.filter((id) => id.startsWith('high-'))).toHaveLength(1);
    expect(row(surface, 'pinned-low')).toMatchObject({ stage: 'pinned', included: true, reason: expect.stringContaining('pinned: always shown, counted against the budgets first') });
    expect(row(surface, 'high-2')?.reason).toContain('the gotcha budget of 2 lines is used by higher-ranked');
    // A tiny budget: the pinned memories go in over the target, and the explanation says that too.
    const tiny = buildSurface(mems, { now: NOW, config, budget: 10 });
    expect(tiny.items.map((i) => i.id).sort()).toEqual(['pinned-low', 'pinned-old-decision']);
    expect(row(tiny, 'pinned-old-decision')?.reason).toContain('over the 10-token target, which pinned memories may exceed');
    // An archived pinned memory stays out.
    expect(buildSurface([memory('gone', { pinned: true, status: 'archived' })], { now: NOW }).items).toEqual([]);
  });

  it('shows a pinned plan as the plan, whatever the rank of the others', () => {
    const surface = buildSurface(
      [memory('plan-new', { type: 'plan', priority: 10, body: '- [ ] a' }), memory('plan-pinned', { type: 'plan', priority: 1, confidence: 0.2, pinned: true, body: '- [ ] b' })],
      { now: NOW },
    );
    expect(surface.items.map((i) => [i.id, i.stage])).toEqual([['plan-pinned', 'plan']]);
    expect(row(surface, 'plan-new')?.reason).toBe('only the active plan is shown: plan-pinned is pinned');
  });

  it('never leaves out an active pinned memory that has a section (property)', () => {
    fc.assert(
      fc.property(fc.array(arbSpec, { maxLength: 40 }), fc.array(fc.boolean(), { maxLength: 40 }), fc.integer({ min: 0, max: 700 }), (specs, pins, budget) => {
        const { mems, signals } = build(specs);
        const pinned = mems.map((m, i) => ({ ...m, pinned: pins[i] === true }));
        const surface = buildSurface(pinned, { now: NOW, signals, budget });
        const shown = new Set(surface.items.map((i) => i.id));
        const plans = pinned.filter((m) => m.pinned && m.status === 'active' && m.type === 'plan');
        for (const m of pinned) {
          if (!m.pinned || m.status !== 'active' || m.type === 'plan') continue;
          expect(shown.has(m.id), row(surface, m.id)?.reason).toBe(true);
        }
        if (plans.length > 0) expect(surface.items.some((i) => i.type === 'plan' && i.stage === 'plan' && plans.some((p) => p.id === i.id))).toBe(true);
      }),
    );
  });

  it('does not depend on input order (property)', () => {
    fc.assert(
      fc.property(fc.array(arbSpec, { maxLength: 60 }), fc.func(fc.integer()), fc.integer({ min: 0, max: 700 }), (specs, key, budget) => {
        const { mems, signals } = build(specs);
        const shuffled = mems.map((m, i) => ({ m, k: key(i) })).sort((a, b) => a.k - b.k).map((x) => x.m);
        const ctx = { now: NOW, signals, currentBranch: 'main', budget };
        const a = buildSurface(mems, ctx);
        const b = buildSurface(shuffled, ctx);
        expect(b.items).toEqual(a.items);
        expect(b.explain).toEqual(a.explain);
      }),
    );
  });

  it('keeps its estimate within the token target and per-type lines within budget plus overflow (property)', () => {
    fc.assert(
      fc.property(fc.array(arbSpec, { maxLength: 80 }), fc.integer({ min: 0, max: 3000 }), (specs, budget) => {
        const { mems, signals } = build(specs);
        const surface = buildSurface(mems, { now: NOW, signals, budget });
        if (surface.items.length > 0) expect(surface.tokens).toBeLessThanOrEqual(surface.limits.targetTokens);
        expect(surface.chars).toBeLessThanOrEqual(10_000);
        const lines = new Map<string, number>();
        for (const item of surface.items) {
          if (item.stage !== 'overflow') lines.set(item.type, (lines.get(item.type) ?? 0) + item.lines);
          expect(mems.find((m) => m.id === item.id)?.status).toBe('active');
        }
        for (const [type, n] of lines) expect(n).toBeLessThanOrEqual(DEFAULT_CONFIG.surface.budgets[type as Memory['type']]);
        expect(surface.items.filter((i) => i.type === 'plan').length).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('bodyExcerpt', () => {
  it('does not repeat the summary: the summary sentence is cut out, a paragraph made of it skipped', () => {
    expect(bodyExcerpt('**404 on refresh** → needs a `_redirects` file\n\nNetlify serves index.html only at /.', '404 on refresh → needs _redirects file', 160)).toBe(
      'Netlify serves index.html only at /.',
    );
    expect(bodyExcerpt("I'd recommend: Adding api/ to .gitignore (own repo). Then commit the logs.", 'Adding api/ to .gitignore (own repo)', 160)).toBe(
      "I'd recommend: Then commit the logs.",
    );
    expect(bodyExcerpt('Simplest path to live config', 'Plan approved: Simplest path to live config', 160)).toBeUndefined();
  });
});
