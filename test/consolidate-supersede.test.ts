/**
 * `cortex consolidate` proposes `supersedes` for a line of decisions ("Index format 8" → "9"
 * → "11", or one topic), a person confirms or rejects it; the briefing leaves out a decision
 * replaced on its topic at render time. Real temporary repositories and the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, json, tempRepo, type TempRepo } from './helpers/repo.js';

interface Listing {
  supersedes: Array<{ newer: { id: string }; older: { id: string }; reason: string }>;
}

function setUp(): TempRepo {
  const repo = tempRepo({ 'README.md': '# x\n' });
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

function remember(repo: TempRepo, text: string, at: string, extra: string[] = []): string {
  const r = repo.cortex(['remember', text, '--type', 'decision', '--json', ...extra], { env: { CORTEX_NOW: at } });
  expect(r.code, r.stderr).toBe(0);
  return json<{ id: string }>(r).id;
}

const commitAll = (repo: TempRepo) => {
  expect(repo.git(['add', '-A']).code).toBe(0);
  expect(repo.git(['commit', '-q', '-m', 'memories']).code).toBe(0);
};

const frontmatter = (repo: TempRepo, id: string) => repo.read(`.cortex/memories/${id}.md`);

// Each test runs the CLI a dozen times or more: on a loaded machine that takes more than the default 30 s.
describe('consolidate: supersede proposals', { timeout: 180_000 }, () => {
  it('proposes each later numbered decision to supersede the one before it; accept writes the edge, marks the older superseded and prints a working undo', () => {
    const repo = setUp();
    const f8 = remember(repo, 'Index format 8: the keyword index loads in proportion to what a command reads', '2026-11-01T10:00:00Z');
    const f9 = remember(repo, 'Index format 9: every warm-path structure loads as strings and typed arrays', '2026-11-02T10:00:00Z');
    const f11 = remember(repo, 'Index format 11 is a small header plus files read as a query needs them', '2026-11-05T10:00:00Z');
    const other = remember(repo, 'Phase 2: ship the viewer before the importer', '2026-11-03T10:00:00Z');
    commitAll(repo);

    const listed = json<Listing>(repo.cortex(['consolidate', '--json']));
    expect(listed.supersedes.map((p) => [p.newer.id, p.older.id, p.reason])).toEqual([
      [f9, f8, 'same subject "index format #"'],
      [f11, f9, 'same subject "index format #"'],
    ]);
    expect(listed.supersedes.some((p) => p.newer.id === other || p.older.id === other)).toBe(false);
    const text = repo.cortex(['consolidate']);
    expect(text.stdout).toContain('Replaced decisions');
    expect(text.stdout).toContain(`${f9} supersedes ${f8}`);

    const accepted = repo.cortex(['consolidate', '--accept', f9, f8]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`Superseded: ${f8} (replaced by ${f9})`);
    expect(frontmatter(repo, f8)).toMatch(/^status: superseded$/m);
    expect(frontmatter(repo, f9)).toMatch(/^status: active$/m);
    const edge = `${f9}--supersedes--${f8}.md`;
    expect(readdirSync(join(repo.dir, '.cortex/edges'))).toContain(edge);
    expect(repo.read(`.cortex/edges/${edge}`)).toMatch(/^origin: consolidation$/m);
    // The next proposal of the line remains; the confirmed one is gone.
    expect(json<Listing>(repo.cortex(['consolidate', '--json'])).supersedes.map((p) => [p.newer.id, p.older.id])).toEqual([[f11, f9]]);
    // Default recall no longer returns the superseded decision; --status all does.
    expect(json<{ results: Array<{ id: string }> }>(repo.cortex(['recall', 'index format 8 keyword', '--json'])).results.map((r) => r.id)).not.toContain(f8);

    // The undo lines run as printed and bring the files back.
    const undo = accepted.stdout.split('\n').filter((l) => l.startsWith('undo: ')).map((l) => l.slice('undo: '.length));
    expect(undo.length).toBeGreaterThan(0);
    for (const line of undo) {
      const command = line.replace(/(^|&& )cortex /g, `$1${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} `);
      const run = spawnSync('sh', ['-c', command], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
      expect(run.status, `${line}\n${run.stderr}`).toBe(0);
    }
    expect(frontmatter(repo, f8)).toMatch(/^status: active$/m);
    expect(readdirSync(join(repo.dir, '.cortex/edges'))).not.toContain(edge);
  });

  it('reject records the pair: it is not proposed again, and nothing under .cortex/ changes', () => {
    const repo = setUp();
    const c = remember(repo, 'Cache eviction is LRU with a 64 MB ceiling', '2026-11-01T10:00:00Z', ['--topic', 'cache-eviction']);
    commitAll(repo);
    // A later decision on the same topic updates the memory in place (topic upsert): write the
    // second one as a file of its own, as a merge of two branches would leave it.
    const later = frontmatter(repo, c).replace(/^id: .*$/m, 'id: cache-eviction-later-zzzzzz').replace(/^summary: .*$/m, 'summary: Cache eviction is by size class, no global ceiling').replace(/^created: .*$/m, 'created: 2026-11-06T10:00:00Z');
    repo.write('.cortex/memories/cache-eviction-later-zzzzzz.md', later);
    commitAll(repo);
    const before = repo.git(['status', '--porcelain']).stdout;
    const listed = json<Listing>(repo.cortex(['consolidate', '--json']));
    expect(listed.supersedes.map((p) => [p.newer.id, p.older.id, p.reason])).toEqual([['cache-eviction-later-zzzzzz', c, 'same topic "cache-eviction"']]);
    // The briefing already leaves the older one out (render time, no file rewritten).
    const brief = json<{ items: Array<{ id: string }> }>(repo.cortex(['surface', '--json']));
    expect(brief.items.map((i) => i.id)).toContain('cache-eviction-later-zzzzzz');
    expect(brief.items.map((i) => i.id)).not.toContain(c);
    expect(repo.git(['status', '--porcelain']).stdout).toBe(before);

    const rejected = repo.cortex(['consolidate', '--reject', 'cache-eviction-later-zzzzzz', c]);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain('Rejected the supersede proposal');
    expect(json<Listing>(repo.cortex(['consolidate', '--json'])).supersedes).toEqual([]);
    expect(repo.git(['status', '--porcelain', '--', '.cortex']).stdout).toBe('');
  });

  it('accept of a pair nothing was proposed for changes nothing and exits 1', () => {
    const repo = setUp();
    const a = remember(repo, 'Logs are JSON lines on stderr', '2026-11-01T10:00:00Z');
    const b = remember(repo, 'The viewer is a static bundle served by cortex serve', '2026-11-02T10:00:00Z');
    commitAll(repo);
    const r = repo.cortex(['consolidate', '--accept', b, a]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Nothing proposed');
    expect(repo.git(['status', '--porcelain', '--', '.cortex']).stdout).toBe('');
  });
});
