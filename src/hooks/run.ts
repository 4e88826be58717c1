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
import { findProjectRootFast } from '../fast/surface-cache.js';
import { isHookEvent, type HookEvent } from '../core/hook-events.js';
import { claimDelivery } from './dedupe.js';
import { parseHookInput, type HookInput } from './input.js';

export interface HookRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Working directory when the input carries no `cwd`. */
  cwd?: string;
  /** The clock (default: `CORTEX_NOW`, else the system clock, as for every command). */
  now?: () => Date;
  /**
   * `session-end` spawns a detached worker (default) so the hook returns within Claude
   * Code's 1.5 s budget; `false` runs the work inline (tests, and hosts without a CLI path).
   */
  detach?: boolean;
  /**
   * Skip a delivery another process already claimed (the same hook registered twice: the
   * plugin and the project's settings). `cortex hook` turns it on; a host calling this
   * function once per delivery has nothing to deduplicate.
   */
  dedupe?: boolean;
}

export interface HookRunResult {
  /** What to print on stdout ('' for nothing). */
  stdout: string;
  /** What was logged (also appended to `.memory/cortex.log` when there is a project). */
  log: string[];
}

/** What every handler gets. */
export interface HookContext {
  event: HookEvent;
  input: HookInput;
  root: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  /** An explicit clock, when the caller gave one; the api's default (`CORTEX_NOW` or the system clock) otherwise. */
  now: (() => Date) | undefined;
  detach: boolean;
  log(message: string): void;
}

/** `openContext` options for a hook: the project root, the environment and the clock. */
export function contextOptions(h: Pick<HookContext, 'root' | 'env' | 'now'>): { dir: string; env: NodeJS.ProcessEnv; now?: () => Date } {
  return { dir: h.root, env: h.env, ...(h.now !== undefined ? { now: h.now } : {}) };
}

type Handler = (h: HookContext) => Promise<string>;

const HANDLERS: Record<HookEvent, () => Promise<Handler>> = {
  'session-start': async () => (await import('./session-start.js')).sessionStart,
  'user-prompt-submit': async () => (await import('./user-prompt-submit.js')).userPromptSubmit,
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
    if (env.CORTEX_HOOKS === 'off') return await done({ stdout: '', log: ['skipped: CORTEX_HOOKS=off'] });
    const { input, problem } = parseHookInput(stdin);
    const dir = input.cwd ?? env.CLAUDE_PROJECT_DIR ?? options.cwd ?? process.cwd();
    const root = findProjectRootFast(dir, env);
    // No .cortex/ here: Cortex is not used in this directory, and it leaves no trace in it.
    if (root === undefined) {
      lines.push(`not a Cortex project: ${dir}`);
      return await done({ stdout: '', log: lines });
    }
    cacheDir = join(root, '.memory');
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
