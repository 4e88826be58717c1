/**
 * The WebAssembly scoring kernel (src/cache/index/score-kernel.wat): the bytes the program
 * runs are what the source assembles to, and where WebAssembly cannot run (`node --jitless`)
 * recall answers the same through MiniSearch's own search.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without type declarations
import { generate } from '../scripts/wasm.mjs';
import { renderMemory } from '../src/core/memory-format.js';
import type { Memory } from '../src/core/memory.js';
import { REPO_ROOT, tempRepo } from './helpers/repo.js';

const WORDS = ['sqlite', 'migration', 'runner', 'retry', 'policy', 'cache', 'worker', 'deploy', 'schema', 'postgres', 'queue', 'token'];
const QUESTIONS = ['sqlite migration', 'why did we pick the retry policy', 'what did we decide about the cache worker', 'postgress schema'];
const OTHER = ['backoff', 'jitter', 'timeout', 'lock', 'vacuum', 'index', 'replica', 'shard', 'batch', 'flush', 'cursor', 'ledger', 'budget', 'socket', 'parser', 'bundle'];

describe('score kernel', () => {
  it('is what score-kernel.wat assembles to (run `npm run wasm` after editing it)', async () => {
    const dir = join(REPO_ROOT, 'src', 'cache', 'index');
    const text = (await generate(readFileSync(join(dir, 'score-kernel.wat'), 'utf8'))) as string;
    expect(readFileSync(join(dir, 'score-kernel-bytes.ts'), 'utf8')).toBe(text);
  });

  it('ranks as MiniSearch does: under node --jitless (no WebAssembly) the index answers the same, feedback tail included', () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    // Overlapping memories: prefix and fuzzy variants, a feedback pass, memories only it finds.
    for (let i = 0; i < 40; i++) {
      const words = [0, 3, 7].map((k) => WORDS[(i * k + i) % WORDS.length]!).concat([1, 5].map((k) => OTHER[(i * k + (i >> 2)) % OTHER.length]!));
      const type = (['decision', 'context', 'gotcha', 'pattern'] as const)[i % 4]!;
      const id = `note-${i}-kernel`;
      const memory: Memory = {
        id, type, summary: `Note ${i}: the ${words.join(' ')} ${i % 3 === 0 ? 'migrations ' : ''}stuff`, scope: 'project', priority: 5, confidence: 1, pinned: false,
        status: 'active', tags: [], created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', source: { kind: 'manual' }, body: '', extra: {},
      };
      repo.write(`.cortex/memories/${id}.md`, renderMemory(memory));
    }
    expect(repo.cortex(['index']).code).toBe(0);
    // The index as recall opens it, asked in a process with WebAssembly and in one without.
    const script = [
      `import { openContext } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'services', 'context.js')).href)};`,
      `import { openTierIndex } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'services', 'indexes.js')).href)};`,
      `const { index } = openTierIndex(openContext({ cwd: process.cwd() }), 'project', { save: false });`,
      `const out = {};`,
      `for (const q of ${JSON.stringify(QUESTIONS)}) out[q] = index.query(q, { limit: 40 });`,
      `process.stdout.write(JSON.stringify(out));`,
    ].join('\n');
    const run = (flags: string[]) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
    const wasm = run([]);
    const jitless = run(['--jitless']);
    expect(wasm.status, wasm.stderr).toBe(0);
    expect(jitless.status, jitless.stderr).toBe(0);
    type Hit = { id: string; score: number; queryTerms: string[]; terms: string[] };
    const answers = JSON.parse(wasm.stdout) as Record<string, Hit[]>;
    const fallback = JSON.parse(jitless.stdout) as Record<string, Hit[]>;
    // MiniSearch's search gives a score times the query terms matched, from which the fallback
    // divides the sum back out: equal to the last bit or two, not beyond.
    const withoutScores = (hits: Hit[]) => hits.map(({ score: _, ...rest }) => rest);
    for (const q of QUESTIONS) {
      expect(withoutScores(fallback[q]!), q).toEqual(withoutScores(answers[q]!));
      answers[q]!.forEach((hit, i) => expect(Math.abs(fallback[q]![i]!.score - hit.score), `${q}: ${hit.id}`).toBeLessThanOrEqual(1e-12 * hit.score));
    }
    // The feedback tail has memories that none of the question's words found.
    expect(Object.values(answers).some((hits) => hits.some((h) => h.queryTerms.length === 0))).toBe(true);
  });
});
