/**
 * Git-native behaviour end to end: the built CLI and the real `git` CLI in temporary
 * repositories. Memories are written through the library API in-process (fast); every
 * git operation, hook and merge driver runs for real.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { updateMemory } from '../src/api/memories.js';
import { project } from '../src/api/project.js';
import { remember } from '../src/api/remember.js';
import type { MemoryType } from '../src/core/memory.js';
import { parseProjectionIds } from '../src/core/projection.js';
import { computeStaleness } from '../src/cache/staleness.js';
import { json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';
import { AWS_ACCESS } from './helpers/secrets-corpus.js';

type Repo = TempRepo & { noHooks: string };

function ok(r: RunResult, what = 'command'): RunResult {
  expect(r.code, `${what} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

/** A repository with cortex initialised (hooks and driver configured) and committed. */
function setup(files: Record<string, string> = {}): Repo {
  const repo = tempRepo({ 'README.md': '# demo\n', ...files });
  ok(repo.cortex(['init']), 'init');
  commit(repo, 'init');
  const noHooks = join(repo.home, 'no-hooks');
  mkdirSync(noHooks, { recursive: true });
  return Object.assign(repo, { noHooks });
}

function commit(repo: TempRepo, message: string, ...flags: string[]): void {
  ok(repo.git(['add', '-A']), 'git add');
  ok(repo.git(['commit', '-q', '-m', message, ...flags]), `git commit ${message}`);
}

function ctxOf(repo: TempRepo, dir = repo.dir) {
  return openContext({ dir, env: repo.env });
}

async function mem(repo: TempRepo, summary: string, type: MemoryType = 'decision', extra: { body?: string; files?: string[]; dir?: string } = {}): Promise<string> {
  // No auto-links: the edge files they would add are not what these tests are about.
  const r = await remember(ctxOf(repo, extra.dir), { summary, body: extra.body ?? `Why: ${summary.toLowerCase()}.`, type, autoLink: false, ...(extra.files ? { source: { files: extra.files } } : {}) });
  return r.memory.id;
}

async function regenerate(repo: TempRepo, dir = repo.dir): Promise<void> {
  await project(ctxOf(repo, dir));
}

function idsIn(repo: TempRepo, file: string, dir = repo.dir): string[] {
  return parseProjectionIds(readFileSync(join(dir, '.cortex', file), 'utf8'));
}

function memoryFile(id: string): string {
  return `.cortex/memories/${id}.md`;
}

/** Runs git with hooks switched off, so what happens is the merge driver's doing alone. */
function gitNoHooks(repo: Repo, args: string[]): RunResult {
  return repo.git(['-c', `core.hooksPath=${repo.noHooks}`, ...args], { env: { CORTEX_DEBUG: '1' } });
}

