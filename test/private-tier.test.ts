/**
 * The private tier no branch can delete, and the directories Cortex refuses to follow: against
 * the built CLI in real repositories with the real `git` CLI. A branch that commits
 * `.cortex/local` as a symbolic link or as a directory of files is checked out; an old
 * `.cortex/local/` is moved (said once, undone as printed); links and special files where
 * Cortex's directories should be are refused by name, in every command, in the hooks, in
 * pre-commit and in `init`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

function ok(r: RunResult, what = ''): RunResult {
  expect(r.code, `${what}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

const hasFifo = process.platform !== 'win32';

function initRepo(): TempRepo {
  const repo = tempRepo({ 'README.md': '# x\n' });
  ok(repo.cortex(['init']), 'init');
  ok(repo.git(['add', '-A']), 'add');
  ok(repo.git(['commit', '-q', '-m', 'init']), 'commit');
  return repo;
}

function remember(repo: TempRepo, args: string[]): string {
  return json<{ id: string }>(ok(repo.cortex(['remember', ...args, '--json']), args[0])).id;
}

function listIds(repo: TempRepo): string[] {
  return json<{ memories: Array<{ id: string }> }>(ok(repo.cortex(['list', '--json']), 'list')).memories.map((m) => m.id).sort();
}

/** The private tier's files (memories/ and edges/), name → bytes. */
function tierFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sub of ['memories', 'edges']) {
    if (!existsSync(join(dir, sub))) continue;
    for (const name of readdirSync(join(dir, sub))) out[`${sub}/${name}`] = readFileSync(join(dir, sub, name), 'utf8');
  }
  return out;
}

/** The old layout: private memories in the work tree's `.cortex/local/`, as cortex ≤ this change wrote them. */
function writeOldTier(repo: TempRepo, ids: string[]): void {
  const dir = join(repo.dir, '.cortex/local/memories');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(repo.dir, '.cortex/local/.gitignore'), '# Cortex private tier: never committed (see docs/interop.md).\n*\n');
  for (const id of ids) {
    writeFileSync(
      join(dir, `${id}.md`),
      `---\nid: ${id}\ntype: preference\nsummary: Private note ${id}\nscope: local\npriority: 5\nconfidence: 1\npinned: false\nstatus: active\ntags: []\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\nsource:\n  kind: manual\n---\nPrivate body of ${id}.\n`,
    );
  }
}

describe('git deletes an ignored directory that a checked-out branch replaces (why the tier moved)', () => {
  it('a branch that commits .cortex/local as a symbolic link deletes an ignored .cortex/local/ on checkout, without a word', () => {
    // git alone: no cortex (nor its hooks) in this repository.
    const repo = tempRepo({ 'README.md': '# x\n', '.cortex/memories/.gitkeep': '' });
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'init']));
    writeOldTier(repo, ['mine-aaaaaa']);
    expect(repo.git(['status', '--porcelain', '--ignored']).stdout).toMatch(/!! \.cortex\/local\//);
    ok(repo.git(['checkout', '-q', '-b', 'hostile']));
    // Committed with git alone (no cortex hook in the way): `--no-verify`.
    rmSync(join(repo.dir, '.cortex/local'), { recursive: true });
    symlinkSync('/tmp', join(repo.dir, '.cortex/local'));
    ok(repo.git(['add', '-f', '.cortex/local']));
    ok(repo.git(['commit', '-q', '--no-verify', '-m', 'hostile']));
    ok(repo.git(['checkout', '-q', 'main']));
    writeOldTier(repo, ['mine-aaaaaa']);
    const checkout = repo.git(['checkout', '-q', 'hostile']);
    expect(checkout.code).toBe(0);
    expect(checkout.stderr).toBe('');
    // The private memory is gone: git replaced the ignored directory with the link.
    expect(lstatSync(join(repo.dir, '.cortex/local')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(repo.dir, '.cortex/local/memories/mine-aaaaaa.md'))).toBe(false);
  });
});

