/**
 * `anticipate`: anticipatory recall for a prompt — the few stored memories relevant
 * enough to add to the context before the assistant reads the prompt. It runs before
 * every prompt, so it reads a small dedicated index (`.memory/anticipation.json`, rebuilt
 * from the keyword index whenever that changes) instead of the full keyword index, and
 * never loads an embedding model.
 */
import { existsSync } from 'node:fs';
import {
  DEFAULT_ANTICIPATE,
  buildAnticipationIndex,
  renderAnticipated,
  searchAnticipationIndex,
  selectAnticipated,
  type AnticipateCandidate,
  type AnticipatedMemory,
  type AnticipationIndex,
} from '../core/anticipate.js';
import { MEMORY_TYPES, type MemoryType, type Scope } from '../core/memory.js';
import { keywordIndexStamp, loadAnticipationIndex, saveAnticipationIndex } from '../search/anticipation-cache.js';
import type { Context } from './context.js';
import { openTierIndex } from './indexes.js';
import { GLOBAL_SCORE_FACTOR } from './recall.js';

export interface AnticipateInput {
  prompt: string;
  /** Ids already in the context: never repeated. */
  exclude?: readonly string[];
  limit?: number;
  maxChars?: number;
}

export interface AnticipateOutput {
  /** The context text; `''` when nothing is relevant enough. */
  text: string;
  memories: AnticipatedMemory[];
}

/**
 * Types worth volunteering. Plans and progress are in the briefing already and their
 * bodies (file lists, commands) match almost any prompt; raw code is never injected.
 */
export const ANTICIPATED_TYPES: readonly MemoryType[] = MEMORY_TYPES.filter((t) => t !== 'plan' && t !== 'progress' && t !== 'code');

/** Only the start of a long prompt (a pasted log) is searched: the cost stays flat. */
export const MAX_PROMPT_CHARS = 2_000;

/**
 * The tier's anticipation index: the stored one when the keyword index has not changed
 * since it was built, else rebuilt from the refreshed keyword index (and stored).
 */
export function tierAnticipationIndex(ctx: Context, scope: Scope): AnticipationIndex {
  const paths = scope === 'project' ? ctx.paths : ctx.global;
  const before = keywordIndexStamp(paths);
  const stored = before === undefined ? undefined : loadAnticipationIndex(paths, before);
  if (stored !== undefined) return stored;
  const tier = openTierIndex(ctx, scope);
  const docs: AnticipateCandidate[] = tier.index.filter({ statuses: ['active'], types: [...ANTICIPATED_TYPES] }).map((d) => ({
    id: d.id,
    type: d.type,
    summary: d.summary,
    score: 0,
    tags: d.tags,
    ...(d.topic !== undefined ? { topic: d.topic } : {}),
    ...(d.files !== undefined ? { files: d.files } : {}),
    preview: d.preview,
    updated: d.updated,
  }));
  docs.sort((a, b) => a.id.localeCompare(b.id));
  const index = buildAnticipationIndex(docs);
  const after = keywordIndexStamp(paths);
  if (after !== undefined) saveAnticipationIndex(paths, after, index);
  return index;
}

/**
 * Finds and renders the memories relevant to a prompt.
 *
 * @example
 * const { text } = await anticipate(ctx, { prompt: 'add a postgres migration for users', exclude: briefingIds });
 */
export async function anticipate(ctx: Context, input: AnticipateInput): Promise<AnticipateOutput> {
  const prompt = input.prompt.slice(0, MAX_PROMPT_CHARS);
  if (prompt.trim() === '') return { text: '', memories: [] };
  const limit = input.limit ?? DEFAULT_ANTICIPATE.limit;
  const exclude = input.exclude ?? [];
  // Enough candidates that the ones already shown cannot crowd out everything else.
  const wanted = Math.min(200, Math.max(20, limit * 6) + exclude.length);
  const scopes: Scope[] = ['project', ...(ctx.includeGlobal && existsSync(ctx.global.memoriesDir) ? (['global'] as const) : [])];
  const candidates: AnticipateCandidate[] = [];
  for (const scope of scopes) {
    const factor = scope === 'global' ? GLOBAL_SCORE_FACTOR : 1;
    for (const c of searchAnticipationIndex(tierAnticipationIndex(ctx, scope), prompt, { limit: wanted })) {
      if (!candidates.some((x) => x.id === c.id)) candidates.push({ ...c, score: c.score * factor });
    }
  }
  const memories = selectAnticipated(prompt, candidates, { limit, exclude, ...(input.maxChars !== undefined ? { maxChars: input.maxChars } : {}) });
  const text = renderAnticipated(memories, input.maxChars !== undefined ? { maxChars: input.maxChars } : {});
  return { text, memories };
}
