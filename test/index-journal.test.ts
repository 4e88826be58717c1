/**
 * The keyword index's journal: a refresh records changed memories in `.memory/index.v8`
 * and leaves the search tree's file alone until the journal is full.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { contextFor } from '../src/services/context.js';
import { COMPACT_MIN, compactIndexes, openTierIndex } from '../src/services/indexes.js';
import type { FileTable } from '../src/cache/index/file-table.js';
import { JOURNAL_LIMIT, KeywordIndex } from '../src/cache/index/keyword-index.js';
import { packIndexBytes, unpackIndexParts } from '../src/cache/index/index-file.js';
import { projectPaths, type ProjectPaths } from '../src/store/paths.js';

function memory(id: string, summary: string): Memory {
  return {
    id, type: 'context', summary, scope: 'project', priority: 5, confidence: 1, pinned: false, status: 'active', tags: [],
    created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', source: { kind: 'manual' }, body: '', extra: {},
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(n: number): { dir: string; paths: ProjectPaths; write: (i: number, text: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-journal-'));
  dirs.push(dir);
  const paths = projectPaths(dir);
  mkdirSync(paths.memoriesDir, { recursive: true });
  const write = (i: number, text: string) => writeFileSync(join(paths.memoriesDir, `m${i}-aaaaaa.md`), renderMemory(memory(`m${i}-aaaaaa`, text)));
  for (let i = 0; i < n; i++) write(i, `memory number ${i} about widgets`);
  return { dir, paths, write };
}

/** Opens the index as a new process would: from the files in `.memory/`. */
function reopen(paths: ProjectPaths, dir: string): KeywordIndex {
  const index = KeywordIndex.load(paths);
  index.refresh(paths, { base: dir });
  index.save(paths);
  return index;
}

const searchFiles = (paths: ProjectPaths) => readdirSync(paths.cacheDir).filter((f) => f.startsWith('index-search-'));

