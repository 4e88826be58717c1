/**
 * Trust in everyday use (issue 15): destructive commands act only on what the person
 * named and say how to undo it; broken files are a step, not a dead end. The built CLI
 * and the real `git` CLI in temporary repositories; memories are seeded in-process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { link } from '../src/api/link.js';
import { project } from '../src/api/project.js';
import { remember } from '../src/api/remember.js';
import type { MemoryType } from '../src/core/memory.js';
import { json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

function ok(r: RunResult, what = 'command'): RunResult {
  expect(r.code, `${what} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

/** Every file under `.cortex/`, path → bytes. */
function snapshot(repo: TempRepo): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(repo.dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(join(repo.dir, '.cortex'));
  return out;
}

async function seed(repo: TempRepo, items: [string, MemoryType][]): Promise<string[]> {
  const ctx = openContext({ dir: repo.dir, env: repo.env });
  const ids: string[] = [];
  for (const [summary, type] of items) ids.push((await remember(ctx, { summary, type, autoLink: false })).memory.id);
  await project(ctx);
  return ids;
}

function initialised(): TempRepo {
  const repo = tempRepo({ 'README.md': '# demo\n' });
  ok(repo.cortex(['init']), 'init');
  return repo;
}

function commitAll(repo: TempRepo, message: string): void {
  ok(repo.git(['add', '-A']));
  ok(repo.git(['commit', '-q', '--no-verify', '-m', message]));
}

