/**
 * File names for per-session local state (`.memory/transcripts/`, `.memory/sessions/`),
 * and an atomic write, with node built-ins only and without `node:crypto`: loading it
 * costs more than the whole cached session-start path is allowed to.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** FNV-1a over UTF-16 code units, two 32-bit lanes: a stable, dependency-free name hash (not security). */
function fnv64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a >>> 7), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * A file name for any session id: readable ids as they are, anything else hashed.
 *
 * @example
 * sessionFileName('4b2c8e1a-1f0d-4c3e-9a57-0b6e2d8f1c34') // '4b2c8e1a-1f0d-4c3e-9a57-0b6e2d8f1c34.json'
 * sessionFileName('../../etc') // 'session-<16 hex digits>.json'
 */
export function sessionFileName(session: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(session) && !session.includes('..')) return `${session}.json`;
  return `session-${fnv64(session)}.json`;
}

/** Writes through a temp file and a rename, so a reader never sees half a file. */
export function writeSmallFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
