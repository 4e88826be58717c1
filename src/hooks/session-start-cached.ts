/**
 * SessionStart's two halves that need no index: the briefing from the surface cache (or
 * `undefined`: the caller builds it), and what is done with a briefing (the ids shown
 * recorded for the session, the hook's output). Node built-ins only: the cached
 * SessionStart runs from a bundle of its own (src/start.ts) with just this.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readCachedSurfaceEntry } from '../cache/surface-cache.js';
import { writeSessionState } from '../cache/session-state.js';
import { rawContextOutput } from './output-raw.js';
import type { HookContext } from './context.js';

/** A briefing and the ids of the memories it shows (undefined: not known, an old cache entry). */
export interface Briefing {
  text: string;
  ids: string[] | undefined;
}

/** The variant of the briefing a SessionStart asks for: the shorter one after compaction. */
export function briefingVariant(h: HookContext): 'full' | 'compact' {
  return h.input.source === 'compact' ? 'compact' : 'full';
}

/** The cached briefing for this start, if the surface cache holds a current one. */
export function cachedBriefing(h: HookContext): Briefing | undefined {
  // An old private tier still in the work tree (`.cortex/local/`, before it moved to the
  // git directory): the full path runs, whose context moves it (services/context.ts).
  if (lstatSync(join(h.root, '.cortex', 'local'), { throwIfNoEntry: false })?.isDirectory() === true) return undefined;
  return readCachedSurfaceEntry({ root: h.root, variant: briefingVariant(h), env: h.env, ...(h.now ? { now: h.now() } : {}) });
}

/**
 * Records the memories `briefing` shows for the session (anticipatory recall does not
 * repeat them) and returns the hook's output ('' for a briefing that shows none).
 */
export function deliverBriefing(h: HookContext, briefing: Briefing): string {
  if (h.input.sessionId !== undefined) {
    // A new context (startup, resume, clear, compact): only what the briefing put there is in it now.
    // The briefing shows a memory by its summary line (an excerpt at most): the prompt hook may
    // still add its body when a prompt asks about it.
    const ids = briefing.ids ?? [];
    const shown = Object.fromEntries(ids.map((id) => [id, 'summary' as const]));
    const failed = writeSessionState(h.cacheDir, { version: 1, session: h.input.sessionId, injected: ids, shown });
    if (failed) h.log(`session state not written (later prompts may repeat a memory): ${failed.message}`);
  }
  // A briefing that shows no memory (a new project) is only a header: not worth the context.
  if (briefing.ids !== undefined && briefing.ids.length === 0) return '';
  // Built by surface, which passes the briefing through the redaction gate (api/surface.ts).
  return rawContextOutput('SessionStart', briefing.text);
}
