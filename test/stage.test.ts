/**
 * How Cortex files reach a commit (services/stage.ts): what a whole-tree commit takes from
 * the work tree, the upgrade of the previous release's intent-to-add entries, and write
 * commands that stage what they create; against real temporary repositories and real git.
 * The commits themselves, through the hook, are in test/journeys/commit.test.ts.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { filesToTake, isTakenPath, parseStatus, queueStaging, takeWorkTreeChanges, upgradeIntentToAdd, type StatusEntry } from '../src/services/stage.js';
import { tempRepo, type TempRepo } from './helpers/repo.js';

/** `git status --porcelain` lines of the repository, sorted. */
function status(repo: TempRepo): string[] {
  return repo.git(['status', '--porcelain', '--untracked-files=all']).stdout.split('\n').filter(Boolean).sort();
}

describe('parseStatus', () => {
  it('reads porcelain v1 -z records, paths with spaces included', () => {
    expect(parseStatus('?? .cortex/memories/a b.md\0 M src/x.ts\0MM y\0')).toEqual([
      { x: '?', y: '?', path: '.cortex/memories/a b.md' },
      { x: ' ', y: 'M', path: 'src/x.ts' },
      { x: 'M', y: 'M', path: 'y' },
    ]);
    expect(parseStatus('')).toEqual([]);
  });
});

describe('isTakenPath', () => {
  it('is a memory or edge file by its name, nothing else under .cortex/', () => {
    expect(isTakenPath('.cortex/memories/use-wal-k3f9qa.md')).toBe(true);
    expect(isTakenPath('.cortex/edges/a--relates_to--b.md')).toBe(true);
    for (const p of ['.cortex/decisions.md', '.cortex/local/memories/x.md', '.cortex/memories/sub/x.md', '.cortex/memories/.x.md', '.cortex/memories/x.txt', 'src/x.md', '.cortex/config.yaml']) {
      expect(isTakenPath(p), p).toBe(false);
    }
  });
});

describe('filesToTake', () => {
  const memory = (x: string, y: string, name = 'm.md'): StatusEntry => ({ x, y, path: `.cortex/memories/${name}` });

  it('takes what is new, changed, deleted or intent-to-add in the work tree, and leaves what the person staged', () => {
    expect(filesToTake([memory('?', '?', 'new.md'), memory(' ', 'M', 'changed.md'), memory(' ', 'D', 'gone.md'), memory(' ', 'A', 'ita.md')])).toEqual(
      ['changed.md', 'gone.md', 'ita.md', 'new.md'].map((n) => `.cortex/memories/${n}`),
    );
    expect(filesToTake([memory('M', 'M'), memory('A', 'M'), memory('D', ' '), memory('U', 'U'), memory('A', 'A'), memory('M', ' ')])).toEqual([]);
  });

  it('never takes a file outside the memory and edge directories, whatever its state (property)', () => {
    const state = fc.constantFrom(' ', 'M', 'A', 'D', '?', 'U', 'T');
    const path = fc.constantFrom('src/a.md', '.cortex/decisions.md', '.cortex/local/memories/p.md', '.cortex/memories/m.md', '.cortex/edges/e.md', '.cortex/memories/.tmp-x.md');
    fc.assert(
      fc.property(fc.array(fc.record({ x: state, y: state, path })), (entries) => {
        const taken = filesToTake(entries);
        for (const p of taken) {
          expect(isTakenPath(p)).toBe(true);
          const e = entries.find((en) => en.path === p && filesToTake([en]).length === 1)!;
          expect(e.x === ' ' || e.x === '?').toBe(true);
        }
      }),
    );
  });
});

