/**
 * The graph as files, end to end: traversal and centrality on a fixture graph with
 * hand-computed answers, link/unlink, recall enrichment, wikilinks and lint.
 */
import { readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { graphMemories, graphTierLocations, loadGraph } from '../src/services/graph-view.js';
import { centralityOf } from '../src/services/rank-inputs.js';
import { loadMemories } from '../src/api/surface.js';
import { extractWikilinks } from '../src/core/wikilinks.js';
import type { TraverseOptions } from '../src/core/graph.js';
import { json, tempRepo, type TempRepo } from './helpers/repo.js';

const FIXTURE = join(__dirname, 'fixtures', 'graph-hub-and-cycle');

interface Expected {
  parseDiagnostics: Array<{ file: string; ruleId: string; severity: string }>;
  lint: Array<{ file: string; ruleId: string; severity: string }>;
  inDegree: Record<string, number>;
  centrality: Record<string, number>;
  traversals: Array<{ name: string; start: string; options: TraverseOptions; levels: unknown }>;
}

const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;

function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.includes('.cortex')) files[relative(FIXTURE, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(FIXTURE);
  return files;
}

function fixtureRepo(): TempRepo {
  const repo = tempRepo(fixtureFiles());
  // A directory changed in the last few milliseconds is never trusted by the caches (a
  // second change could share its mtime): age it, as any real checkout is.
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(repo.dir, '.cortex/edges'), past, past);
  return repo;
}

const api = (repo: TempRepo) => openCortex({ dir: repo.dir, env: repo.env });

/** Levels as the fixture states them: ids and the edge each was reached by. */
function shape(levels: Array<{ depth: number; nodes: Array<{ id: string; via: unknown }> }>) {
  return levels.map((l) => ({ depth: l.depth, nodes: l.nodes.map((n) => ({ id: n.id, via: n.via })) }));
}

describe('cortex traverse on a fixture graph', () => {
  it('gives the hand-computed levels for depth limits, directions, type and strength filters and cycles, cold and warm', () => {
    const repo = fixtureRepo();
    const known = expected.traversals.filter((t) => t.name !== 'unknown start');
    expect(known.length).toBeGreaterThan(5);
    for (const pass of ['cold', 'warm']) {
      const cortex = api(repo);
      expect(cortex.graph().rebuilt).toBe(pass === 'cold');
      for (const t of known) {
        const out = cortex.traverse({ id: t.start, ...t.options });
        expect(shape(out.levels), `${pass}: ${t.name}`).toEqual(t.levels);
        expect(out.total).toBe(shape(out.levels).reduce((n, l) => n + l.nodes.length, 0));
      }
    }
  });

  it('prints levels grouped by depth, and the same answer as JSON', () => {
    const repo = fixtureRepo();
    const t = expected.traversals.find((x) => x.name.startsWith('out from sqlite, depth 10'))!;
    const doc = json<{ start: { id: string }; levels: [] }>(repo.cortex(['traverse', 'sqlite', '--direction', 'out', '--depth', '10', '--json']));
    expect(doc.start.id).toBe('sqlite');
    expect(shape(doc.levels)).toEqual(t.levels);
    const text = repo.cortex(['traverse', 'sqlite', '--direction', 'out', '--depth', '10']);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^sqlite {2}\[decision\]/);
    expect(lines.filter((l) => /^depth \d/.test(l)).map((l) => l.split(' ')[1])).toEqual(['1', '2', '3', '4']);
    expect(lines[2]).toMatch(/^ {2}→ refines +storage /);
    // The broken edge files of the fixture are skipped with a warning, not fatal.
    expect(text.stderr).toMatch(/warning: skipped \.cortex\/edges\/reading-notes--relates_to--hooks\.md/);
  });

  it('normalises relation aliases in --types and rejects bad arguments', () => {
    const repo = fixtureRepo();
    const refines = expected.traversals.find((x) => x.name.startsWith('only refines'))!;
    const doc = json<{ levels: [] }>(repo.cortex(['traverse', 'sqlite', '--types', 'refine', '--json']));
    expect(shape(doc.levels)).toEqual(refines.levels);
    expect(repo.cortex(['traverse', 'sqlite', '--depth', '11']).code).toBe(2);
    expect(repo.cortex(['traverse', 'sqlite', '--direction', 'sideways']).code).toBe(2);
    expect(repo.cortex(['traverse', 'sqlite', '--types', 'loves']).code).toBe(2);
    const missing = repo.cortex(['traverse', 'mongodb', '--json']);
    expect(missing.code).toBe(1);
    expect(json<{ error: { code: string } }>(missing).error.code).toBe('MEMORY_NOT_FOUND');
  });
});

