/**
 * File names for per-session local state (`.memory/transcripts/`, `.memory/sessions/`),
 * with no imports at all: the cached session-start path loads it.
 */

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
