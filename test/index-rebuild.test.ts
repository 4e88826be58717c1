/**
 * A fresh build of the keyword index writes its records to the new records file as it reads
 * the memories (`LOG_RECORDS_FROM`), and its search state term by term: the files it saves
 * are the ones a build holding everything until the save writes, byte for byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { KeywordIndex } from '../src/cache/index/keyword-index.js';
import { projectPaths, type ProjectPaths } from '../src/store/paths.js';
import { REPO_ROOT } from './helpers/repo.js';

const WORDS = ['sqlite', 'widgets', 'migration', 'retry', 'policy', 'cache', 'hooks', 'gears', 'naïve', 'café', '日本語'];

function memory(id: string, i: number): Memory {
  const words = (k: number) => Array.from({ length: k }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
  return {
    id, type: i % 3 === 0 ? 'decision' : 'gotcha', summary: `Memory ${i} on ${words(3)}`, scope: 'project', priority: 1 + (i % 10), confidence: 1,
    pinned: false, status: i % 5 === 0 ? 'archived' : 'active', tags: i % 2 ? ['db'] : [], ...(i % 4 === 0 ? { topic: `t/${i % 3}` } : {}),
    created: `2026-01-01T00:0${i % 7}:00Z`, updated: '2026-01-01T00:00:00Z', source: { kind: 'manual', ...(i % 6 === 0 ? { session: `s${i % 4}` } : {}) }, body: `${words(5 + (i % 9))}\n\nSee [[m${Math.max(0, i - 1)}-aaaaaa]].`, extra: {},
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with `n` memories (and whatever `extra` files), in a new temporary directory. */
function project(n: number, extra: Record<string, string> = {}): { dir: string; paths: ProjectPaths } {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-rebuild-'));
  dirs.push(dir);
  const paths = projectPaths(dir);
  mkdirSync(paths.memoriesDir, { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(paths.memoriesDir, `m${i}-aaaaaa.md`), renderMemory(memory(`m${i}-aaaaaa`, i)));
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(paths.memoriesDir, name), text);
  return { dir, paths };
}

/** The index's files by kind (the random part of each name left out), and the rest of `.memory/`. */
function savedFiles(paths: ProjectPaths): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(paths.cacheDir)) {
    const kind = /^(index-[a-z]+)-[0-9a-f]+\.(v8|bin)$/.exec(name);
    out[kind ? kind[1]! : name] = readFileSync(join(paths.cacheDir, name));
  }
  return out;
}

function build(dir: string, paths: ProjectPaths, logRecordsFrom: number): KeywordIndex {
  rmSync(paths.cacheDir, { recursive: true, force: true });
  const index = KeywordIndex.empty();
  index.refresh(paths, { base: dir, logRecordsFrom });
  index.save(paths);
  return index;
}

