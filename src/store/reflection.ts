/**
 * When `capture.mode: reflect` last asked the assistant to record what it decided, per
 * session: `.memory/sessions/<session>.reflect.json`. Local state; losing it only means
 * the next Stop may ask again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { sessionFileName } from './session-file.js';

export interface Reflection {
  /** Prompts and work (commands + edits) in the session when it asked. */
  prompts: number;
  work: number;
  /** ISO-8601 time it asked. */
  at: string;
}

function reflectionPath(cacheDir: string, session: string): string {
  return join(cacheDir, 'sessions', sessionFileName(session).replace(/\.json$/, '.reflect.json'));
}

/** The session's last reflection, or `undefined` (none, or an unreadable file). */
export function readReflection(cacheDir: string, session: string): Reflection | undefined {
  try {
    const value = JSON.parse(readFileSync(reflectionPath(cacheDir, session), 'utf8')) as Partial<Reflection>;
    return typeof value.prompts === 'number' && typeof value.work === 'number' && typeof value.at === 'string' ? (value as Reflection) : undefined;
  } catch {
    return undefined;
  }
}

export function writeReflection(cacheDir: string, session: string, reflection: Reflection): void {
  writeFileAtomic(reflectionPath(cacheDir, session), `${JSON.stringify(reflection)}\n`);
}