describe('takeWorkTreeChanges', () => {
  it('stages new, changed and deleted memory and edge files; leaves staged, ignored and other files alone', () => {
    const repo = tempRepo({ '.cortex/memories/kept.md': 'k\n', '.cortex/memories/gone.md': 'g\n', '.cortex/memories/edited.md': 'e\n', 'src/x.ts': 'x\n', '.gitignore': '.cortex/memories/ignored.md\n' });
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'init']);
    repo.write('.cortex/memories/new.md', 'n\n');
    repo.write('.cortex/edges/a--relates_to--b.md', 'e\n');
    repo.write('.cortex/memories/edited.md', 'e2\n');
    repo.write('.cortex/memories/kept.md', 'staged\n');
    repo.git(['add', '.cortex/memories/kept.md']);
    repo.write('.cortex/memories/kept.md', 'staged, then edited again\n');
    repo.write('.cortex/memories/ignored.md', 'i\n');
    repo.write('.cortex/local/memories/private.md', 'p\n');
    repo.write('src/x.ts', 'x2\n');
    rmSync(join(repo.dir, '.cortex/memories/gone.md'));

    const taken = takeWorkTreeChanges({ cwd: repo.dir, env: repo.env });
    expect(taken).toEqual(['.cortex/edges/a--relates_to--b.md', '.cortex/memories/edited.md', '.cortex/memories/gone.md', '.cortex/memories/new.md']);
    expect(status(repo)).toEqual([
      'A  .cortex/edges/a--relates_to--b.md',
      'D  .cortex/memories/gone.md',
      'M  .cortex/memories/edited.md',
      'A  .cortex/memories/new.md',
      'MM .cortex/memories/kept.md',
      ' M src/x.ts',
      '?? .cortex/local/memories/private.md',
    ].sort());
    expect(takeWorkTreeChanges({ cwd: repo.dir, env: repo.env })).toEqual([]);
  });
});

describe('upgradeIntentToAdd', () => {
  it('stages the intent-to-add entries under .cortex/ as real entries and keeps the files; git stash works again', () => {
    const repo = tempRepo({ '.cortex/memories/a.md': 'a\n', 'other.md': 'o\n', 'src/x.ts': 'x\n' });
    repo.git(['add', 'src/x.ts']);
    repo.git(['commit', '-q', '-m', 'init']);
    repo.git(['add', '-N', '.cortex/memories/a.md', 'other.md']);
    repo.write('src/x.ts', 'x2\n');
    expect(repo.git(['stash']).code).not.toBe(0);
    expect(upgradeIntentToAdd({ cwd: repo.dir, env: repo.env })).toEqual(['.cortex/memories/a.md']);
    expect(status(repo)).toEqual([' A other.md', ' M src/x.ts', 'A  .cortex/memories/a.md']);
    expect(repo.read('.cortex/memories/a.md')).toBe('a\n');
    expect(upgradeIntentToAdd({ cwd: repo.dir, env: repo.env })).toEqual([]);
    repo.git(['rm', '-q', '--cached', 'other.md']);
    expect(repo.git(['stash']).code).toBe(0);
    expect(repo.git(['stash', 'pop']).code).toBe(0);
    expect(status(repo)).toEqual([' M src/x.ts', '?? other.md', 'A  .cortex/memories/a.md']);
  });

  it('is nothing outside a git repository', () => {
    const plain = tempRepo({ '.cortex/memories/a.md': 'a\n' }, { git: false });
    expect(upgradeIntentToAdd({ cwd: plain.dir, env: plain.env })).toEqual([]);
  });
});

describe('write commands stage what they create', () => {
  it('remember stages the memory and its auto-links (no intent-to-add entry), so git stash works', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    repo.cortex(['init']);
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'init']);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    // Made-up words (no stop words, no shared stems): the new memory shares a few with each.
    const W = ['zephyr', 'quokka', 'lumen', 'vortex', 'nimbus', 'cobalt', 'tundra', 'saffron', 'ember', 'glyph'];
    await cortex.remember({ summary: `${W[1]} ${W[8]} caword cbword`, body: `${W[9]} daword dbword dcword`, type: 'context', autoLink: false });
    for (let i = 0; i < 12; i++) await cortex.remember({ summary: `${W[i % 4]} filler note ${i}`, body: `padding text number ${i}`, autoLink: false });
    const before = status(repo);
    const made = await cortex.remember({ summary: W.slice(0, 4).join(' '), body: W.slice(4).join(' '), type: 'context' });
    const files = [made.file, ...(made.links?.edges.map((e) => e.file) ?? [])];
    expect(files.length).toBeGreaterThan(1);
    expect(status(repo).filter((l) => !before.includes(l))).toEqual(files.map((f) => `A  ${f}`).sort());
    expect(status(repo).filter((l) => l.startsWith(' A'))).toEqual([]);
    repo.write('README.md', '# demo 2\n');
    expect(repo.git(['stash']).code).toBe(0);
    expect(repo.git(['stash', 'pop']).code).toBe(0);

    // A topic update rewrites a staged file: nothing new to stage.
    const plan = await cortex.remember({ summary: 'Plan: step 1 of 3', type: 'plan', topic: 'plan/main', autoLink: false });
    expect(status(repo)).toContain(`A  ${plan.file}`);
    const updated = await cortex.remember({ summary: 'Plan: step 2 of 3', type: 'plan', topic: 'plan/main', autoLink: false });
    expect(updated.action).toBe('updated');
    expect(status(repo)).toContain(`AM ${plan.file}`);
  });
});

