import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { renderMemory } from '../../core/memory-format.js';
import { projectPaths } from '../../store/paths.js';
import { testMemory } from '../../../test/helpers/arbitrary.js';
import { INDEX_OPTIONS, KeywordIndex, OPTIONS_HASH } from './keyword-index.js';

describe('OPTIONS_HASH', () => {
  it('is the SHA-1 of the index options, written out (no node:crypto when an index is opened)', () => {
    expect(OPTIONS_HASH).toBe(createHash('sha1').update(JSON.stringify(INDEX_OPTIONS)).digest('hex').slice(0, 12));
  });
});

describe('KeywordIndex.query with exact', () => {
  it('matches the words only as they are: no prefix or fuzzy matches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-exact-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const paths = projectPaths(dir);
    mkdirSync(paths.memoriesDir, { recursive: true });
    const texts = ['We chose sqlite for the cache', 'The sqlute typo stays in the log', 'Postgres runs the reports'];
    texts.forEach((summary, i) => writeFileSync(join(paths.memoriesDir, `m${i}-aaaaaa.md`), renderMemory(testMemory(`m${i}-aaaaaa`, { type: 'context', summary }))));
    const index = KeywordIndex.load(paths);
    index.refresh(paths, { base: dir });
    const ids = (query: string, exact: boolean) => index.query(query, { exact, feedback: false, expand: false }).map((h) => h.id).sort();
    expect(ids('sqlite', false)).toEqual(['m0-aaaaaa', 'm1-aaaaaa']);
    expect(ids('sqlite', true)).toEqual(['m0-aaaaaa']);
    expect(ids('postg', false)).toEqual(['m2-aaaaaa']);
    expect(ids('postg', true)).toEqual([]);
  });
});
