/**
 * `cortex recall` and MCP `memory_recall` return a review candidate when the query needs it
 * (issue 35, step 4), in real temporary repositories: marked unconfirmed, id
 * `candidate-<hex>`, its body as the preview, no file, never written under `.cortex/`; the
 * prompt hook's rule (two of the query's specific words in the candidate's own summary);
 * the call's filters; `candidates: false`; expiry.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateReviewId, MEMORY_CANDIDATE_KIND } from '../src/api/capture.js';
import { rememberMany } from '../src/api/remember.js';
import { recall } from '../src/api/recall/recall.js';
import { appendReview } from '../src/cache/review-queue.js';
import { candidateTagId } from '../src/core/anticipate.js';
import type { Candidate } from '../src/core/extract.js';
import { openContext } from '../src/services/context.js';
import { cortexRepo } from './helpers/cortex-repo.js';
import { cortexTree, json, type TempRepo } from './helpers/repo.js';

const NOW = '2026-12-01T10:00:00Z';

const ctxOf = (repo: TempRepo) => openContext({ dir: repo.dir, env: { ...repo.env, CORTEX_NOW: NOW } });

async function queue(repo: TempRepo, summary: string, body: string, created = '2026-11-28T10:00:00Z', extra: Partial<Candidate> = {}): Promise<string> {
  const c: Candidate = { type: 'decision', summary, body, confidence: 0.5, tags: [], layer: 'keyword', session: 'abc12345', branch: 'main', ...extra };
  const id = candidateReviewId(c);
  await appendReview(ctxOf(repo).paths, [{ kind: MEMORY_CANDIDATE_KIND, id, created, candidate: c }]);
  return candidateTagId(id);
}


const RUNNER = ['Chose Vitest over Jest as the test runner', 'The person said: "let us settle on vitest, jest is too slow with ESM". Reason: native ESM support.'] as const;

describe('recall: review candidates', () => {
  it('returns a matching candidate marked unconfirmed, with its whole body as the preview and no file, and writes nothing under .cortex/', async () => {
    const repo = await cortexRepo();
    await rememberMany(ctxOf(repo), [{ type: 'gotcha', summary: 'The CI runs on GitHub Actions with Node 20' }]);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'a memory']);
    const id = await queue(repo, ...RUNNER);
    const before = cortexTree(repo);
    const out = await recall(ctxOf(repo), { query: 'which test runner did we settle on, vitest or jest?' });
    const hit = out.results.find((r) => r.id === id);
    expect(hit).toMatchObject({ unconfirmed: true, file: '', type: 'decision', summary: RUNNER[0], preview: RUNNER[1] });
    expect(out.results[0]?.id).toBe(id);
    expect(cortexTree(repo)).toEqual(before);
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).not.toContain('.cortex');
    // Not counted as a use of a memory (the usage log names stored memories only).
    let log = '';
    try {
      log = readFileSync(join(repo.dir, '.memory/signals.log'), 'utf8');
    } catch {
      // no log at all: nothing recorded
    }
    expect(log).not.toContain(id);
  });

  it('leaves out a candidate whose summary lacks two of the query specific words, and one the filters exclude', async () => {
    const repo = await cortexRepo();
    // The query's words are only in the quoted evidence, not in the summary.
    await queue(repo, 'The person prefers the faster option', 'Asked: "vitest or jest as the test runner?" Answer: "vitest".');
    expect((await recall(ctxOf(repo), { query: 'which test runner, vitest or jest?' })).results).toEqual([]);
    const id = await queue(repo, ...RUNNER);
    const ask = (extra: object) => recall(ctxOf(repo), { query: 'which test runner, vitest or jest?', ...extra });
    expect((await ask({})).results.map((r) => r.id)).toEqual([id]);
    expect((await ask({ candidates: false })).results).toEqual([]);
    expect((await ask({ types: ['gotcha'] })).results).toEqual([]);
    expect((await ask({ scope: 'global' })).results).toEqual([]);
    expect((await ask({ statuses: ['archived'] })).results).toEqual([]);
    expect((await ask({ tags: ['testing'] })).results).toEqual([]);
    expect((await ask({ since: '2026-11-29' })).results).toEqual([]);
    expect((await ask({ since: '2026-11-27' })).results.map((r) => r.id)).toEqual([id]);
  });

  it('ranks a candidate among stored memories on the prompt hook scale and keeps to the limit', async () => {
    const repo = await cortexRepo();
    await rememberMany(ctxOf(repo), [
      { type: 'gotcha', summary: 'Vitest runs the unit tests in parallel threads', body: 'Set in vitest.config.ts.' },
      { type: 'gotcha', summary: 'Jest snapshots were removed from the repository', body: 'They went stale.' },
      { type: 'gotcha', summary: 'The test runner prints a coverage table', body: 'Only on CI.' },
    ]);
    const id = await queue(repo, ...RUNNER);
    const out = await recall(ctxOf(repo), { query: 'which test runner did we settle on, vitest or jest?', limit: 3 });
    expect(out.results).toHaveLength(3);
    expect(out.results.map((r) => r.id)).toContain(id);
    expect(out.results.filter((r) => r.unconfirmed)).toHaveLength(1);
  });

  it('never moves above a result the prompt hook does not rank (a progress note keeps its place)', async () => {
    const repo = await cortexRepo();
    await rememberMany(ctxOf(repo), [{ type: 'progress', summary: 'Session: compared vitest and jest as the test runner, settled on one', body: 'Edited vitest.config.ts.' }]);
    const id = await queue(repo, ...RUNNER);
    const query = 'which test runner did we settle on, vitest or jest?';
    const without = await recall(ctxOf(repo), { query, candidates: false });
    expect(without.results.map((r) => r.type)).toEqual(['progress']);
    const withCandidates = await recall(ctxOf(repo), { query });
    expect(withCandidates.results.map((r) => r.id)).toEqual([without.results[0]?.id, id]);
  });

  it('stops returning a candidate review.expireDays after it was queued', async () => {
    const repo = await cortexRepo();
    await queue(repo, ...RUNNER, '2026-10-01T10:00:00Z');
    expect((await recall(ctxOf(repo), { query: 'which test runner, vitest or jest?' })).results).toEqual([]);
    writeFileSync(join(repo.dir, '.cortex/config.yaml'), 'review:\n  expireDays: 0\n');
    expect((await recall(ctxOf(repo), { query: 'which test runner, vitest or jest?' })).results.map((r) => r.unconfirmed)).toEqual([true]);
  });

  it('cortex recall prints the candidate marked (unconfirmed); --json carries unconfirmed: true', async () => {
    const repo = await cortexRepo();
    const id = await queue(repo, ...RUNNER);
    const env = { CORTEX_NOW: NOW, NO_COLOR: '1' };
    const text = repo.cortex(['recall', 'which test runner, vitest or jest?'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${id}  [decision]  ${RUNNER[0]} (unconfirmed)`);
    const doc = json<{ results: { id: string; unconfirmed?: boolean }[] }>(repo.cortex(['recall', 'which test runner, vitest or jest?', '--json'], { env }));
    expect(doc.results).toEqual([expect.objectContaining({ id, unconfirmed: true })]);
  });
});
