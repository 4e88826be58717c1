import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EDGE_ORIGINS, RELATIONS } from '../core/edge.js';
import { buildGraph, centrality, followSourceOf, neighbours, traverse, type GraphEdgeInput } from '../core/graph.js';
import { graphCachePath, loadGraphCache, saveGraphCache, type GraphCacheKey } from './graph-cache.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-graph-cache-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const KEY: GraphCacheKey = { stamps: [{ exists: true, mtimeMs: 1000, ino: 7 }], memories: 'abc' };

const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
const NODES: ReadonlySet<string> = new Set(ids);
const edgeArb = fc.record({
  // Edge files may name anything: ids outside ASCII are kept as written.
  source: fc.constantFrom(...ids, 'ghost', 'ghøst-日本'),
  target: fc.constantFrom(...ids),
  relation: fc.constantFrom(...RELATIONS),
  strength: fc.double({ min: 0, max: 1, noNaN: true }),
  status: fc.constantFrom('active' as const, 'suggested' as const),
  bidirectional: fc.boolean(),
  origin: fc.constantFrom(...EDGE_ORIGINS),
});
const linksArb = fc.dictionary(fc.constantFrom(...ids), fc.array(fc.constantFrom(...ids, 'ghost'), { maxLength: 3 }));

describe('saveGraphCache / loadGraphCache', () => {
  it('gives back a graph that walks, ranks and enriches exactly like the one saved (property)', () => {
    const dir = tempDir();
    fc.assert(
      fc.property(fc.array(edgeArb, { maxLength: 25 }), linksArb, (edges: GraphEdgeInput[], wikilinks) => {
        const graph = buildGraph({ memoryIds: ids, edges, wikilinks });
        const c = centrality(graph);
        saveGraphCache(dir, KEY, graph, []);
        const loaded = loadGraphCache(dir, KEY, new Set(ids))!;
        expect(loaded).toBeDefined();
        expect([...loaded.graph.nodes]).toEqual([...graph.nodes]);
        for (const id of [...ids, 'ghost', '', 'a\u0000']) expect(loaded.graph.nodes.has(id)).toBe(graph.nodes.has(id));
        expect(loaded.graph.nodes.size).toBe(graph.nodes.size);
        expect(loaded.graph.edges).toEqual(graph.edges);
        expect({ ...loaded.centrality }).toEqual({ ...c });
        // The file holds the edges' ends, not every memory: its size follows the edges.
        const ends = new Set(graph.edges.flatMap((e) => [e.source, e.target]));
        for (const id of ids) if (!ends.has(id)) expect(readFileSync(graphCachePath(dir), 'latin1').includes(`${id}\n`)).toBe(false);
        for (const id of ids) {
          for (const direction of ['out', 'in', 'both'] as const) {
            expect(traverse(loaded.graph, id, { depth: 3, direction, includeSuggested: true })).toEqual(
              traverse(graph, id, { depth: 3, direction, includeSuggested: true }),
            );
          }
          expect(neighbours(loaded.graph, id, { limit: 5 })).toEqual(neighbours(graph, id, { limit: 5 }));
          expect(loaded.graph.out.get(id)).toEqual(graph.out.get(id));
          expect(loaded.graph.in.get(id)).toEqual(graph.in.get(id));
        }
        expect(followSourceOf(loaded.graph, ids)).toEqual(followSourceOf(graph, ids));
        expect(new Map(loaded.graph.out)).toEqual(new Map(graph.out));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a cache saved under another key: other memories, or an edge directory that changed', () => {
    const dir = tempDir();
    const graph = buildGraph({ memoryIds: ['a', 'b'], edges: [], wikilinks: { a: ['b'] } });
    saveGraphCache(dir, KEY, graph, []);
    expect(loadGraphCache(dir, KEY, NODES)).toBeDefined();
    expect(loadGraphCache(dir, { ...KEY, memories: 'other' }, NODES)).toBeUndefined();
    expect(loadGraphCache(dir, { ...KEY, stamps: [{ exists: true, mtimeMs: 1001, ino: 7 }] }, NODES)).toBeUndefined();
    expect(loadGraphCache(dir, { ...KEY, stamps: [] }, NODES)).toBeUndefined();
  });

  it('never trusts a racy stamp: one taken right after the directory changed', () => {
    const dir = tempDir();
    const graph = buildGraph({ memoryIds: ['a'], edges: [] });
    const racy: GraphCacheKey = { stamps: [{ exists: true, mtimeMs: 1000, ino: 7, racy: true }], memories: 'abc' };
    saveGraphCache(dir, racy, graph, []);
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
  });

  it('treats a corrupt or foreign file as no cache', () => {
    const dir = tempDir();
    writeFileSync(graphCachePath(dir), '{"version":1,"key":');
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    writeFileSync(graphCachePath(dir), JSON.stringify({ version: 2, key: KEY, nodes: 'a', sorted: [0], edges: [0, 0, 0], centrality: [0] }));
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    writeFileSync(graphCachePath(dir), JSON.stringify({ version: 2, key: KEY, nodes: 'a\nb', sorted: [0, 1], edges: [0, 5, 0, 1], centrality: [0, 0] }));
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    writeFileSync(graphCachePath(dir), JSON.stringify({ version: 99, key: KEY, nodes: [], edges: [], centrality: [] }));
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    // A cache cut short, or with a byte too many: its columns do not fit its header.
    saveGraphCache(dir, KEY, buildGraph({ memoryIds: ['a', 'b'], edges: [], wikilinks: { a: ['b'] } }), []);
    const whole = readFileSync(graphCachePath(dir));
    expect(loadGraphCache(dir, KEY, NODES)).toBeDefined();
    writeFileSync(graphCachePath(dir), whole.subarray(0, whole.length - 1));
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    writeFileSync(graphCachePath(dir), Buffer.concat([whole, Buffer.of(0)]));
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
    // An edge naming an id past the ids saved.
    const damaged = Buffer.from(whole);
    const firstEdge = damaged.length - (32 + 8 * 2 + 4 * 3 + 4 * 2 + 3);
    damaged.writeDoubleLE(7, firstEdge);
    writeFileSync(graphCachePath(dir), damaged);
    expect(loadGraphCache(dir, KEY, NODES)).toBeUndefined();
  });
});
