import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naiveAround } from '../../test/helpers/neighbours-oracle.js';
import {
  DEFAULT_NEIGHBOURS,
  buildSessionOrder,
  neighbourBonus,
  rankWithNeighbours,
  type SessionMember,
} from './neighbours.js';

const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00Z`;

/** Members: ids `m0…`, sessions `s0…` (or none), creation minutes, all small so they collide. */
const members = fc
  .array(fc.record({ session: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), minute: fc.integer({ min: 0, max: 5 }) }), { maxLength: 30 })
  .map((list) => list.map((m, i): SessionMember => ({ id: `m${i}`, session: m.session === undefined ? undefined : `s${m.session}`, created: at(m.minute) })));

describe('buildSessionOrder', () => {
  it('orders each session by creation, then id, and leaves out memories in no session', () => {
    const order = buildSessionOrder([
      { id: 'c', session: 's', created: at(5) },
      { id: 'b', session: 's', created: at(1) },
      { id: 'a', session: 's', created: at(1) },
      { id: 'x', created: at(0) },
      { id: 'y', session: 't', created: at(9) },
    ]);
    expect([...order]).toEqual([
      ['s', ['a', 'b', 'c']],
      ['t', ['y']],
    ]);
  });

  it('does not depend on the order of its input', () => {
    fc.assert(
      fc.property(members, fc.integer(), (list, seed) => {
        const shuffled = [...list].sort((a, b) => ((a.id.length * 31 + seed) % 7) - ((b.id.length * 17 + seed) % 5) || (a.id < b.id ? 1 : -1));
        expect([...buildSessionOrder(shuffled)]).toEqual([...buildSessionOrder(list)]);
      }),
    );
  });
});

describe('neighbourBonus', () => {
  const order = new Map([['s', ['q', 'a', 'b', 'c', 'd']]]);
  const around = (id: string, w: number) => naiveAround(order, id, w);

  it('gives each memory within `width` places of a seed `weight` × the seed’s score', () => {
    const bonus = neighbourBonus([{ id: 'b', score: 10 }], around, { width: 2, weight: 0.1 });
    expect(Object.fromEntries(bonus)).toEqual({ a: 1, c: 1, q: 1, d: 1 });
    expect(Object.fromEntries(neighbourBonus([{ id: 'b', score: 10 }], around, { width: 1, weight: 0.1 }))).toEqual({ a: 1, c: 1 });
  });

  it('adds up what a memory receives from several seeds, seeds included', () => {
    const bonus = neighbourBonus([{ id: 'q', score: 10 }, { id: 'b', score: 5 }], around, { width: 1, weight: 0.1 });
    expect(bonus.get('a')).toBeCloseTo(1.5);
    expect(bonus.get('c')).toBeCloseTo(0.5);
    expect(bonus.has('q')).toBe(false);
  });

  it('is bounded: only the first `seeds` results give, results with no score give nothing, weight 0 is off', () => {
    const results = ['q', 'a', 'b', 'c', 'd'].map((id) => ({ id, score: 1 }));
    expect([...neighbourBonus(results, around, { seeds: 1, width: 1 }).keys()]).toEqual(['a']);
    expect(neighbourBonus([{ id: 'q', score: 0 }], around).size).toBe(0);
    expect(neighbourBonus(results, around, { weight: 0 }).size).toBe(0);
    expect(neighbourBonus([{ id: 'nowhere', score: 3 }], around).size).toBe(0);
  });

  it('never gives more than weight × the seeds’ scores to each of 2 × width neighbours', () => {
    fc.assert(
      fc.property(members, fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { maxLength: 30 }), fc.integer({ min: 1, max: 3 }), (list, scores, width) => {
        const o = buildSessionOrder(list);
        const results = list.slice(0, scores.length).map((m, i) => ({ id: m.id, score: scores[i]! }));
        const bonus = neighbourBonus(results, (id, w) => naiveAround(o, id, w), { width });
        const seeds = results.slice(0, DEFAULT_NEIGHBOURS.seeds);
        const total = [...bonus.values()].reduce((s, v) => s + v, 0);
        expect(total).toBeLessThanOrEqual(DEFAULT_NEIGHBOURS.weight * 2 * width * seeds.reduce((s, r) => s + r.score, 0) + 1e-9);
        for (const v of bonus.values()) expect(v).toBeGreaterThan(0);
      }),
    );
  });
});

describe('rankWithNeighbours', () => {
  it('moves a result up by what it receives and keeps the rest in order', () => {
    const ranked = rankWithNeighbours(
      [
        { id: 'q', score: 10 },
        { id: 'z', score: 1 },
        { id: 'a', score: 0.5 },
      ],
      new Map([['a', 1], ['elsewhere', 9]]),
    );
    expect(ranked).toEqual([
      { id: 'q', score: 10 },
      { id: 'a', score: 1.5 },
      { id: 'z', score: 1 },
    ]);
  });

  it('returns the same results, never adds or drops one, never lowers a score, and keeps the order of those that receive nothing', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.double({ min: 0, max: 5, noNaN: true })), { maxLength: 20 }),
        (ids, given) => {
          const results = ids.map((n, i) => ({ id: `m${n}`, score: 100 - i * 3 }));
          const bonus = new Map(given.map(([n, v]) => [`m${n}`, v]));
          const ranked = rankWithNeighbours(results, bonus);
          expect(ranked.map((r) => r.id).sort()).toEqual(results.map((r) => r.id).sort());
          for (const r of ranked) expect(r.score).toBeGreaterThanOrEqual(results.find((x) => x.id === r.id)!.score);
          for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
          const untouched = (list: { id: string }[]) => list.filter((r) => !((bonus.get(r.id) ?? 0) > 0)).map((r) => r.id);
          expect(untouched(ranked)).toEqual(untouched(results));
        },
      ),
    );
  });
});