describe('the private tier lives in the git directory', () => {
  it('survives checking out branches that commit .cortex/local as a link out of the repository and as a directory of files', () => {
    const repo = initRepo();
    const a = remember(repo, ['I prefer tabs over spaces in this repo', '--type', 'preference', '--private']);
    const b = remember(repo, ['My sandbox lives in the staging cluster', '--scope', 'local']);
    const c = remember(repo, ['Chose SQLite over Postgres for the local index', '--type', 'decision']);
    ok(repo.cortex(['link', a, 'relates-to', c]), 'link');
    const common = repo.git(['rev-parse', '--path-format=absolute', '--git-common-dir']).stdout.trim();
    const tier = join(common, 'cortex/local');
    const before = tierFiles(tier);
    expect(Object.keys(before).sort()).toEqual([expect.stringMatching(new RegExp(`^edges/${a}--relates.to--${c}\\.md$`)), `memories/${a}.md`, `memories/${b}.md`]);
    expect(existsSync(join(repo.dir, '.cortex/local'))).toBe(false);
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'memories']));
    expect(repo.git(['ls-tree', '-r', '--name-only', 'HEAD']).stdout).not.toMatch(/\.cortex\/local/);

    // Outside the repository, a directory that looks like a private tier.
    const outside = join(repo.home, 'outside');
    mkdirSync(join(outside, 'memories'), { recursive: true });
    writeFileSync(join(outside, 'memories/planted-bbbbbb.md'), '---\nid: planted-bbbbbb\ntype: context\nsummary: OUTSIDE-MARKER planted\nscope: local\n---\nOUTSIDE-MARKER\n');

    // Branch 1: .cortex/local is a committed link out of the repository.
    ok(repo.git(['checkout', '-q', '-b', 'hostile-link']));
    symlinkSync(outside, join(repo.dir, '.cortex/local'));
    ok(repo.git(['add', '-f', '.cortex/local']));
    ok(repo.git(['commit', '-q', '--no-verify', '-m', 'link']));
    // Branch 2: .cortex/local is a committed directory of memory files.
    ok(repo.git(['checkout', '-q', 'main']));
    ok(repo.git(['checkout', '-q', '-b', 'hostile-dir']));
    repo.write('.cortex/local/memories/planted-cccccc.md', '---\nid: planted-cccccc\ntype: context\nsummary: PLANTED-MARKER from a branch\nscope: local\n---\nPLANTED-MARKER\n');
    repo.write('.cortex/local/.gitignore', '');
    ok(repo.git(['add', '-f', '.cortex/local']));
    ok(repo.git(['commit', '-q', '--no-verify', '-m', 'dir']));

    for (const branch of ['hostile-link', 'hostile-dir', 'main']) {
      ok(repo.git(['checkout', '-q', branch]), branch);
      expect(tierFiles(tier), branch).toEqual(before);
      const ids = listIds(repo);
      expect(ids, branch).toEqual(expect.arrayContaining([a, b, c]));
      for (const args of [['show', a], ['recall', 'planted marker']]) {
        const r = repo.cortex(args);
        expect(r.stdout + r.stderr, `${branch}: ${args.join(' ')}`).not.toMatch(/OUTSIDE-MARKER|PLANTED-MARKER/);
      }
      expect(ok(repo.cortex(['recall', 'tabs spaces'])).stdout).toContain('I prefer tabs');
    }
    // A branch's files under .cortex/local/ are not private memories: never moved, never read.
    ok(repo.git(['checkout', '-q', 'hostile-dir']));
    ok(repo.cortex(['list']));
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    expect(existsSync(join(tier, 'memories/planted-cccccc.md'))).toBe(false);
    expect(readdirSync(join(outside, 'memories'))).toEqual(['planted-bbbbbb.md']);
  }, 300_000);

  it('is where `git rev-parse --git-common-dir` says, and shared by a linked work tree', () => {
    const repo = initRepo();
    const a = remember(repo, ['My own note on the build cache', '--private']);
    const wt = join(repo.home, 'wt');
    ok(repo.git(['worktree', 'add', '-q', '-b', 'feature', wt]));
    const inWt = (args: string[]) => repo.cortex(args, { cwd: wt });
    expect(json<{ memories: Array<{ id: string }> }>(ok(inWt(['list', '--json']))).memories.map((m) => m.id)).toContain(a);
    const b = json<{ id: string }>(ok(inWt(['remember', 'My second note, from the work tree', '--private', '--json']))).id;
    expect(listIds(repo)).toContain(b);
    const common = repo.git(['rev-parse', '--path-format=absolute', '--git-common-dir']).stdout.trim();
    expect(readdirSync(join(common, 'cortex/local/memories')).sort()).toEqual([`${a}.md`, `${b}.md`].sort());
    expect(existsSync(join(wt, '.cortex/local'))).toBe(false);
  }, 120_000);
});

