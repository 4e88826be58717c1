/**
 * Knowing the index is current without stating every file (large tiers): the memories
 * directory's change stamp, checks of what is shown, stamps taken over by cortex's own
 * writes, and explicit sweeps. Real files in a temporary directory; the size threshold is
 * lowered to 0 so that a few memories behave as 100,000 do.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { KeywordIndex } from '../src/cache/index/keyword-index.js';
import { dirStamp } from '../src/cache/dir-stamp.js';
import { scanEntry, scanMemoryFiles } from '../src/store/memory-store.js';
import { projectPaths, type ProjectPaths } from '../src/store/paths.js';
import { testMemory } from './helpers/arbitrary.js';
import { memoryFile } from './helpers/models.js';
import { json, tempRepo } from './helpers/repo.js';

const memory = (id: string, summary: string): Memory => testMemory(id, { type: 'context', summary });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const LARGE = { sweepBelow: 0 };

function setup(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-fresh-'));
  dirs.push(dir);
  const paths = projectPaths(dir);
  mkdirSync(paths.memoriesDir, { recursive: true });
  const file = (i: number) => join(paths.memoriesDir, `m${i}-aaaaaa.md`);
  const write = (i: number, text: string) => writeFileSync(file(i), renderMemory(memory(`m${i}-aaaaaa`, text)));
  for (let i = 0; i < n; i++) write(i, `memory number ${i} about widgets`);
  age(paths.memoriesDir);
  /** Opens the index as a new process would, refreshes it as a large tier and saves it. */
  const open = (options: { sweep?: boolean } = {}) => {
    const index = KeywordIndex.load(paths);
    const report = index.refresh(paths, { base: dir, ...LARGE, ...options });
    index.save(paths);
    return { index, report };
  };
  return { dir, paths, file, write, open };
}

/**
 * Moves a directory's mtime a minute back: a stamp taken right after a change is racy (see
 * dir-stamp.ts) and never trusted, so a test of the unswept path starts from a settled one.
 */
function age(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
}

/** The parts of a directory's stamp that move when an entry is added, removed or renamed. */
const listing = (dir: string) => {
  const { exists, mtimeMs, ino } = dirStamp(dir);
  return { exists, mtimeMs, ino };
};

/** Rewrites a file in place (same inode, the directory untouched), as VS Code or `>>` do, with a new mtime. */
function editInPlace(path: string, text: string, paths: ProjectPaths): void {
  const before = listing(paths.memoriesDir);
  writeFileSync(path, text);
  const later = new Date(statSync(path).mtimeMs + 5_000);
  utimesSync(path, later, later);
  expect(listing(paths.memoriesDir)).toEqual(before);
}

