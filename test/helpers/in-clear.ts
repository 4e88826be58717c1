/**
 * "In clear", as issue 36 defines it: any 8 consecutive chars of a secret's distinctive
 * part, case-insensitive, as written, base64-encoded or JSON-escaped. The distinctive
 * part is the secret without a vendor prefix (the chars before the first `_`, `-` or `.`
 * within the first 12, when more than 16 follow) — a prefix alone identifies no one.
 */

/** The part of a secret that identifies it. */
export function distinctive(secret: string): string {
  let part = secret;
  for (let i = 0; i < 4; i++) {
    const m = /^[A-Za-z0-9]{1,14}[-_.$:~][ \t]?(?=[^]{16})/.exec(part);
    if (m === null) break;
    part = part.slice(m[0].length);
  }
  return part;
}

/** Every 8-char window of `secret`'s distinctive part that `text` holds in one of the forms; [] when none. */
export function inClear(text: string, secret: string): string[] {
  const part = distinctive(secret);
  // The gate's own markers name kinds, not secrets.
  text = text.replace(/\[redacted:[^\]]*\]/gi, ' ');
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 8 <= part.length; i++) {
    const w = part.slice(i, i + 8);
    // Windows of pure repetition or of words are not distinctive (`AAAAAAAA`, `-us12`).
    // PEM armour (`-----BEGIN … PRIVATE KEY-----`) names the format, not the key.
    if (/^(.)\1+$/.test(w) || !/[A-Za-z0-9]{4}/.test(w) || /\s|-----|BEGIN|PRIVATE|KEY-/.test(w)) continue;
    // A window that is one word at a punctuation boundary (`/discord` of a webhook URL's host,
    // `Private-` of PuTTY's header) names the vendor or format, like a prefix: file names such
    // as `discord-webhook` or `private-key` that say what was redacted hold it too.
    if (/^[^A-Za-z0-9]+[A-Z]?[a-z]+$|^[A-Z]?[a-z]+[^A-Za-z0-9]+$/.test(w)) continue;
    const json = JSON.stringify(w).slice(1, -1);
    if (lower.includes(w.toLowerCase()) || lower.includes(json.toLowerCase())) found.push(w);
  }
  // Base64 of the whole distinctive part, at each of the three alignments, cut to whole chars.
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.from('x'.repeat(shift) + part).toString('base64');
    const start = Math.ceil((shift * 4) / 3) + 1;
    for (let i = start; i + 12 <= b64.length - 4; i += 4) {
      const w = b64.slice(i, i + 12);
      if (text.includes(w)) found.push(`base64:${w}`);
    }
  }
  return found;
}
