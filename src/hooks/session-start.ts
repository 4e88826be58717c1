/**
 * SessionStart: the briefing as context. After compaction (`source: "compact"`) the
 * shorter variant, since the summary Claude Code keeps already covers part of it.
 *
 * The cached briefing is served through `src/cache/surface-cache.ts`, which uses node
 * built-ins only: on that path this hook loads no index, no YAML, no markdown toolchain.
 * On a miss the briefing is built with the surface use case, which also refreshes the
 * cache. Either way the ids shown are recorded for the session, so anticipatory recall
 * does not repeat them.
 */
import { readCachedSurfaceEntry } from '../cache/surface-cache.js';
import { writeSessionState } from '../cache/session-state.js';
import { contextOutput } from './output.js';
import { contextOptions, type HookContext } from './context.js';

export async function sessionStart(h: HookContext): Promise<string> {
  const variant = h.input.source === 'compact' ? 'compact' : 'full';
  let briefing = readCachedSurfaceEntry({ root: h.root, variant, env: h.env, ...(h.now ? { now: h.now() } : {}) });
  if (briefing === undefined) {
    const [{ openContext }, { surface }] = await Promise.all([import('../services/context.js'), import('../api/surface.js')]);
    const out = await surface(openContext(contextOptions(h)), { variant });
    briefing = { text: out.text, ids: out.items.map((i) => i.id) };
  }
  if (h.input.sessionId !== undefined) {
    // A new context (startup, resume, clear, compact): only what the briefing put there is in it now.
    const failed = writeSessionState(h.cacheDir, { version: 1, session: h.input.sessionId, injected: briefing.ids ?? [] });
    if (failed) h.log(`session state not written (later prompts may repeat a memory): ${failed.message}`);
  }
  // A briefing that shows no memory (a new project) is only a header: not worth the context.
  if (briefing.ids !== undefined && briefing.ids.length === 0) return '';
  return contextOutput('SessionStart', briefing.text);
}
