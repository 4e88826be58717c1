/**
 * `cortex hook session-start` when the briefing is cached: what the `cortex` executable
 * (src/cli.ts) runs for it, from a bundle of its own (`dist/start.bundle.cjs`) of this module
 * and the few it imports, node built-ins only. The CLI's bundle is 1.3 MB; reading it and
 * compiling its start-up from the code cache was most of what a cached SessionStart cost
 * beyond Node's own start (DESIGN §10: ≤ 1.5 × `node -e 0`). On a miss the CLI is loaded
 * after all and builds the briefing, in this same process (the delivery is claimed once).
 */
import { isDebug } from './env.js';
import type { HookContext } from './hooks/context.js';
import { runHookWith, type Handler } from './hooks/run-hook.js';
import { cachedBriefing, deliverBriefing } from './hooks/session-start-cached.js';
import { descriptorWriter, wroteThroughStreams } from './term/fd.js';
import { HOOK_STDIN_TIMEOUT_MS, readAllStdin, readWithin } from './term/stdin.js';

/** What a miss needs of the CLI: its SessionStart handler (main.ts). */
export interface FullCli {
  sessionStartHook(h: HookContext): Promise<string>;
}

/**
 * Runs the SessionStart hook as `cortex hook session-start` does (commands/hook.ts): stdin in,
 * the hook's output on stdout, the log on stderr with `CORTEX_DEBUG`, exit 0 whatever happens.
 *
 * @example
 * await startSession(async () => import('./main.js'));
 */
export async function startSession(loadFull: () => Promise<FullCli>): Promise<void> {
  process.exitCode = 0;
  const stdin = await readWithin(readAllStdin, HOOK_STDIN_TIMEOUT_MS);
  const handler: Handler = async (h) => {
    const briefing = cachedBriefing(h);
    return briefing !== undefined ? deliverBriefing(h, briefing) : (await loadFull()).sessionStartHook(h);
  };
  const result = await runHookWith({ 'session-start': async () => handler }, 'session-start', stdin, { env: process.env, dedupe: true });
  // A hook never fails: a reader gone early (EPIPE), or any failure to write, changes nothing.
  const done = (): void => undefined;
  try {
    if (result.stdout !== '') descriptorWriter(1, () => process.stdout, done)(result.stdout);
    if (isDebug(process.env)) descriptorWriter(2, () => process.stderr, done)(result.log.map((line) => `cortex hook session-start: ${line}\n`).join(''));
  } catch {
    // Nothing to tell: stdout and stderr are where it would go.
  }
  // Done (as main.ts's `start`): ended now rather than after freeing the heap page by page.
  if (!wroteThroughStreams()) process.exit();
}
