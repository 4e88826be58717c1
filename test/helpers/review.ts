/**
 * Seeding the review queue as capture does: entries of kind `candidate` with the id capture gives them.
 */
import { candidateReviewId, MEMORY_CANDIDATE_KIND } from '../../src/api/capture.js';
import { openContext } from '../../src/services/context.js';
import { appendReview } from '../../src/cache/review-queue.js';
import type { Candidate } from '../../src/core/extract.js';
import type { TempRepo } from './repo.js';

export function candidate(summary: string, confidence = 0.55): Candidate {
  return { type: 'decision', summary, body: `The session said: "${summary}".`, confidence, tags: [], layer: 'keyword', session: 'abc12345', branch: 'main' };
}

/** Queues one low-confidence decision candidate per summary, oldest first. */
export async function queue(repo: TempRepo, summaries: string[]): Promise<void> {
  const ctx = openContext({ dir: repo.dir, env: repo.env });
  await appendReview(
    ctx.paths,
    summaries.map((s) => {
      const c = candidate(s);
      return { kind: MEMORY_CANDIDATE_KIND, id: candidateReviewId(c), created: '2026-11-21T10:00:00Z', candidate: c };
    }),
  );
}
