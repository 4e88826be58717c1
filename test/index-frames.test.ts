/**
 * The keyword index's appended frames: a save that keeps every table appends its changes to
 * `.memory/index.v8` (bytes in proportion to the change) instead of writing the header with
 * every journal again, and a process that loads the index replays them. Real files in
 * temporary directories; each "process" is a fresh load.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { KeywordIndex } from '../src/cache/index/keyword-index.js';
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

const WORDS = ['widgets', 'sprockets', 'flanges', 'gaskets', 'valves', 'rivets', 'pistons', 'bearings'];

function setup(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-frames-'));
  dirs.push(dir);
  const paths = projectPaths(dir);
  mkdirSync(paths.memoriesDir, { recursive: true });
  const file = (i: number) => join(paths.memoriesDir, `m${i}-aaaaaa.md`);
  const write = (i: number, text: string) => writeFileSync(file(i), renderMemory(memory(`m${i}-aaaaaa`, text)));
  for (let i = 0; i < n; i++) write(i, `memory number ${i} about ${WORDS[i % WORDS.length]}`);
  return { dir, paths, file, write };
}

/** Opens the index as a new process would, refreshes it and saves it. */
function reopen(paths: ProjectPaths, dir: string): KeywordIndex {
  const index = KeywordIndex.load(paths);
  index.refresh(paths, { base: dir });
  index.save(paths);
  return index;
}

/** Everything in `.memory/` but index.v8, with sizes and mtimes. */
const tables = (paths: ProjectPaths) =>
  readdirSync(paths.cacheDir)
    .filter((n) => n !== 'index.v8' && n.startsWith('index'))
    .map((n) => `${n}:${statSync(join(paths.cacheDir, n)).size}:${statSync(join(paths.cacheDir, n)).mtimeMs}`)
    .sort();

/**
 * What the records say and which memories each query finds, for comparing two indexes (not
 * the scores: a tree with a journal replayed keeps the documents it discarded in its
 * statistics until it is written anew, as it did before frames).
 */
function answers(index: KeywordIndex): unknown {
  const ids = [...index.docs.keys()].sort();
  return {
    ids,
    records: ids.map((id) => index.docs.get(id)),
    queries: WORDS.map((w) => index.query(w, { limit: 50, feedback: false, expand: false }).map((h) => h.id).sort()),
  };
}

const op = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), i: fc.nat(29), word: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('remove' as const), i: fc.nat(29) }),
  fc.record({ kind: fc.constant('add' as const), i: fc.integer({ min: 30, max: 40 }), word: fc.constantFrom(...WORDS) }),
);

describe('appended frames', () => {
  it('a few changes per process append small frames, leave the tables alone, and load as a rebuild answers', { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }), (processes) => {
        const { dir, paths, file, write } = setup(30);
        reopen(paths, dir);
        const before = tables(paths);
        let size = statSync(join(paths.cacheDir, 'index.v8')).size;
        for (const ops of processes) {
          for (const o of ops) {
            if (o.kind === 'remove') rmSync(file(o.i), { force: true });
            else write(o.i, `memory ${o.i} now about ${o.word} and ${o.kind}`);
          }
          reopen(paths, dir);
          const now = statSync(join(paths.cacheDir, 'index.v8')).size;
          // A frame: a few kilobytes per change at most, whatever the index holds.
          expect(now - size).toBeLessThan(3_000 * ops.length);
          size = now;
        }
        expect(tables(paths)).toEqual(before);
        const loaded = KeywordIndex.load(paths);
        loaded.refresh(paths, { base: dir });
        const rebuilt = KeywordIndex.empty();
        rebuilt.refresh(paths, { base: dir });
        expect(loaded.rebuilt).toBe(false);
        expect(answers(loaded)).toEqual(answers(rebuilt));
        // Nothing left to read again: the frames held every change.
        expect(KeywordIndex.load(paths).refresh(paths, { base: dir })).toMatchObject({ added: 0, updated: 0, removed: 0 });
      }),
      { numRuns: 12 },
    );
  });

  it('a long-lived process whose index.v8 another process appended to or replaced writes the header anew, and loses nothing', () => {
    const { dir, paths, write } = setup(30);
    const server = reopen(paths, dir);
    write(1, 'memory one about gaskets from the server');
    server.refresh(paths, { base: dir, sweep: true });
    server.save(paths);
    // Another process appends its own frame.
    write(2, 'memory two about rivets from the command line');
    reopen(paths, dir);
    // The server's next save does not append after a frame it did not read.
    write(3, 'memory three about pistons from the server');
    server.refresh(paths, { base: dir, sweep: true });
    server.save(paths);
    const loaded = KeywordIndex.load(paths);
    expect(loaded.refresh(paths, { base: dir })).toMatchObject({ added: 0, updated: 0, removed: 0 });
    const rebuilt = KeywordIndex.empty();
    rebuilt.refresh(paths, { base: dir });
    expect(answers(loaded)).toEqual(answers(rebuilt));
    expect(loaded.query('rivets').map((h) => h.id)).toContain('m2-aaaaaa');
    expect(loaded.query('pistons').map((h) => h.id)).toContain('m3-aaaaaa');
  });

  it('ignores a frame cut short (an interrupted append) and reads the file again', () => {
    const { dir, paths, write } = setup(10);
    reopen(paths, dir);
    write(4, 'memory four about bearings');
    reopen(paths, dir);
    const path = join(paths.cacheDir, 'index.v8');
    const size = statSync(path).size;
    // Cut the last frame in two.
    writeFileSync(path, readFileSync(path).subarray(0, size - 10));
    const loaded = KeywordIndex.load(paths);
    expect(loaded.rebuilt).toBe(false);
    expect(loaded.refresh(paths, { base: dir }).updated).toBe(1);
    expect(loaded.query('bearings').map((h) => h.id)).toContain('m4-aaaaaa');
  });
});