describe('the index journal', () => {
  it('keeps the search file through small changes, and answers with them', () => {
    const { dir, paths, write } = setup(20);
    reopen(paths, dir);
    const [before] = searchFiles(paths);
    write(3, 'memory about sprockets now');
    rmSync(join(paths.memoriesDir, 'm4-aaaaaa.md'));
    const index = reopen(paths, dir);
    expect(index.rebuilt).toBe(false);
    expect(searchFiles(paths)).toEqual([before]);
    expect(index.query('sprockets').map((h) => h.id)).toEqual(['m3-aaaaaa']);
    // A new process replays the journal onto the saved tree.
    const fresh = reopen(paths, dir);
    expect(fresh.query('sprockets').map((h) => h.id)).toEqual(['m3-aaaaaa']);
    expect(fresh.query('widgets', { limit: 50 }).map((h) => h.id).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i}-aaaaaa`).filter((id) => id !== 'm3-aaaaaa' && id !== 'm4-aaaaaa').sort(),
    );
  });

  it("keeps the saved short ids of the journal's memories, and replays the same with them", () => {
    const { dir, paths, write } = setup(30);
    reopen(paths, dir);
    write(3, 'memory about sprockets');
    write(30, 'a new memory about sprockets');
    rmSync(join(paths.memoriesDir, 'm4-aaaaaa.md'));
    // Queried (the tree loaded, its journal replayed) before the save: the save knows the ids.
    const queried = KeywordIndex.load(paths);
    queried.refresh(paths, { base: dir });
    expect(queried.query('sprockets').map((h) => h.id).sort()).toEqual(['m3-aaaaaa', 'm30-aaaaaa']);
    write(5, 'memory about sprockets too');
    // Edited in place right after the last sweep: asked to sweep (see FRESH_SWEEP_MS).
    queried.refresh(paths, { base: dir, sweep: true });
    queried.save(paths);
    // The journal as a load sees it: the header's, then the frames appended after it.
    const { header, frames } = unpackIndexParts(readFileSync(join(paths.cacheDir, 'index.v8')));
    const journals = [header.journal, ...frames.map((f) => f.search)];
    const saved = new Map(journals.flatMap((j) => j.saved ?? []));
    expect(new Set(saved.keys())).toEqual(new Set(journals.flatMap((j) => j.removed)));
    expect(saved.get('m30-aaaaaa')).toBe(-1);
    for (const id of ['m3-aaaaaa', 'm4-aaaaaa', 'm5-aaaaaa']) expect(saved.get(id)).toBeGreaterThanOrEqual(0);
    // Another process replays the journal with them: the same answers as a replay that looks
    // every id up (the journal as written before the short ids were kept).
    const withIds = KeywordIndex.load(paths);
    withIds.refresh(paths, { base: dir });
    const answers = (index: Pick<KeywordIndex, 'query'>) => ['sprockets', 'widgets', 'memory number 4', 'number 5'].map((q) => index.query(q, { limit: 50 }).map((h) => [h.id, h.score]));
    const expected = answers(withIds);
    const path = join(paths.cacheDir, 'index.v8');
    for (const journal of journals) delete journal.saved;
    writeFileSync(path, packIndexBytes(header, frames));
    const lookedUp = KeywordIndex.load(paths);
    lookedUp.refresh(paths, { base: dir });
    expect(lookedUp.rebuilt).toBe(false);
    expect(answers(lookedUp)).toEqual(expected);
    expect(expected[0]!.map(([id]) => id).sort()).toEqual(['m3-aaaaaa', 'm30-aaaaaa', 'm5-aaaaaa']);
    expect(expected[2]!.map(([id]) => id)).not.toContain('m4-aaaaaa');
  });

  it('writes a new search file once the journal is full, with the same answers', () => {
    const { dir, paths, write } = setup(JOURNAL_LIMIT + 10);
    reopen(paths, dir);
    const [before] = searchFiles(paths);
    for (let i = 0; i <= JOURNAL_LIMIT; i++) write(i, `memory ${i} about gears`);
    const index = reopen(paths, dir);
    // A new tree; the previous file stays a while for readers that loaded the previous index.
    expect(searchFiles(paths).filter((f) => f !== before)).toHaveLength(1);
    expect(index.query('gears', { limit: 100 })).toHaveLength(JOURNAL_LIMIT + 1);
    expect(reopen(paths, dir).query('gears', { limit: 100 })).toHaveLength(JOURNAL_LIMIT + 1);
  });

  it('rebuilds from the files when the search file is gone, journal or not', () => {
    const { dir, paths, write } = setup(10);
    reopen(paths, dir);
    write(1, 'memory about cogs');
    reopen(paths, dir);
    for (const f of searchFiles(paths)) rmSync(join(paths.cacheDir, f));
    const index = reopen(paths, dir);
    expect(index.query('cogs').map((h) => h.id)).toEqual(['m1-aaaaaa']);
  });

  it('finds every file of a warm refresh by listing order, changed ones too: no name map is built', () => {
    const { dir, paths, write } = setup(40);
    reopen(paths, dir);
    write(7, 'memory number 7 about cogs');
    const index = KeywordIndex.load(paths);
    index.refresh(paths, { base: dir });
    expect((index as unknown as { files: FileTable }).files.misses).toBe(0);
    expect(index.query('cogs').map((h) => h.id)).toEqual(['m7-aaaaaa']);
  });

  it('counts the documents each edit leaves behind, and compactIndexes rebuilds once they are many', () => {
    // More memories than the journal holds, so the tree is rewritten, carrying what was discarded.
    const n = JOURNAL_LIMIT + 12;
    const { dir, paths, write } = setup(n);
    reopen(paths, dir);
    let discarded = 0;
    let i = 0;
    for (; discarded < COMPACT_MIN && i < 3 * COMPACT_MIN; i++) {
      write(i % n, `memory number ${i % n} about widgets, edit ${i}`);
      const now = reopen(paths, dir).discarded;
      expect(now).toBeGreaterThanOrEqual(discarded);
      discarded = now;
    }
    expect(discarded).toBeGreaterThanOrEqual(COMPACT_MIN);
    const ctx = contextFor(dir, { env: { CORTEX_HOME: join(dir, 'no-global') } });
    const answers = (index: Pick<KeywordIndex, 'query'>) => ({ all: index.query('widgets', { limit: 1000 }).map((h) => h.id).sort(), last: index.query(`edit ${i - 1}`, { limit: 1 })[0]?.id });
    const before = answers(openTierIndex(ctx, 'project').index);
    expect(compactIndexes(ctx)).toEqual([{ scope: 'project', discarded }]);
    const after = KeywordIndex.load(paths);
    after.refresh(paths, { base: dir });
    expect(after.discarded).toBe(0);
    expect(answers(after)).toEqual(before);
    expect(before.all).toHaveLength(n);
    expect(before.last).toBe(`m${(i - 1) % n}-aaaaaa`);
    expect(compactIndexes(ctx)).toEqual([]);
  });
});
