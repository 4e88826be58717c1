import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELATIONS, type Edge, type Relation } from './edge.js';
import { parseEdge } from './edge-format.js';
import {
  buildGraph,
  centrality,
  followSourceOf,
  lintGraph,
  neighbours,
  traverse,
  type BuildGraphOptions,
  type Graph,
  type GraphEdgeInput,
  type TraverseOptions,
} from './graph.js';
import type { Diagnostic } from './memory.js';
import { parseMemory } from './memory-format.js';
import { extractWikilinks } from './wikilinks.js';

// The fixture is a real .cortex/ tree: reading it is the test's job, the code under test
// only sees the strings.
const FIXTURE = new URL('../../test/fixtures/graph-hub-and-cycle/', import.meta.url);

interface Expected {
  parseDiagnostics: Array<Pick<Diagnostic, 'file' | 'ruleId' | 'severity'>>;
  lint: Array<Pick<Diagnostic, 'file' | 'ruleId' | 'severity'>>;
  edgeCount: { files: number; wikilinks: number };
  inDegree: Record<string, number>;
  centrality: Record<string, number>;
  centralityWithoutWikilinks: Record<string, number>;
  traversals: Array<{ name: string; start: string; options: TraverseOptions; levels: unknown }>;
  neighboursOfSqliteDepth1: string[];
  followSourceOf: Array<{ ids: string[]; links: unknown }>;
}

function loadFixture(): { input: BuildGraphOptions; parseDiagnostics: Diagnostic[]; expected: Expected } {
  const read = (path: string) => readFileSync(new URL(path, FIXTURE), 'utf8');
  const parseDiagnostics: Diagnostic[] = [];
  const memoryIds: string[] = [];
  const wikilinks: Record<string, string[]> = {};
  for (const name of readdirSync(new URL('.cortex/memories/', FIXTURE)).sort()) {
    const { memory, diagnostics } = parseMemory(read(`.cortex/memories/${name}`), { file: `.cortex/memories/${name}` });
    parseDiagnostics.push(...diagnostics);
    memoryIds.push(memory!.id);
    wikilinks[memory!.id] = extractWikilinks(memory!.body);
  }
  const edges: GraphEdgeInput[] = [];
  for (const name of readdirSync(new URL('.cortex/edges/', FIXTURE)).sort()) {
    const file = `.cortex/edges/${name}`;
    const { edge, diagnostics } = parseEdge(read(file), { file });
    parseDiagnostics.push(...diagnostics);
    if (edge) edges.push({ ...edge, file });
  }
  const expected = JSON.parse(read('expected.json')) as Expected;
  return { input: { memoryIds, edges, wikilinks }, parseDiagnostics, expected };
}

const fixture = loadFixture();
const fixtureGraph = buildGraph(fixture.input);

const T = '2026-01-01T00:00:00Z';
const edge = (source: string, relation: string, target: string, more: Partial<GraphEdgeInput> = {}): GraphEdgeInput => ({
  source,
  target,
  relation,
  strength: 0.5,
  status: 'active',
  bidirectional: false,
  origin: 'manual',
  created: T,
  ...more,
});
const summarise = (g: Graph) => g.edges.map((e) => `${e.source} ${e.relation} ${e.target} ${e.origin}`);

/** Random small graphs, invalid edges included (self-loops, duplicates, dangling ids). */
const graphInputArb = fc
  .integer({ min: 1, max: 8 })
  .chain((n) =>
    fc.record({
      n: fc.constant(n),
      edges: fc.array(
        fc.record({
          s: fc.integer({ min: 0, max: n }),
          t: fc.integer({ min: 0, max: n }),
          relation: fc.constantFrom<Relation | 'related'>('relates_to', 'refines', 'source_of', 'related'),
          strength: fc.constantFrom(0.1, 0.5, 0.9),
          status: fc.constantFrom<Edge['status']>('active', 'suggested'),
          bidirectional: fc.boolean(),
        }),
        { maxLength: 20 },
      ),
      links: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n })), { maxLength: 6 }),
    }),
  )
  .map(({ n, edges, links }) => {
    // Index n is one past the last memory: an id that dangles.
    const id = (i: number) => `m${i}`;
    const wikilinks: Record<string, string[]> = {};
    for (const [s, t] of links) (wikilinks[id(s)] ??= []).push(id(t));
    return {
      memoryIds: Array.from({ length: n }, (_, i) => id(i)),
      edges: edges.map((e, i) =>
        edge(id(e.s), e.relation, id(e.t), { strength: e.strength, status: e.status, bidirectional: e.bidirectional, file: `f${String(i).padStart(2, '0')}.md` }),
      ),
      wikilinks,
    };
  });

