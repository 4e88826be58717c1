/**
 * UserPromptSubmit: anticipatory recall. The few memories most relevant to the prompt
 * that are not in the context yet, as facts; nothing when nothing is relevant enough.
 */
import { readSessionState, writeSessionState } from '../cache/session-state.js';
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
  const { text, memories } = await anticipate(ctx, { prompt, exclude: state?.injected ?? [] });
  if (state !== undefined && memories.length > 0) {
    const failed = writeSessionState(h.cacheDir, { ...state, injected: [...state.injected, ...memories.map((m) => m.id)] });
    if (failed) h.log(`session state not written (later prompts may repeat a memory): ${failed.message}`);
  }
  return contextOutput('UserPromptSubmit', text);
}
