/**
 * Conversation neighbours in recall (core/neighbours.ts, api/recall/keyword.ts), against real
 * memory files in a temporary project: a match next to a better match in its session moves
 * up, nothing the query did not find is added, and the session order the index keeps
 * follows the memories as they come and go.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { isDerivedCache } from '../src/cache/layout.js';
import { memoryFile } from './helpers/models.js';
import { tempRepo } from './helpers/repo.js';

const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00Z`;

/** A session where the question is asked and answered, and an unrelated short match elsewhere. */
type Name = 'question' | 'answer' | 'after' | 'hose' | 'bike' | 'loose';

function files(): { files: Record<string, string>; ids: Record<Name, string> } {
  const entries = {
    question: memoryFile({ id: 'fence-question-aaaaaa', type: 'context', summary: 'What colour should the garden fence be painted this spring?', created: at(0), source: { kind: 'extraction', session: 's1' } }),
    answer: memoryFile({ id: 'fence-answer-bbbbbb', type: 'context', summary: 'Dark green, the same as the garden shed, the old gate and the bench by the pond', created: at(1), source: { kind: 'extraction', session: 's1' } }),
    after: memoryFile({ id: 'tea-after-cccccc', type: 'context', summary: 'Then we had tea on the terrace', created: at(2), source: { kind: 'extraction', session: 's1' } }),
    hose: memoryFile({ id: 'hose-leaks-dddddd', type: 'context', summary: 'The garden hose leaks', created: at(3), source: { kind: 'extraction', session: 's2' } }),
    bike: memoryFile({ id: 'bike-tyre-eeeeee', type: 'context', summary: 'The bike needs a new tyre before the trip', created: at(4), source: { kind: 'extraction', session: 's2' } }),
    loose: memoryFile({ id: 'radio-loose-ffffff', type: 'context', summary: 'The kitchen radio only gets one station', created: at(5) }),
  };
  const ids = Object.fromEntries(Object.entries(entries).map(([k, [path]]) => [k, path.replace(/^.*\/|\.md$/g, '')])) as Record<Name, string>;
  return { files: Object.fromEntries(Object.values(entries)), ids };
}

const QUERY = 'garden fence colour';

async function ranking(dir: string, home: string, weight?: number, limit = 10): Promise<string[]> {
  if (weight !== undefined) writeFileSync(join(dir, '.cortex', 'config.yaml'), `recall:\n  neighbourWeight: ${weight}\n`);
  else rmSync(join(dir, '.cortex', 'config.yaml'), { force: true });
  const cortex = openCortex({ dir, includeGlobal: false, env: { CORTEX_HOME: home } });
  const out = await cortex.recall({ query: QUERY, limit, recordAccess: false, relevance: { minScoreShare: 0, minCoverage: 0 } });
  return out.results.map((r) => r.id);
}

describe('recall with conversation neighbours', () => {
  it('ranks the answer next to the question above a match of the same words elsewhere; weight 0 turns it off', async () => {
    const { files: tree, ids } = files();
    const repo = tempRepo(tree, { git: false });
    const plain = await ranking(repo.dir, repo.home, 0);
    expect(plain[0]).toBe(ids.question);
    expect(plain.indexOf(ids.hose)).toBeLessThan(plain.indexOf(ids.answer));
    const withNeighbours = await ranking(repo.dir, repo.home);
    expect(withNeighbours[0]).toBe(ids.question);
    expect(withNeighbours.indexOf(ids.answer)).toBeLessThan(withNeighbours.indexOf(ids.hose));
    // Nothing the query did not find: the tea after the answer has none of its words.
    expect(withNeighbours).not.toContain(ids.after);
    expect([...withNeighbours].sort()).toEqual([...plain].sort());
  });

  it('only re-ranks what keyword search finds within twice the limit', async () => {
    const { files: tree } = files();
    const repo = tempRepo(tree, { git: false });
    for (const limit of [1, 2, 3]) {
      const shown = await ranking(repo.dir, repo.home, undefined, limit);
      const candidates = await ranking(repo.dir, repo.home, 0, 2 * limit);
      expect(shown.length).toBeLessThanOrEqual(limit);
      for (const id of shown) expect(candidates).toContain(id);
    }
  });

  it('follows new, edited and deleted memories through the index, and writes no file of its own', async () => {
    const { files: tree, ids } = files();
    const repo = tempRepo(tree, { git: false });
    const cortex = openCortex({ dir: repo.dir, includeGlobal: false, env: { CORTEX_HOME: repo.home } });
    const around = async (id: string) => {
      await ranking(repo.dir, repo.home);
      const tier = (await import('../src/services/indexes.js')).openTierIndex(cortex.context, 'project');
      return tier.index.docs.sessionNeighbours(id, 2);
    };
    expect(await around(ids.answer)).toEqual([ids.question, ids.after]);
    expect(await around(ids.hose)).toEqual([ids.bike]);
    expect(await around(ids.loose)).toEqual([]);

    // A memory made between the question and the answer (created earlier than the answer).
    const [path, text] = memoryFile({ id: 'fence-aside-gggggg', type: 'context', summary: 'Aside: the fence posts are oak', created: `2026-11-01T10:00:30Z`, source: { kind: 'extraction', session: 's1' } });
    writeFileSync(join(repo.dir, path), text);
    rmSync(join(repo.dir, '.cortex', 'memories', `${ids.bike}.md`));
    expect(await around(ids.question)).toEqual(['fence-aside-gggggg', ids.answer]);
    expect(await around(ids.hose)).toEqual([]);
    // Moved to another session by hand: taken up at once (no rebuild).
    const tea = join(repo.dir, '.cortex', 'memories', `${ids.after}.md`);
    writeFileSync(tea, readFileSync(tea, 'utf8').replace('session: s1', 'session: s2'));
    expect(await around(ids.hose)).toEqual([ids.after]);
    expect(await around(ids.answer)).toEqual(['fence-aside-gggggg', ids.question]);
    expect(existsSync(join(repo.dir, '.memory', 'session-order.txt'))).toBe(false);
  });

  it('counts the session order of older indexes among the derived caches: cortex index --rebuild deletes it', () => {
    expect(isDerivedCache('session-order.txt')).toBe(true);
  });
});
