/**
 * `.memory/cortex.log`: where hooks say why they did nothing, one line per event, since
 * they may print nothing and must exit 0. Capped: past `maxBytes` the log is rotated to
 * `cortex.log.1` (one generation kept). Never throws. Loaded only when there is something
 * to log, so the redaction gate it imports costs the cached session-start path nothing.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../core/redact.js';
import { LOG_FILE } from '../cache/layout.js';
import { directoryProblem } from '../store/safe-read.js';

export const DEFAULT_HOOK_LOG = { maxBytes: 256 * 1024, maxLineChars: 2_000 };

export function hookLogPath(cacheDir: string): string {
  return join(cacheDir, LOG_FILE);
}

/**
 * Appends `message` as one line, prefixed with the time and the event.
 *
 * @example
 * appendHookLog('/repo/.memory', { event: 'stop', message: 'skipped: another extraction holds the lock', now: new Date() });
 */
export function appendHookLog(
  cacheDir: string,
  entry: { event: string; message: string; now?: Date },
  options: Partial<typeof DEFAULT_HOOK_LOG> = {},
): void {
  const { maxBytes, maxLineChars } = { ...DEFAULT_HOOK_LOG, ...options };
  try {
    // Never through a link (a branch can commit `.memory` as one), never into a file.
    if (directoryProblem(cacheDir) !== undefined) return;
    const path = hookLogPath(cacheDir);
    mkdirSync(cacheDir, { recursive: true });
    try {
      if (statSync(path).size > maxBytes) renameSync(path, `${path}.1`);
    } catch {
      // No log yet.
    }
    // One line of plain text: control characters (garbage stdin quoted in a parse error) are
    // escaped; secrets quoted in an error (a command, a file's first line) are redacted.
    const oneLine = redactSecrets(entry.message).text.replace(/\s*[\r\n]+\s*/g, ' ⏎ ').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const text = oneLine.length > maxLineChars ? `${oneLine.slice(0, maxLineChars)}…` : oneLine;
    appendFileSync(path, `${(entry.now ?? new Date()).toISOString()} ${entry.event} ${text}\n`);
  } catch {
    // Logging is best effort: a read-only checkout must not make a hook fail.
  }
}
