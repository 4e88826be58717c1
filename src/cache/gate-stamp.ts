/**
 * Which redaction gate wrote a piece of local state. Checkpoints and the review queue are
 * rewritten whole after every turn, and every string in them passes the gate; a string the
 * same gate already let through needs no second scan (redaction is idempotent). The stamp
 * says "the same gate": the `stat` signature (mtime in ns, size, inode) of the gate's own
 * module, of Cortex's package.json and of the secret rule preset's entry, so an upgrade, a
 * reinstall or a rebuild scans everything again once. Node built-ins only; computed once
 * per process.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const PRESET = '@secretlint/secretlint-rule-preset-recommend';

let stamp: string | undefined;

function signature(path: string): string {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.mtimeNs}.${st.size}.${st.ino}` : '-';
  } catch {
    return '?';
  }
}

/**
 * The stamp of the redaction gate this process runs. Paths are the same from `src/` and `dist/`.
 *
 * @example
 * redactionGateStamp() // '1732450000123456789.41230.88123|1732…|1732…'
 */
export function redactionGateStamp(): string {
  if (stamp === undefined) {
    let preset: string;
    try {
      preset = signature(createRequire(import.meta.url).resolve(PRESET));
    } catch {
      preset = '?';
    }
    const redact = signature(fileURLToPath(new URL('../core/redact.js', import.meta.url)));
    // Run from src/ by the tests, the module is redact.ts.
    const own = redact === '-' ? signature(fileURLToPath(new URL('../core/redact.ts', import.meta.url))) : redact;
    stamp = [own, signature(fileURLToPath(new URL('../../package.json', import.meta.url))), preset].join('|');
  }
  return stamp;
}