describe('forget acts only on what the person named', () => {
  it('touches nothing for a phrase with --yes --hard, or for a mistyped id, and names the nearest id', async () => {
    const repo = initialised();
    const decisions = Array.from({ length: 15 }, (_, i): [string, MemoryType] => [`Timing decision ${i}: keep the test memory budget at ${i} ms`, 'decision']);
    const [first] = await seed(repo, [['timing test memory for the hooks', 'gotcha'], ...decisions]);
    commitAll(repo, 'memories');
    const before = snapshot(repo);

    // The command line that deleted 20 memories: now a usage error (ids are not searched).
    const phrase = repo.cortex(['forget', 'timing test memory', '--yes', '--hard']);
    expect(phrase.code).toBe(2);
    expect(phrase.stderr).toContain('--yes only applies to --query');
    const phraseNoYes = repo.cortex(['forget', 'timing test memory', '--hard']);
    expect(phraseNoYes.code).toBe(2);
    expect(phraseNoYes.stderr).toContain('"timing test memory" is not a memory id');
    expect(phraseNoYes.stderr).toContain('cortex forget --query "timing test memory"');

    // The typo that archived an unrelated memory: now "no memory with id …", exit 1.
    const typo = repo.cortex(['forget', 'no-such-id-zzzzzz']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('No memory with id "no-such-id-zzzzzz"');
    const near = repo.cortex(['forget', `${first!.slice(0, -7)}x-zzzzzz`]);
    expect(near.code).toBe(1);
    expect(near.stderr).toContain(`Did you mean \`${first}\`?`);

    // A search is explicit and lists before it acts, even for one match.
    const query = repo.cortex(['forget', '--query', 'hooks', '--hard']);
    expect(query.code).toBe(1);
    expect(query.stderr).toContain('1 memory matches "hooks"; nothing was changed');
    expect(query.stderr).toContain(first);
    expect(snapshot(repo)).toEqual(before);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });

  it('--hard deletes the edge files with the memory, says so, leaves lint clean, and prints a git restore line that brings it all back', async () => {
    const repo = initialised();
    const [a, b, c] = await seed(repo, [
      ['Chose SQLite over Postgres', 'decision'],
      ['WAL mode for concurrent hooks', 'pattern'],
      ['Backups run nightly', 'context'],
    ]);
    const ctx = openContext({ dir: repo.dir, env: repo.env });
    await link(ctx, { source: b!, relation: 'refines', target: a! });
    await link(ctx, { source: a!, relation: 'relates_to', target: c! });
    commitAll(repo, 'memories');
    const before = snapshot(repo);

    const out = ok(repo.cortex(['forget', a!.slice(0, 12), '--hard']));
    expect(out.stdout).toContain(`Deleted: ${a}`);
    expect(out.stdout).toContain('Deleted 2 edge files linking to it');
    expect(out.stdout).toContain('Regenerated .cortex/decisions.md');
    expect(existsSync(join(repo.dir, '.cortex', 'memories', `${b}.md`))).toBe(true);
    expect(repo.list('.cortex/edges')).toEqual([]);
    ok(repo.cortex(['lint']), 'lint after forget --hard');
    expect(repo.read('.cortex/decisions.md')).not.toContain(a);

    // One line: restore the files, then regenerate the projections from them.
    const restore = /^undo: (git restore [^&]*) && cortex project$/m.exec(out.stdout)?.[1];
    expect(restore, out.stdout).toBeDefined();
    ok(repo.git(restore!.trim().split(' ').slice(1)), restore);
    await project(ctx);
    expect(snapshot(repo)).toEqual(before);
  });

  it('keeps a copy under .memory/trash/ of an uncommitted memory it deletes, and prints the command that puts it back', async () => {
    const repo = initialised();
    const [id] = await seed(repo, [['Never committed: the staging database is read-only', 'gotcha']]);
    const file = `.cortex/memories/${id}.md`;
    const text = repo.read(file);
    const out = json<{ action: string; undo: { trash: string; trashRestore: string; gitRestore?: string } }>(ok(repo.cortex(['forget', id!, '--hard', '--json'])));
    expect(out.action).toBe('deleted');
    expect(out.undo.gitRestore).toBeUndefined();
    expect(out.undo.trash).toMatch(/^\.memory\/trash\/\d{8}-\d{6}Z-forget$/);
    expect(readFileSync(join(repo.dir, out.undo.trash, file), 'utf8')).toBe(text);
    expect(existsSync(join(repo.dir, file))).toBe(false);
    const sh = spawnSync('sh', ['-c', out.undo.trashRestore], { cwd: repo.dir, encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    expect(repo.read(file)).toBe(text);
  });

  it('remember --topic says how to get back the version it replaced: git restore when committed, a trash copy when not', async () => {
    const repo = initialised();
    const first = json<{ id: string; file: string; undo: unknown }>(ok(repo.cortex(['remember', '--type', 'plan', '--topic', 'release', '--json', 'Ship v2 after the index change'])));
    expect(first.undo).toBeNull();
    const file = first.file;
    const v1 = repo.read(file);
    commitAll(repo, 'plan');
    const second = ok(repo.cortex(['remember', '--type', 'plan', '--topic', 'release', 'Ship v2 after the viewer lands']));
    expect(second.stdout).toMatch(/^Updated: /);
    const restore = second.stderr.split('\n').find((l) => l.startsWith('undo: git restore'));
    expect(restore, second.stderr).toBeDefined();
    const v2 = repo.read(file);
    // Not committed: the next update keeps a copy of v2.
    const third = json<{ action: string; undo: { trash: string; trashRestore: string } }>(
      ok(repo.cortex(['remember', '--type', 'plan', '--topic', 'release', '--json', 'Ship v3'])),
    );
    expect(third.action).toBe('updated');
    expect(readFileSync(join(repo.dir, third.undo.trash, file), 'utf8')).toBe(v2);
    let sh = spawnSync('sh', ['-c', third.undo.trashRestore], { cwd: repo.dir, encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    expect(repo.read(file)).toBe(v2);
    sh = spawnSync('sh', ['-c', restore!.slice('undo: '.length)], { cwd: repo.dir, encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    expect(repo.read(file)).toBe(v1);
  });

  it('show, edit and link take a unique prefix of an id; a prefix of several is refused', async () => {
    const repo = initialised();
    const [a, b] = await seed(repo, [
      ['Use Redis for sessions', 'decision'],
      ['Use Redis streams for jobs', 'decision'],
    ]);
    expect(ok(repo.cortex(['show', a!.slice(0, 16)])).stdout).toContain(`id: ${a}`);
    const many = repo.cortex(['show', 'use-redis']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('"use-redis" is the start of 2 memory ids');
    const edited = ok(repo.cortex(['edit', a!.slice(0, 16), '--priority', '9']));
    expect(repo.read(`.cortex/memories/${a}.md`)).toContain('priority: 9');
    // Never committed: the way back is the copy taken before the rewrite.
    expect(edited.stdout).toMatch(/^undo: cp -R \.memory\/trash\/\d{8}-\d{6}Z-edit\/\. \. /m);
    const trash = () => readdirSync(join(repo.dir, '.memory', 'trash')).length;
    const copies = trash();
    ok(repo.cortex(['edit', a!, '--priority', '9']));
    expect(trash()).toBe(copies);
    const linked = json<{ edge: { source: string; target: string } }>(ok(repo.cortex(['link', a!.slice(0, 16), 'relates_to', b!.slice(0, 22), '--json'])));
    expect(linked.edge).toMatchObject({ source: a, target: b });
  });
});

describe('a broken memory file is a step, not a dead end', () => {
  const EDITOR_SCRIPT = [
    '#!/bin/sh',
    '# 1st save: an unclosed list (broken YAML); 2nd save: fixed.',
    'n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$0.count"',
    'if [ $n -eq 1 ]; then sed -i "s/^tags: .*$/tags: [storage, db/" "$1"; else sed -i "s/^tags: .*$/tags: [storage, db]/" "$1"; fi',
  ].join('\n');

  it('edit opens a broken file, shows the line, reopens it on "yes" until it is valid; "no" keeps the file as saved', async () => {
    const repo = initialised();
    const [id] = await seed(repo, [['Chose SQLite over Postgres', 'decision']]);
    const file = `.cortex/memories/${id}.md`;
    repo.write('../home/editor.sh', EDITOR_SCRIPT);
    const env = { EDITOR: `sh ${join(repo.home, 'editor.sh')}` };

    // Broken on save, the person answers "n": kept as saved, exit 1, the way back named.
    const gaveUp = repo.cortex(['edit', id!], { env, input: 'n\n' });
    expect(gaveUp.code).toBe(1);
    expect(gaveUp.stderr).toMatch(new RegExp(`${file}:\\d+:\\d+: error: invalid YAML`));
    expect(gaveUp.stderr).toContain('| tags: [storage, db');
    expect(gaveUp.stderr).toContain(`fix: cortex edit ${id}`);
    // Never committed: no git suggestion, a copy from before the edit instead.
    expect(gaveUp.stderr).not.toContain('git checkout');
    expect(gaveUp.stderr).not.toContain('git restore');
    expect(gaveUp.stderr).toMatch(/cp -R \.memory\/trash\/[^ ]+-edit\/\. \./);
    const saved = repo.read(file);
    expect(saved).toContain('tags: [storage, db\n');

    // Every reader names the file once and carries on.
    for (const args of [['list'], ['recall', 'sqlite'], ['surface'], ['project']]) {
      const r = repo.cortex(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.includes(file)), args.join(' ')).toHaveLength(1);
    }
    // show and edit with flags say what is wrong and how to fix it.
    const show = repo.cortex(['show', id!]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain(`cortex edit ${id}`);

    // Opened broken; saved broken once more (answer "y"), then fixed: exit 0.
    repo.write('../home/editor.sh.count', '0\n');
    const fixed = repo.cortex(['edit', id!], { env, input: 'y\n' });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain('Open the editor again to fix it?');
    expect(fixed.stderr).toContain(`Saved ${file}`);
    expect(repo.read(file)).toContain('tags: [storage, db]');
    ok(repo.cortex(['lint']));
  });
});

describe('git hooks keep the projections fresh by themselves', () => {
  it('remember && git commit -am commits the memory with its projection, and leaves nothing behind', async () => {
    const repo = initialised();
    commitAll(repo, 'init');
    const made = json<{ id: string; file: string }>(ok(repo.cortex(['remember', 'Chose SQLite over Postgres because zero-config matters', '--type', 'decision', '--json'])));
    // Staged (not intent-to-add, which breaks `git stash`): `git commit -a` takes it.
    expect(repo.git(['status', '--porcelain']).stdout).toContain(`A  ${made.file}`);
    const commit = ok(repo.git(['commit', '-q', '-am', 'Record the storage decision']));
    expect(commit.stderr).toContain('regenerated .cortex/decisions.md from the staged memories');
    const files = repo.git(['show', '--name-only', '--format=', 'HEAD']).stdout.trim().split('\n').sort();
    expect(files).toEqual(['.cortex/decisions.md', made.file]);
    expect(repo.git(['show', 'HEAD:.cortex/decisions.md']).stdout).toContain(made.id);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    ok(repo.cortex(['project', '--check']));

    // `git commit <path>` (a partial commit) leaves the index in step too.
    const next = json<{ file: string }>(ok(repo.cortex(['remember', 'Use pnpm workspaces', '--type', 'decision', '--no-link', '--json'])));
    ok(repo.git(['commit', '-q', '-m', 'pnpm', '--', next.file]));
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });

  it('refuses only a projection with unstaged hand edits, and a memory file that does not parse, naming the fix', async () => {
    const repo = initialised();
    commitAll(repo, 'init');
    const [id] = await seed(repo, [['Use Redis for sessions', 'decision']]);
    repo.write('.cortex/decisions.md', `${repo.read('.cortex/decisions.md')}\nMy own note.\n`);
    ok(repo.git(['add', `.cortex/memories/${id}.md`]));
    const edited = repo.git(['commit', '-q', '-m', 'edited projection']);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('.cortex/decisions.md: is generated from the memories, but has edits that are not staged');
    expect(edited.stderr).toContain('fix: projections are generated: put what you wrote into a memory (cortex remember), then `cortex project`');
    expect(repo.read('.cortex/decisions.md')).toContain('My own note.');
    ok(repo.git(['checkout', '--', '.cortex/decisions.md']));
    ok(repo.git(['commit', '-q', '-m', 'redis']));

    repo.write(`.cortex/memories/${id}.md`, repo.read(`.cortex/memories/${id}.md`).replace(/^tags: .*$/m, 'tags: [a, b'));
    const broken = repo.git(['commit', '-q', '-am', 'broken']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`\\.cortex/memories/${id}\\.md:\\d+: is not a valid memory: invalid YAML`));
    expect(broken.stderr).toContain(`fix: cortex edit ${id} && git add .cortex/memories/${id}.md`);
  });

  it('lifecycle, forget and consolidate --merge leave the projections in sync', async () => {
    const repo = initialised();
    const [a, b, c] = await seed(repo, [
      ['Use WAL mode for SQLite', 'decision'],
      ['Turn on WAL in SQLite for concurrent hooks', 'decision'],
      ['Deploys go through staging', 'decision'],
    ]);
    commitAll(repo, 'memories');
    ok(repo.cortex(['consolidate', '--merge', a!, b!]));
    ok(repo.cortex(['project', '--check']), 'projections after merge');
    ok(repo.cortex(['forget', c!]));
    ok(repo.cortex(['project', '--check']), 'projections after forget');
    commitAll(repo, 'merged and forgotten');
    // Half a year later the archived memory is pruned.
    const later = { CORTEX_NOW: new Date(Date.now() + 200 * 86_400_000).toISOString() };
    const pruned = ok(repo.cortex(['lifecycle'], { env: later }));
    expect(pruned.stdout).toMatch(new RegExp(`^prune +\\.cortex/memories/${c}\\.md`, 'm'));
    expect(pruned.stdout).toMatch(/^Regenerated .*\.cortex\/decisions-archive\.md/m);
    expect(pruned.stdout).toMatch(/^undo: git restore --source=HEAD/m);
    ok(repo.cortex(['project', '--check']), 'projections after lifecycle');
  });
});
