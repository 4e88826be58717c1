/**
 * One run per hook delivery. Claude Code runs every registration of a hook, and Cortex's
 * hooks can be registered more than once: by the plugin and by a project's
 * `.claude/settings.json` (`cortex init --claude`, committed for a team whose members may also
 * have the plugin), or in both the user's and the project's settings. Each would inject the
 * briefing and the related memories again. Claude Code hands every registration of one
 * delivery the same bytes on stdin (the session id, a prompt id unique to each prompt, …),
 * so the first process to claim those bytes does the work and the others return at once.
 *
 * Claims are empty files named by a hash of the bytes, in `.memory/deliveries/`. Node
 * built-ins only: this runs on the cached SessionStart path. The hash tells deliveries of
 * the last few seconds apart, nothing more: a 64-bit one and the length (SHA-256 loaded
 * node:crypto, OpenSSL's configuration and its certificates, ~8 ms of a 100 ms hook).
 */
import { DELIVERIES_DIR } from '../cache/layout.js';
import { lineHash } from '../core/fingerprint.js';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Two deliveries of the same bytes this close together are one delivery: the twins start
 * together, while two real deliveries are at least a turn apart (clients before 2.1 send
 * every Stop of a session the same bytes).
 */
export const DUPLICATE_WINDOW_MS = 5_000;

/** Claims older than this are removed now and then. */
const PRUNE_AFTER_MS = 3_600_000;

/**
 * Claims this delivery of `event` for the calling process: true when it should run,
 * false when another process already claimed the same bytes within the window. Any file
 * system trouble answers true: a hook that runs twice is better than one that never runs.
 *
 * @example
 * claimDelivery('/repo/.memory', 'session-start', stdin, Date.now()) // true, then false for the twin
 */
export function claimDelivery(cacheDir: string, event: string, stdin: string, now: number): boolean {
  const text = `${event}\0${stdin}`;
  const [a, b] = lineHash(text);
  const key = `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}-${text.length.toString(16)}`;
  const dir = join(cacheDir, DELIVERIES_DIR);
  const file = join(dir, key);
  try {
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(file, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return true;
    try {
      if (now - statSync(file).mtimeMs < DUPLICATE_WINDOW_MS) return false;
      // The same bytes long after (a repeated compaction notice): a new delivery.
      utimesSync(file, now / 1000, now / 1000);
    } catch {
      return true;
    }
    return true;
  }
  // About one new claim in sixteen sweeps the old ones.
  if (key.startsWith('0')) prune(dir, now);
  return true;
}

function prune(dir: string, now: number): void {
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      try {
        if (now - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { force: true });
      } catch {
        // Removed by another hook meanwhile.
      }
    }
  } catch {
    // Nothing to sweep.
  }
}
