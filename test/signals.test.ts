/**
 * Usage signals: recall and show count accesses in .memory/ (never in tracked files), by
 * appending a line to the usage log (signals.log) that is folded into signals.json now and
 * then; recording never fails the command.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { appendUsage, readSignals, updateSignals } from '../src/cache/signals.js';
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
  const signals = (): SignalsFile => ({ version: 1, signals: { ...readSignals({ cacheDir: join(f.dir, '.memory') }) } });
  return { ...f, signals };
}

describe('usage signals', () => {
  it('counts recall results and shows in the usage log and leaves the tracked files clean', () => {
    const { repo, env, signals } = committed();
    const recalled = json<{ results: { id: string }[] }>(repo.cortex(['recall', 'hook stdout', '--limit', '2', '--no-floor', '--json'], { env }));
    const ids = recalled.results.map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(signals()).toEqual({ version: 1, signals: Object.fromEntries(ids.map((id) => [id, { accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' }])) });
    // One line appended; the snapshot is not rewritten by a read.
    expect(repo.read('.memory/signals.log')).toBe(`2026-12-01T09:00:00Z\t${ids.join(' ')}\n`);
    expect(() => repo.read('.memory/signals.json')).toThrow();

    const later = { CORTEX_NOW: '2026-12-02T10:00:00Z' };
    expect(repo.cortex(['show', ids[0]!], { env: later }).code).toBe(0);
    expect(signals().signals[ids[0]!]).toEqual({ accessCount: 2, lastAccess: '2026-12-02T10:00:00Z' });
    expect(signals().signals[ids[1]!]).toEqual({ accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' });

    // Listing is not an access.
    repo.cortex(['list'], { env });
    expect(signals().signals[ids[1]!]!.accessCount).toBe(1);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });

  it('logs an access while another process holds the signals lock (the log takes no lock)', () => {
    const { repo, env, dir, signals } = committed();
    mkdirSync(join(dir, '.memory/locks'), { recursive: true });
    writeFileSync(join(dir, '.memory/locks/signals.lock'), JSON.stringify({ pid: process.pid, at: Date.now() }));
    const r = repo.cortex(['show', 'index-is-a-cache-d4e5gg'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('id: index-is-a-cache-d4e5gg');
    expect(r.stderr).not.toMatch(/error/i);
    expect(signals().signals['index-is-a-cache-d4e5gg']).toEqual({ accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' });
    expect(() => repo.read('.memory/signals.json')).toThrow();
  });

  it('survives concurrent readers and a corrupt signals file', async () => {
    const { repo, env, dir, signals } = committed();
    mkdirSync(join(dir, '.memory'), { recursive: true });
    writeFileSync(join(dir, '.memory/signals.json'), '{"version": 1, "signals": {"index-is-a');
    const runs = await Promise.all(Array.from({ length: 4 }, () => repo.cortexAsync(['show', 'index-is-a-cache-d4e5gg'], { env })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    // Every access is one appended line: none is lost, none counted twice; the corrupt
    // snapshot reads as no signals.
    expect(signals().signals['index-is-a-cache-d4e5gg']!.accessCount).toBe(4);
  });
});

describe('the usage log', () => {
  function tier() {
    const cacheDir = mkdtempSync(join(tmpdir(), 'cortex-usage-'));
    onTestFinished(() => rmSync(cacheDir, { recursive: true, force: true }));
    return { cacheDir };
  }

  it('is folded into signals.json once it passes the limit, counting every access once', () => {
    const paths = tier();
    appendUsage(paths, ['a-1', 'b-2', 'a-1'], '2026-12-01T09:00:00Z', { compactBytes: 1000 });
    appendUsage(paths, ['a-1'], '2026-12-02T09:00:00Z', { compactBytes: 1000 });
    expect(existsSync(join(paths.cacheDir, 'signals.json'))).toBe(false);
    const before = readSignals(paths);
    expect({ ...before }).toEqual({ 'a-1': { accessCount: 2, lastAccess: '2026-12-02T09:00:00Z' }, 'b-2': { accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' } });
    appendUsage(paths, ['c-3'], '2026-12-03T09:00:00Z', { compactBytes: 60 });
    expect(existsSync(join(paths.cacheDir, 'signals.log'))).toBe(false);
    const snapshot = JSON.parse(readFileSync(join(paths.cacheDir, 'signals.json'), 'utf8')) as SignalsFile;
    expect(snapshot.signals).toEqual({ ...before, 'c-3': { accessCount: 1, lastAccess: '2026-12-03T09:00:00Z' } });
    appendUsage(paths, ['b-2'], '2026-12-04T09:00:00Z');
    expect(readSignals(paths)['b-2']).toEqual({ accessCount: 2, lastAccess: '2026-12-04T09:00:00Z' });
  });

  it('skips a torn or foreign line and keeps the rest', () => {
    const paths = tier();
    writeFileSync(join(paths.cacheDir, 'signals.log'), 'garbage\n2026-12-01T09:00:00Z\tok-1\nnot a date\tx-1\n2026-12-0');
    expect({ ...readSignals(paths) }).toEqual({ 'ok-1': { accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' } });
  });

  it('is folded in by an update of the signals (the lifecycle dropping pruned memories)', () => {
    const paths = tier();
    appendUsage(paths, ['keep-1', 'drop-2'], '2026-12-01T09:00:00Z');
    updateSignals(paths, (signals) => delete signals['drop-2']);
    expect(existsSync(join(paths.cacheDir, 'signals.log'))).toBe(false);
    expect({ ...readSignals(paths) }).toEqual({ 'keep-1': { accessCount: 1, lastAccess: '2026-12-01T09:00:00Z' } });
  });
});
