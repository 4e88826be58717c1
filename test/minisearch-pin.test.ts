/**
 * The search engine reads MiniSearch's private fields (its term tree, document ids, field
 * lengths) to score queries without `MiniSearch.search`. When a field it reads is missing or
 * changed, every query silently falls back to the slow path. These tests say so by name: they
 * fail on a MiniSearch upgrade that changes one of those fields, and when package.json no
 * longer pins the exact version whose internals were checked.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KeywordIndex, MINISEARCH_OPTIONS } from '../src/cache/index/keyword-index.js';
import { DEFAULT_BM25 as BM25, DEFAULT_FIELD_BOOSTS as FIELD_BOOSTS } from '../src/core/recall-rank.js';
import { minisearchInternalsProblem, searchPacked } from '../src/cache/index/packed-search.js';
import { renderMemory } from '../src/core/memory-format.js';
import { projectPaths } from '../src/store/paths.js';
import { testMemory } from './helpers/arbitrary.js';
import { REPO_ROOT } from './helpers/repo.js';

const installed = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/minisearch/package.json'), 'utf8')) as { version: string }).version;

/**
 * Private fields read outside the query path (by the search-state loader and saver in
 * `search-state.ts`), beyond those `minisearchInternalsProblem` checks: name and expected shape.
 */
function otherInternalsProblem(ms: MiniSearch): string | undefined {
  const m = ms as unknown as { _idToShortId?: unknown; _index?: { _tree?: unknown; _prefix?: unknown } };
  if (!(m._idToShortId instanceof Map)) return "MiniSearch's private field `_idToShortId` is missing or changed (expected a Map)";
  if (!(m._index?._tree instanceof Map)) return "MiniSearch's private field `_index._tree` is missing or changed (expected a Map)";
  if (typeof m._index?._prefix !== 'string') return "MiniSearch's private field `_index._prefix` is missing or changed (expected a string)";
  return undefined;
}

/** A KeywordIndex over three memories, saved to its cache and opened again from the saved file. */
function savedAndLoaded(): KeywordIndex {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-minisearch-pin-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const paths = projectPaths(dir);
  mkdirSync(paths.memoriesDir, { recursive: true });
  const summaries = ['We chose sqlite for the cache', 'Postgres runs the nightly reports', 'The deploy script tags each release'];
  summaries.forEach((summary, i) => writeFileSync(join(paths.memoriesDir, `m${i}-aaaaaa.md`), renderMemory(testMemory(`m${i}-aaaaaa`, { type: 'context', summary }))));
  const built = KeywordIndex.load(paths);
  built.refresh(paths, { base: dir });
  built.save(paths);
  const loaded = KeywordIndex.load(paths);
  expect(loaded.rebuilt).toBe(false);
  return loaded;
}

/** The MiniSearch behind a KeywordIndex (its private `search` getter; loads the saved file on first use). */
function miniSearchOf(index: KeywordIndex): MiniSearch {
  const ms = (index as unknown as { search?: unknown }).search;
  if (!(ms instanceof MiniSearch)) throw new Error('KeywordIndex no longer has its MiniSearch as `search`: point miniSearchOf in this test at where it now is');
  return ms;
}

describe('MiniSearch internals read by the search engine', () => {
  it('are as expected in a fresh MiniSearch built with the index options', () => {
    const ms = new MiniSearch(MINISEARCH_OPTIONS);
    ms.add({ id: 'a', text: 'sqlite cache', summary: 'sqlite', tags: 'db', topic: '', files: '', type: 'context' });
    expect(minisearchInternalsProblem(ms), `minisearch ${installed}`).toBeUndefined();
    expect(otherInternalsProblem(ms), `minisearch ${installed}`).toBeUndefined();
  });

  it('are as expected in an index loaded from its saved file', () => {
    const index = savedAndLoaded();
    expect(index.query('sqlite', { feedback: false, expand: false }).map((h) => h.id)).toEqual(['m0-aaaaaa']);
    const ms = miniSearchOf(index);
    expect(minisearchInternalsProblem(ms), `minisearch ${installed}`).toBeUndefined();
    expect(otherInternalsProblem(ms), `minisearch ${installed}`).toBeUndefined();
  });

  it('name the field that is missing or changed', () => {
    const ms = new MiniSearch(MINISEARCH_OPTIONS);
    (ms as unknown as Record<string, unknown>)._documentIds = {};
    expect(minisearchInternalsProblem(ms)).toBe("MiniSearch's private field `_documentIds` is missing or changed (expected a Map)");
    delete (ms as unknown as Record<string, unknown>)._index;
    expect(minisearchInternalsProblem(ms)).toMatch(/`_index` is missing or changed/);
  });

  it('let a real query take the fast path (searchPacked answers, no fallback to MiniSearch.search)', () => {
    const ms = miniSearchOf(savedAndLoaded());
    const packed = searchPacked(ms, [{ term: 'postgr', prefix: true, fuzzy: false, boost: 1 }], { boost: FIELD_BOOSTS, bm25: BM25, maxFuzzy: 2 });
    expect(packed, 'searchPacked gave undefined: queries fall back to MiniSearch.search').toBeDefined();
    expect(packed!.length).toBe(1);
    expect(packed!.id(packed!.docs[0]!)).toBe('m1-aaaaaa');
  });
});

describe('package.json', () => {
  it('pins minisearch to the exact installed version', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(
      pkg.dependencies.minisearch,
      'the search engine reads MiniSearch private fields (see src/cache/index/packed-search.ts), so a ' +
        'range would let `npm install` take a release whose internals send every query to the slow path; ' +
        'pin the exact version this test has checked, and upgrade it on purpose',
    ).toBe(installed);
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; version?: string }> };
    expect(lock.packages['']!.dependencies!.minisearch, 'package-lock.json must match package.json').toBe(installed);
    expect(lock.packages['node_modules/minisearch']!.version).toBe(installed);
  });
});