describe('a fresh build of the keyword index', () => {
  it('writes, logging its records as it reads, the files a build holding them writes', () => {
    const { dir, paths } = project(60);
    build(dir, paths, Number.POSITIVE_INFINITY);
    const held = savedFiles(paths);
    const logged = build(dir, paths, 0);
    const files = savedFiles(paths);
    expect(Object.keys(files).sort()).toEqual(['index-docs', 'index-files', 'index-records', 'index-search', 'index.v8']);
    for (const kind of ['index-docs', 'index-records', 'index-search', 'index-files']) expect(files[kind]!.equals(held[kind]!), kind).toBe(true);
    // And it answers from them, in this process and in the next.
    const expected = logged.query('sqlite migration', { limit: 20, statuses: ['active', 'archived'] });
    expect(expected.length).toBeGreaterThan(10);
    const loaded = KeywordIndex.load(paths);
    loaded.refresh(paths, { base: dir });
    expect(loaded.rebuilt).toBe(false);
    expect(loaded.query('sqlite migration', { limit: 20, statuses: ['active', 'archived'] })).toEqual(expected);
    expect(loaded.docs.get('m7-aaaaaa')).toEqual(logged.docs.get('m7-aaaaaa'));
  });

  it('copies the records it logged when some were replaced or removed before the save, and reports broken files as before', () => {
    const { dir, paths } = project(20, { 'broken-cccccc.md': '---\nid: broken-cccccc\ntype: [oops\n---\nbody\n' });
    /** A build, then memory 3 edited and read again, and memory 5 removed, before the save. */
    const three = join(paths.memoriesDir, 'm3-aaaaaa.md');
    // Each write at the same times, so that the two runs save the same file stats.
    const write = (m: Memory, at: number) => {
      writeFileSync(three, renderMemory(m));
      utimesSync(three, at, at);
    };
    const run = (logRecordsFrom: number) => {
      write(memory('m3-aaaaaa', 3), 1_700_000_000);
      rmSync(paths.cacheDir, { recursive: true, force: true });
      const index = KeywordIndex.empty();
      const report = index.refresh(paths, { base: dir, logRecordsFrom });
      write({ ...memory('m3-aaaaaa', 3), summary: 'Memory three is now about gears and twins' }, 1_700_000_100);
      const named = index.refreshFiles(['m3-aaaaaa.md']);
      index.remove('m5-aaaaaa');
      index.save(paths);
      return { index, report, named, files: savedFiles(paths) };
    };
    const held = run(Number.POSITIVE_INFINITY);
    const logged = run(0);
    expect(logged.report).toEqual(held.report);
    expect(logged.report.diagnostics.map((d) => d.file)).toEqual(['.cortex/memories/broken-cccccc.md']);
    expect(logged.named).toEqual({ added: 0, updated: 1, removed: 0, diagnostics: [] });
    for (const kind of ['index-docs', 'index-records', 'index-search', 'index-files']) expect(logged.files[kind]!.equals(held.files[kind]!), kind).toBe(true);
    expect(logged.index.docs.get('m3-aaaaaa')?.summary).toBe('Memory three is now about gears and twins');
    expect(logged.index.docs.has('m5-aaaaaa')).toBe(false);
    expect(logged.index.query('gears twins', { limit: 5 })).toEqual(held.index.query('gears twins', { limit: 5 }));
  });

  it('leaves no temporary file, and removes those of a build that was interrupted', () => {
    const { dir, paths } = project(10);
    mkdirSync(paths.cacheDir, { recursive: true });
    // What a build killed before its save leaves: a records file under a temporary name, of a
    // process that is gone (no pid is above 2^22 on Linux).
    const orphan = `.index-records-0123456789ab.bin.${2 ** 22 + 1}.abcdefgh.tmp`;
    writeFileSync(join(paths.cacheDir, orphan), 'half a records file');
    const index = KeywordIndex.empty();
    index.refresh(paths, { base: dir, logRecordsFrom: 0 });
    expect(readdirSync(paths.cacheDir).filter((f) => f.endsWith('.tmp'))).toHaveLength(2);
    index.save(paths);
    expect(readdirSync(paths.cacheDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('builds the same files with its files prepared in a worker thread (the built package: the worker is a built file)', async () => {
    const built = (await import(pathToFileURL(join(REPO_ROOT, 'dist/cache/index/keyword-index.js')).href)) as typeof import('../src/cache/index/keyword-index.js');
    const { LINK_EXTRACTOR } = (await import(pathToFileURL(join(REPO_ROOT, 'dist/services/indexes.js')).href)) as typeof import('../src/services/indexes.js');
    const { dir, paths } = project(700, { 'broken-cccccc.md': '---\nid: broken-cccccc\ntype: [oops\n---\nbody\n', 'twin-bbbbbb.md': renderMemory(memory('m3-aaaaaa', 3)) });
    const run = (workerFrom: number) => {
      rmSync(paths.cacheDir, { recursive: true, force: true });
      const index = built.KeywordIndex.empty();
      const report = index.refresh(paths, { base: dir, links: LINK_EXTRACTOR, logRecordsFrom: 0, workerFrom });
      index.save(paths);
      return { report, files: savedFiles(paths), answers: index.query('sqlite migration', { limit: 30 }), neighbours: index.docs.sessionNeighbours('m6-aaaaaa', 2) };
    };
    const alone = run(Number.POSITIVE_INFINITY);
    const helped = run(0);
    expect(helped.report).toEqual(alone.report);
    expect(helped.report.added).toBe(700);
    expect(helped.report.diagnostics.map((d) => d.ruleId).sort()).toEqual(['id-mismatch', 'yaml-syntax']);
    // The same records, byte for byte; the same tables and search state, and the same postings
    // byte for byte, with the raw columns of ids and field lengths after them. (V8 writes a string in one or two bytes a character as it holds it, and
    // a word first met in a text with characters past Latin-1 is held in two: which thread
    // met it first may change the bytes, not what they say.)
    expect(helped.files['index-records']!.equals(alone.files['index-records']!)).toBe(true);
    expect(deserialize(helped.files['index-files']!)).toEqual(deserialize(alone.files['index-files']!));
    // The doc table's file (format 13): a V8-serialized header, then its columns as raw bytes
    // (sessions, dates and the content-key order among them), byte for byte.
    const splitDocs = (b: Buffer) => {
      const length = b.readUInt32LE(4);
      return { header: deserialize(b.subarray(8, 8 + length)) as unknown, columns: b.subarray((8 + length + 7) & ~7) };
    };
    const [myDocs, theirDocs] = [splitDocs(helped.files['index-docs']!), splitDocs(alone.files['index-docs']!)];
    expect(myDocs.header).toEqual(theirDocs.header);
    expect(myDocs.columns.equals(theirDocs.columns)).toBe(true);
    const split = (b: Buffer) => {
      const length = b.readUInt32LE(4);
      return { state: deserialize(b.subarray(8, 8 + length)) as unknown, postings: b.subarray((8 + length + 3) & ~3) };
    };
    const [mine, theirs] = [split(helped.files['index-search']!), split(alone.files['index-search']!)];
    expect(mine.state).toEqual(theirs.state);
    expect(mine.postings.equals(theirs.postings)).toBe(true);
    expect(helped.answers).toEqual(alone.answers);
    expect(helped.neighbours).toEqual(alone.neighbours);
    expect(helped.neighbours).toHaveLength(4);
  });
});
