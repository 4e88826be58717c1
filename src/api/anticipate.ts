/**
 * `anticipate`: anticipatory recall for a prompt — the few stored memories relevant
 * enough to add to the context before the assistant reads the prompt. It runs before
 * every prompt, so it reads a small dedicated index (`.memory/anticipation.json`, kept up
 * to date file by file) instead of the full keyword index, and never loads an embedding
 * model.
 */
import {
  ANTICIPATION_PREVIEW_CHARS,
  DEFAULT_ANTICIPATE,
  renderAnticipated,
  searchAnticipationIndex,
  selectAnticipated,
  type AnticipateCandidate,
  type AnticipatedMemory,
  type AnticipationIndex,
} from '../core/anticipate.js';
import { MEMORY_TYPES, type Memory, type MemoryType, type Scope } from '../core/memory.js';
import { openAnticipationIndex } from '../cache/anticipation-cache.js';
import { presentScopes, scopePaths, type Context } from '../services/context.js';
import { tierBase } from '../services/indexes.js';

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

/**
 * The tier's anticipation index, refreshed against the memory files (only changed files
 * are read; an unchanged tier costs one `stat`).
 *
 * @example
 * searchAnticipationIndex(tierAnticipationIndex(ctx, 'project'), 'why sqlite?')
 */
export function tierAnticipationIndex(ctx: Context, scope: Scope): AnticipationIndex {
  const paths = scopePaths(ctx, scope);
  return openAnticipationIndex(paths, {
    base: tierBase(ctx, scope),
    include: (m) => m.status === 'active' && ANTICIPATED_TYPES.includes(m.type),
    toDoc,
    now: ctx.now().getTime(),
  });
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
  const scopes: Scope[] = presentScopes(ctx);
  const candidates: AnticipateCandidate[] = [];
  for (const scope of scopes) {
    const factor = scope === 'global' ? ctx.config.recall.globalWeight : 1;
    for (const c of searchAnticipationIndex(tierAnticipationIndex(ctx, scope), prompt, { limit: wanted })) {
      if (!candidates.some((x) => x.id === c.id)) candidates.push({ ...c, score: c.score * factor });
    }
  }
  // The same floor as recall's (config `recall.minScoreShare`); the word rule comes on top.
  const minScoreShare = ctx.config.recall.minScoreShare;
  const memories = selectAnticipated(prompt, candidates, { limit, exclude, minScoreShare, ...(input.maxChars !== undefined ? { maxChars: input.maxChars } : {}) });
  const text = renderAnticipated(memories, input.maxChars !== undefined ? { maxChars: input.maxChars } : {});
  return { text, memories };
}