describe('centrality', () => {
  it('is in-degree over active edges / max, computed once per refresh and recomputed when an edge appears', () => {
    const repo = fixtureRepo();
    const first = api(repo).graph();
    expect(first.rebuilt).toBe(true);
    expect({ ...first.centrality }).toEqual(expected.centrality);
    const warm = api(repo).graph();
    expect(warm.rebuilt).toBe(false);
    expect({ ...warm.centrality }).toEqual(expected.centrality);

    // One more active edge into the hub: every value is re-divided by the new maximum.
    expect(repo.cortex(['link', 'postgres', 'refines', 'storage']).code).toBe(0);
    const degree = { ...expected.inDegree, storage: expected.inDegree.storage! + 1 };
    const max = Math.max(...Object.values(degree));
    const after = api(repo).graph();
    expect(after.rebuilt).toBe(true);
    for (const [id, d] of Object.entries(degree)) expect(after.centrality[id], id).toBeCloseTo(d / max, 12);
  });

  it('sees edge files replaced by git or by hand, and in-place edits after `cortex index`', () => {
    const repo = fixtureRepo();
    const cortex = () => api(repo);
    expect(cortex().traverse({ id: 'sqlite', direction: 'out', depth: 1 }).levels[0]!.nodes[0]!.via.strength).toBe(0.9);
    const file = join(repo.dir, '.cortex/edges/sqlite--refines--storage.md');
    const text = readFileSync(file, 'utf8');
    // Replaced through a rename (how git checks files out and how editors often save).
    writeFileSync(`${file}.new`, text.replace('strength: 0.9', 'strength: 0.35'));
    renameSync(`${file}.new`, file);
    expect(cortex().traverse({ id: 'sqlite', direction: 'out', depth: 1 }).levels[0]!.nodes[0]!.via.strength).toBe(0.35);
    // Edited in place: the directory does not change; `cortex index` re-checks every file.
    writeFileSync(file, text.replace('strength: 0.9', 'strength: 0.65'));
    expect(repo.cortex(['index']).code).toBe(0);
    expect(cortex().traverse({ id: 'sqlite', direction: 'out', depth: 1 }).levels[0]!.nodes[0]!.via.strength).toBe(0.65);
  });

  it('feeds the briefing and the lifecycle from the same cache, read without the search index', () => {
    const repo = fixtureRepo();
    const cortex = api(repo);
    expect(cortex.graph().rebuilt).toBe(true);
    const { memories } = loadMemories(cortex.context);
    // The same memories read from files give the same cache key as the index gave.
    const nodes = memories.map((m) => ({ scope: m.scope, id: m.id, links: extractWikilinks(m.body) }));
    const reversed = nodes.reverse();
    expect(loadGraph(cortex.context, graphTierLocations(cortex.context), graphMemories(reversed)).rebuilt).toBe(false);
    expect({ ...centralityOf(cortex.context, memories) }).toEqual(expected.centrality);
  });

  it('rebuilds silently from corrupt caches', () => {
    const repo = fixtureRepo();
    expect({ ...api(repo).graph().centrality }).toEqual(expected.centrality);
    repo.write('.memory/graph.v8', '{"version":1,"key":{"stamps":[');
    repo.write('.memory/edges.json', 'not json');
    const view = api(repo).graph();
    expect(view.rebuilt).toBe(true);
    expect({ ...view.centrality }).toEqual(expected.centrality);
  });
});

describe('cortex link and unlink', () => {
  it('writes one edge file per relation, normalising aliases and swapping reversed ones', () => {
    const repo = fixtureRepo();
    const r = json<{ action: string; file: string; edge: Record<string, unknown> }>(
      repo.cortex(['link', 'postgres', 'derives', 'storage', '--strength', '0.8', '--note', 'Both are about where data lives.', '--json']),
    );
    expect(r).toMatchObject({ action: 'created', file: '.cortex/edges/postgres--derived_from--storage.md' });
    const text = repo.read(r.file);
    expect(text).toMatch(/^---\nsource: postgres\ntarget: storage\nrelation: derived_from\nstrength: 0.8\nstatus: active\nbidirectional: false\norigin: manual\ncreated: \d{4}-/);
    expect(text.endsWith('---\nBoth are about where data lives.\n')).toBe(true);

    const again = json<{ action: string }>(repo.cortex(['link', 'postgres', 'derived_from', 'storage', '--strength', '0.8', '--json']));
    expect(again.action).toBe('unchanged');
    expect(json<{ action: string }>(repo.cortex(['link', 'postgres', 'derived_from', 'storage', '--strength', '0.3', '--json'])).action).toBe('updated');
    expect(repo.read(r.file)).toContain('strength: 0.3');
    expect(repo.read(r.file)).toContain('Both are about where data lives.');

    const swapped = json<{ file: string; reversed: boolean }>(repo.cortex(['link', 'locking', 'superseded_by', 'hooks', '--json']));
    expect(swapped).toMatchObject({ reversed: true, file: '.cortex/edges/hooks--supersedes--locking.md' });

    expect(repo.cortex(['link', 'postgres', 'loves', 'storage']).code).toBe(2);
    expect(repo.cortex(['link', 'postgres', 'refines', 'postgres']).code).toBe(2);
    expect(repo.cortex(['link', 'postgres', 'refines', '../etc']).code).toBe(2);
    expect(repo.cortex(['link', 'postgres', 'refines', 'nobody']).code).toBe(1);
    expect(repo.cortex(['link', 'postgres', 'refines', 'storage', '--strength', '2']).code).toBe(2);
  });

  it('unlinks one relation or every edge between two memories, and points at body links', () => {
    const repo = fixtureRepo();
    repo.cortex(['link', 'postgres', 'refines', 'storage']);
    repo.cortex(['link', 'storage', 'relates_to', 'postgres']);
    const one = json<{ removed: Array<{ file: string }> }>(repo.cortex(['unlink', 'postgres', 'refines', 'storage', '--json']));
    expect(one.removed.map((x) => x.file)).toEqual(['.cortex/edges/postgres--refines--storage.md']);
    const all = json<{ removed: Array<{ file: string }> }>(repo.cortex(['unlink', 'storage', 'postgres', '--json']));
    expect(all.removed.map((x) => x.file)).toEqual(['.cortex/edges/storage--relates_to--postgres.md']);
    expect(repo.list('.cortex/edges').filter((n) => n.includes('postgres') && n.includes('storage'))).toEqual([]);
    const none = repo.cortex(['unlink', 'storage', 'postgres']);
    expect(none.code).toBe(1);
    // db-desc's body links [[db-code]]: no file to delete, and the command says where it is.
    const link = repo.cortex(['unlink', 'db-desc', 'relates_to', 'db-code']);
    expect(link.code).toBe(1);
    expect(link.stderr).toMatch(/body of db-desc links \[\[db-code\]\]/);
  });
});

