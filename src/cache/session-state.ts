/**
 * Per-session hook state in `.memory/sessions/<session>.json`: the ids of memories
 * already put into this session's context (by the briefing or an earlier prompt), so
 * anticipatory recall does not repeat them. Node builtins only (the session-start fast
 * path writes it); losing it only means a memory may be shown twice.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { sessionFileName } from './session-file.js';
import { SESSIONS_DIR } from './layout.js';

export interface SessionState {
  version: 1;
  session: string;
  /** Memory ids already in the session's context, oldest first. */
  injected: string[];
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
      return { version: 1, session, injected: value.injected.filter((x): x is string => typeof x === 'string') };
    }
  } catch {
    // Missing or damaged: a fresh state.
  }
  return { version: 1, session, injected: [] };
}

/**
 * Writes the state. Never throws: losing it only repeats a memory, while a throw would cost
 * the hook its whole output. Returns why it was not written (a full disk, a read-only
 * checkout), for the hook's log.
 */
export function writeSessionState(cacheDir: string, state: SessionState): Error | undefined {
  const injected = [...new Set(state.injected)].slice(-MAX_INJECTED_IDS);
  try {
    writeFileAtomic(sessionStatePath(cacheDir, state.session), `${JSON.stringify({ ...state, injected })}\n`);
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