describe('buildGraph', () => {
  it('keeps the valid edge files and the wikilinks of the fixture', () => {
    const origins = fixtureGraph.edges.map((e) => e.origin);
    expect(origins.filter((o) => o !== 'wikilink')).toHaveLength(fixture.expected.edgeCount.files);
    expect(origins.filter((o) => o === 'wikilink')).toHaveLength(fixture.expected.edgeCount.wikilinks);
    expect([...fixtureGraph.nodes].sort()).toEqual(Object.keys(fixture.expected.inDegree).sort());
  });

  it('indexes every edge under its source (out) and its target (in)', () => {
    for (const e of fixtureGraph.edges) {
      expect(fixtureGraph.out.get(e.source)).toContain(e);
      expect(fixtureGraph.in.get(e.target)).toContain(e);
    }
    const total = (m: ReadonlyMap<string, readonly unknown[]>) => [...m.values()].reduce((n, list) => n + list.length, 0);
    expect(total(fixtureGraph.out)).toBe(fixtureGraph.edges.length);
    expect(total(fixtureGraph.in)).toBe(fixtureGraph.edges.length);
  });

  it('ignores dangling edges, self-loops, unknown relations and reversed aliases', () => {
    const g = buildGraph({
      memoryIds: ['a', 'b'],
      edges: [edge('a', 'refines', 'ghost'), edge('a', 'refines', 'a'), edge('a', 'loves', 'b'), edge('a', 'superseded_by', 'b')],
    });
    expect(g.edges).toEqual([]);
  });

  it('normalises alias relations and keeps the canonical one of two duplicates, whatever the order', () => {
    const alias = edge('a', 'related', 'b', { file: 'a-first.md', strength: 0.1 });
    const canonical = edge('a', 'relates_to', 'b', { file: 'z-last.md', strength: 0.9 });
    for (const edges of [
      [alias, canonical],
      [canonical, alias],
    ]) {
      const g = buildGraph({ memoryIds: ['a', 'b'], edges });
      expect(g.edges).toEqual([{ source: 'a', target: 'b', relation: 'relates_to', strength: 0.9, status: 'active', bidirectional: false, origin: 'manual' }]);
    }
    expect(buildGraph({ memoryIds: ['a', 'b'], edges: [alias] }).edges[0]?.relation).toBe('relates_to');
  });

  it('keeps a bidirectional edge and drops its reverse twin', () => {
    const g = buildGraph({
      memoryIds: ['a', 'b'],
      edges: [edge('b', 'relates_to', 'a'), edge('a', 'relates_to', 'b', { bidirectional: true })],
    });
    expect(summarise(g)).toEqual(['a relates_to b manual']);
  });

  it('keeps two opposite one-way edges', () => {
    const g = buildGraph({ memoryIds: ['a', 'b'], edges: [edge('a', 'refines', 'b'), edge('b', 'refines', 'a')] });
    expect(g.edges).toHaveLength(2);
  });

  it('turns wikilinks into active relates_to edges of strength 0.5 unless an edge file says the same', () => {
    const g = buildGraph({
      memoryIds: ['a', 'b', 'c', 'd'],
      edges: [edge('a', 'relates_to', 'b'), edge('d', 'relates_to', 'c', { bidirectional: true })],
      wikilinks: { a: ['b', 'c', 'a', 'ghost', 'c'], b: ['a'], c: ['d'], ghost: ['a'] },
    });
    expect(summarise(g)).toEqual(['a relates_to b manual', 'd relates_to c manual', 'a relates_to c wikilink', 'b relates_to a wikilink']);
    expect(g.edges[2]).toMatchObject({ strength: 0.5, status: 'active', bidirectional: false });
  });

  it('treats explicit undefined options as defaults', () => {
    expect(buildGraph({ memoryIds: ['a'], edges: [], wikilinks: undefined }).edges).toEqual([]);
  });

  it('builds the same edge set whatever the order of the edge files (property)', () => {
    fc.assert(
      fc.property(graphInputArb, (input) => {
        const reversed = buildGraph({ ...input, edges: [...input.edges].reverse() });
        const forward = buildGraph(input);
        const key = (g: Graph) => g.edges.map((e) => JSON.stringify(e)).sort();
        expect(key(reversed)).toEqual(key(forward));
      }),
    );
  });

  it('never holds a self-loop, a dangling edge or two edges with one key (property)', () => {
    fc.assert(
      fc.property(graphInputArb, (input) => {
        const g = buildGraph(input);
        const keys = new Set<string>();
        for (const e of g.edges) {
          expect(e.source).not.toBe(e.target);
          expect(g.nodes.has(e.source) && g.nodes.has(e.target)).toBe(true);
          expect(RELATIONS).toContain(e.relation);
          const key = `${e.source} ${e.relation} ${e.target}`;
          expect(keys.has(key)).toBe(false);
          keys.add(key);
        }
      }),
    );
  });
});

