/**
 * The body of `runHook` (run.ts) over a table of handlers: what every hook does before and
 * after its event's own work (the hooks-off switch, the project, the input, the twin
 * delivery, the log). Apart from run.ts, whose table imports every handler on demand, so
 * that the cached SessionStart (src/start.ts, a bundle of its own) can run it with a table
 * of one. Node built-ins only.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { areHooksOff, claudeProjectDir, ENV } from '../env.js';
import { CACHE_DIR, CORTEX_DIR, findProjectRoot } from '../store/paths.js';
import { isHookEvent, type HookEvent } from '../core/hook-events.js';
import type { HookContext, HookRunOptions } from './context.js';
import { claimDelivery } from './dedupe.js';
import { CACHE_SUBDIRS } from '../cache/layout.js';
import { parseHookInput } from './input.js';

export interface HookRunResult {
  /** What to print on stdout ('' for nothing). */
  stdout: string;
  /** What was logged (also appended to `.memory/cortex.log` when there is a project). */
  log: string[];
}

export type Handler = (h: HookContext) => Promise<string>;

/** The handler of each event, imported when the event runs. */
export type Handlers = Partial<Record<HookEvent, () => Promise<Handler>>>;

export function describe(err: unknown): string {
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
 * const { stdout } = await runHookWith({ 'session-start': async () => sessionStart }, 'session-start', '{"session_id":"abc","source":"startup","cwd":"/repo"}');
 */
export async function runHookWith(handlers: Handlers, event: string, stdin: string, options: HookRunOptions = {}): Promise<HookRunResult> {
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
    // A `.cortex` or `.memory` that is a link (a branch can commit one) or not a directory:
    // nothing is read or written through it, not even the log.
    // Its directories too when one is a link; a file in one's place fails only its writer.
    for (const d of [CORTEX_DIR, CACHE_DIR, ...CACHE_SUBDIRS.map((sub) => join(CACHE_DIR, sub))]) {
      const st = lstatSync(join(root, d), { throwIfNoEntry: false });
      if (st !== undefined && !st.isDirectory() && (d === CORTEX_DIR || d === CACHE_DIR || st.isSymbolicLink())) {
        lines.push(`skipped: ${join(root, d)} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; Cortex reads and writes only real directories`);
        return await done({ stdout: '', log: lines });
      }
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
    const load = handlers[event];
    if (load === undefined) {
      log(`no handler for the ${event} hook here`);
      return await done({ stdout: '', log: lines });
    }
    const handler = await load();
    const stdout = await handler({ event, input, root, cacheDir, env, now: options.now, detach: options.detach ?? true, log });
    return await done({ stdout, log: lines });
  } catch (err) {
    log(`failed: ${describe(err)}`);
    return await done({ stdout: '', log: lines });
  }
}