describe('merging branches that both changed memory', () => {
  it('merges two branches that both added decisions with no conflict, and the merge commit itself is in sync', async () => {
    const repo = setup();
    const base = await mem(repo, 'Chose SQLite over Postgres');
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    const f1 = await mem(repo, 'Use WAL mode so hooks can read while one writes');
    const f2 = await mem(repo, 'Ship the merge driver first', 'plan');
    await regenerate(repo);
    commit(repo, 'feature decisions');
    ok(repo.git(['checkout', '-q', 'main']));
    const m1 = await mem(repo, 'Rejected Redis as a cache: another daemon', 'rejected');
    const m2 = await mem(repo, 'Keep hooks under 100 ms');
    await regenerate(repo);
    commit(repo, 'main decisions');

    const merge = gitNoHooks(repo, ['merge', '--no-edit', 'feature']);
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    expect(merge.stderr).toContain('.cortex/decisions.md: regenerated from the merged memories');
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    expect(repo.git(['rev-list', '--parents', '-n', '1', 'HEAD']).stdout.trim().split(' ')).toHaveLength(3);
    ok(repo.cortex(['project', '--check']), 'project --check on the merge commit');
    expect(idsIn(repo, 'decisions.md').sort()).toEqual([base, f1, m1, m2].sort());
    expect(idsIn(repo, 'plan.md')).toEqual([f2]);
  });

  it('merges the same memory edited in different fields on each branch, keeping both edits', async () => {
    const repo = setup();
    const id = await mem(repo, 'Chose SQLite over Postgres', 'decision', { body: 'Zero config matters.\n\nWe run on laptops.\n\nNo daemon to babysit.' });
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    await updateMemory(ctxOf(repo), id, { priority: 9, addTags: ['storage'] });
    await regenerate(repo);
    commit(repo, 'raise priority');
    ok(repo.git(['checkout', '-q', 'main']));
    repo.write(memoryFile(id), repo.read(memoryFile(id)).replace('No daemon to babysit.', 'No daemon to babysit, ever.'));
    await regenerate(repo);
    commit(repo, 'sharpen the body');

    ok(gitNoHooks(repo, ['merge', '--no-edit', 'feature']), 'merge');
    const merged = repo.read(memoryFile(id));
    expect(merged).toContain('priority: 9');
    expect(merged).toMatch(/tags: \[storage\]|- storage/);
    expect(merged).toContain('No daemon to babysit, ever.');
    expect(merged).not.toContain('<<<<<<<');
    ok(repo.cortex(['project', '--check']), 'project --check');
    expect(repo.read('.cortex/decisions.md')).toContain('priority 9');
  });

  it('leaves conflict markers with both versions when the same body line changed differently, and the driver exits 1', async () => {
    const repo = setup();
    const id = await mem(repo, 'Chose SQLite over Postgres', 'decision', { body: 'Zero config matters.\n\nWe run on laptops.' });
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    repo.write(memoryFile(id), repo.read(memoryFile(id)).replace('We run on laptops.', 'We run on laptops and in CI.'));
    await regenerate(repo);
    commit(repo, 'theirs');
    ok(repo.git(['checkout', '-q', 'main']));
    repo.write(memoryFile(id), repo.read(memoryFile(id)).replace('We run on laptops.', 'We run on developer laptops.'));
    await regenerate(repo);
    commit(repo, 'ours');

    const merge = gitNoHooks(repo, ['merge', '--no-edit', 'feature']);
    expect(merge.code).not.toBe(0);
    expect(merge.stdout).toMatch(/CONFLICT.*\.cortex\/memories/);
    const text = repo.read(memoryFile(id));
    expect(text).toMatch(/^<<<<<<< HEAD$/m);
    expect(text).toContain('We run on developer laptops.');
    expect(text).toContain('We run on laptops and in CI.');
    expect(text).toMatch(/^>>>>>>> feature$/m);
    // The projection is generated, not conflicted: only the memory needs a person.
    expect(repo.git(['diff', '--name-only', '--diff-filter=U']).stdout.trim()).toBe(memoryFile(id));

    // The driver itself, on the three versions git recorded: exit 1 and markers in %A.
    const dir = join(repo.home, 'driver');
    mkdirSync(dir, { recursive: true });
    for (const [stage, name] of [[1, 'O'], [2, 'A'], [3, 'B']] as const) writeFileSync(join(dir, name), repo.git(['show', `:${stage}:${memoryFile(id)}`]).stdout);
    const driver = repo.cortex(['merge-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), memoryFile(id)]);
    expect(driver.code).toBe(1);
    expect(driver.stderr).toContain('both sides changed the same body lines');
    const a = readFileSync(join(dir, 'A'), 'utf8');
    expect(a).toContain('<<<<<<< HEAD');
    expect(a).toContain('We run on developer laptops.');
    expect(a).toContain('We run on laptops and in CI.');
  });

  it('keeps projections in sync through git rebase and git cherry-pick', async () => {
    const repo = setup();
    await mem(repo, 'Chose SQLite over Postgres');
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    const d1 = await mem(repo, 'Use WAL mode for concurrent hooks');
    await regenerate(repo);
    commit(repo, 'feature 1');
    await updateMemory(ctxOf(repo), d1, { priority: 8 });
    await mem(repo, 'Plan: ship the driver', 'plan');
    await regenerate(repo);
    commit(repo, 'feature 2');
    ok(repo.git(['checkout', '-q', '-b', 'hotfix', 'main']));
    const h = await mem(repo, 'Pin the Node version in CI');
    await regenerate(repo);
    commit(repo, 'hotfix');
    ok(repo.git(['checkout', '-q', 'main']));
    await mem(repo, 'Rejected an ORM', 'rejected');
    await regenerate(repo);
    commit(repo, 'main moves on');

    ok(repo.git(['checkout', '-q', 'feature']));
    expect(ok(gitNoHooks(repo, ['rebase', 'main']), 'rebase').stderr).toContain('.cortex/decisions.md: regenerated from the merged memories');
    const rebased = repo.git(['rev-list', '--reverse', 'main..feature']).stdout.trim().split('\n');
    expect(rebased).toHaveLength(2);
    for (const c of rebased) {
      ok(gitNoHooks(repo, ['checkout', '-q', c]));
      const check = await project(ctxOf(repo), { check: true });
      expect(check.stale, `projections of rebased commit ${c}`).toBe(false);
    }

    ok(gitNoHooks(repo, ['checkout', '-q', 'main']));
    expect(ok(gitNoHooks(repo, ['cherry-pick', 'hotfix']), 'cherry-pick').stderr).toContain('.cortex/decisions.md: merged entry by entry');
    expect((await project(ctxOf(repo), { check: true })).stale).toBe(false);
    expect(idsIn(repo, 'decisions.md')).toContain(h);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});

describe('a clone without the merge driver', () => {
  it('is diagnosed by cortex doctor, and a plain text merge plus cortex project lists every memory once', async () => {
    const repo = setup();
    await mem(repo, 'Chose SQLite over Postgres');
    await regenerate(repo);
    commit(repo, 'base');
    const clone = join(repo.home, 'clone');
    ok(repo.git(['clone', '-q', repo.dir, clone]));
    const g = (args: string[]) => repo.git(['-C', clone, ...args]);

    const doc = repo.cortex(['doctor'], { cwd: clone });
    expect(doc.code).toBe(1);
    expect(doc.stdout).toContain('names the merge driver "cortex", but this clone does not configure it');
    expect(doc.stdout).toContain('fix: cortex init');
    const checks = json<{ ok: boolean; checks: { id: string; severity: string }[] }>(repo.cortex(['doctor', '--json'], { cwd: clone }));
    expect(checks.checks.find((c) => c.id === 'driver')?.severity).toBe('error');

    ok(g(['checkout', '-q', '-b', 'feature']));
    const f = await mem(repo, 'Use WAL mode for concurrent hooks', 'decision', { dir: clone });
    await regenerate(repo, clone);
    ok(g(['add', '-A']));
    ok(g(['commit', '-q', '-m', 'feature']));
    ok(g(['checkout', '-q', 'main']));
    const m = await mem(repo, 'Keep hooks under 100 ms', 'decision', { dir: clone });
    await regenerate(repo, clone);
    ok(g(['add', '-A']));
    ok(g(['commit', '-q', '-m', 'main']));

    g(['merge', '--no-edit', 'feature']); // a text merge: may conflict in the projection
    ok(repo.cortex(['project'], { cwd: clone }), 'project');
    ok(g(['add', '-A']));
    ok(g(['commit', '-q', '--no-edit']));
    const ids = [...idsIn(repo, 'decisions.md', clone), ...idsIn(repo, 'decisions-archive.md', clone)];
    const files = repo.list(join('..', 'home', 'clone', '.cortex', 'memories')).map((n) => n.slice(0, -3));
    expect(ids.sort()).toEqual(files.sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([f, m]));
    expect(readFileSync(join(clone, '.cortex', 'decisions.md'), 'utf8')).not.toContain('<<<<<<<');

    // cortex init in the clone fixes what doctor found.
    ok(repo.cortex(['init'], { cwd: clone }));
    expect(repo.cortex(['doctor'], { cwd: clone }).code).toBe(0);
  });
});

describe('cortex recall --branch', () => {
  it('finds a memory that exists only on an unmerged branch, and says it is not merged', async () => {
    const repo = setup();
    await mem(repo, 'Chose SQLite over Postgres');
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    const id = await mem(repo, 'Use Redis streams for the background job queue');
    await regenerate(repo);
    commit(repo, 'feature');
    ok(repo.git(['checkout', '-q', 'main']));

    expect(json<{ results: unknown[] }>(repo.cortex(['recall', 'job queue', '--json'])).results).toEqual([]);
    const out = json<{ results: { id: string; ref?: { branch: string; merged: boolean; inCurrent: string } }[] }>(
      repo.cortex(['recall', 'job queue', '--branch', 'feature', '--json']),
    );
    expect(out.results[0]).toMatchObject({ id, ref: { branch: 'feature', merged: false, inCurrent: 'absent' } });
    const text = ok(repo.cortex(['recall', 'job queue', '--branch', 'feature']));
    expect(text.stdout).toMatch(new RegExp(`${id}.*\\(on feature, not merged\\)`));
    const all = json<{ results: { id: string; ref?: { branch: string } }[] }>(repo.cortex(['recall', 'job queue', '--all-branches', '--json']));
    expect(all.results.map((r) => r.id)).toContain(id);

    ok(repo.git(['merge', '-q', '--no-edit', 'feature']));
    const after = json<{ results: { id: string; ref?: { merged: boolean } }[] }>(repo.cortex(['recall', 'job queue', '--branch', 'feature', '--json']));
    expect(after.results[0]).toMatchObject({ id, ref: { merged: true } });
  });
});

describe('cortex diff', () => {
  it('lists exactly the memory changes of a branch, grouped, with flags', async () => {
    const repo = setup();
    const edited = await mem(repo, 'Chose SQLite over Postgres');
    const archived = await mem(repo, 'Prefer small pure functions', 'pattern');
    const deleted = await mem(repo, 'The CI runner has no GPU', 'gotcha');
    const superseded = await mem(repo, 'Deploys go through staging', 'context');
    await regenerate(repo);
    commit(repo, 'base');
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    const added = await mem(repo, 'Use Postgres after all, for row-level security');
    // A day later, so that `updated` changes even when the test runs within one second.
    await updateMemory(openContext({ dir: repo.dir, env: repo.env, now: () => new Date(Date.now() + 86_400_000) }), edited, { priority: 9 });
    await updateMemory(ctxOf(repo), archived, { status: 'archived' });
    await updateMemory(ctxOf(repo), superseded, { status: 'superseded' });
    repo.write(
      `.cortex/edges/${added}--contradicts--${edited}.md`,
      `---\nsource: ${added}\ntarget: ${edited}\nrelation: contradicts\nstrength: 0.9\nstatus: active\nbidirectional: false\norigin: manual\ncreated: 2026-11-21T10:00:00Z\n---\n`,
    );
    const leaky = 'leaky-token-aaaaaa';
    repo.write(memoryFile(leaky), `---\nid: ${leaky}\ntype: gotcha\nsummary: A token pasted by hand\ncreated: 2026-11-21T10:00:00Z\nupdated: 2026-11-21T10:00:00Z\n---\nexport GITHUB_TOKEN=ghp_${'a1B2c3D4e5'.repeat(3)}abcdef\n`);
    await regenerate(repo);
    ok(repo.git(['rm', '-q', memoryFile(deleted)]));
    commit(repo, 'feature', '--no-verify');
    ok(repo.git(['checkout', '-q', 'main']));
    await mem(repo, 'Only on main: not part of the branch');
    await regenerate(repo);
    commit(repo, 'main moves on');

    const out = json<{
      memories: { id: string; change: string; fields: string[]; type: string }[];
      edges: { id: string; change: string; relation: string }[];
      flags: { kind: string; file: string }[];
    }>(repo.cortex(['diff', 'main..feature', '--json']));
    expect(out.memories.map((m) => [m.id, m.change]).sort()).toEqual(
      [
        [added, 'added'],
        [edited, 'edited'],
        [archived, 'archived'],
        [deleted, 'deleted'],
        [superseded, 'superseded'],
        [leaky, 'added'],
      ].sort(),
    );
    expect(out.memories.find((m) => m.id === edited)?.fields).toEqual(expect.arrayContaining(['priority', 'updated']));
    expect(out.edges).toEqual([expect.objectContaining({ id: `${added}--contradicts--${edited}`, change: 'added', relation: 'contradicts' })]);
    expect(out.flags.map((f) => f.kind).sort()).toEqual(['contradiction', 'secret']);
    expect(out.flags.find((f) => f.kind === 'secret')?.file).toBe(memoryFile(leaky));

    const md = ok(repo.cortex(['diff', 'main..feature'])).stdout;
    expect(md).toContain('## Memory changes in `main..feature`');
    expect(md).toMatch(/### decision\n\n- \*\*added\*\* `use-postgres/);
    expect(md).toContain('### gotcha');
    expect(md).toContain('### Flags');
    expect(md).not.toContain('Only on main');
  });
});

describe('cortex init and the git hooks', () => {
  it('keeps a pre-existing pre-commit hook running, and is idempotent', () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    const hook = join(repo.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho ran >> "$(git rev-parse --git-dir)/pre-commit-ran"\n[ -f block ] && exit 1\nexit 0\n');
    chmodSync(hook, 0o755);
    ok(repo.cortex(['init']));
    expect(readFileSync(`${hook}.pre-cortex`, 'utf8')).toContain('pre-commit-ran');
    const again = json<{ steps: { target: string; action: string }[] }>(repo.cortex(['init', '--json']));
    expect(again.steps.filter((s) => s.action !== 'unchanged')).toEqual([]);

    commit(repo, 'first');
    expect(readFileSync(join(repo.dir, '.git', 'pre-commit-ran'), 'utf8')).toBe('ran\n');
    repo.write('block', 'x');
    ok(repo.git(['add', '-A']));
    expect(repo.git(['commit', '-q', '-m', 'blocked']).code).not.toBe(0);
    expect(readFileSync(join(repo.dir, '.git', 'pre-commit-ran'), 'utf8')).toBe('ran\nran\n');
  });

  it('regenerates stale projections into the commit, and refuses a secret under .cortex/, naming the fix', async () => {
    const repo = setup();
    const id = await mem(repo, 'Chose SQLite over Postgres');
    ok(repo.git(['add', '-A']));
    const stale = ok(repo.git(['commit', '-q', '-m', 'no projections']));
    expect(stale.stderr).toContain('cortex: regenerated .cortex/decisions.md from the staged memories');
    expect(repo.git(['show', 'HEAD:.cortex/decisions.md']).stdout).toContain(id);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    ok(repo.git(['rm', '-q', '--cached', '.cortex/plan.md']));
    ok(repo.git(['commit', '-q', '-m', 'projection removed']));
    expect(repo.git(['ls-files', '.cortex/plan.md']).stdout.trim()).toBe('.cortex/plan.md');

    repo.write(memoryFile('pasted-key-aaaaaa'), `---\nid: pasted-key-aaaaaa\ntype: context\nsummary: Deploy key\ncreated: 2026-11-21T10:00:00Z\nupdated: 2026-11-21T10:00:00Z\n---\n${AWS_ACCESS} is the key\n`);
    ok(repo.git(['add', '-A']));
    const secret = repo.git(['commit', '-q', '-m', 'secret']);
    expect(secret.code).toBe(1);
    expect(secret.stderr).toMatch(/pasted-key-aaaaaa\.md:8: looks like a secret \(aws-access-key\)/);
  });

  it('configures the driver where git reads it from a linked worktree', () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    commit(repo, 'first');
    const linked = join(repo.home, 'linked');
    ok(repo.git(['worktree', 'add', '-q', '-b', 'side', linked]));
    ok(repo.cortex(['init'], { cwd: linked }));
    expect(repo.git(['-C', linked, 'config', '--get', 'merge.cortex.driver']).stdout).toContain('merge-driver %O %A %B %P %L');
    expect(existsSync(join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(true);
    // Refs live in the main repository, HEAD in the worktree's own git dir.
    ok(repo.git(['-C', linked, 'add', '-A']));
    ok(repo.git(['-C', linked, 'commit', '-q', '-m', 'cortex']));
    const made = json<{ id: string }>(ok(repo.cortex(['remember', 'Chose SQLite for storage', '--type', 'decision', '--json'], { cwd: linked })));
    expect(readFileSync(join(linked, memoryFile(made.id)), 'utf8')).toContain('branch: side');
    ok(repo.cortex(['project'], { cwd: linked }));
    ok(repo.git(['-C', linked, 'add', '-A']));
    ok(repo.git(['-C', linked, 'commit', '-q', '-m', 'memory']));
    const found = json<{ results: { id: string; ref?: { branch: string } }[] }>(repo.cortex(['recall', 'sqlite', '--branch', 'side', '--json'], { cwd: linked }));
    expect(found.results[0]?.ref?.branch).toBe('side');
  });

  it('lets commits through when cortex cannot be found', async () => {
    const repo = setup();
    await mem(repo, 'Chose SQLite over Postgres');
    ok(repo.git(['config', 'cortex.command', `'${join(repo.home, 'missing', 'cortex')}'`]));
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'stale but cortex is gone']));
  });

  it('adds its block to husky scripts and its commands to lefthook.yml, and doctor accepts them', () => {
    const husky = tempRepo({ 'README.md': '# demo\n', '.husky/pre-commit': 'npm test\n', '.husky/_/.gitignore': '*\n' });
    ok(husky.git(['config', 'core.hooksPath', '.husky/_']));
    ok(husky.cortex(['init']));
    const script = husky.read('.husky/pre-commit');
    expect(script.startsWith('npm test\n')).toBe(true);
    expect(script).toContain('git-hook pre-commit');
    expect(existsSync(join(husky.dir, '.husky', 'post-merge'))).toBe(true);
    expect(existsSync(join(husky.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    ok(husky.cortex(['project']));
    const hd = json<{ checks: { id: string; severity: string }[] }>(husky.cortex(['doctor', '--json']));
    expect(hd.checks.filter((c) => c.id.startsWith('hook:')).map((c) => c.severity)).toEqual(['ok', 'ok', 'ok', 'ok']);

    const lefthook = tempRepo({ 'README.md': '# demo\n', 'lefthook.yml': '# our hooks\npre-commit:\n  commands:\n    lint:\n      run: npm run lint\n' });
    ok(lefthook.cortex(['init']));
    const yml = lefthook.read('lefthook.yml');
    expect(yml).toContain('# our hooks');
    expect(yml).toContain('run: npm run lint');
    expect(yml).toMatch(/cortex:\n\s+run: \|/);
    expect(yml).toContain('git-hook post-rewrite');
    expect(lefthook.cortex(['init', '--json']).stdout).not.toContain('"updated"');
  });
});

describe('staleness from git', () => {
  it('flags memories whose files changed or vanished since their commit, and branches that are gone', async () => {
    const repo = setup({ 'src/db.ts': 'export const db = 1;\n', 'src/api.ts': 'export const api = 1;\n' });
    const changed = await mem(repo, 'The db module opens one pool', 'architecture', { files: ['src/db.ts'] });
    const kept = await mem(repo, 'The api module is thin', 'architecture', { files: ['src/api.ts'] });
    const gone = await mem(repo, 'Old helpers live in src/old.ts', 'gotcha', { files: ['src/api.ts'] });
    await regenerate(repo);
    commit(repo, 'memories');
    const recorded = repo.git(['rev-parse', '--short=7', 'HEAD~1']).stdout.trim();
    repo.write('src/db.ts', 'export const db = 2;\n');
    commit(repo, 'change db');
    ok(repo.git(['checkout', '-q', '-b', 'feat/x']));
    repo.write('x.txt', 'x');
    commit(repo, 'abandoned work');
    const abandoned = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    ok(repo.git(['checkout', '-q', 'main']));
    ok(repo.git(['branch', '-q', '-D', 'feat/x']));

    const ctx = ctxOf(repo);
    const memories = [
      { id: changed, source: { commit: recorded, files: ['src/db.ts'] } },
      { id: kept, source: { commit: recorded, files: ['src/api.ts'] } },
      { id: gone, source: { commit: recorded, files: ['src/old.ts'] } },
      { id: 'from-gone-branch-aaaaaa', source: { commit: abandoned, branch: 'feat/x' } },
      { id: 'merged-branch-aaaaaa', source: { commit: recorded, branch: 'feat/merged' } },
    ];
    const expected = {
      [changed]: [`src/db.ts changed since ${recorded}`],
      [gone]: ['src/old.ts no longer exists'],
      'from-gone-branch-aaaaaa': ['branch feat/x is gone'],
    };
    expect(await computeStaleness(ctx, memories)).toEqual(expected);
    // Warm: the cache answers, and agrees.
    expect(existsSync(join(repo.dir, '.memory', 'staleness.json'))).toBe(true);
    expect(await computeStaleness(ctx, memories)).toEqual(expected);

    const doc = ok(repo.cortex(['doctor']));
    expect(doc.stdout).toContain('may be outdated');
  });
});

describe('repository states', () => {
  it('handles a directory that is not a repository, an unborn branch and a detached HEAD', async () => {
    const plain = tempRepo({}, { git: false });
    ok(plain.cortex(['init']));
    const doc = json<{ ok: boolean; checks: { id: string; severity: string }[] }>(plain.cortex(['doctor', '--json']));
    expect(doc.checks.find((c) => c.id === 'git')?.severity).toBe('warning');
    expect(doc.ok).toBe(true);
    const noGit = plain.cortex(['diff', 'main..feature']);
    expect(noGit.code).toBe(1);
    expect(noGit.stderr).toContain('needs a git repository');
    expect(await computeStaleness(ctxOf(plain), [{ id: 'a-aaaaaa', source: { commit: 'abc1234', files: ['x'] } }])).toEqual({});

    const unborn = tempRepo();
    ok(unborn.cortex(['init']));
    const id = await mem(unborn, 'Chose SQLite over Postgres');
    expect(readFileSync(join(unborn.dir, memoryFile(id)), 'utf8')).toContain('branch: main');
    expect(await computeStaleness(ctxOf(unborn), [{ id, source: { commit: 'abc1234', files: ['x'] } }])).toEqual({});
    const missing = unborn.cortex(['recall', 'sqlite', '--branch', 'feature']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Unknown revision "feature"');

    const repo = setup();
    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    const f = await mem(repo, 'Use Redis streams for the job queue');
    await regenerate(repo);
    commit(repo, 'feature');
    ok(repo.git(['checkout', '-q', '--detach', 'main']));
    const detached = await mem(repo, 'Detached HEAD memories record a commit but no branch');
    const text = repo.read(memoryFile(detached));
    // An all-digit hash is quoted, or YAML would read a number.
    expect(text).toMatch(/commit: "?[0-9a-f]{12}"?\n/);
    expect(text).not.toContain('branch:');
    const r = json<{ results: { id: string; ref?: { merged: boolean } }[] }>(repo.cortex(['recall', 'job queue', '--branch', 'feature', '--json']));
    expect(r.results[0]).toMatchObject({ id: f, ref: { merged: false } });
  });
});