describe('lintGraph', () => {
  it('reports the fixture problems, with parse problems coming from parseEdge', () => {
    const pick = (ds: Diagnostic[]) => ds.map(({ file, ruleId, severity }) => ({ file, ruleId, severity }));
    expect(pick(fixture.parseDiagnostics)).toEqual(fixture.expected.parseDiagnostics);
    expect(pick(lintGraph(fixture.input))).toEqual(fixture.expected.lint);
  });

  it('names the missing endpoint of a dangling edge', () => {
    const [d] = lintGraph({ memoryIds: ['a'], edges: [edge('a', 'refines', 'gone')] });
    expect(d).toMatchObject({ ruleId: 'edge-dangling', severity: 'error', file: '.cortex/edges/a--refines--gone.md' });
    expect(d?.reason).toContain('"gone"');
  });

  it('reports a duplicate on the file that loses, naming the one that stays', () => {
    const ds = lintGraph({
      memoryIds: ['a', 'b'],
      edges: [edge('a', 'relates_to', 'b', { file: 'one.md' }), edge('a', 'related', 'b', { file: 'two.md' })],
    });
    expect(ds.map((d) => [d.file, d.ruleId, d.severity])).toEqual([
      ['two.md', 'edge-duplicate', 'error'],
      ['two.md', 'relation-alias', 'warning'],
    ]);
    expect(ds[0]?.reason).toContain('one.md');
  });

  it('reports unknown relations with the valid list, and reversed aliases with a swap hint', () => {
    const ds = lintGraph({ memoryIds: ['a', 'b'], edges: [edge('a', 'loves', 'b', { file: 'x.md' }), edge('a', 'superseded_by', 'b', { file: 'y.md' })] });
    expect(ds.map((d) => d.ruleId)).toEqual(['edge-relation-unknown', 'edge-relation-unknown']);
    expect(ds[0]?.hint).toContain('source_of');
    expect(ds[1]?.hint).toMatch(/Swap source and target/);
  });

  it('reports self-loops, bad strengths and bad statuses', () => {
    const ds = lintGraph({
      memoryIds: ['a', 'b'],
      edges: [
        edge('a', 'refines', 'a', { file: '1.md' }),
        edge('a', 'refines', 'b', { file: '2.md', strength: Number.NaN }),
        edge('b', 'refines', 'a', { file: '3.md', status: 'archived' as never }),
      ],
    });
    expect(ds.map((d) => d.ruleId)).toEqual(['edge-self-loop', 'edge-strength-invalid', 'edge-status-invalid']);
  });

  it('is empty for a clean graph', () => {
    expect(lintGraph({ memoryIds: ['a', 'b'], edges: [edge('a', 'refines', 'b')], wikilinks: { b: ['a'] } })).toEqual([]);
  });

  it('reports exactly the edges buildGraph leaves out (property)', () => {
    fc.assert(
      fc.property(graphInputArb, (input) => {
        const kept = buildGraph(input).edges.filter((e) => e.origin !== 'wikilink').length;
        const dropped = lintGraph(input).filter((d) => d.ruleId !== 'relation-alias' && d.ruleId !== 'wikilink-dangling').length;
        expect(kept + dropped).toBe(input.edges.length);
      }),
    );
  });
});

