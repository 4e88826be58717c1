/**
 * `review`: the person's side of the review queue. Lists what automatic extraction was
 * not sure about, and accepts (stores as memories) or rejects (drops) entries by their
 * number, their short id or their id. Numbers and short ids are given when an entry is
 * queued and never change, so accepting #1 leaves #2 as #2.
 */
import { createHash } from 'node:crypto';
import type { Candidate } from '../core/extract.js';
import type { SourceConfirmer } from '../core/memory.js';
import { candidateTagId } from '../core/anticipate.js';
import { UsageError } from '../errors.js';
import { candidateToRememberInput, MEMORY_CANDIDATE_KIND, type MemoryCandidateEntry } from './capture.js';
import type { Context } from '../services/context.js';
import { rememberMany, type RememberResult } from './remember.js';
import { createdFiles, markForCommit } from '../services/stage.js';
import { listReview as listQueue, removeReview as removeFromQueue, type ReviewEntry } from '../cache/review-queue.js';

export interface ReviewItem {
  /** Stable number, given when the entry was queued (never reused while the queue exists). */
  n: number;
  /** Stable short id (6 hex digits); any unique prefix of 4 or more selects the entry too. */
  short: string;
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

/**
 * The short id of a queue entry: the hash part of `candidate:<hex>`, else a hash of the id.
 *
 * @example
 * shortReviewId('candidate:3f9a2c1d04') // '3f9a2c'
 */
export function shortReviewId(id: string): string {
  const hex = /^[a-z]+:([0-9a-f]{6,})$/.exec(id)?.[1];
  return (hex ?? createHash('sha1').update(id).digest('hex')).slice(0, 6);
}

/** Fields read defensively: the producer (capture) may change the candidate's shape. */
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function toItem(e: ReviewEntry & { n: number }): ReviewItem {
  const base = { n: e.n, short: shortReviewId(e.id), id: e.id, kind: e.kind, created: e.created };
  if (isMemoryCandidate(e)) {
    const c = e.candidate as Candidate & Record<string, unknown>;
    return {
      ...base,
      summary: c.summary,
      type: c.type,
      confidence: typeof c.confidence === 'number' ? c.confidence : undefined,
      layer: str(c.layer),
      session: str(c.session),
      branch: str(c.branch),
      body: str(c.body),
    };
  }
  const text = [e.summary, e.description, e.reason].find((v) => typeof v === 'string') as string | undefined;
  return { ...base, summary: text ?? `${e.kind} ${e.id}` };
}

/**
 * The queue entries `cortex review` handles: extraction candidates. Likely duplicates
 * (`consolidate`) have their own command, `cortex consolidate`; `rejected` entries only
 * remember a person's "no".
 */
function reviewable(ctx: Context): (ReviewEntry & { n: number })[] {
  return listQueue(ctx.paths, { kind: MEMORY_CANDIDATE_KIND });
}

/**
 * The queued candidates, numbered, and how many likely duplicates wait for `cortex consolidate`.
 *
 * @example
 * listReview(ctx).items // [{ n: 1, short: '3f9a2c', id: 'candidate:3f9a2c1d04', kind: 'candidate', type: 'decision', confidence: 0.55, summary: 'Maybe go with Redis', … }]
 */
export function listReview(ctx: Context): { items: ReviewItem[]; consolidate: number } {
  return { items: reviewable(ctx).map(toItem), consolidate: listQueue(ctx.paths, { kind: 'consolidate' }).length };
}

/**
 * Resolves `3`, `#3`, a short id (`3f9a2c`, or a unique prefix of 4+), the full id, or
 * `all`. Numbers are the stable ones the listing shows, not positions.
 */
function select(entries: (ReviewEntry & { n: number })[], selectors: readonly string[] | 'all'): (ReviewEntry & { n: number })[] {
  if (selectors === 'all') return entries;
  const out: (ReviewEntry & { n: number })[] = [];
  for (const raw of selectors) {
    const s = raw.trim().replace(/^#/, '').toLowerCase();
    let entry: (ReviewEntry & { n: number }) | undefined;
    // A number first; digits that are no entry's number may still start a short id (`1234ab`).
    if (/^\d+$/.test(s)) entry = entries.find((e) => e.n === Number(s));
    if (entry === undefined && !raw.trim().startsWith('#')) {
      // The id an injected candidate carries (`candidate-3f9a2c1d04`) names it too.
      const exact = entries.find((e) => e.id === raw.trim() || candidateTagId(e.id) === raw.trim().toLowerCase());
      const byShort = s.length >= 4 ? entries.filter((e) => shortReviewId(e.id).startsWith(s) || e.id.split(':').pop()!.startsWith(s)) : [];
      if (!exact && byShort.length > 1) {
        throw new UsageError(`"${raw}" is the start of ${byShort.length} review entries' ids: ${byShort.map((e) => `#${e.n} ${shortReviewId(e.id)}`).join(', ')}.`, {
          hint: 'Use the number, or more of the id.',
        });
      }
      entry = exact ?? byShort[0];
    }
    if (entry === undefined) {
      const numbers = entries.map((e) => `#${e.n}`).join(', ');
      throw new UsageError(`No review entry ${JSON.stringify(raw)}: ${entries.length === 0 ? 'the queue is empty' : `waiting are ${numbers}`}.`, {
        hint: 'It may have been accepted or rejected already; `cortex review` lists what waits.',
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
  input: { select: readonly string[] | 'all'; /** Who accepts (`source.confirmed`): a person (default) or the assistant (MCP `memory_review`). */ by?: SourceConfirmer },
): Promise<{ accepted: { item: ReviewItem; result: RememberResult }[]; skipped: ReviewItem[] }> {
  const entries = reviewable(ctx);
  const chosen = select(entries, input.select);
  const items = new Map(entries.map((e) => [e, toItem(e)]));
  const memories = chosen.filter(isMemoryCandidate) as (MemoryCandidateEntry & { n: number })[];
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
      const scored = typeof e.candidate.confidence === 'number' && Number.isFinite(e.candidate.confidence) ? e.candidate.confidence : 0;
      return { ...base, source: { ...base.source, confirmed: input.by ?? 'person' }, confidence: Math.max(ACCEPTED_CONFIDENCE, Math.min(1, scored)) };
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
  const items = new Map(entries.map((e) => [e, toItem(e)]));
  await removeFromQueue(ctx.paths, chosen.map((e) => e.id));
  return { rejected: chosen.map((e) => items.get(e) as ReviewItem) };
}