describe('queueStaging (the MCP server: one git add per burst)', () => {
  it('stages what the writes created together, once the burst is over, and git commit -am takes it', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    repo.cortex(['init']);
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'init']);
    // Delays far longer than the writes: nothing is staged until the burst is over.
    const staging = queueStaging({ idleMs: 1500, maxDelayMs: 60_000 });
    const cortex = openCortex({ dir: repo.dir, env: repo.env, staging });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await cortex.remember({ summary: `Chose engine ${i} for the nightly queue`, type: 'decision' }));
    const files = [...new Set(made.flatMap((m) => [m.file, ...(m.links?.edges.map((e) => e.file) ?? [])]))].sort();
    expect(staging.pending).toBe(files.length);
    expect(status(repo).filter((l) => l.startsWith('A '))).toEqual([]);
    // Staged by the idle timer, without a flush.
    for (let waited = 0; staging.pending > 0 && waited < 10_000; waited += 50) await sleep(50);
    expect(staging.pending).toBe(0);
    expect(await staging.flush()).toBe(true);
    expect(status(repo).filter((l) => l.startsWith('A '))).toEqual(files.map((f) => `A  ${f}`));
    const committed = repo.git(['commit', '-qam', 'decisions']);
    expect(committed.code, committed.stderr).toBe(0);
    // (The pre-commit hook adds the regenerated projections, .cortex/decisions.md, beside them.)
    expect(repo.git(['show', '--name-only', '--format=', 'HEAD']).stdout.split('\n').filter((f) => isTakenPath(f)).sort()).toEqual(files);
  });

  it('stages by the longest delay while writes keep coming, leaves out files gone meanwhile, and flushes on demand (sync too)', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    repo.cortex(['init']);
    const staging = queueStaging({ idleMs: 60_000, maxDelayMs: 300 });
    const cortex = openCortex({ dir: repo.dir, env: repo.env, staging });
    const a = await cortex.remember({ summary: 'The webhook retries three times', type: 'gotcha', autoLink: false });
    for (let waited = 0; staging.pending > 0 && waited < 10_000; waited += 50) await sleep(50);
    expect(await staging.flush()).toBe(true);
    expect(status(repo)).toContain(`A  ${a.file}`);

    // Forgotten before the burst was staged: left out, and the rest is staged.
    const b = await cortex.remember({ summary: 'The billing job runs at noon', type: 'context', autoLink: false });
    const c = await cortex.remember({ summary: 'Tokens expire after an hour', type: 'gotcha', autoLink: false });
    rmSync(join(repo.dir, b.file));
    expect(staging.flushSync()).toBe(true);
    expect(staging.pending).toBe(0);
    expect(status(repo)).toContain(`A  ${c.file}`);
    expect(status(repo).some((l) => l.includes(b.file))).toBe(false);
  });

  it('does nothing outside a git repository', async () => {
    const repo = tempRepo({}, { git: false });
    repo.cortex(['init']);
    const staging = queueStaging({ idleMs: 10 });
    const cortex = openCortex({ dir: repo.dir, env: repo.env, staging });
    await cortex.remember({ summary: 'No git here', type: 'context', autoLink: false });
    expect(staging.pending).toBe(0);
    expect(await staging.flush()).toBe(true);
  });
});