/** Shortest hop counts by a naive relaxation over the raw edge list: the oracle for traverse. */
function naiveDistances(g: Graph, start: string, o: Required<Pick<TraverseOptions, 'depth' | 'direction' | 'minStrength' | 'includeSuggested'>>): Map<string, number> {
  const dist = new Map<string, number>([[start, 0]]);
  for (let d = 1; d <= o.depth; d++) {
    for (const e of g.edges) {
      if ((e.status !== 'active' && !o.includeSuggested) || e.strength < o.minStrength) continue;
      const steps: Array<[string, string]> = [];
      if (o.direction !== 'in' || e.bidirectional) steps.push([e.source, e.target]);
      if (o.direction !== 'out' || e.bidirectional) steps.push([e.target, e.source]);
      for (const [from, to] of steps) if (dist.get(from) === d - 1 && !dist.has(to)) dist.set(to, d);
    }
  }
  dist.delete(start);
  return dist;
}

describe('traverse', () => {
  for (const t of fixture.expected.traversals) {
    it(`walks the fixture: ${t.name}`, () => {
      expect(traverse(fixtureGraph, t.start, t.options)).toEqual(t.levels);
    });
  }

  it('clamps the depth to 0..10 and treats a non-number as the default 2', () => {
    const chain = buildGraph({
      memoryIds: Array.from({ length: 15 }, (_, i) => `n${i}`),
      edges: Array.from({ length: 14 }, (_, i) => edge(`n${i}`, 'refines', `n${i + 1}`)),
    });
    expect(traverse(chain, 'n0', { depth: 50 })).toHaveLength(10);
    expect(traverse(chain, 'n0', { depth: -3 })).toEqual([]);
    expect(traverse(chain, 'n0', { depth: Number.NaN })).toHaveLength(2);
    expect(traverse(chain, 'n0', { depth: 2.9 })).toHaveLength(2);
    expect(traverse(chain, 'n0')).toHaveLength(2);
  });

  it('prefers the strongest edge as the way a node was reached', () => {
    const g = buildGraph({
      memoryIds: ['s', 'x', 'y', 't'],
      edges: [edge('s', 'refines', 'x'), edge('s', 'refines', 'y'), edge('x', 'refines', 't', { strength: 0.3 }), edge('y', 'refines', 't', { strength: 0.7 })],
    });
    expect(traverse(g, 's', { direction: 'out' })[1]?.nodes).toEqual([
      { id: 't', via: { from: 'y', relation: 'refines', direction: 'out', strength: 0.7 } },
    ]);
  });

  it('matches shortest hop counts of a naive oracle, each node once (property)', () => {
    fc.assert(
      fc.property(
        graphInputArb,
        fc.record({
          depth: fc.integer({ min: 0, max: 10 }),
          direction: fc.constantFrom<'out' | 'in' | 'both'>('out', 'in', 'both'),
          minStrength: fc.constantFrom(0, 0.5),
          includeSuggested: fc.boolean(),
        }),
        (input, options) => {
          const g = buildGraph(input);
          const start = input.memoryIds[0]!;
          const levels = traverse(g, start, options);
          const got = new Map<string, number>();
          for (const level of levels) {
            expect(level.nodes.length).toBeGreaterThan(0);
            expect(level.nodes.map((n) => n.id)).toEqual(level.nodes.map((n) => n.id).sort());
            for (const node of level.nodes) {
              expect(got.has(node.id)).toBe(false);
              got.set(node.id, level.depth);
            }
          }
          expect(got).toEqual(naiveDistances(g, start, options));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same levels whatever the order of the edge files (property)', () => {
    fc.assert(
      fc.property(graphInputArb, fc.constantFrom<'out' | 'in' | 'both'>('out', 'in', 'both'), (input, direction) => {
        const a = traverse(buildGraph(input), 'm0', { direction, depth: 10, includeSuggested: true });
        const b = traverse(buildGraph({ ...input, edges: [...input.edges].reverse() }), 'm0', { direction, depth: 10, includeSuggested: true });
        expect(b).toEqual(a);
      }),
    );
  });
});

describe('centrality', () => {
  it('matches the hand-computed fixture values (wikilinks count)', () => {
    const c = centrality(fixtureGraph);
    for (const [id, value] of Object.entries(fixture.expected.centrality)) expect(c[id], id).toBeCloseTo(value, 12);
    expect(Object.keys(c).sort()).toEqual(Object.keys(fixture.expected.centrality).sort());
  });

  it('can leave wikilinks out', () => {
    const c = centrality(fixtureGraph, { includeWikilinks: false });
    for (const [id, value] of Object.entries(fixture.expected.centralityWithoutWikilinks)) expect(c[id], id).toBeCloseTo(value, 12);
  });

  it('counts a bidirectional edge at both ends and ignores suggested edges', () => {
    const g = buildGraph({
      memoryIds: ['a', 'b', 'c'],
      edges: [edge('a', 'relates_to', 'b', { bidirectional: true }), edge('c', 'refines', 'b'), edge('b', 'refines', 'c', { status: 'suggested' })],
    });
    expect({ ...centrality(g) }).toEqual({ a: 0.5, b: 1, c: 0 });
  });

  it('is 0 everywhere without active edges', () => {
    expect({ ...centrality(buildGraph({ memoryIds: ['a', 'b'], edges: [edge('a', 'refines', 'b', { status: 'suggested' })] })) }).toEqual({ a: 0, b: 0 });
  });

  it('does not read inherited values for ids such as "constructor"', () => {
    const c = centrality(buildGraph({ memoryIds: ['a'], edges: [] }));
    expect(c.constructor).toBeUndefined();
  });

  it('lies in [0, 1], reaches 1 exactly when an active edge exists, and equals in-degree / max (property)', () => {
    fc.assert(
      fc.property(graphInputArb, (input) => {
        const g = buildGraph(input);
        const c = centrality(g);
        const degree = new Map<string, number>();
        for (const e of g.edges) {
          if (e.status !== 'active') continue;
          degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
          if (e.bidirectional) degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
        }
        const max = Math.max(0, ...degree.values());
        for (const id of g.nodes) {
          expect(c[id]).toBe(max === 0 ? 0 : (degree.get(id) ?? 0) / max);
          expect(c[id]).toBeGreaterThanOrEqual(0);
          expect(c[id]).toBeLessThanOrEqual(1);
        }
        expect(Object.values(c).includes(1)).toBe(max > 0);
      }),
    );
  });

  it('builds and ranks 10,000 nodes and 30,000 edges quickly', () => {
    const n = 10_000;
    const memoryIds = Array.from({ length: n }, (_, i) => `memory-number-${i}-abcdef`);
    let seed = 42;
    const next = () => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed >>> 8;
    };
    const edges: GraphEdgeInput[] = [];
    while (edges.length < 30_000) {
      const s = next() % n;
      const t = next() % n;
      edges.push(edge(memoryIds[s]!, RELATIONS[next() % RELATIONS.length]!, memoryIds[t]!, { bidirectional: next() % 4 === 0 }));
    }
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const c = centrality(buildGraph({ memoryIds, edges }));
      best = Math.min(best, performance.now() - started);
      expect(Object.keys(c)).toHaveLength(n);
    }
    // The budget is 50 ms on an idle machine; the bound leaves room for a loaded CI runner.
    expect(best).toBeLessThan(500);
  });

});

describe('neighbours', () => {
  it('flattens the neighbourhood, closest then strongest first', () => {
    expect(neighbours(fixtureGraph, 'sqlite', { depth: 1 }).map((n) => n.id)).toEqual(fixture.expected.neighboursOfSqliteDepth1);
  });

  it('walks both directions to depth 2 by default and honours limit', () => {
    const all = neighbours(fixtureGraph, 'sqlite');
    expect(all.map((n) => [n.id, n.depth])).toEqual([
      ['storage', 1],
      ['wal', 1],
      ['postgres', 1],
      ['db-desc', 2],
      ['reading-notes', 2],
      ['hooks', 2],
      ['locking', 2],
    ]);
    expect(neighbours(fixtureGraph, 'sqlite', { limit: 2 }).map((n) => n.id)).toEqual(['storage', 'wal']);
    expect(all[0]).toEqual({ id: 'storage', depth: 1, from: 'sqlite', relation: 'refines', direction: 'out', strength: 0.9 });
  });
});

describe('followSourceOf', () => {
  for (const { ids, links } of fixture.expected.followSourceOf) {
    it(`follows source_of edges from ${ids.join(', ')}`, () => {
      expect(followSourceOf(fixtureGraph, ids)).toEqual(links);
    });
  }

  it('ignores suggested source_of edges and lists each memory once', () => {
    const g = buildGraph({
      memoryIds: ['code', 'd1', 'd2', 'd3'],
      edges: [edge('code', 'source_of', 'd1'), edge('code', 'source_of', 'd2'), edge('code', 'source_of', 'd3', { status: 'suggested' })],
    });
    expect(followSourceOf(g, ['d2', 'd1'])).toEqual([{ id: 'code', from: 'd2', direction: 'in' }]);
    expect(followSourceOf(g, ['code']).map((l) => l.id)).toEqual(['d1', 'd2']);
  });
});
