/**
 * Usage signals: recall and show count accesses in .memory/signals.json (never in tracked
 * files), atomically under a lock, and never fail the command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureRepo } from './helpers/fixture-repo.js';
import { json } from './helpers/repo.js';

interface SignalsFile {
  version: number;
  signals: Record<string, { accessCount: number; lastAccess?: string }>;
}

function committed() {
  const f = fixtureRepo('surface-overflow');
  f.repo.cortex(['init'], { env: f.env });
  f.repo.git(['add', '-A']);
  expect(f.repo.git(['commit', '-qm', 'fixture']).code).toBe(0);
  const signals = () => JSON.parse(f.repo.read('.memory/signals.json')) as SignalsFile;
  return { ...f, signals };
}

describe('usage signals', () => {
  it('counts recall results and shows in .memory/signals.json and leaves the tracked files clean', () => {
    const { repo, env, signals } = committed();
    const recalled = json<{ results: { id: string }[] }>(repo.cortex(['recall', 'hook stdout', '--limit', '2', '--no-floor', '--json'], { env }));
    const ids = recalled.results.map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(signals()).toEqual({ version: 1, signals: Object.fromEntries(ids.map((id) => [id, { accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' }])) });

    const later = { CORTEX_NOW: '2026-12-02T10:00:00Z' };
    expect(repo.cortex(['show', ids[0]!], { env: later }).code).toBe(0);
    expect(signals().signals[ids[0]!]).toEqual({ accessCount: 2, lastAccess: '2026-12-02T10:00:00Z' });
    expect(signals().signals[ids[1]!]).toEqual({ accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' });

    // Listing is not an access.
    repo.cortex(['list'], { env });
    expect(signals().signals[ids[1]!]!.accessCount).toBe(1);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });

  it('skips the update, not the command, while another process holds the lock', () => {
    const { repo, env, dir } = committed();
    mkdirSync(join(dir, '.memory/locks'), { recursive: true });
    writeFileSync(join(dir, '.memory/locks/signals.lock'), JSON.stringify({ pid: process.pid, at: Date.now() }));
    const r = repo.cortex(['show', 'index-is-a-cache-d4e5gg'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('id: index-is-a-cache-d4e5gg');
    expect(r.stderr).not.toMatch(/error/i);
    expect(() => repo.read('.memory/signals.json')).toThrow();
  });

  it('survives concurrent readers and a corrupt signals file', async () => {
    const { repo, env, dir, signals } = committed();
    mkdirSync(join(dir, '.memory'), { recursive: true });
    writeFileSync(join(dir, '.memory/signals.json'), '{"version": 1, "signals": {"index-is-a');
    const runs = await Promise.all(Array.from({ length: 4 }, () => repo.cortexAsync(['show', 'index-is-a-cache-d4e5gg'], { env })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const count = signals().signals['index-is-a-cache-d4e5gg']!.accessCount;
    // Each access is counted at most once; one that waited too long for the lock is skipped.
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(4);
  });
});