describe('moving an old .cortex/local/', () => {
  it('moves every private memory once, says so once (stderr and the log), and the printed undo puts them back', () => {
    const repo = initRepo();
    writeOldTier(repo, ['old-one-aaaaaa', 'old-two-bbbbbb']);
    const first = ok(repo.cortex(['list']), 'first list');
    expect(first.stderr).toMatch(/^cortex: moved 2 private files from \.cortex\/local to \.git\/cortex\/local, where no branch checkout can delete them\. Undo \(for an older cortex\): (.+)$/m);
    const undo = /Undo \(for an older cortex\): (.+)$/m.exec(first.stderr)![1]!;
    expect(first.stdout).toContain('Private note old-one-aaaaaa');
    expect(existsSync(join(repo.dir, '.cortex/local'))).toBe(false);
    expect(readdirSync(join(repo.dir, '.git/cortex/local/memories')).sort()).toEqual(['old-one-aaaaaa.md', 'old-two-bbbbbb.md']);
    expect(repo.read('.memory/cortex.log')).toMatch(/ migrate cortex: moved 2 private files/);
    // Said once: the next run has nothing to move and says nothing.
    const second = ok(repo.cortex(['list']), 'second list');
    expect(second.stderr).not.toMatch(/moved|migrat/);
    expect(repo.read('.memory/cortex.log').match(/ migrate /g)).toHaveLength(1);

    // The undo runs as printed and restores the old layout, byte for byte.
    const moved = tierFiles(join(repo.dir, '.git/cortex/local'));
    const r = spawnSync('sh', ['-c', undo], { cwd: repo.home, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(tierFiles(join(repo.dir, '.cortex/local'))).toEqual(moved);
    expect(repo.read('.cortex/local/.gitignore')).toMatch(/^\*$/m);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    // Run again, the undo refuses to move anything over the restored directory.
    expect(spawnSync('sh', ['-c', undo], { cwd: repo.home }).status).not.toBe(0);
    expect(tierFiles(join(repo.dir, '.cortex/local'))).toEqual(moved);
  }, 120_000);

  it('moves it on a SessionStart that would serve the cached briefing', () => {
    const repo = initRepo();
    remember(repo, ['Chose SQLite over Postgres', '--type', 'decision']);
    // A new session each time: the same delivery twice within seconds is handled once.
    let n = 0;
    const start = () => repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: `s${++n}`, source: 'startup', cwd: repo.dir }) });
    ok(start(), 'first start (builds the briefing cache)');
    ok(start(), 'second start (served from the cache)');
    writeOldTier(repo, ['mine-bbbbbb']);
    const r = ok(start(), 'start with an old tier');
    expect(r.stdout).not.toContain('Private body');
    expect(existsSync(join(repo.dir, '.git/cortex/local/memories/mine-bbbbbb.md'))).toBe(true);
    expect(existsSync(join(repo.dir, '.cortex/local/memories/mine-bbbbbb.md'))).toBe(false);
    // Moved: the next start is served from the cache again.
    expect(existsSync(join(repo.dir, '.cortex/local'))).toBe(false);
  }, 120_000);

  it('finishes a move interrupted half way, keeps a file that differs, and never moves tracked files', () => {
    const repo = initRepo();
    writeOldTier(repo, ['done-aaaaaa', 'half-bbbbbb', 'clash-cccccc', 'todo-dddddd']);
    const tier = join(repo.dir, '.git/cortex/local/memories');
    mkdirSync(tier, { recursive: true });
    // A crash after linking half-bbbbbb into place but before removing the original; done-aaaaaa finished.
    renameSync(join(repo.dir, '.cortex/local/memories/done-aaaaaa.md'), join(tier, 'done-aaaaaa.md'));
    writeFileSync(join(tier, 'half-bbbbbb.md'), readFileSync(join(repo.dir, '.cortex/local/memories/half-bbbbbb.md')));
    writeFileSync(join(tier, 'clash-cccccc.md'), '---\nid: clash-cccccc\ntype: context\nsummary: Another clash\nscope: local\n---\n');
    // A tracked file in the old directory (a branch's): stays.
    repo.write('.cortex/local/memories/tracked-eeeeee.md', '---\nid: tracked-eeeeee\ntype: context\nsummary: Tracked\n---\n');
    ok(repo.git(['add', '-f', '.cortex/local/memories/tracked-eeeeee.md']));
    const r = ok(repo.cortex(['list']));
    expect(r.stderr).toMatch(/moved 1 private file from \.cortex\/local .* 2 left in \.cortex\/local \(memories\/clash-cccccc\.md: differs from .*; memories\/tracked-eeeeee\.md: is tracked by git\)/);
    expect(readdirSync(tier).sort()).toEqual(['clash-cccccc.md', 'done-aaaaaa.md', 'half-bbbbbb.md', 'todo-dddddd.md']);
    expect(readdirSync(join(repo.dir, '.cortex/local/memories')).sort()).toEqual(['clash-cccccc.md', 'tracked-eeeeee.md']);
    // The partial undo moves back exactly what was moved.
    const undo = /Undo \(for an older cortex\): (.+)$/m.exec(r.stderr)![1]!;
    expect(spawnSync('sh', ['-c', undo], { cwd: repo.home }).status).toBe(0);
    expect(readdirSync(join(repo.dir, '.cortex/local/memories')).sort()).toEqual(['clash-cccccc.md', 'todo-dddddd.md', 'tracked-eeeeee.md']);
    // Idempotent: moved again, and then nothing more to say.
    expect(ok(repo.cortex(['list'])).stderr).toMatch(/moved 1 private file/);
    expect(ok(repo.cortex(['list'])).stderr).not.toMatch(/moved/);
  }, 120_000);
});

