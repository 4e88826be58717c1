/**
 * The same hook registered twice — the plugin and a project's .claude/settings.json — is run
 * twice by Claude Code with the same stdin: one of the two does the work.
 */
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { init } from '../src/setup/init.js';
import { claimDelivery, DUPLICATE_WINDOW_MS } from '../src/hooks/dedupe.js';
import { tempRepo } from './helpers/repo.js';

async function repoWithMemory() {
  const repo = tempRepo({ 'README.md': '# x\n' });
  await init({ dir: repo.dir, env: repo.env });
  expect(repo.cortex(['remember', 'Chose SQLite over PostgreSQL because zero-config matters', '--type', 'decision']).code).toBe(0);
  return repo;
}

describe('cortex hook: one run per delivery', () => {
  it('two registrations started together with the same input inject the briefing once', async () => {
    const repo = await repoWithMemory();
    const input = JSON.stringify({ session_id: 'twin', transcript_path: join(repo.home, 't.jsonl'), cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    const [a, b] = await Promise.all([repo.cortexAsync(['hook', 'session-start'], { input }), repo.cortexAsync(['hook', 'session-start'], { input })]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.stdout, b.stdout].filter((s) => s.includes('CORTEX_MEMORY_START'));
    expect(outputs).toHaveLength(1);
    expect([a.stdout, b.stdout]).toContain('');

    // Another delivery (another session, another source) runs as usual.
    const other = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ ...(JSON.parse(input) as object), session_id: 'other' }) });
    expect(other.stdout).toContain('Chose SQLite over PostgreSQL');
  });

  it('the same bytes again after the window are a new delivery; claims are files under .memory/deliveries/', async () => {
    const repo = await repoWithMemory();
    const cacheDir = join(repo.dir, '.memory');
    const now = Date.now();
    expect(claimDelivery(cacheDir, 'stop', '{"session_id":"s"}', now)).toBe(true);
    expect(claimDelivery(cacheDir, 'stop', '{"session_id":"s"}', now + 100)).toBe(false);
    // Another event with the same bytes is another delivery.
    expect(claimDelivery(cacheDir, 'pre-compact', '{"session_id":"s"}', now + 100)).toBe(true);
    const [claim] = readdirSync(join(cacheDir, 'deliveries'));
    expect(claim).toBeDefined();
    const past = (now - DUPLICATE_WINDOW_MS - 1_000) / 1000;
    for (const name of readdirSync(join(cacheDir, 'deliveries'))) utimesSync(join(cacheDir, 'deliveries', name), past, past);
    expect(claimDelivery(cacheDir, 'stop', '{"session_id":"s"}', now)).toBe(true);
    expect(claimDelivery(cacheDir, 'stop', '{"session_id":"s"}', now + 10)).toBe(false);
  });

  it('a cache directory that cannot be made never stops a hook', () => {
    // .memory is a regular file here: no directory can be created under it.
    const repo = tempRepo({ '.memory': 'not a directory\n' });
    expect(claimDelivery(join(repo.dir, '.memory'), 'stop', 'x', Date.now())).toBe(true);
    expect(claimDelivery(join(repo.dir, '.memory'), 'stop', 'x', Date.now())).toBe(true);
  });
});
