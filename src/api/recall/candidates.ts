/**
 * Review candidates in `recall`: a captured candidate waiting in `.memory/review.jsonl`
 * answers a query when it passes the prompt hook's rule for one — the query's words in the
 * candidate (two, one of them not a common word), over the hook's own score floor
 * (`anticipate.minScoreShare`), and two of the query's specific words in the candidate's own
 * summary, not only in its quoted evidence. It is returned marked `unconfirmed: true` with
 * its id `candidate-<hex>` (the `[id, date]` tag the prompt hook injects), no file, and its
 * body as the preview. Nothing is written: a candidate enters `.cortex/` only when a person
 * (`cortex review --accept`) or the assistant (`memory_review`) accepts it.
 *
 * Where it ranks: the prompt hook's index (`.memory/anticipation.json`) holds the project's
 * memories and the candidates on one scale; a candidate goes just above the first recall
 * result that scores lower there (a result that index does not rank keeps its place), and
 * the list is cut back to the limit. Only the project tier has a review queue; without one this costs a `stat`.
 */
import type { Context } from '../../services/context.js';
import { normalizeTag } from '../../core/memory.js';
import { explainAnticipated, type AnticipateCandidate } from '../../core/anticipate.js';
import { MAX_PROMPT_CHARS, candidateOf, isExpiredCandidate, reviewStamp, tierAnticipationIndex } from '../anticipate.js';
import { candidateTagId, searchAnticipationIndex } from '../../core/anticipate.js';
import { parseSince, type RecallInput, type RecallOutput, type RecallResult } from './results.js';

/** How far down the prompt hook's ranking a candidate is looked for. */
const SEARCH_DEPTH = 60;

/** Whether the call's filters let a review candidate (a project, active, queued-at-`created` memory) through. */
function passesFilters(ctx: Context, input: RecallInput, c: AnticipateCandidate): boolean {
  if (input.scope !== undefined && input.scope !== 'project') return false;
  if (input.statuses !== undefined && !input.statuses.includes('active')) return false;
  if (input.types !== undefined && !input.types.includes(c.type)) return false;
  if (input.tags !== undefined) {
    const has = new Set((c.tags ?? []).map(normalizeTag));
    if (!input.tags.map(normalizeTag).every((t) => has.has(t))) return false;
  }
  if (input.since !== undefined && (c.updated ?? '') < parseSince(input.since, ctx.now())) return false;
  return true;
}

/**
 * `out` with the review candidates the query needs put among its results (see the module
 * comment); `out` itself when there is no queue, the call asks for none (`candidates:
 * false`) or none passes.
 *
 * @example
 * const out = await withReviewCandidates(ctx, { query: 'which test runner' }, recalled);
 * out.results[0] // { id: 'candidate-3f9a2c1d04', unconfirmed: true, file: '', … }
 */
export async function withReviewCandidates(ctx: Context, input: RecallInput, out: RecallOutput): Promise<RecallOutput> {
  if (input.candidates === false || reviewStamp(ctx.paths.cacheDir) === '') return out;
  const query = out.query.slice(0, MAX_PROMPT_CHARS);
  const queue = await import('../../cache/review-queue.js');
  const ranked = searchAnticipationIndex(tierAnticipationIndex(ctx, 'project', queue), query, { limit: SEARCH_DEPTH });
  if (!ranked.some((c) => c.unconfirmed)) return out;
  const now = ctx.now().getTime();
  const expireDays = ctx.config.review.expireDays;
  const pool = ranked.filter((c) => !c.unconfirmed || (!isExpiredCandidate(c.updated, now, expireDays) && passesFilters(ctx, input, c)));
  // The prompt hook's verdicts (its floor and word rules), every candidate judged.
  const { rows } = explainAnticipated(query, pool, { limit: pool.length, minScoreShare: ctx.config.anticipate.minScoreShare, explainAll: true });
  const chosen = new Set(rows.filter((r) => r.unconfirmed && r.injected).map((r) => r.id));
  if (chosen.size === 0) return out;
  const limit = input.limit ?? ctx.config.recall.limit;
  // The whole body (the index keeps its start): read through the current redaction gate.
  const bodies = new Map<string, string>();
  for (const e of queue.listReviewRedacted(ctx.paths, { kind: 'candidate' })) {
    const id = candidateTagId(e.id);
    const c = chosen.has(id) ? candidateOf(e) : undefined;
    if (c !== undefined) bodies.set(id, c.body);
  }
  const position = new Map(pool.map((c, i) => [c.id, i]));
  const merged: RecallResult[] = [];
  const waiting = pool.filter((c) => chosen.has(c.id));
  for (const r of out.results) {
    // A result the prompt hook's index does not rank (a plan, a progress note, a global
    // memory, one past its depth) keeps its place: recall's own ranking is the better judge.
    const at = position.get(r.id) ?? Number.NEGATIVE_INFINITY;
    while (waiting.length > 0 && (position.get((waiting[0] as AnticipateCandidate).id) as number) < at) merged.push(toCandidateResult(waiting.shift() as AnticipateCandidate, bodies));
    merged.push(r);
  }
  for (const c of waiting) merged.push(toCandidateResult(c, bodies));
  return { ...out, results: merged.slice(0, limit) };
}

function toCandidateResult(c: AnticipateCandidate, bodies: ReadonlyMap<string, string>): RecallResult {
  return {
    id: c.id,
    type: c.type,
    summary: c.summary,
    score: c.score,
    status: 'active',
    scope: 'project',
    tags: [...(c.tags ?? [])],
    priority: 0,
    confidence: 0,
    updated: c.updated ?? '',
    file: '',
    preview: bodies.get(c.id) ?? c.preview ?? '',
    matched: [],
    unconfirmed: true,
  };
}
