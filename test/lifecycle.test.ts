/**
 * `cortex lifecycle` end to end on backdated memories (test/fixtures/lifecycle-backdated):
 * the dry run lists exactly the transitions DESIGN §3 implies, and the real run makes
 * exactly those file changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { parseMemory } from '../src/core/memory-format.js';
import { fixturePath, fixtureRepo } from './helpers/fixture-repo.js';
import { json } from './helpers/repo.js';

interface Expected {
  transitions: { id: string; from: string; to: string }[];
}
interface LifecycleJson {
  dryRun: boolean;
  applied: boolean;
  changes: { id: string; from: string; to: string; file: string; change: string; reason: string; at: string }[];
}

const EXPECTED = JSON.parse(readFileSync(fixturePath('lifecycle-backdated', 'expected.json'), 'utf8')) as Expected;

function committedFixture() {
  const f = fixtureRepo('lifecycle-backdated');
  f.repo.git(['add', '-A']);
  expect(f.repo.git(['commit', '-qm', 'fixture']).code).toBe(0);
  return f;
}

describe('cortex lifecycle', () => {
  it('lists exactly the transitions DESIGN §3 implies, and then makes exactly those file changes', () => {
    const { repo, env } = committedFixture();
    const dry = json<LifecycleJson>(repo.cortex(['lifecycle', '--dry-run', '--json'], { env }));
    expect(dry).toMatchObject({ dryRun: true, applied: false });
    expect(dry.changes.map(({ id, from, to }) => ({ id, from, to }))).toEqual(EXPECTED.transitions);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');

    const text = repo.cortex(['lifecycle', '--dry-run'], { env });
    expect(text.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(
      EXPECTED.transitions.map((t) => `${{ archived: 'archive', active: 'reactivate', pruned: 'prune' }[t.to]} .cortex/memories/${t.id}.md`),
    );
    expect(text.stderr).toContain('Dry run: would apply 5 changes (2 archived, 1 reactivated, 2 pruned).');

    const applied = repo.cortex(['lifecycle'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const status = repo.git(['status', '--porcelain']).stdout.split('\n').filter(Boolean).sort();
    expect(status).toEqual(
      EXPECTED.transitions
        .map((t) => `${t.to === 'pruned' ? ' D' : ' M'} .cortex/memories/${t.id}.md`)
        .sort(),
    );
    // A status edit changes exactly two lines: status, and updated (the archive date).
    for (const t of EXPECTED.transitions.filter((x) => x.to !== 'pruned')) {
      const before = readFileSync(fixturePath('lifecycle-backdated', 'memories', `${t.id}.md`), 'utf8').split('\n');
      const after = repo.read(`.cortex/memories/${t.id}.md`).split('\n');
      expect(after).toHaveLength(before.length);
      const changed = after.flatMap((line, i) => (line === before[i] ? [] : [`${before[i]} -> ${line}`]));
      expect(changed).toEqual([`status: ${t.from} -> status: ${t.to}`, `${before.find((l) => l.startsWith('updated: '))} -> updated: 2026-12-01T09:00:00Z`]);
      expect(parseMemory(after.join('\n'), { expectedId: t.id }).memory).toMatchObject({ status: t.to, updated: '2026-12-01T09:00:00Z' });
    }
    // The signals of pruned memories are dropped; the others stay.
    const signals = JSON.parse(repo.read('.memory/signals.json')) as { signals: Record<string, unknown> };
    expect(Object.keys(signals.signals).sort()).toEqual(['archived-then-recalled-e6f7gg', 'progress-used-lately-v8w9xx']);

    const again = repo.cortex(['lifecycle', '--json'], { env });
    expect(json<LifecycleJson>(again).changes).toEqual([]);
  });

  it('protects hubs: a central memory is neither archived nor pruned', async () => {
    const { repo, env } = committedFixture();
    const centrality = () => ({ 'gotcha-faded-g6h7jj': 0.8, 'archived-long-ago-y2z3aa': 0.9, 'progress-old-session-a2b3cc': 0.5 });
    const cortex = openCortex({ dir: repo.dir, env: { ...repo.env, ...env }, centrality });
    const out = await cortex.lifecycle({ dryRun: true });
    const ids = out.changes.map((c) => c.id);
    expect(ids).not.toContain('gotcha-faded-g6h7jj');
    expect(ids).not.toContain('archived-long-ago-y2z3aa');
    // Centrality 0.5 is not above the hub threshold (0.5): still archived.
    expect(ids).toContain('progress-old-session-a2b3cc');
    expect(ids).toHaveLength(EXPECTED.transitions.length - 2);
  });

  it('reactivates an archived memory once it is recalled', () => {
    const { repo, env } = committedFixture();
    const id = 'archived-recently-b4c5dd';
    expect(json<LifecycleJson>(repo.cortex(['lifecycle', '--dry-run', '--json'], { env })).changes.map((c) => c.id)).not.toContain(id);
    const recalled = repo.cortex(['recall', 'office wifi drops', '--status', 'archived', '--json'], { env });
    expect(json<{ results: { id: string }[] }>(recalled).results.map((r) => r.id)).toContain(id);
    const next = json<LifecycleJson>(repo.cortex(['lifecycle', '--json'], { env })).changes.find((c) => c.id === id);
    expect(next).toMatchObject({ from: 'archived', to: 'active', change: 'modified' });
    expect(readFileSync(join(repo.dir, `.cortex/memories/${id}.md`), 'utf8')).toContain('status: active');
  });
});
