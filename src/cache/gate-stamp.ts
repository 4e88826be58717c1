/**
 * Which redaction gate wrote a piece of local state. Checkpoints and the review queue are
 * rewritten whole after every turn, and every string in them passes the gate; a string the
 * same gate already let through needs no second scan (redaction is idempotent). The stamp
 * says "the same gate": the `stat` signature (mtime in ns, size, inode) of the gate's own
 * modules (the core rules, the vendor rules, the preset's driver), of Cortex's package.json and of the secret rule preset's package.json, so an
 * upgrade, a reinstall or a rebuild scans everything again once. Node built-ins only;
 * computed once per process.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
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
    const found = presetPackage();
    const preset = found === undefined ? '?' : signature(found);
    // The gate's own modules: the core rules, the vendor rules, the preset's driver. Run
    // from src/ by the tests, the modules are .ts files.
    const own = ['redact', 'redact-rules', 'secretlint-scan'].map((name) => {
      const built = signature(fileURLToPath(new URL(`../core/${name}.js`, import.meta.url)));
      return built === '-' ? signature(fileURLToPath(new URL(`../core/${name}.ts`, import.meta.url))) : built;
    });
    stamp = [...own, signature(fileURLToPath(new URL('../../package.json', import.meta.url))), preset].join('|');
  }
  return stamp;
}

/**
 * The package.json of the preset this module loads: where an install puts it (under
 * Cortex's own node_modules, else beside Cortex in the node_modules that holds it), looked
 * for in the order Node's resolver looks, and only when neither is there, the resolver's
 * answer (its first use costs a command ~3 ms).
 */
export function presetPackage(): string | undefined {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const candidates = [join(root, 'node_modules', PRESET, 'package.json')];
  if (basename(dirname(root)) === 'node_modules') candidates.push(join(dirname(root), PRESET, 'package.json'));
  for (const candidate of candidates) if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`${PRESET}/package.json`)), 'package.json');
  } catch {
    return undefined;
  }
}