describe('a large tier', () => {
  it('does not stat the files while the directory is unchanged, and sees an added or removed file', () => {
    const { write, open, paths } = setup(5);
    open();
    expect(open().report).toEqual({ added: 0, updated: 0, removed: 0, diagnostics: [] });
    write(7, 'a new memory about sprockets');
    let { index, report } = open();
    expect(report.added).toBe(1);
    expect(index.query('sprockets').map((h) => h.id)).toEqual(['m7-aaaaaa']);
    rmSync(join(paths.memoriesDir, 'm7-aaaaaa.md'));
    ({ index, report } = open());
    expect(report.removed).toBe(1);
    expect(index.query('sprockets')).toEqual([]);
  });

  it('misses an edit in place until it shows the memory or sweeps, and never shows it stale', () => {
    const { file, open, paths } = setup(5);
    open();
    editInPlace(file(2), renderMemory(memory('m2-aaaaaa', 'widgets replaced by gears')), paths);
    const { index, report } = open();
    expect(report.updated).toBe(0); // not swept: the directory did not change
    // Shown for "widgets" (the old text): the check of what is shown reads it again.
    const hits = index.query('widgets', { limit: 10 }).map((h) => h.id);
    expect(hits).toContain('m2-aaaaaa');
    expect(index.verify(hits)).toBe(true);
    expect(index.docs.get('m2-aaaaaa')!.summary).toBe('widgets replaced by gears');
    expect(index.query('gears').map((h) => h.id)).toEqual(['m2-aaaaaa']);
    expect(index.verify(['m2-aaaaaa'])).toBe(false);
    index.save(paths);
    // A sweep finds an edit in place of a memory that was not shown.
    editInPlace(file(3), renderMemory(memory('m3-aaaaaa', 'now about cogs')), paths);
    expect(open().index.query('cogs')).toEqual([]);
    const swept = open({ sweep: true });
    expect(swept.report.updated).toBe(1);
    expect(swept.index.query('cogs').map((h) => h.id)).toEqual(['m3-aaaaaa']);
  });

  it('does not trust a stamp taken just after a change: the next command sweeps', () => {
    const { dir, paths, file, write } = setup(3);
    write(5, 'added a moment ago about valves');
    // Changed "just now" whatever the machine's speed: an mtime ahead of the clock is always
    // within the racy window.
    const soon = new Date(Date.now() + 60_000);
    utimesSync(paths.memoriesDir, soon, soon);
    const index = KeywordIndex.load(paths);
    index.refresh(paths, { base: dir, ...LARGE });
    index.save(paths);
    // Another change in the same clock tick might not have moved the mtime: an edit in place
    // stands for it here, and is found because the racy stamp is not trusted.
    editInPlace(file(1), renderMemory(memory('m1-aaaaaa', 'now about gaskets')), paths);
    const again = KeywordIndex.load(paths);
    expect(again.refresh(paths, { base: dir, ...LARGE }).updated).toBe(1);
  });

  it('forgets a shown memory whose file is gone', () => {
    const { file, open } = setup(3);
    const { index } = open();
    rmSync(file(1));
    expect(index.verify(['m1-aaaaaa'])).toBe(true);
    expect(index.docs.has('m1-aaaaaa')).toBe(false);
  });

  it("takes over the directory's stamp after its own writes, so the next command does not sweep", () => {
    const { dir, paths, write, open } = setup(4);
    const { index } = open();
    write(9, 'written by cortex itself about pulleys');
    const entry = (() => {
      const scan = scanMemoryFiles(paths, dir);
      return scanEntry(scan, scan.names.indexOf('m9-aaaaaa.md'));
    })();
    index.upsert(memory('m9-aaaaaa', 'written by cortex itself about pulleys'), entry, renderMemory(memory('m9-aaaaaa', 'written by cortex itself about pulleys')), { base: dir });
    index.save(paths);
    const next = open();
    expect(next.report).toEqual({ added: 0, updated: 0, removed: 0, diagnostics: [] });
    expect(next.index.query('pulleys').map((h) => h.id)).toEqual(['m9-aaaaaa']);
    // Not swept: a file written by another program in the same moment would wait for a sweep.
    expect(open({ sweep: true }).report).toEqual({ added: 0, updated: 0, removed: 0, diagnostics: [] });
  });

  it('keeps reporting the problems of broken files without a sweep', () => {
    const { paths, open } = setup(3);
    writeFileSync(join(paths.memoriesDir, 'broken-aaaaaa.md'), '---\nid: [unclosed\n---\nbody\n');
    age(paths.memoriesDir);
    const first = open().report.diagnostics;
    expect(first.length).toBeGreaterThan(0);
    expect(open().report.diagnostics).toEqual(first);
  });
});

describe('a small tier', () => {
  it('stats every file on every refresh: an edit in place is seen at once', () => {
    const { dir, file, paths } = setup(3);
    const index = KeywordIndex.load(paths);
    index.refresh(paths, { base: dir });
    index.save(paths);
    editInPlace(file(0), renderMemory(memory('m0-aaaaaa', 'about flanges')), paths);
    const again = KeywordIndex.load(paths);
    expect(again.refresh(paths, { base: dir }).updated).toBe(1);
  });
});

describe('cortex index <memory-file>', () => {
  it('re-reads just the named files, relative to the working directory, and refuses other paths', () => {
    const [path, text] = memoryFile({ summary: 'Chose SQLite for the cache' });
    const repo = tempRepo({ [path]: text });
    try {
      expect(repo.cortex(['index']).code).toBe(0);
      writeFileSync(join(repo.dir, path), text.replace('Chose SQLite for the cache', 'Chose Postgres for the cache'));
      const r = repo.cortex(['index', path.replace('.cortex/', ''), '--json'], { cwd: join(repo.dir, '.cortex') });
      expect(r.code, r.stderr).toBe(0);
      expect(json<{ tiers: { updated: number }[] }>(r).tiers[0]!.updated).toBe(1);
      expect(repo.cortex(['recall', 'Postgres']).stdout).toContain('Postgres');
      const bad = repo.cortex(['index', 'README.md']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/Not a memory file: .*README\.md/);
    } finally {
      rmSync(repo.dir, { recursive: true, force: true });
      rmSync(repo.home, { recursive: true, force: true });
    }
  });
});
