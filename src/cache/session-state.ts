/**
 * Per-session hook state in `.memory/sessions/<session>.json`: the ids of memories
 * already put into this session's context (by the briefing or an earlier prompt), and what
 * was shown of each, so anticipatory recall does not repeat them — and can still add the
 * body of a memory the briefing showed only by its summary line. Node builtins only (the
 * session-start fast path writes it); losing it only means a memory may be shown twice.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { sessionFileName } from './session-file.js';
import { SESSIONS_DIR } from './layout.js';

/**
 * What the context holds of a memory: `summary` — its summary line (the briefing, which may
 * add an excerpt of the first paragraph); `body` — its summary and its body as far as the
 * injection's budget allowed.
 */
export type ShownPart = 'summary' | 'body';

export interface SessionState {
  version: 1;
  session: string;
  /** Memory ids already in the session's context, oldest first (review candidates by their `candidate-<hex>` id). */
  injected: string[];
  /** What was shown of each id in `injected`; an id missing here counts as `body` (a state written before this field). */
  shown?: Record<string, ShownPart>;
}

/** Enough for a long session; the oldest ids fall off first. */
export const MAX_INJECTED_IDS = 500;

export function sessionStatePath(cacheDir: string, session: string): string {
  return join(cacheDir, SESSIONS_DIR, sessionFileName(session));
}

export function readSessionState(cacheDir: string, session: string): SessionState {
  try {
    const value = JSON.parse(readFileSync(sessionStatePath(cacheDir, session), 'utf8')) as SessionState;
    if (value?.version === 1 && value.session === session && Array.isArray(value.injected)) {
      const injected = value.injected.filter((x): x is string => typeof x === 'string');
      const shown: Record<string, ShownPart> = {};
      const raw = value.shown;
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        for (const id of injected) {
          const part = (raw as Record<string, unknown>)[id];
          if (part === 'summary' || part === 'body') shown[id] = part;
        }
      }
      return { version: 1, session, injected, shown };
    }
  } catch {
    // Missing or damaged: a fresh state.
  }
  return { version: 1, session, injected: [], shown: {} };
}

/**
 * The ids whose body the context holds (or that count so: every id without a `summary`
 * record). Anticipatory recall never repeats these; an id shown by summary only may come back
 * with its body.
 *
 * @example
 * fullyShown({ version: 1, session: 's', injected: ['a', 'b'], shown: { a: 'summary' } }) // ['b']
 */
export function fullyShown(state: SessionState): string[] {
  return state.injected.filter((id) => state.shown?.[id] !== 'summary');
}

/**
 * Writes the state. Never throws: losing it only repeats a memory, while a throw would cost
 * the hook its whole output. Returns why it was not written (a full disk, a read-only
 * checkout), for the hook's log.
 */
export function writeSessionState(cacheDir: string, state: SessionState): Error | undefined {
  const injected = [...new Set(state.injected)].slice(-MAX_INJECTED_IDS);
  const shown: Record<string, ShownPart> = {};
  for (const id of injected) {
    const part = state.shown?.[id];
    if (part !== undefined) shown[id] = part;
  }
  try {
    writeFileAtomic(sessionStatePath(cacheDir, state.session), `${JSON.stringify({ ...state, injected, shown })}\n`);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export function removeSessionState(cacheDir: string, session: string): void {
  rmSync(sessionStatePath(cacheDir, session), { force: true });
}

/** Deletes session states not written for `maxAgeMs` (sessions that never ended cleanly). */
export function pruneSessionStates(cacheDir: string, options: { now: number; maxAgeMs: number }): number {
  const dir = join(cacheDir, SESSIONS_DIR);
  let removed = 0;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      if (options.now - statSync(join(dir, name)).mtimeMs > options.maxAgeMs) {
        rmSync(join(dir, name), { force: true });
        removed++;
      }
    } catch {
      // Gone already.
    }
  }
  return removed;
}
