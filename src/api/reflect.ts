/**
 * `capture.mode: reflect`: after a Stop hook's capture, whether to ask the running assistant,
 * once, to record the durable items of this stretch as `[MEMORY: type]` lines — only when
 * extraction holds candidates that are not memories, work was done since the last time, at
 * most once per `capture.reflectEveryTurns` prompts, and never while a Stop hook already
 * continues the turn. Costs the session one short turn. The hook only prints the answer.
 */
import { readReflection, writeReflection } from '../cache/reflection.js';
import { reflectionReason, shouldReflect } from '../core/model-capture.js';
import type { Context } from '../services/context.js';
import type { CaptureOutput } from './capture.js';

export interface ReflectInput {
  sessionId: string;
  /** Claude Code's `stop_hook_active`: a Stop hook already continues this turn. */
  stopHookActive: boolean;
  /** What the capture that just ran found. */
  capture: Pick<CaptureOutput, 'unrecorded' | 'progress'>;
}

/** `ask`: the reason to give the assistant (Claude Code's blocking Stop answer); absent: nothing to ask. */
export interface ReflectOutput {
  ask?: { reason: string; candidates: number };
}

/**
 * Decides, and when it asks, records that it did (`.memory/reflection/<session>`), so the
 * next Stop waits for new prompts and new work.
 *
 * @example
 * reflectAfterCapture(ctx, { sessionId, stopHookActive: false, capture: out }).ask?.reason
 */
export function reflectAfterCapture(ctx: Context, input: ReflectInput): ReflectOutput {
  if (ctx.config.capture.mode !== 'reflect') return {};
  const { unrecorded, progress } = input.capture;
  const ask = shouldReflect({
    stopHookActive: input.stopHookActive,
    candidates: unrecorded.length,
    prompts: progress.prompts,
    work: progress.work,
    last: readReflection(ctx.paths.cacheDir, input.sessionId),
    everyTurns: ctx.config.capture.reflectEveryTurns,
  });
  if (!ask) return {};
  writeReflection(ctx.paths.cacheDir, input.sessionId, { prompts: progress.prompts, work: progress.work, at: ctx.now().toISOString() });
  return { ask: { reason: reflectionReason(unrecorded), candidates: unrecorded.length } };
}
