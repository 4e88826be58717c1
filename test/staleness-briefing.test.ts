/**
 * The briefing marks memories whose referenced files changed since the commit they were
 * recorded at (DESIGN §4, issue 5 item 6), through git, and keeps decisions in it.
 */
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { tempRepo } from './helpers/repo.js';

describe('the briefing and git staleness', () => {
  it('flags a decision whose file changed since its commit, and keeps it', async () => {
    const repo = tempRepo({ 'src/db.ts': 'export const db = "sqlite";\n', 'README.md': '# x\n' });
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'init']);
    expect(repo.cortex(['init']).code).toBe(0);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    await cortex.remember({ text: 'Chose SQLite for the store in db.ts', type: 'decision', source: { files: ['src/db.ts'] } });
    await cortex.remember({ text: 'The README is the only user documentation', type: 'context', source: { files: ['README.md'] } });
    repo.cortex(['project']);
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'memories']);

    const before = repo.cortex(['surface']);
    expect(before.code, before.stderr).toBe(0);
    const itemOf = (text: string, needle: string) => text.split('\n').find((l) => l.startsWith('- ') && l.includes(needle));
    expect(itemOf(before.stdout, 'Chose SQLite')).toBeDefined();
    expect(itemOf(before.stdout, 'Chose SQLite')).not.toMatch(/POSSIBLY OUTDATED/);

    repo.write('src/db.ts', 'export const db = "postgres";\n');
    repo.git(['commit', '-q', '--no-verify', '-am', 'switch database']);
    const after = repo.cortex(['surface']);
    const line = itemOf(after.stdout, 'Chose SQLite');
    expect(line).toBeDefined();
    expect(line).toMatch(/POSSIBLY OUTDATED/);
    expect(line).toMatch(/src\/db\.ts/);
    const readme = itemOf(after.stdout, 'README is the only');
    expect(readme ?? '').not.toMatch(/POSSIBLY OUTDATED/);

    // The full briefing cached beside a compact one (what the session-start hook serves) is
    // the one `cortex surface` builds, with the same markers, also for items only it shows.
    for (let i = 0; i < 40; i++) {
      await cortex.remember({ text: `Gotcha number ${i}: the ${i}th queue worker needs its own lock`, type: 'gotcha', priority: 9, autoLink: false });
    }
    const compact = repo.cortex(['surface', '--compact']);
    expect(itemOf(compact.stdout, 'Chose SQLite')).toBeUndefined();
    const cachedFull = (JSON.parse(repo.read('.memory/surface-cache/full-config.json')) as { text: string }).text;
    expect(repo.cortex(['surface']).stdout.trim()).toBe(cachedFull.trim());
  });
});
