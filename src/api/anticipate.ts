/**
 * `anticipate`: anticipatory recall for a prompt — the few stored memories relevant
 * enough to add to the context before the assistant reads the prompt. Keyword only:
 * it runs on every prompt and must stay fast (a cold embedding model takes seconds).
 */
import { MEMORY_TYPES, type MemoryType } from '../core/memory.js';
import { DEFAULT_ANTICIPATE, renderAnticipated, selectAnticipated, type AnticipatedMemory } from '../core/anticipate.js';
import { UsageError } from '../errors.js';
import type { Context } from './context.js';
import { recall } from './recall.js';

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
 * Finds and renders the memories relevant to a prompt.
 *
 * @example
 * const { text } = await anticipate(ctx, { prompt: 'add a postgres migration for users', exclude: briefingIds });
 */
export async function anticipate(ctx: Context, input: AnticipateInput): Promise<AnticipateOutput> {
  const prompt = input.prompt.slice(0, MAX_PROMPT_CHARS);
  if (prompt.trim() === '') return { text: '', memories: [] };
  const limit = input.limit ?? DEFAULT_ANTICIPATE.limit;
  let results;
  try {
    // Enough results that the ones already shown cannot crowd out everything else.
    const wanted = Math.min(100, Math.max(10, limit * 4) + (input.exclude?.length ?? 0));
    // Keyword only: loading an embedding model would cost seconds on a path run on every prompt.
    // Not an access: volunteering a memory must not make it rank higher next time by itself.
    results = (await recall(ctx, { query: prompt, limit: wanted, types: [...ANTICIPATED_TYPES], mode: 'keyword', recordAccess: false })).results;
  } catch (err) {
    // A prompt with no searchable word is not an error here: there is just nothing to add.
    if (err instanceof UsageError) return { text: '', memories: [] };
    throw err;
  }
  const memories = selectAnticipated(
    prompt,
    results.map((r) => ({ id: r.id, type: r.type, summary: r.summary, score: r.score, tags: r.tags, preview: r.preview, updated: r.updated })),
    { limit, exclude: input.exclude ?? [], ...(input.maxChars !== undefined ? { maxChars: input.maxChars } : {}) },
  );
  const text = renderAnticipated(memories, input.maxChars !== undefined ? { maxChars: input.maxChars } : {});
  return { text, memories };
}
