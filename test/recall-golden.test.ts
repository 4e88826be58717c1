/**
 * The coding-memory golden set: 74 memories of one fictional project (Ledgerline, an
 * invoicing SaaS) and 52 natural questions with the memories that answer them. Recall is
 * tuned on conversational data (bench/locomo); this set keeps that tuning honest for the
 * product's own domain. A question passes when one of its expected memories is in the top 3.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { openCortex, type Cortex } from '../src/api/cortex.js';
import type { Embedder } from '../src/embed/embedder.js';
import { REPO_ROOT } from './helpers/repo.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/recall-golden');
/** Share of questions that must find an expected memory in the top 3. */
const MIN_HIT_RATE = 0.95;
const TOP = 3;

interface GoldenQuestion {
  question: string;
  expected: string[];
}

const { questions } = JSON.parse(readFileSync(join(FIXTURE, 'questions.json'), 'utf8')) as { questions: GoldenQuestion[] };
/** Questions no memory of the fixture answers (written before measuring, never edited to pass). */
const unrelated = (JSON.parse(readFileSync(join(FIXTURE, 'unrelated.json'), 'utf8')) as { questions: string[] }).questions;
/** At most this many results for a question that no memory answers. */
const MAX_UNRELATED_RESULTS = 2;

describe('recall golden set (coding memories)', () => {
  let base: string;
  let cortex: Cortex;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'cortex-golden-'));
    mkdirSync(join(base, '.cortex'), { recursive: true });
    cpSync(join(FIXTURE, 'memories'), join(base, '.cortex/memories'), { recursive: true });
    cortex = openCortex({ dir: base, includeGlobal: false, env: { CORTEX_HOME: join(base, 'no-global') } });
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('is a well-formed fixture: 60–100 valid memories, 40+ questions whose expected ids exist', async () => {
    const ids = new Set(readdirSync(join(FIXTURE, 'memories')).map((f) => f.replace(/\.md$/, '')));
    expect(ids.size).toBeGreaterThanOrEqual(60);
    expect(ids.size).toBeLessThanOrEqual(100);
    expect(questions.length).toBeGreaterThanOrEqual(40);
    for (const q of questions) {
      expect(q.expected.length, q.question).toBeGreaterThanOrEqual(1);
      expect(q.expected.length, q.question).toBeLessThanOrEqual(3);
      for (const id of q.expected) expect(ids.has(id), `${q.question} → ${id}`).toBe(true);
    }
    const lint = await cortex.lint();
    expect(lint.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(cortex.list({}).total).toBe(ids.size);
  });

  it(`finds an expected memory in the top ${TOP} for at least ${MIN_HIT_RATE * 100}% of the questions`, async () => {
    const misses: string[] = [];
    let recallSum = 0;
    let firstHits = 0;
    let reciprocalSum = 0;
    for (const q of questions) {
      // Ranked deeper than TOP only to report the reciprocal rank; the assertion uses the top 3.
      const { results } = await cortex.recall({ query: q.question, limit: 10, recordAccess: false });
      const ranked = results.map((r) => r.id);
      const top = ranked.slice(0, TOP);
      const found = q.expected.filter((id) => top.includes(id)).length;
      recallSum += found / q.expected.length;
      const rank = ranked.findIndex((id) => q.expected.includes(id));
      if (rank === 0) firstHits++;
      if (rank >= 0) reciprocalSum += 1 / (rank + 1);
      if (found === 0) misses.push(`  "${q.question}"\n    expected ${q.expected.join(', ')}\n    got      ${top.join(', ') || '(nothing)'}`);
    }
    const hitRate = (questions.length - misses.length) / questions.length;
    // Printed on every run so a tuning change shows what it gained or lost.
    console.log(
      `recall golden: hit@${TOP} ${(hitRate * 100).toFixed(1)}% (${questions.length - misses.length}/${questions.length}), ` +
        `mean recall@${TOP} ${((recallSum / questions.length) * 100).toFixed(1)}%, ` +
        `hit@1 ${((firstHits / questions.length) * 100).toFixed(1)}%, MRR@10 ${(reciprocalSum / questions.length).toFixed(3)}` +
        (misses.length > 0 ? `\nmisses:\n${misses.join('\n')}` : ''),
    );
    expect(hitRate).toBeGreaterThanOrEqual(MIN_HIT_RATE);
  });

  it(`returns at most ${MAX_UNRELATED_RESULTS} results for a question no memory answers, and few for the others`, async () => {
    const noisy: string[] = [];
    for (const question of unrelated) {
      const { results } = await cortex.recall({ query: question, recordAccess: false });
      if (results.length > MAX_UNRELATED_RESULTS) noisy.push(`  "${question}": ${results.map((r) => r.id).join(', ')}`);
    }
    let shown = 0;
    for (const q of questions) shown += (await cortex.recall({ query: q.question, recordAccess: false })).results.length;
    console.log(`recall golden: ${(shown / questions.length).toFixed(1)} results per question at the default limit 10; unrelated questions over ${MAX_UNRELATED_RESULTS}: ${noisy.length}/${unrelated.length}`);
    expect(noisy, noisy.join('\n')).toEqual([]);
    expect(unrelated.length).toBeGreaterThanOrEqual(10);
  });

  it('ranks no worse in hybrid mode than in keyword mode when the embedder knows nothing (random vectors)', async () => {
    // Each text gets a pseudo-random unit vector from its hash: similarity is noise.
    const random: Embedder = {
      model: 'test/random-64',
      dims: 64,
      embed: async (texts) =>
        texts.map((text) => {
          const v = new Float32Array(64);
          for (let i = 0; i < 64; i += 8) {
            const h = createHash('sha256').update(`${i}:${text}`).digest();
            for (let j = 0; j < 8; j++) v[i + j] = h.readInt32LE(j * 4) / 2 ** 31;
          }
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        }),
    };
    const hybrid = openCortex({ dir: base, includeGlobal: false, env: { CORTEX_HOME: join(base, 'no-global') }, embedder: random });
    await hybrid.embed();
    let keywordHits = 0;
    let hybridHits = 0;
    for (const q of questions) {
      const top = async (c: Cortex, mode: 'keyword' | 'hybrid') =>
        (await c.recall({ query: q.question, limit: TOP, mode, recordAccess: false })).results.map((r) => r.id);
      if ((await top(cortex, 'keyword')).some((id) => q.expected.includes(id))) keywordHits++;
      const got = await hybrid.recall({ query: q.question, limit: TOP, mode: 'hybrid', recordAccess: false });
      expect(got.mode).toBe('hybrid');
      if (got.results.map((r) => r.id).some((id) => q.expected.includes(id))) hybridHits++;
    }
    console.log(`recall golden, random embedder: hybrid hit@${TOP} ${hybridHits}/${questions.length}, keyword ${keywordHits}/${questions.length}`);
    expect(hybridHits).toBeGreaterThanOrEqual(keywordHits);
  });
});
