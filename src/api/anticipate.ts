/**
 * `anticipate`: anticipatory recall for a prompt — the few stored memories relevant
 * enough to add to the context before the assistant reads the prompt. It runs before
 * every prompt, so it reads a small dedicated index (`.memory/anticipation.json`, kept up
 * to date file by file) instead of the full keyword index, and never loads an embedding
 * model.
 *
 * The project tier's index also holds the captured candidates waiting in the review queue
 * (`.memory/review.jsonl`): one may be injected, marked `(unconfirmed)`, when a prompt needs
 * it. They stay out of `.cortex/` until someone accepts them (`cortex review`).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ANTICIPATION_PREVIEW_CHARS,
  DEFAULT_ANTICIPATE,
  candidateTagId,
  explainAnticipated,
  layoutAnticipated,
  searchAnticipationIndex,
  type AnticipateCandidate,
  type AnticipateExplainRow,
  type AnticipatedMemory,
  type AnticipationIndex,
} from '../core/anticipate.js';
import { MEMORY_TYPES, type Memory, type MemoryType, type Scope } from '../core/memory.js';
import { openAnticipationIndex, type ExtraDocs } from '../cache/anticipation-cache.js';
import { redactionGateStamp } from '../cache/gate-stamp.js';
import { redactSecrets } from '../core/redact.js';
import { REVIEW_QUEUE_FILE } from '../cache/layout.js';
import type { ReviewEntry } from '../cache/review-queue.js';
import { presentScopes, scopePaths, type Context } from '../services/context.js';
import { tierBase } from '../services/indexes.js';
import { readMemoryById } from '../store/memory-store.js';

export interface AnticipateInput {
  prompt: string;
  /** Ids whose body is already in the context (an earlier prompt): never repeated. */
  exclude?: readonly string[];
  /** Ids the context shows by their summary line only (the briefing): injected again only for their body. */
  summaryOnly?: readonly string[];
  limit?: number;
  maxChars?: number;
  /** Also say why each candidate was or was not injected. */
  explain?: boolean;
}

export interface AnticipateOutput {
  /** The context text; `''` when nothing is relevant enough. */
  text: string;
  memories: AnticipatedMemory[];
  /** What the text shows of each memory in it: its line only, or its body too. */
  shown: Record<string, 'summary' | 'body'>;
  /** With `explain`: every candidate the search found, best first, with the verdict. */
  explain?: AnticipateExplainRow[];
}

/**
 * Types worth volunteering. Plans and progress are in the briefing already and their
 * bodies (file lists, commands) match almost any prompt; raw code is never injected.
 */
export const ANTICIPATED_TYPES: readonly MemoryType[] = MEMORY_TYPES.filter((t) => t !== 'plan' && t !== 'progress' && t !== 'code');

/** Only the start of a long prompt (a pasted log) is searched: the cost stays flat. */
export const MAX_PROMPT_CHARS = 2_000;

const DAY_MS = 86_400_000;