describe('links and special files where Cortex keeps its directories', () => {
  it('the pre-commit hook refuses a tracked .cortex/local of any kind, and .cortex/memories as a link', () => {
    const repo = initRepo();
    symlinkSync('/tmp', join(repo.dir, '.cortex/local'));
    ok(repo.git(['add', '-f', '.cortex/local']));
    let r = repo.git(['commit', '-q', '-m', 'link']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/\.cortex\/local.*is tracked: \.cortex\/local must not be in git/);
    expect(r.stderr).toMatch(/git rm -r --cached -q \.cortex\/local/);
    ok(repo.git(['rm', '-q', '--cached', '.cortex/local']));
    rmSync(join(repo.dir, '.cortex/local'));
    writeFileSync(join(repo.dir, '.cortex/local'), 'a file\n');
    ok(repo.git(['add', '-f', '.cortex/local']));
    r = repo.git(['commit', '-q', '-m', 'file']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/\.cortex\/local.*is tracked/);
    ok(repo.git(['rm', '-q', '--cached', '.cortex/local']));
    rmSync(join(repo.dir, '.cortex/local'));
    // Files that an earlier commit (made without the hook) brought are refused too.
    repo.write('.cortex/local/memories/x-aaaaaa.md', '---\nid: x-aaaaaa\ntype: context\nsummary: X\n---\n');
    ok(repo.git(['add', '-f', '.cortex/local']));
    ok(repo.git(['commit', '-q', '--no-verify', '-m', 'without the hook']));
    repo.write('notes.txt', 'x\n');
    ok(repo.git(['add', 'notes.txt']));
    ok(repo.cortex(['remember', 'Chose WAL mode for SQLite', '--type', 'decision']));
    ok(repo.git(['add', '.cortex']));
    r = repo.git(['commit', '-q', '-m', 'unrelated']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/\.cortex\/local\/memories\/x-aaaaaa\.md.*is tracked/);
    ok(repo.git(['rm', '-r', '-q', '--cached', '.cortex/local']));
    rmSync(join(repo.dir, '.cortex/local'), { recursive: true });
    ok(repo.git(['commit', '-q', '-m', 'fixed']), 'commit after the fix');
  }, 120_000);

  it('refuses .memory and .cortex/memories as links (out of the repository or inside it) by name, and writes nothing through them', () => {
    const repo = initRepo();
    remember(repo, ['Chose SQLite over Postgres', '--type', 'decision']);
    const outside = join(repo.home, 'outside-cache');
    mkdirSync(outside);
    rmSync(join(repo.dir, '.memory'), { recursive: true, force: true });
    symlinkSync(outside, join(repo.dir, '.memory'));
    for (const args of [['list'], ['recall', 'sqlite'], ['remember', 'Another one'], ['status']]) {
      const r = repo.cortex(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(/^error: \.memory is a symbolic link; Cortex reads and writes only real directories, so nothing was read or written\.$/);
      expect(r.stderr).toMatch(/hint: Remove the link \(rm \.memory; what it points to is untouched\)/);
    }
    // A hook says nothing and writes nothing there.
    const hook = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 's', source: 'startup', cwd: repo.dir }) });
    expect(hook.code).toBe(0);
    const prompt = repo.cortex(['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: 's', prompt: 'why sqlite', cwd: repo.dir }) });
    expect(prompt.code).toBe(0);
    expect(readdirSync(outside)).toEqual([]);
    rmSync(join(repo.dir, '.memory'));

    // .cortex/memories linked to another directory inside the repository: not followed either.
    mkdirSync(join(repo.dir, 'docs/mem'), { recursive: true });
    writeFileSync(join(repo.dir, 'docs/mem/inside-aaaaaa.md'), '---\nid: inside-aaaaaa\ntype: context\nsummary: INSIDE-MARKER through a link\n---\n');
    renameSync(join(repo.dir, '.cortex/memories'), join(repo.dir, 'memories.bak'));
    symlinkSync(join(repo.dir, 'docs/mem'), join(repo.dir, '.cortex/memories'));
    expect(repo.cortex(['list']).stdout).not.toContain('INSIDE-MARKER');
    const lint = repo.cortex(['lint']);
    expect(lint.stdout + lint.stderr).toMatch(/\.cortex\/memories: error: is a symbolic link \(Cortex follows no link to a directory\); no memory was read/);
    const w = repo.cortex(['remember', 'Written through a link inside']);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/\.cortex\/memories is a symbolic link/);
    expect(readdirSync(join(repo.dir, 'docs/mem'))).toEqual(['inside-aaaaaa.md']);
  }, 120_000);

  it.skipIf(!hasFifo)('refuses a FIFO where .cortex/edges should be, and a private tier that is a link', () => {
    const repo = initRepo();
    const a = remember(repo, ['My private note', '--private']);
    const b = remember(repo, ['Chose SQLite over Postgres', '--type', 'decision']);
    rmSync(join(repo.dir, '.cortex/edges'), { recursive: true });
    execFileSync('mkfifo', [join(repo.dir, '.cortex/edges')]);
    const lint = repo.cortex(['lint']);
    expect(lint.stdout + lint.stderr).toMatch(/\.cortex\/edges: error: is a FIFO, not a directory; no edge was read/);
    const link = repo.cortex(['link', b, 'relates-to', b.replace(/.$/, 'x')]);
    expect(link.code).not.toBe(0);
    rmSync(join(repo.dir, '.cortex/edges'));
    mkdirSync(join(repo.dir, '.cortex/edges'));
    // The private tier itself replaced by a link (by hand: no branch reaches .git/): refused.
    const tier = join(repo.dir, '.git/cortex/local');
    const elsewhere = join(repo.home, 'elsewhere');
    renameSync(tier, elsewhere);
    symlinkSync(elsewhere, tier);
    expect(repo.cortex(['list']).stdout).not.toContain(a);
    const w = repo.cortex(['remember', 'Another private note', '--private']);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/cortex\/local is a symbolic link/);
    expect(readdirSync(join(elsewhere, 'memories'))).toEqual([`${a}.md`]);
  }, 120_000);
});

