/**
 * Helpers shared by commands: opening the project, printing results and warnings.
 */
import type { Cortex } from '../api/cortex.js';
import { openContext, type Context } from '../services/context.js';
import type { Diagnostic } from '../core/memory.js';
import type { RecallResult } from '../api/recall/recall.js';
import type { Invocation, IO } from '../term/args.js';
import { formatSkipWarning, jsonDocument } from '../term/output.js';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The library API for the project of the invocation. Imported on demand: a command that
 * needs only the context and one use case (`recall`, `index`: the hot paths) imports those
 * and skips loading every other use case.
 */
export async function open(inv: Invocation, io: IO): Promise<Cortex> {
  const { openCortex } = await import('../api/cortex.js');
  return openCortex({ dir: inv.dir, env: io.env });
}

/** The context (root, paths, configuration) of the invocation's project. */
export function openContextOf(inv: Invocation, io: IO): Context {
  return openContext({ dir: inv.dir, env: io.env });
}

/** Prints config problems and skipped files once each, on stderr. */
export function warnDiagnostics(io: IO, diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const key = `${d.file}:${d.line}:${d.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    io.err(`${formatSkipWarning(d)}\n`);
  }
}

export function printJson(io: IO, data: Record<string, unknown>): void {
  io.out(jsonDocument(data));
}

/** One line per memory: id, type, summary (and status when not active). */
export function formatResultLine(r: Pick<RecallResult, 'id' | 'type' | 'summary' | 'status' | 'scope'> & { unconfirmed?: true | undefined }, io: IO, index?: number): string {
  const p = io.paint;
  const num = index === undefined ? '' : `${String(index + 1).padStart(2)}. `;
  const extra = [r.unconfirmed ? 'unconfirmed' : '', r.status !== 'active' ? r.status : '', r.scope === 'global' ? 'global' : r.scope === 'local' ? 'private' : ''].filter(Boolean).join(', ');
  return `${num}${p.cyan(r.id)}  ${p.dim(`[${r.type}]`)}  ${r.summary}${extra ? p.dim(` (${extra})`) : ''}`;
}

/**
 * A file argument (`--files`, `recall --file`), optionally with its code anchor
 * (`#symbol`, `#L10-L20`), relative to the working directory as git takes paths: made
 * relative to the repository root; absolute paths as given. The api checks and normalises
 * both, and names a path outside the repository as this gives it (`../x`).
 *
 * @example
 * fileArgument(inv, io, '/repo', 'db.ts#acquire') // 'src/db.ts#acquire' when run in /repo/src
 */
export function fileArgument(inv: Pick<Invocation, 'dir'>, io: Pick<IO, 'cwd'>, root: string, entry: string): string {
  const cwd = resolve(io.cwd, inv.dir);
  const hash = entry.lastIndexOf('#');
  const path = hash >= 0 ? entry.slice(0, hash) : entry;
  if (isAbsolute(path) || path.trim() === '') return entry;
  const absolute = resolve(cwd, path);
  let fromRoot = relative(root, absolute);
  if (fromRoot.startsWith('..')) {
    // A working directory reached through the root's real path (a symlinked checkout).
    try {
      const real = relative(realpathSync(root), absolute);
      if (!real.startsWith('..') && !isAbsolute(real)) fromRoot = real;
    } catch {
      // The root as given.
    }
  }
  return `${fromRoot.split(sep).join('/')}${hash >= 0 ? entry.slice(hash) : ''}`;
}
