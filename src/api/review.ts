/**
 * `review`: the person's side of the review queue. Lists what automatic extraction was
 * not sure about, and accepts (stores as memories) or rejects (drops) entries by their
 * number in the listing or their id.
 */
import type { Candidate } from '../core/extract.js';
import { UsageError } from '../errors.js';
import { candidateToRememberInput, MEMORY_CANDIDATE_KIND, type MemoryCandidateEntry } from './capture.js';
import type { Context } from './context.js';
import { rememberMany, type RememberResult } from './remember.js';
import { createdFiles, markForCommit } from './stage.js';
import { listReview as listQueue, removeReview as removeFromQueue, type ReviewEntry } from './review-queue.js';

export interface ReviewItem {
  /** 1-based position in the listing (oldest first). */
  n: number;
  id: string;
  kind: string;
  created: string;
  /** One line describing the entry. */
  summary: string;
  type?: string | undefined;
  confidence?: number | undefined;
  layer?: string | undefined;
  session?: string | undefined;
  branch?: string | undefined;
  body?: string | undefined;
}

/** A person accepted it: at least this confident, whatever the extractor scored. */
export const ACCEPTED_CONFIDENCE = 0.9;

function isMemoryCandidate(e: ReviewEntry): e is MemoryCandidateEntry {
  const c = (e as MemoryCandidateEntry).candidate as Candidate | undefined;
  return e.kind === MEMORY_CANDIDATE_KIND && typeof c === 'object' && c !== null && typeof c.summary === 'string' && typeof c.type === 'string';
}

function toItem(e: ReviewEntry, n: number): ReviewItem {
  if (isMemoryCandidate(e)) {
    const c = e.candidate;
    return { n, id: e.id, kind: e.kind, created: e.created, summary: c.summary, type: c.type, confidence: c.confidence, layer: c.layer, session: c.session, branch: c.branch, body: c.body };
  }
  const text = [e.summary, e.description, e.reason].find((v) => typeof v === 'string') as string | undefined;
  return { n, id: e.id, kind: e.kind, created: e.created, summary: text ?? `${e.kind} ${e.id}` };
}

/**
 * The queue entries `cortex review` handles: extraction candidates. Likely duplicates
 * (`consolidate`) have their own command, `cortex consolidate`; `rejected` entries only
 * remember a person's "no".
 */
function reviewable(ctx: Context): ReviewEntry[] {
  return listQueue(ctx.paths, { kind: MEMORY_CANDIDATE_KIND });
}

/**
 * The queued candidates, numbered, and how many likely duplicates wait for `cortex consolidate`.
 *
 * @example
 * listReview(ctx).items // [{ n: 1, id: 'candidate:3f9a2c1d04', kind: 'candidate', type: 'decision', confidence: 0.55, summary: 'Maybe go with Redis', … }]
 */
export function listReview(ctx: Context): { items: ReviewItem[]; consolidate: number } {
  return { items: reviewable(ctx).map((e, i) => toItem(e, i + 1)), consolidate: listQueue(ctx.paths, { kind: 'consolidate' }).length };
}

/** Resolves `3`, `candidate:3f9a2c1d04` or `all` against the current listing. */
function select(entries: ReviewEntry[], selectors: readonly string[] | 'all'): ReviewEntry[] {
  if (selectors === 'all') return entries;
  const out: ReviewEntry[] = [];
  for (const s of selectors) {
    const n = /^\d+$/.test(s) ? Number(s) : undefined;
    const entry = n !== undefined ? entries[n - 1] : entries.find((e) => e.id === s);
    if (entry === undefined) {
      throw new UsageError(`No review entry ${JSON.stringify(s)}: the queue has ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}.`, {
        hint: 'Run `cortex review` for the numbered list.',
      });
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

/**
 * Stores the selected memory candidates as memories and takes them out of the queue.
 *
 * @example
 * await acceptReview(ctx, { select: ['1', '3'] }); // { accepted: [{ item, result: { action: 'created', memory } }, …] }
 */
export async function acceptReview(
  ctx: Context,
  input: { select: readonly string[] | 'all' },
): Promise<{ accepted: { item: ReviewItem; result: RememberResult }[]; skipped: ReviewItem[] }> {
  const entries = reviewable(ctx);
  const chosen = select(entries, input.select);
  const items = new Map(entries.map((e, i) => [e, toItem(e, i + 1)]));
  const memories = chosen.filter(isMemoryCandidate);
  const skipped = chosen.filter((e) => !isMemoryCandidate(e)).map((e) => items.get(e) as ReviewItem);
  if (input.select !== 'all' && skipped.length > 0) {
    throw new UsageError(`Review entry ${skipped[0]?.n} is a "${skipped[0]?.kind}" entry, which cortex review cannot accept.`, {
      hint: 'Only extracted memory candidates can be accepted here.',
    });
  }
  const results = await rememberMany(
    ctx,
    memories.map((e) => {
      const base = candidateToRememberInput(e.candidate, e.commit);
      return { ...base, confidence: Math.max(ACCEPTED_CONFIDENCE, e.candidate.confidence) };
    }),
  );
  await removeFromQueue(ctx.paths, memories.map((e) => e.id));
  markForCommit(ctx, createdFiles(results));
  return { accepted: memories.map((e, i) => ({ item: items.get(e) as ReviewItem, result: results[i] as RememberResult })), skipped };
}

/**
 * Drops the selected entries from the queue.
 *
 * @example
 * await rejectReview(ctx, { select: ['2'] }); // { rejected: [{ n: 2, … }] }
 */
export async function rejectReview(ctx: Context, input: { select: readonly string[] | 'all' }): Promise<{ rejected: ReviewItem[] }> {
  const entries = reviewable(ctx);
  const chosen = select(entries, input.select);
  const items = new Map(entries.map((e, i) => [e, toItem(e, i + 1)]));
  await removeFromQueue(ctx.paths, chosen.map((e) => e.id));
  return { rejected: chosen.map((e) => items.get(e) as ReviewItem) };
}
