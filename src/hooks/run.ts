/**
 * `cortex hook <event>`: Claude Code hook adapters behind one entry point that never
 * throws. Every failure — garbage stdin, no project, a missing transcript, a held lock,
 * a bug — ends the same way: nothing on stdout, one line in `.memory/cortex.log`, exit 0.
 * No hook may block or break the session.
 *
 * This module and what it imports statically use node builtins only; each event's
 * handler is imported when that event runs, so `session-start` on a cached briefing
 * loads none of the heavy modules.
 */
import type { HookEvent } from '../core/hook-events.js';
import type { HookRunOptions } from './context.js';
import { describe, runHookWith, type Handler, type HookRunResult } from './run-hook.js';

export type { HookContext, HookRunOptions } from './context.js';
export type { HookRunResult } from './run-hook.js';

const HANDLERS: Record<HookEvent, () => Promise<Handler>> = {
  'session-start': async () => (await import('./session-start.js')).sessionStart,
  'user-prompt-submit': async () => (await import('./user-prompt-submit.js')).userPromptSubmit,
  'post-tool-use': async () => (await import('./post-tool-use.js')).postToolUse,
  stop: async () => (await import('./capture.js')).stop,
  'pre-compact': async () => (await import('./capture.js')).preCompact,
  'session-end': async () => (await import('./session-end.js')).sessionEnd,
};

/**
 * Runs one hook. Never throws and never rejects.
 *
 * @example
 * const { stdout } = await runHook('session-start', '{"session_id":"abc","source":"startup","cwd":"/repo"}');
 */
export function runHook(event: string, stdin: string, options: HookRunOptions = {}): Promise<HookRunResult> {
  return runHookWith(HANDLERS, event, stdin, options);
}

/**
 * The detached half of `session-end` (`cortex hook session-end --worker <file>`).
 * Never throws.
 */
export async function runSessionEndWorker(payloadFile: string, options: HookRunOptions = {}): Promise<HookRunResult> {
  const lines: string[] = [];
  try {
    const { sessionEndWorker } = await import('./session-end.js');
    await sessionEndWorker(payloadFile, { ...options, log: (m) => lines.push(m) });
  } catch (err) {
    lines.push(`failed: ${describe(err)}`);
  }
  return { stdout: '', log: lines };
}