describe('init on files where its directories go', () => {
  it('stops with one line and the fix, exit 1, nothing overwritten, when .cortex or .cortex/memories is a file', () => {
    for (const [path, text] of [['.cortex', 'I am a file\n'], ['.cortex/memories', 'me too\n']] as const) {
      const repo = tempRepo({ [path]: text });
      const r = repo.cortex(['init']);
      expect(r.code, `${path}\n${r.stdout}\n${r.stderr}`).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe(`error: ${path} is a file, not a directory; Cortex reads and writes only real directories, so nothing was read or written.`);
      expect(r.stderr).toContain(`hint: Move it away (mv ${path} ${path}.bak) and run the command again`);
      expect(repo.read(path)).toBe(text);
      expect(existsSync(join(repo.dir, '.gitignore'))).toBe(false);
      expect(r.stdout).not.toMatch(/ok/);
    }
  });

  it.skipIf(!hasFifo)('and when .cortex is a link or .cortex/edges a FIFO', () => {
    const repo = tempRepo();
    const elsewhere = join(repo.home, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(repo.dir, '.cortex'));
    let r = repo.cortex(['init']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: .*\.cortex is a symbolic link; /);
    expect(readdirSync(elsewhere)).toEqual([]);
    // A hook skips the event: nothing out, nothing written there, not even the log.
    const hook = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 's', source: 'startup', cwd: repo.dir }) });
    expect(hook).toMatchObject({ code: 0, stdout: '' });
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(repo.dir, '.memory'))).toBe(false);
    rmSync(join(repo.dir, '.cortex'));
    mkdirSync(join(repo.dir, '.cortex'));
    execFileSync('mkfifo', [join(repo.dir, '.cortex/edges')]);
    r = repo.cortex(['init']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: .cortex/edges is a FIFO, not a directory; Cortex reads and writes only real directories, so nothing was read or written.');
  });
});