describe('recall enrichment', () => {
  it('follows source_of to the code a description is about and lists neighbours to depth 2, compactly', () => {
    const repo = fixtureRepo();
    const doc = json<{ results: Array<{ id: string; code?: Array<{ id: string }>; related?: Array<{ id: string; depth: number; relation: string }> }> }>(
      repo.cortex(['recall', 'opens the SQLite index', '--json']),
    );
    const desc = doc.results.find((r) => r.id === 'db-desc')!;
    expect(desc.code!.map((c) => c.id)).toEqual(['db-code']);
    for (const r of doc.results) {
      expect(r.related!.length).toBeLessThanOrEqual(5);
      for (const n of r.related!) expect([1, 2]).toContain(n.depth);
      expect(r.related!.map((n) => n.id)).not.toContain(r.id);
    }
    const sqlite = doc.results.find((r) => r.id === 'sqlite')!;
    expect(sqlite.related!.filter((n) => n.depth === 1).map((n) => n.id).sort()).toEqual(['postgres', 'storage', 'wal']);

    const text = repo.cortex(['recall', 'opens the SQLite index']);
    expect(text.stdout).toMatch(/db-desc {2}\[code_description\][^\n]*\n {6}code db-code {2}src\/db\.ts\n/);
    const bare = json<{ results: Array<Record<string, unknown>> }>(repo.cortex(['recall', 'opens the SQLite index', '--no-enrich', '--json']));
    expect(bare.results.length).toBe(doc.results.length);
    for (const r of bare.results) expect(r).not.toHaveProperty('related');
  });
});

describe('wikilinks', () => {
  it('count as relates_to edges without a file, from the moment a memory is remembered', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const a = json<{ id: string }>(repo.cortex(['remember', 'Release notes live in CHANGELOG.md', '--no-link', '--json']));
    const b = json<{ id: string }>(repo.cortex(['remember', '--summary', 'Tag releases from main', `Write the notes first, see [[${a.id}]].`, '--no-link', '--json']));
    expect(repo.list('.cortex/edges')).toEqual([]);
    const doc = json<{ levels: Array<{ nodes: Array<{ id: string; via: { relation: string; direction: string } }> }> }>(
      repo.cortex(['traverse', a.id, '--json']),
    );
    expect(doc.levels[0]!.nodes).toEqual([expect.objectContaining({ id: b.id, via: expect.objectContaining({ relation: 'relates_to', direction: 'in' }) })]);
  });
});

describe('cortex lint on the graph', () => {
  it('reports dangling, unknown, self-loop, redundant and unparsable edges, dangling links and conflict markers', () => {
    const repo = fixtureRepo();
    repo.write(
      '.cortex/memories/conflicted.md',
      '---\nid: conflicted\ntype: context\nsummary: A merge went wrong\n---\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n',
    );
    repo.write('.cortex/edges/sqlite--refines--storage-copy.md', readFileSync(join(FIXTURE, '.cortex/edges/sqlite--refines--storage.md'), 'utf8'));
    const r = repo.cortex(['lint', '--json']);
    expect(r.code).toBe(1);
    const found = json<{ diagnostics: Array<{ file: string; ruleId: string; severity: string; line?: number }> }>(r).diagnostics;
    const pick = (d: { file: string; ruleId: string; severity: string }) => ({ file: d.file, ruleId: d.ruleId, severity: d.severity });
    for (const want of [...expected.lint, ...expected.parseDiagnostics]) expect(found.map(pick)).toContainEqual(want);
    expect(found).toContainEqual(expect.objectContaining({ file: '.cortex/memories/conflicted.md', ruleId: 'conflict-markers', severity: 'error', line: 6 }));
    expect(found).toContainEqual(expect.objectContaining({ file: '.cortex/edges/sqlite--refines--storage-copy.md', ruleId: 'edge-name-mismatch' }));
  });
});
