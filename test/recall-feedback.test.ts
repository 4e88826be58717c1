/**
 * Pseudo-relevance feedback in the keyword index, against real memory files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { KeywordIndex } from '../src/cache/index/keyword-index.js';
import { projectPaths } from '../src/store/paths.js';

const TEXTS: Record<string, string> = {
  'pets-aaaaaa': "Anna's pets: a cat called Miso and a puppy called Biscuit",
  'vet-bbbbbb': 'Anna takes her pets to the vet on Fridays',
  'walk-cccccc': 'Anna walks to work along the canal',
  'office-dddddd': 'Pets are not allowed in the office',
  'sofa-eeeeee': 'Biscuit chewed the sofa again',
  'radiator-ffffff': 'Miso sleeps on the radiator all winter',
  'ikea-gggggg': 'The bookshelf came from a flea market',
};

function memory(id: string, summary: string): Memory {
  return {
    id, type: 'context', summary, scope: 'project', priority: 5, confidence: 1, pinned: false, status: 'active', tags: [],
    created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', source: { kind: 'manual' }, body: '', extra: {},
  };
}

describe('KeywordIndex.query feedback', () => {
  let dir: string;
  let index: KeywordIndex;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cortex-feedback-'));
    const paths = projectPaths(dir);
    mkdirSync(paths.memoriesDir, { recursive: true });
    for (const [id, text] of Object.entries(TEXTS)) writeFileSync(join(paths.memoriesDir, `${id}.md`), renderMemory(memory(id, text)));
    index = KeywordIndex.empty();
    index.refresh(paths, { base: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds memories in the words of the first results, below a head it leaves alone', () => {
    const plain = index.query('what pets does Anna have', { limit: 10, feedback: false }).map((h) => h.id);
    const hits = index.query('what pets does Anna have', { limit: 10 });
    const ids = hits.map((h) => h.id);
    expect(plain).not.toContain('sofa-eeeeee');
    expect(plain).not.toContain('radiator-ffffff');
    expect(ids.slice(0, 3)).toEqual(plain.slice(0, 3));
    expect(ids).toEqual(expect.arrayContaining(['sofa-eeeeee', 'radiator-ffffff']));
    expect(ids).not.toContain('ikea-gggggg');
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    // Matched terms are the query's, never the feedback's.
    expect(hits.find((h) => h.id === 'sofa-eeeeee')!.terms).toEqual([]);
  });

  it('is off when no more than the head is asked for', () => {
    expect(index.query('what pets does Anna have', { limit: 3 })).toEqual(index.query('what pets does Anna have', { limit: 3, feedback: false }));
  });
});
