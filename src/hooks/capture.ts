/**
 * Stop and PreCompact: incremental extraction from the transcript since the last
 * checkpoint. Stop also reads `last_assistant_message`, because Claude Code writes the
 * transcript asynchronously and the final turn may not be in it yet. Prints nothing.
 */
import type { CaptureInput, CaptureOutput } from '../api/capture.js';
import type { Context } from '../services/context.js';
import { contextOptions, type HookContext } from './context.js';

/** Time budgets (ms): the rest is read on the next run, from the checkpoint. */
export const HOOK_CAPTURE_BUDGETS = { stop: 5_000, 'pre-compact': 20_000, 'session-end': 60_000 } as const;

/** PreCompact waits this long for the write lock to link what Stop left; the session-end worker links the rest. */
export const PRE_COMPACT_LINK_LOCK_MS = 2_000;

/** Stop refreshes the plan and progress memories at most this often; PreCompact and SessionEnd always do. */
export const STOP_STRUCTURAL_EVERY_MS = 5 * 60_000;

/** Runs one capture and logs what is worth knowing later. Shared with the session-end worker. */
export async function runCapture(
  h: Pick<HookContext, 'root' | 'env' | 'now' | 'log'>,
  input: CaptureInput,
): Promise<CaptureOutput | undefined> {
  const { openContext } = await import('../services/context.js');
  return captureIn(h, openContext(contextOptions(h)), input);
}

async function captureIn(h: Pick<HookContext, 'log'>, ctx: Context, input: CaptureInput): Promise<CaptureOutput> {
  const { captureTranscript } = await import('../api/capture.js');
  const out = await captureTranscript(ctx, input);
  if (out.status === 'locked') {
    h.log('skipped: another extraction run holds .memory/locks/extract.lock');
    return out;
  }
  if (out.transcriptProblem !== undefined) h.log(`transcript not read: ${out.transcriptProblem}`);
  if (out.droppedFiles && out.droppedFiles.length > 0) {
    h.log(`files outside the repository left out of the memories: ${out.droppedFiles.slice(0, 10).join(', ')}${out.droppedFiles.length > 10 ? ` and ${out.droppedFiles.length - 10} more` : ''}`);
  }
  const changed = out.memories.filter((m) => m.action === 'created' || m.action === 'updated');
  if (changed.length > 0 || out.queued > 0 || out.restarted || out.status === 'partial' || out.skippedLines > 0) {
    const parts = [
      `read bytes ${out.from}..${out.to}`,
      out.restarted ? 'restarted (transcript replaced or shrank)' : '',
      out.status === 'partial' ? 'time budget reached, continuing next run' : '',
      out.skippedLines > 0 ? `${out.skippedLines} malformed lines skipped` : '',
      ...changed.map((m) => `${m.action} ${m.id} (${m.type}, ${m.layer})`),
      out.queued > 0 ? `${out.queued} queued for review` : '',
    ];
    h.log(parts.filter(Boolean).join('; '));
  }
  return out;
}

function sessionOf(h: HookContext): string | undefined {
  if (h.input.sessionId === undefined || h.input.sessionId.trim() === '') {
    h.log('ignored: the input has no session_id');
    return undefined;
  }
  return h.input.sessionId;
}

export async function stop(h: HookContext): Promise<string> {
  const sessionId = sessionOf(h);
  if (sessionId === undefined) return '';
  const [{ openContext }, { reflectAfterCapture }] = await Promise.all([import('../services/context.js'), import('../api/reflect.js')]);
  const ctx = openContext(contextOptions(h));
  const out = await captureIn(h, ctx, {
    sessionId,
    transcriptPath: h.input.transcriptPath,
    lastAssistantMessage: h.input.lastAssistantMessage,
    timeBudgetMs: HOOK_CAPTURE_BUDGETS.stop,
    structuralEveryMs: STOP_STRUCTURAL_EVERY_MS,
    // The edges wait for the session-end worker (or PreCompact): Stop returns sooner.
    link: 'later',
  });
  if (out.status === 'locked') return '';
  // capture.mode reflect (api/reflect.ts): Claude Code's blocking Stop answer asks the assistant to record what extraction left.
  const { ask } = reflectAfterCapture(ctx, { sessionId, stopHookActive: h.input.stopHookActive === true, capture: out });
  if (!ask) return '';
  h.log(`reflect: asked the assistant to record ${ask.candidates} candidate(s)`);
  return JSON.stringify({ decision: 'block', reason: ask.reason });
}

export async function preCompact(h: HookContext): Promise<string> {
  const sessionId = sessionOf(h);
  if (sessionId === undefined) return '';
  // Compaction ends what the transcript can show of the exchange: judge it now.
  await runCapture(h, { sessionId, transcriptPath: h.input.transcriptPath, timeBudgetMs: HOOK_CAPTURE_BUDGETS['pre-compact'], final: true });
  await runLinkPending(h, PRE_COMPACT_LINK_LOCK_MS);
  return '';
}

/**
 * Links the memories the Stop hook wrote without their edges (`.memory/pending-links`).
 * Shared with the session-end worker; a failure is logged and the list kept for next time.
 */
export async function runLinkPending(h: Pick<HookContext, 'root' | 'env' | 'now' | 'log'>, lockTimeoutMs: number): Promise<void> {
  const [{ openContext }, { linkPending }] = await Promise.all([import('../services/context.js'), import('../api/link-pending.js')]);
  const out = await linkPending(openContext(contextOptions(h)), { lockTimeoutMs });
  if (out.linked > 0 || out.missing > 0) {
    const parts = [
      `linked ${out.linked} captured memor${out.linked === 1 ? 'y' : 'ies'}`,
      `${out.edges} edge${out.edges === 1 ? '' : 's'}`,
      out.consolidate > 0 ? `${out.consolidate} queued for consolidation` : '',
      out.missing > 0 ? `${out.missing} deleted since` : '',
    ];
    h.log(parts.filter(Boolean).join(', '));
  }
  for (const f of out.failed.slice(0, 3)) h.log(`linking ${f.id} failed (kept for the next run): ${f.error}`);
  if (out.locked.length > 0) h.log(`links left for the next run: the ${out.locked.join(', ')} tier's write lock is held`);
}
