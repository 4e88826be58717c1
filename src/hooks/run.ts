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
import { join } from 'node:path';
import { areHooksOff, claudeProjectDir, ENV } from '../env.js';
import { CACHE_DIR, findProjectRoot } from '../store/paths.js';
import { isHookEvent, type HookEvent } from '../core/hook-events.js';
import type { HookContext, HookRunOptions } from './context.js';
import { claimDelivery } from './dedupe.js';
import { parseHookInput } from './input.js';

export type { HookContext, HookRunOptions } from './context.js';

export interface HookRunResult {
  /** What to print on stdout ('' for nothing). */
  stdout: string;
  /** What was logged (also appended to `.memory/cortex.log` when there is a project). */
  log: string[];
}

type Handler = (h: HookContext) => Promise<string>;

const HANDLERS: Record<HookEvent, () => Promise<Handler>> = {
  'session-start': async () => (await import('./session-start.js')).sessionStart,
  'user-prompt-submit': async () => (await import('./user-prompt-submit.js')).userPromptSubmit,
  'post-tool-use': async () => (await import('./post-tool-use.js')).postToolUse,
  stop: async () => (await import('./capture.js')).stop,
  'pre-compact': async () => (await import('./capture.js')).preCompact,
  'session-end': async () => (await import('./session-end.js')).sessionEnd,
};

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}`;
  }
  return String(err);
}

/**
 * Runs one hook. Never throws and never rejects.
 *
 * @example
 * const { stdout } = await runHook('session-start', '{"session_id":"abc","source":"startup","cwd":"/repo"}');
 */
export async function runHook(event: string, stdin: string, options: HookRunOptions = {}): Promise<HookRunResult> {
  const lines: string[] = [];
  let cacheDir: string | undefined;
  // The log module loads only when there is something to log: not on the cached session-start path.
  const pending: Promise<void>[] = [];
  const log = (message: string): void => {
    lines.push(message);
    const dir = cacheDir;
    if (dir === undefined) return;
    const at = options.now ? { now: options.now() } : {};
    pending.push(import('./log.js').then(({ appendHookLog }) => appendHookLog(dir, { event, message, ...at }), () => undefined));
  };
  const done = async (result: HookRunResult): Promise<HookRunResult> => {
    await Promise.all(pending);
    return result;
  };
  try {
    const env = options.env ?? process.env;
    // A model Cortex itself runs (headless Claude Code, capture.mode: claude) must not run
    // Cortex's hooks in turn: its environment says so.
    if (areHooksOff(env)) return await done({ stdout: '', log: [`skipped: ${ENV.hooks}=off`] });
    const { input, problem } = parseHookInput(stdin);
    const dir = input.cwd ?? claudeProjectDir(env) ?? options.cwd ?? process.cwd();
    const root = findProjectRoot(dir, env);
    // No .cortex/ here: Cortex is not used in this directory, and it leaves no trace in it.
    if (root === undefined) {
      lines.push(`not a Cortex project: ${dir}`);
      return await done({ stdout: '', log: lines });
    }
    cacheDir = join(root, CACHE_DIR);
    if (!isHookEvent(event)) {
      log(`unknown hook event "${event}"`);
      return await done({ stdout: '', log: lines });
    }
    if (problem !== undefined) {
      log(`ignored: ${problem}`);
      return await done({ stdout: '', log: lines });
    }
    // The same delivery reaching a second registration (the plugin and the project's settings).
    if (options.dedupe === true && !claimDelivery(cacheDir, event, stdin, Date.now())) {
      lines.push(`skipped: another registration of the ${event} hook is handling this delivery`);
      return await done({ stdout: '', log: lines });
    }
    const handler = await HANDLERS[event]();
    const stdout = await handler({ event, input, root, cacheDir, env, now: options.now, detach: options.detach ?? true, log });
    return await done({ stdout, log: lines });
  } catch (err) {
    log(`failed: ${describe(err)}`);
    return await done({ stdout: '', log: lines });
  }
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
