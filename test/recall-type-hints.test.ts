/**
 * The boost for the types a question hints at ("why did we pick …" → decisions), read from
 * the search tree's `type` field by document number, against the doc table's types looked up
 * id by id: the same ranking, through saves, journals and edits, with real memory files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { renderMemory } from '../src/core/memory-format.js';
import { MEMORY_TYPES, type Memory, type MemoryType } from '../src/core/memory.js';
import { KeywordIndex } from '../src/cache/index/keyword-index.js';
import { projectPaths } from '../src/store/paths.js';

const WORDS = ['retry', 'policy', 'sqlite', 'migration', 'cache', 'worker', 'deploy', 'decision', 'pattern', 'plan'];
const QUESTIONS = ['why did we pick the retry policy', 'what did we decide about sqlite', 'which pattern for the cache worker', 'what is the plan for deploy', 'gotcha in the migration', 'retry policy'];

function memory(id: string, type: MemoryType, summary: string): Memory {
  return {
    id, type, summary, scope: 'project', priority: 5, confidence: 1, pinned: false, status: 'active', tags: [],
    created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', source: { kind: 'manual' }, body: '', extra: {},
  };
}

/** The index's answers with the hinted types looked up in the doc table, id by id (the boost before). */
function byIdLookup(index: KeywordIndex): KeywordIndex {
  const plain = Object.create(index) as KeywordIndex;
  (plain as unknown as { typeBoost: () => undefined }).typeBoost = () => undefined;
  return plain;
}

describe('type hints', () => {
  it('rank as the doc table’s types say, whether read from the postings or looked up (property)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-type-hints-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const paths = projectPaths(dir);
    mkdirSync(paths.memoriesDir, { recursive: true });
    const note = fc.record({
      n: fc.integer({ min: 0, max: 11 }),
      type: fc.constantFrom(...MEMORY_TYPES),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
    });
    fc.assert(
      fc.property(fc.array(fc.array(note, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), (rounds) => {
        rmSync(paths.cacheDir, { recursive: true, force: true });
        rmSync(paths.memoriesDir, { recursive: true, force: true });
        mkdirSync(paths.memoriesDir, { recursive: true });
        for (const round of rounds) {
          // Memories written (and rewritten with another type) between saves: the journal, edits.
          for (const m of round) {
            const id = `note-${m.n}-aaaaaa`;
            writeFileSync(join(paths.memoriesDir, `${id}.md`), renderMemory(memory(id, m.type, m.words.join(' '))));
          }
          const index = KeywordIndex.load(paths);
          index.refresh(paths, { base: dir, sweep: true });
          for (const q of QUESTIONS) expect(index.query(q, { limit: 20 })).toEqual(byIdLookup(index).query(q, { limit: 20 }));
          index.save(paths);
        }
      }),
      { numRuns: 25 },
    );
  });
});
