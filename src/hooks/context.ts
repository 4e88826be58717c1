/**
 * What a hook handler gets from `runHook` (run.ts), and the options of a run: in a module
 * of their own so the handlers, which run.ts imports on demand, never import run.ts.
 * Types and one pure helper; no imports at run time.
 */
import type { HookEvent } from '../core/hook-events.js';
import type { HookInput } from './input.js';

export interface HookRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Working directory when the input carries no `cwd`. */
  cwd?: string;
  /** The clock (default: `CORTEX_NOW`, else the system clock, as for every command). */
  now?: () => Date;
  /**
   * `session-end` spawns a detached worker (default) so the hook returns within Claude
   * Code's SessionEnd bound (the largest configured SessionEnd `timeout`, at most 60 s; 1.5 s
   * when none is set); `false` runs the work inline (tests, and hosts without a CLI path).
   */
  detach?: boolean;
  /**
   * Skip a delivery another process already claimed (the same hook registered twice: the
   * plugin and the project's settings). `cortex hook` turns it on; a host calling this
   * function once per delivery has nothing to deduplicate.
   */
  dedupe?: boolean;
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
