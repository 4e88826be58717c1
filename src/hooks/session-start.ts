/**
 * SessionStart: the briefing as context. After compaction (`source: "compact"`) a
 * shorter one, since the summary Claude Code keeps already covers part of it.
 * The ids shown are recorded for the session, so anticipatory recall does not repeat them.
 */
import { writeSessionState } from '../store/session-state.js';
import { contextOutput } from './output.js';
import type { HookContext } from './run.js';

export async function sessionStart(h: HookContext): Promise<string> {
  const variant = h.input.source === 'compact' ? 'compact' : 'full';
  const [{ openContext }, { briefing }] = await Promise.all([import('../api/context.js'), import('../api/briefing.js')]);
  const ctx = openContext({ dir: h.root, env: h.env, now: h.now });
  const { text, ids } = await briefing(ctx, { variant });
  if (h.input.sessionId !== undefined) {
    // A new context (startup, clear, compact): only what the briefing put there is in it now.
    writeSessionState(h.cacheDir, { version: 1, session: h.input.sessionId, injected: ids });
  }
  return contextOutput('SessionStart', text);
}
