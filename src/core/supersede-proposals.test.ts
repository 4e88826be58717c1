import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberedSubject, proposeSupersedes, type SupersedeCandidate } from './supersede-proposals.js';

const d = (id: string, summary: string, day: number, over: Partial<SupersedeCandidate> = {}): SupersedeCandidate => ({
  id,
  type: 'decision',
  summary,
  scope: 'project',
  status: 'active',
  created: `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`,
  updated: `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`,
  ...over,
});

describe('numberedSubject', () => {
  it('is the words before the first number, the number as #', () => {
    expect(numberedSubject('Index format 8: the keyword index loads')).toEqual({ subject: 'index format #', number: '8' });
    expect(numberedSubject('Index format 12 reads what a query needs')).toEqual({ subject: 'index format #', number: '12' });
    expect(numberedSubject('Graph cache version 5: a small header')).toEqual({ subject: 'graph cache version #', number: '5' });
    expect(numberedSubject('Node runtime v22.1 is the floor')).toEqual({ subject: 'node runtime #', number: '22.1' });
  });

  it('needs two words before the number, within the first six words', () => {
    expect(numberedSubject('Phase 2: ship the viewer')).toBeUndefined();
    expect(numberedSubject('Use WAL mode')).toBeUndefined();
    expect(numberedSubject('We keep the retry budget at 3 attempts')).toBeUndefined();
  });
});

describe('proposeSupersedes', () => {
  const line = [d('f11', 'Index format 11: files read as needed', 5), d('f8', 'Index format 8: columns', 1), d('f9', 'Index format 9: typed arrays', 2)];

  it('chains a numbered line in created order: each supersedes the one before it', () => {
    expect(proposeSupersedes(line)).toEqual([
      { newer: 'f9', older: 'f8', reason: 'same subject "index format #"' },
      { newer: 'f11', older: 'f9', reason: 'same subject "index format #"' },
    ]);
  });

  it('groups by topic too, per scope, and only active decisions', () => {
    const ms = [
      d('a', 'Cache eviction is LRU', 1, { topic: 'eviction' }),
      d('b', 'Cache eviction by size class', 3, { topic: 'eviction' }),
      d('g', 'Global eviction note', 2, { topic: 'eviction', scope: 'global' }),
      d('x', 'An archived one', 4, { topic: 'eviction', status: 'archived' }),
      d('p', 'A gotcha on the same topic', 5, { topic: 'eviction', type: 'gotcha' }),
    ];
    expect(proposeSupersedes(ms)).toEqual([{ newer: 'b', older: 'a', reason: 'same topic "eviction"' }]);
  });

  it('leaves out a pair that contradicts, that supersedes the other way round, or that a person rejected', () => {
    expect(proposeSupersedes(line, { edges: [{ source: 'f8', target: 'f9', relation: 'contradicts' }] }).map((p) => p.newer)).toEqual(['f11']);
    expect(proposeSupersedes(line, { edges: [{ source: 'f8', target: 'f9', relation: 'supersedes' }] }).map((p) => p.newer)).toEqual(['f11']);
    expect(proposeSupersedes(line, { rejected: [['f11', 'f9']] }).map((p) => p.newer)).toEqual(['f9']);
    // A supersedes edge the same way does not block: confirming marks the older one superseded.
    expect(proposeSupersedes(line, { edges: [{ source: 'f9', target: 'f8', relation: 'supersedes' }] })).toHaveLength(2);
  });

  it('does not propose two decisions with the same number (a duplicate, for --merge)', () => {
    expect(proposeSupersedes([d('a', 'Index format 9: one', 1), d('b', 'Index format 9: two', 2)])).toEqual([]);
  });

  it('property: proposals always point from the later to the earlier, never repeat a pair, and ignore input order', () => {
    const arb = fc.array(
      fc.record({ n: fc.integer({ min: 1, max: 5 }), day: fc.integer({ min: 1, max: 9 }), topic: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }) }),
      { maxLength: 10 },
    );
    fc.assert(
      fc.property(
        arb.chain((rows) => {
          const ms = rows.map((r, i) => d(`m${i}`, `Wire protocol ${r.n}: details`, r.day, r.topic ? { topic: r.topic } : {}));
          return fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }));
        }),
        ([ms, shuffled]) => {
          const out = proposeSupersedes(ms);
          expect(proposeSupersedes(shuffled)).toEqual(out);
          const byId = new Map(ms.map((m) => [m.id, m]));
          const pairs = new Set<string>();
          for (const p of out) {
            const newer = byId.get(p.newer)!;
            const older = byId.get(p.older)!;
            expect(newer.created >= older.created).toBe(true);
            const key = [p.newer, p.older].sort().join(' ');
            expect(pairs.has(key)).toBe(false);
            pairs.add(key);
          }
        },
      ),
    );
  });
});
