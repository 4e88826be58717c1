import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Memory } from './memory.js';
import { buildSurface, replacedDecisions } from './surface.js';
import { testMemory } from '../../test/helpers/arbitrary.js';
import { SURFACE_TEMPLATE } from '../../test/helpers/templates.js';

const NOW = new Date('2026-12-01T00:00:00Z');

const decision = (id: string, over: Partial<Memory> = {}): Memory =>
  testMemory(id, { type: 'decision', confidence: 0.9, created: '2026-11-20T00:00:00Z', updated: '2026-11-20T00:00:00Z', ...over });

const brief = (memories: readonly Memory[]) => buildSurface(memories, { now: NOW, currentBranch: 'main', template: SURFACE_TEMPLATE });

describe('replacedDecisions', () => {
  it('maps every older decision of a topic to the latest one, per scope', () => {
    const ms = [
      decision('fmt-8', { topic: 'index-format', created: '2026-11-01T00:00:00Z' }),
      decision('fmt-9', { topic: 'index-format', created: '2026-11-02T00:00:00Z' }),
      decision('fmt-11', { topic: 'index-format', created: '2026-11-05T00:00:00Z' }),
      decision('fmt-global', { topic: 'index-format', scope: 'global', created: '2026-11-01T00:00:00Z' }),
      decision('no-topic', { created: '2026-11-01T00:00:00Z' }),
    ];
    expect(replacedDecisions(ms)).toEqual(
      new Map([
        ['fmt-8', 'fmt-11'],
        ['fmt-9', 'fmt-11'],
      ]),
    );
  });

  it('counts only active decisions: a later superseded or archived one replaces nothing, other types are left alone', () => {
    const ms = [
      decision('old', { topic: 't', created: '2026-11-01T00:00:00Z' }),
      decision('newer-but-superseded', { topic: 't', status: 'superseded', created: '2026-11-03T00:00:00Z' }),
      decision('newer-but-archived', { topic: 't', status: 'archived', created: '2026-11-04T00:00:00Z' }),
      testMemory('gotcha-old', { type: 'gotcha', topic: 'g', created: '2026-11-01T00:00:00Z', updated: '2026-11-01T00:00:00Z' }),
      testMemory('gotcha-new', { type: 'gotcha', topic: 'g', created: '2026-11-02T00:00:00Z', updated: '2026-11-02T00:00:00Z' }),
    ];
    expect(replacedDecisions(ms).size).toBe(0);
  });

  const arbDecisions = fc
    .array(
      fc.record({
        topic: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
        scope: fc.constantFrom<Memory['scope']>('project', 'global'),
        status: fc.constantFrom<Memory['status']>('active', 'active', 'archived', 'superseded'),
        day: fc.integer({ min: 1, max: 4 }),
        hour: fc.integer({ min: 0, max: 2 }),
      }),
      { maxLength: 12 },
    )
    .map((rows) =>
      rows.map((r, i) =>
        decision(`d${i}`, {
          ...(r.topic !== undefined ? { topic: r.topic } : {}),
          scope: r.scope,
          status: r.status,
          created: `2026-11-0${r.day}T00:00:00Z`,
          updated: `2026-11-0${r.day}T0${r.hour}:00:00Z`,
        }),
      ),
    );

  it('property: a decision with a later active decision on the same topic and scope is replaced, and only such a one', () => {
    fc.assert(
      fc.property(arbDecisions, (ms) => {
        const replaced = replacedDecisions(ms);
        const key = (m: Memory) => `${m.scope} ${m.topic}`;
        const laterThan = (x: Memory, m: Memory) =>
          x.created > m.created || (x.created === m.created && (x.updated > m.updated || (x.updated === m.updated && x.id > m.id)));
        for (const m of ms) {
          const eligible = m.type === 'decision' && m.status === 'active' && m.topic !== undefined;
          const hasLater = eligible && ms.some((x) => x.id !== m.id && x.status === 'active' && x.topic !== undefined && key(x) === key(m) && laterThan(x, m));
          expect(replaced.has(m.id)).toBe(hasLater);
          if (hasLater) {
            // The replacement is itself the latest of its topic: never replaced.
            const by = replaced.get(m.id)!;
            expect(replaced.has(by)).toBe(false);
          }
        }
      }),
    );
  });

  it('property: the order of the input does not matter', () => {
    fc.assert(
      fc.property(
        arbDecisions.chain((ms) => fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }))),
        ([ms, shuffled]) => {
          expect(replacedDecisions(shuffled)).toEqual(replacedDecisions(ms));
        },
      ),
    );
  });

  it('property: a replaced decision never appears in the briefing, whatever the order of the input', () => {
    fc.assert(
      fc.property(
        arbDecisions.chain((ms) => fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }))),
        ([ms, shuffled]) => {
          const replaced = replacedDecisions(ms);
          const shown = brief(shuffled).items.map((i) => i.id);
          for (const id of shown) expect(replaced.has(id)).toBe(false);
        },
      ),
    );
  });
});

describe('buildSurface with a replaced decision', () => {
  it('leaves it out and says by which later decision; the latest is shown', () => {
    const ms = [
      decision('format-8-aaaaaa', { summary: 'Index format 8: columns', topic: 'index-format', created: '2026-11-01T00:00:00Z' }),
      decision('format-9-bbbbbb', { summary: 'Index format 9: typed arrays', topic: 'index-format', created: '2026-11-10T00:00:00Z' }),
    ];
    const surface = brief(ms);
    expect(surface.items.map((i) => i.id)).toEqual(['format-9-bbbbbb']);
    const row = surface.explain.find((r) => r.id === 'format-8-aaaaaa');
    expect(row?.included).toBe(false);
    expect(row?.reason).toBe('replaced by format-9-bbbbbb, a later decision on topic "index-format"');
  });

  it('keeps a pinned decision even when a later one on its topic exists (a person pinned it)', () => {
    const ms = [
      decision('old-pinned-aaaaaa', { topic: 't', pinned: true, created: '2026-11-01T00:00:00Z' }),
      decision('new-bbbbbb', { topic: 't', created: '2026-11-10T00:00:00Z' }),
    ];
    expect(brief(ms).items.map((i) => i.id).sort()).toEqual(['new-bbbbbb', 'old-pinned-aaaaaa']);
  });
});
