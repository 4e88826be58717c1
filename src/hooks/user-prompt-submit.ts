/**
 * UserPromptSubmit: anticipatory recall. The few memories most relevant to the prompt
 * that are not in the context yet, as facts; nothing when nothing is relevant enough.
 * A memory the briefing showed by its summary line comes back with its body when the
 * prompt is about it; a captured candidate from the review queue may come, marked
 * `(unconfirmed)`. What was shown of each is recorded in the session's state.
 */
import { fullyShown, readSessionState, writeSessionState } from '../cache/session-state.js';
import { contextOutput } from './output.js';
import { contextOptions, type HookContext } from './context.js';

/** `/clear`, `/compact` …: a slash command on its own is not a question to recall for. */
const SLASH_COMMAND = /^\/[\w:-]+\s*$/;

export async function userPromptSubmit(h: HookContext): Promise<string> {
  const prompt = h.input.prompt?.trim() ?? '';
  if (prompt === '' || SLASH_COMMAND.test(prompt)) return '';
  const [{ openContext }, { anticipate }] = await Promise.all([import('../services/context.js'), import('../api/anticipate.js')]);
  const ctx = openContext(contextOptions(h));
  const session = h.input.sessionId;
  const state = session !== undefined ? readSessionState(h.cacheDir, session) : undefined;
  const exclude = state !== undefined ? fullyShown(state) : [];
  const summaryOnly = state !== undefined ? state.injected.filter((id) => state.shown?.[id] === 'summary') : [];
  const { text, memories, shown } = await anticipate(ctx, { prompt, exclude, summaryOnly });
  if (state !== undefined && memories.length > 0) {
    const failed = writeSessionState(h.cacheDir, {
      ...state,
      injected: [...state.injected.filter((id) => !(id in shown)), ...memories.map((m) => m.id)],
      shown: { ...state.shown, ...shown },
    });
    if (failed) h.log(`session state not written (later prompts may repeat a memory): ${failed.message}`);
  }
  return contextOutput('UserPromptSubmit', text);
}

/** What `cortex hook user-prompt-submit --explain` reports. */
export interface PromptExplanation {
  prompt: string;
  /** The text the hook would inject ('' for nothing). */
  text: string;
  /** Every memory (and review candidate) the search found, best first, with the verdict. */
  rows: import('../core/anticipate.js').AnticipateExplainRow[];
  /** The floor used (config `anticipate.minScoreShare`). */
  minScoreShare: number;
}

/**
 * The prompt hook's decision for an input, without delivering it: the same search, floor and
 * word rule, and the session's state read (not written), with the reason for each memory.
 * `stdin` is the hook's JSON, or the prompt as plain text.
 */
export async function explainUserPrompt(stdin: string, options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<PromptExplanation> {
  const [{ parseHookInput }, { CACHE_DIR, findProjectRoot }, { join }, { NotInitializedError }] = await Promise.all([
    import('./input.js'),
    import('../store/paths.js'),
    import('node:path'),
    import('../errors.js'),
  ]);
  const trimmed = stdin.trim();
  const parsed = trimmed.startsWith('{') ? parseHookInput(trimmed).input : { prompt: trimmed, cwd: undefined, sessionId: undefined };
  const root = findProjectRoot(parsed.cwd ?? options.cwd, options.env);
  if (root === undefined) throw new NotInitializedError(parsed.cwd ?? options.cwd);
  const prompt = parsed.prompt?.trim() ?? '';
  const [{ openContext }, { anticipate }] = await Promise.all([import('../services/context.js'), import('../api/anticipate.js')]);
  const ctx = openContext({ dir: root, env: options.env });
  const state = parsed.sessionId !== undefined ? readSessionState(join(root, CACHE_DIR), parsed.sessionId) : undefined;
  const exclude = state !== undefined ? fullyShown(state) : [];
  const summaryOnly = state !== undefined ? state.injected.filter((id) => state.shown?.[id] === 'summary') : [];
  if (prompt === '' || SLASH_COMMAND.test(prompt)) return { prompt, text: '', rows: [], minScoreShare: ctx.config.anticipate.minScoreShare };
  const out = await anticipate(ctx, { prompt, exclude, summaryOnly, explain: true });
  return { prompt, text: out.text, rows: out.explain ?? [], minScoreShare: ctx.config.anticipate.minScoreShare };
}