/** The fields anticipatory recall reads of a memory. */
function toDoc(m: Memory): AnticipateCandidate {
  return {
    id: m.id,
    type: m.type,
    summary: m.summary,
    score: 0,
    tags: m.tags,
    ...(m.topic !== undefined ? { topic: m.topic } : {}),
    ...(m.source.files !== undefined && m.source.files.length > 0 ? { files: m.source.files } : {}),
    preview: m.body.slice(0, ANTICIPATION_PREVIEW_CHARS),
    updated: m.updated,
  };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The queued memory candidate of a review entry, read defensively (capture owns its shape). */
export function candidateOf(e: ReviewEntry): { summary: string; type: MemoryType; body: string; tags: string[]; topic?: string; files?: string[] } | undefined {
  const c = e.candidate as Record<string, unknown> | undefined;
  if (e.kind !== 'candidate' || typeof c !== 'object' || c === null) return undefined;
  if (typeof c.summary !== 'string' || c.summary.trim() === '' || typeof c.type !== 'string') return undefined;
  if (!ANTICIPATED_TYPES.includes(c.type as MemoryType)) return undefined;
  return {
    summary: c.summary,
    type: c.type as MemoryType,
    body: typeof c.body === 'string' ? c.body : '',
    tags: isStrings(c.tags) ? c.tags : [],
    ...(typeof c.topic === 'string' ? { topic: c.topic } : {}),
    ...(isStrings(c.files) && c.files.length > 0 ? { files: c.files } : {}),
  };
}

/**
 * The review queue's memory candidates as anticipation docs (ids `candidate-<hex>`, dated
 * when queued), every string through the current redaction gate.
 *
 * @example
 * candidateDocs(listReviewRedacted(ctx.paths, { kind: 'candidate' }))[0]?.id // 'candidate-3f9a2c1d04'
 */
export function candidateDocs(entries: readonly ReviewEntry[]): AnticipateCandidate[] {
  const out: AnticipateCandidate[] = [];
  for (const e of entries) {
    const c = candidateOf(e);
    if (c === undefined) continue;
    out.push({
      id: candidateTagId(e.id),
      type: c.type,
      summary: c.summary,
      score: 0,
      tags: c.tags,
      ...(c.topic !== undefined ? { topic: c.topic } : {}),
      ...(c.files !== undefined ? { files: c.files } : {}),
      preview: c.body.slice(0, ANTICIPATION_PREVIEW_CHARS),
      updated: e.created,
      unconfirmed: true,
    });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The stamp of a tier's review queue as the prompt hook reads it: the file's identity and
 * the redaction gate's, so new rules re-redact the candidates at once. '' without a queue.
 */
export function reviewStamp(cacheDir: string): string {
  const st = statSync(join(cacheDir, REVIEW_QUEUE_FILE), { bigint: true, throwIfNoEntry: false });
  return st === undefined || !st.isFile() ? '' : `${st.mtimeNs}:${st.size}:${st.ino}|${redactionGateStamp()}`;
}

type QueueModule = typeof import('../cache/review-queue.js');

/**
 * The tier's anticipation index, refreshed against the memory files (only changed files
 * are read; an unchanged tier costs one `stat`) and, for the project tier, the review
 * queue's candidates (read only when the queue or the redaction gate changed).
 *
 * @example
 * searchAnticipationIndex(tierAnticipationIndex(ctx, 'project'), 'why sqlite?')
 */
export function tierAnticipationIndex(ctx: Context, scope: Scope, queue?: QueueModule): AnticipationIndex {
  const paths = scopePaths(ctx, scope);
  let extra: ExtraDocs | undefined;
  if (scope === 'project' && queue !== undefined) {
    const stamp = reviewStamp(paths.cacheDir);
    if (stamp !== '') extra = { stamp, load: () => candidateDocs(queue.listReviewRedacted(paths, { kind: 'candidate' })) };
  }
  return openAnticipationIndex(paths, {
    base: tierBase(ctx, scope),
    include: (m) => m.status === 'active' && ANTICIPATED_TYPES.includes(m.type),
    toDoc,
    now: ctx.now().getTime(),
    ...(extra !== undefined ? { extra } : {}),
  });
}

/** Whether a review candidate queued at `created` has expired (config `review.expireDays`; 0: never). */
export function isExpiredCandidate(created: string | undefined, now: number, expireDays: number): boolean {
  if (expireDays <= 0) return false;
  const t = created === undefined ? Number.NaN : Date.parse(created);
  return !Number.isFinite(t) || now - t > expireDays * DAY_MS;
}

/**
 * Finds and renders the memories relevant to a prompt.
 *
 * @example
 * const { text } = await anticipate(ctx, { prompt: 'add a postgres migration for users', exclude: briefingIds });
 */
export async function anticipate(ctx: Context, input: AnticipateInput): Promise<AnticipateOutput> {
  const prompt = input.prompt.slice(0, MAX_PROMPT_CHARS);
  if (prompt.trim() === '') return { text: '', memories: [], shown: {}, ...(input.explain ? { explain: [] } : {}) };
  const limit = input.limit ?? DEFAULT_ANTICIPATE.limit;
  const exclude = input.exclude ?? [];
  const summaryOnly = input.summaryOnly ?? [];
  // Enough candidates that the ones already shown cannot crowd out everything else.
  const wanted = Math.min(200, Math.max(20, limit * 6) + exclude.length);
  const scopes: Scope[] = presentScopes(ctx);
  // The queue's module (and the gate behind it) only when there is a queue to read.
  const queue = reviewStamp(ctx.paths.cacheDir) !== '' ? await import('../cache/review-queue.js') : undefined;
  const now = ctx.now().getTime();
  const expireDays = ctx.config.review.expireDays;
  const candidates: AnticipateCandidate[] = [];
  const scopeOf = new Map<string, Scope>();
  for (const scope of scopes) {
    const factor = scope === 'global' ? ctx.config.recall.globalWeight : 1;
    for (const c of searchAnticipationIndex(tierAnticipationIndex(ctx, scope, queue), prompt, { limit: wanted })) {
      if (c.unconfirmed && isExpiredCandidate(c.updated, now, expireDays)) continue;
      if (!scopeOf.has(c.id)) {
        scopeOf.set(c.id, scope);
        candidates.push({ ...c, score: c.score * factor });
      }
    }
  }
  // The prompt hook's own floor (config `anticipate.minScoreShare`); the word rule comes on top.
  const minScoreShare = ctx.config.anticipate.minScoreShare;
  const { rows, selected } = explainAnticipated(prompt, candidates, { limit, exclude, summaryOnly, minScoreShare, explainAll: input.explain === true });
  let queued: ReviewEntry[] | undefined;
  const entries = (): ReviewEntry[] => (queued ??= queue?.listReviewRedacted(ctx.paths, { kind: 'candidate' }) ?? []);
  const memories = selected.map((m) => ({ ...m, ...withBody(ctx, m, scopeOf.get(m.id) ?? 'project', entries) }));
  const { text, shown } = layoutAnticipated(memories, input.maxChars !== undefined ? { maxChars: input.maxChars } : {});
  const kept = memories.filter((m) => m.id in shown);
  return { text, memories: kept, shown, ...(input.explain ? { explain: rows } : {}) };
}

/** The whole body of a selected memory (read from its file, or the queue for a candidate); {} when unreadable. */
function withBody(ctx: Context, m: AnticipatedMemory, scope: Scope, queued: () => ReviewEntry[]): { body?: string } {
  try {
    if (m.unconfirmed) {
      const entry = queued().find((e) => candidateTagId(e.id) === m.id);
      const c = entry === undefined ? undefined : candidateOf(entry);
      return c === undefined ? {} : { body: c.body };
    }
    const { memory } = readMemoryById(scopePaths(ctx, scope), m.id, tierBase(ctx, scope));
    // Redacted whole before the layout flattens and cuts it (issue 36): a file typed by
    // hand was never gated, and a cut key block or label is no longer recognisable.
    return memory === undefined ? {} : { body: redactSecrets(memory.body, { preset: false }).text };
  } catch {
    return {};
  }
}
