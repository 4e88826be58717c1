/**
 * SessionEnd: the last extraction, then lifecycle, projections and the briefing cache. Claude Code
 * waits for SessionEnd hooks only up to the largest `timeout` configured for them (at most 60 s;
 * 1.5 s for all together when none is set), and the work can take longer on a large session, so
 * the hook only hands it to a detached `cortex hook session-end --worker <file>` process and
 * returns at once.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { CACHE_DIR } from '../store/paths.js';
import { HOOK_PAYLOADS_DIR } from '../cache/layout.js';
import { pruneCheckpoints } from '../cache/checkpoint.js';
import { pruneSessionStates, removeSessionState } from '../cache/session-state.js';
import { HOOK_CAPTURE_BUDGETS, runCapture, runLinkPending } from './capture.js';
import { appendHookLog } from './log.js';
import { contextOptions, type HookContext, type HookRunOptions } from './context.js';
import { executablePath } from '../executable.js';

/** What the hook hands to the worker. */
export interface SessionEndPayload {
  version: 1;
  root: string;
  sessionId: string;
  transcriptPath?: string | undefined;
  reason?: string | undefined;
}

/** Local state older than this is pruned at the end of a session. */
export const PRUNE_AFTER_MS = { checkpoints: 30 * 86_400_000, sessions: 7 * 86_400_000 };

/** The worker waits this long for a Stop hook still extracting, then gives up. */
export const WORKER_LOCK_TIMEOUT_MS = 15_000;

function cliPath(): string | undefined {
  const path = executablePath();
  return existsSync(path) ? path : undefined;
}

export async function sessionEnd(h: HookContext): Promise<string> {
  const sessionId = h.input.sessionId;
  if (sessionId === undefined || sessionId.trim() === '') {
    h.log('ignored: the input has no session_id');
    return '';
  }
  const payload: SessionEndPayload = { version: 1, root: h.root, sessionId, transcriptPath: h.input.transcriptPath, reason: h.input.reason };
  const cli = cliPath();
  if (!h.detach || cli === undefined) {
    await sessionEndWork({ root: h.root, cacheDir: h.cacheDir, env: h.env, now: h.now, log: h.log }, payload);
    return '';
  }
  const file = join(h.cacheDir, HOOK_PAYLOADS_DIR, `session-end-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileAtomic(file, JSON.stringify(payload));
  const child = spawn(process.execPath, [cli, 'hook', 'session-end', '--worker', file], {
    cwd: h.root,
    env: h.env,
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.on('error', (err) => {
    h.log(`worker did not start: ${err.message}`);
    rmSync(file, { force: true });
  });
  child.unref();
  return '';
}

/** Runs in the detached worker: reads and deletes the payload, then does the work. */
export async function sessionEndWorker(payloadFile: string, options: HookRunOptions & { log?: (message: string) => void }): Promise<void> {
  let payload: SessionEndPayload;
  try {
    payload = JSON.parse(readFileSync(payloadFile, 'utf8')) as SessionEndPayload;
  } finally {
    rmSync(payloadFile, { force: true });
  }
  if (payload?.version !== 1 || typeof payload.root !== 'string' || typeof payload.sessionId !== 'string') {
    throw new Error(`${payloadFile} is not a session-end payload`);
  }
  const cacheDir = join(payload.root, CACHE_DIR);
  const log = (message: string): void => {
    options.log?.(message);
    appendHookLog(cacheDir, { event: 'session-end', message, ...(options.now ? { now: options.now() } : {}) });
  };
  try {
    await sessionEndWork({ root: payload.root, cacheDir, env: options.env ?? process.env, now: options.now, log }, payload);
  } catch (err) {
    log(`failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  }
}

/**
 * The session's last extraction, the auto-links its Stop hooks left for later, then the
 * lifecycle (archive what decayed, reactivate what was used, prune old archives), the
 * projections (decisions.md, plan.md …, so they match the memories the session added
 * before anyone commits them), then the briefing cache, so the next session starts on the
 * fast path. Each step runs even when an earlier one failed.
 */
async function sessionEndWork(
  h: Pick<HookContext, 'root' | 'cacheDir' | 'env' | 'now' | 'log'>,
  payload: SessionEndPayload,
): Promise<void> {
  const step = async (name: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      h.log(`${name} failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
    }
  };
  await step('extraction', async () => {
    await runCapture(h, {
      sessionId: payload.sessionId,
      transcriptPath: payload.transcriptPath,
      timeBudgetMs: HOOK_CAPTURE_BUDGETS['session-end'],
      lockTimeoutMs: WORKER_LOCK_TIMEOUT_MS,
      final: true,
    });
  });
  // What the session's Stop hooks captured, linked now (edges before the projections).
  await step('links', () => runLinkPending(h, WORKER_LOCK_TIMEOUT_MS));
  const [{ openContext }, { lifecycle }, { project }, { refreshSurfaceCache }] = await Promise.all([
    import('../services/context.js'),
    import('../api/lifecycle.js'),
    import('../api/project.js'),
    import('../api/surface.js'),
  ]);
  const ctx = openContext(contextOptions(h));
  // Opt-in (capture.mode claude | endpoint): one model call per session end, after the
  // rule-based memories are written, so a failed or slow model loses nothing.
  if (ctx.config.capture.mode === 'claude' || ctx.config.capture.mode === 'endpoint') {
    await step('model capture', async () => {
      const { modelCapture } = await import('../api/model-capture.js');
      const out = await modelCapture(ctx, { sessionId: payload.sessionId, transcriptPath: payload.transcriptPath });
      const stored = out.memories.filter((m) => m.action === 'created' || m.action === 'updated');
      h.log(
        `model capture (${out.mode}${out.model !== undefined ? `, ${out.model}` : ''}): ${out.status}, sent ${out.sent} chars, received ${out.received} bytes in ${out.ms} ms` +
          `${stored.length > 0 ? `; ${stored.map((m) => `${m.action} ${m.id}`).join(', ')}` : ''}${out.queued > 0 ? `; ${out.queued} queued for review` : ''}` +
          `${out.problems.length > 0 ? `; ${out.problems.slice(0, 3).join('; ')}` : ''}`,
      );
    });
  }
  await step('lifecycle', async () => {
    const out = await lifecycle(ctx, { scope: 'project' });
    if (out.changes.length > 0) h.log(`lifecycle: ${out.changes.map((c) => `${c.from} → ${c.to} ${c.id}`).join('; ')}`);
  });
  await step('projections', async () => {
    const out = await project(ctx);
    const written = out.files.filter((f) => f.state === 'created' || f.state === 'updated').map((f) => f.file);
    if (written.length > 0) h.log(`projections regenerated: ${written.join(', ')}`);
  });
  await step('index', async () => {
    const { compactIndexes } = await import('../services/indexes.js');
    for (const t of compactIndexes(ctx)) h.log(`index rebuilt: ${t.scope} tier held ${t.discarded} discarded documents`);
  });
  await step('surface cache', async () => {
    await refreshSurfaceCache(ctx);
  });
  removeSessionState(h.cacheDir, payload.sessionId);
  const now = (h.now ?? (() => new Date()))().getTime();
  pruneCheckpoints(h.cacheDir, { now, maxAgeMs: PRUNE_AFTER_MS.checkpoints });
  pruneSessionStates(h.cacheDir, { now, maxAgeMs: PRUNE_AFTER_MS.sessions });
}
