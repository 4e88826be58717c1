/**
 * The graph in real git repositories: edges added on two branches merge without
 * conflict, and `consolidate --merge` is exactly the file changes it claims to be.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEdge } from '../src/core/edge-format.js';
import { parseMemory } from '../src/core/memory-format.js';
import { json, tempRepo, type TempRepo } from './helpers/repo.js';

function initRepo(): TempRepo {
  const repo = tempRepo();
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

function remember(repo: TempRepo, args: string[]): string {
  const r = repo.cortex(['remember', ...args, '--no-link', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return json<{ id: string }>(r).id;
}

function commitAll(repo: TempRepo, message: string): void {
  // The pre-commit hook `cortex init` installs wants the projections in sync.
  expect(repo.cortex(['project']).code).toBe(0);
  expect(repo.git(['add', '-A']).code).toBe(0);
  const r = repo.git(['commit', '-q', '-m', message]);
  expect(r.code, r.stderr).toBe(0);
}

describe('edges on two branches', () => {
  it('merge in real git without conflict when both link the same memories with different relations', () => {
    const repo = initRepo();
    const a = remember(repo, ['Use SQLite for the local index', '--type', 'decision']);
    const b = remember(repo, ['The index must work offline', '--type', 'architecture']);
    commitAll(repo, 'two memories');

    repo.git(['checkout', '-q', '-b', 'feature']);
    expect(repo.cortex(['link', a, 'refines', b, '--note', 'Offline is why.']).code).toBe(0);
    commitAll(repo, 'refines');

    repo.git(['checkout', '-q', 'main']);
    expect(repo.cortex(['link', a, 'derived_from', b, '--strength', '0.9']).code).toBe(0);
    commitAll(repo, 'derived_from');

    const merge = repo.git(['merge', '--no-edit', 'feature']);
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    expect(merge.stdout + merge.stderr).not.toMatch(/CONFLICT/);
    expect(repo.list('.cortex/edges')).toEqual([`${a}--derived_from--${b}.md`, `${a}--refines--${b}.md`].sort());
    for (const name of repo.list('.cortex/edges')) {
      const parsed = parseEdge(repo.read(`.cortex/edges/${name}`), { file: `.cortex/edges/${name}` });
      expect(parsed.diagnostics).toEqual([]);
    }

    // Both relations are in the graph after the merge, and the caches noticed the checkout.
    for (const relation of ['refines', 'derived_from']) {
      const doc = json<{ levels: Array<{ nodes: Array<{ id: string; via: { relation: string } }> }> }>(
        repo.cortex(['traverse', a, '--types', relation, '--direction', 'out', '--json']),
      );
      expect(doc.levels[0]!.nodes.map((n) => [n.id, n.via.relation])).toEqual([[b, relation]]);
    }
    const lint = repo.cortex(['lint', '--json']);
    expect(json<{ errors: number }>(lint).errors).toBe(0);
  });
});

describe('cortex consolidate --merge', () => {
  function duplicates(repo: TempRepo): { a: string; b: string } {
    const a = remember(repo, ['Run the hooks with a 30 s timeout', '--type', 'gotcha', '--tags', 'hooks,timeout', '--priority', '4']);
    const b = remember(repo, [
      '--summary',
      'Hooks time out after 30 seconds',
      'UserPromptSubmit is cut off at 30 s by default.',
      '--type',
      'gotcha',
      '--tags',
      'hooks,claude-code',
      '--priority',
      '7',
    ]);
    return { a, b };
  }

  it('writes the merged memory, two supersedes edges and marks both superseded: git diff shows exactly those files', () => {
    const repo = initRepo();
    const { a, b } = duplicates(repo);
    commitAll(repo, 'duplicates');
    const before = { a: repo.read(`.cortex/memories/${a}.md`), b: repo.read(`.cortex/memories/${b}.md`) };

    const r = repo.cortex(['consolidate', '--merge', a, b, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = json<{ id: string; file: string }>(r);

    expect(repo.git(['add', '-A']).code).toBe(0);
    const diff = repo.git(['diff', '--cached', '--name-status']).stdout.trim().split('\n').sort();
    expect(diff).toEqual(
      [
        `A\t.cortex/edges/${out.id}--supersedes--${a}.md`,
        `A\t.cortex/edges/${out.id}--supersedes--${b}.md`,
        `A\t.cortex/memories/${out.id}.md`,
        `M\t.cortex/memories/${a}.md`,
        `M\t.cortex/memories/${b}.md`,
      ].sort(),
    );

    const merged = parseMemory(repo.read(out.file), { file: out.file, expectedId: out.id });
    expect(merged.diagnostics).toEqual([]);
    const old = { a: parseMemory(before.a).memory!, b: parseMemory(before.b).memory! };
    expect(merged.memory).toMatchObject({
      type: 'gotcha',
      summary: old.b.summary, // b has the higher priority
      confidence: 1,
      priority: Math.max(old.a.priority, old.b.priority),
      status: 'active',
      tags: [...new Set([...old.b.tags, ...old.a.tags])],
      source: { kind: 'consolidation', branch: 'main' },
    });
    for (const text of [old.a.summary, old.b.body]) expect(merged.memory!.body).toContain(text);

    for (const id of [a, b]) {
      const m = parseMemory(repo.read(`.cortex/memories/${id}.md`)).memory!;
      expect(m.status).toBe('superseded');
      const orig = id === a ? old.a : old.b;
      expect({ ...m, status: orig.status, updated: orig.updated }).toEqual(orig);
      const edge = parseEdge(repo.read(`.cortex/edges/${out.id}--supersedes--${id}.md`)).edge!;
      expect(edge).toMatchObject({ source: out.id, target: id, relation: 'supersedes', status: 'active', origin: 'consolidation' });
    }

    // The merged memory is what recall finds now; the old ones are superseded.
    const found = json<{ results: Array<{ id: string; related: Array<{ id: string; relation: string }> }> }>(repo.cortex(['recall', 'hooks timeout', '--json']));
    expect(found.results.map((x) => x.id)).toEqual([out.id]);
    expect(found.results[0]!.related.filter((n) => n.relation === 'supersedes').map((n) => n.id).sort()).toEqual([a, b].sort());
  });

  it('refuses while either file has uncommitted changes, unless --force', () => {
    const repo = initRepo();
    const { a, b } = duplicates(repo);
    // Never committed: git could not restore them.
    const untracked = repo.cortex(['consolidate', '--merge', a, b, '--json']);
    expect(untracked.code).toBe(1);
    expect(json<{ error: { code: string; message: string } }>(untracked).error).toMatchObject({ code: 'CONFLICT' });
    commitAll(repo, 'duplicates');
    repo.cortex(['edit', b, '--priority', '8']);
    const modified = repo.cortex(['consolidate', '--merge', a, b]);
    expect(modified.code).toBe(1);
    expect(modified.stderr).toContain(`.cortex/memories/${b}.md (modified)`);
    expect(modified.stderr).toMatch(/--force/);
    expect(repo.git(['status', '--porcelain']).stdout.trimEnd().split('\n')).toEqual([` M .cortex/memories/${b}.md`]);

    expect(repo.cortex(['consolidate', '--merge', a, b, '--force']).code).toBe(0);
    expect(parseMemory(repo.read(`.cortex/memories/${b}.md`)).memory!.status).toBe('superseded');
    // Merging a superseded memory again is refused.
    expect(repo.cortex(['consolidate', '--merge', a, b, '--force']).code).toBe(2);
  });

  it('sees committed files as committed in a linked worktree', () => {
    const repo = initRepo();
    const { a, b } = duplicates(repo);
    commitAll(repo, 'duplicates');
    const wt = `${repo.dir}-wt`;
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    try {
      writeFileSync(join(wt, '.cortex/memories', `${b}.md`), `${readFileSync(join(wt, '.cortex/memories', `${b}.md`), 'utf8')}More.\n`);
      const modified = repo.cortex(['consolidate', '--merge', a, b], { cwd: wt });
      expect(modified.code).toBe(1);
      expect(modified.stderr).toContain(`.cortex/memories/${b}.md (modified)`);
      expect(modified.stderr).not.toContain(`${a}.md`);
      repo.git(['-C', wt, 'checkout', '--', `.cortex/memories/${b}.md`]);
      const merged = repo.cortex(['consolidate', '--merge', a, b], { cwd: wt });
      expect(merged.stderr).not.toContain('Uncommitted');
      expect(merged.code).toBe(0);
      expect(merged.stdout).toContain(`Superseded: ${a}`);
      // Both files were committed as they were: git alone undoes the merge.
      expect(merged.stdout).toMatch(/^undo: git restore --source=HEAD --staged --worktree -- \.cortex\/memories\/.+ \.cortex\/memories\/.+$/m);
    } finally {
      rmSync(wt, { recursive: true, force: true });
    }
  });
});
