/**
 * Output helpers: the JSON envelope, diagnostics lines, plain tables.
 */
import type { Diagnostic } from '../core/memory.js';
import type { Painter } from './color.js';

/** Version of every `--json` document's shape. */
export const SCHEMA_VERSION = 1;

/** Wraps a result for `--json`: one document with `schemaVersion` first. */
export function jsonDocument(data: Record<string, unknown>): string {
  return `${JSON.stringify({ schemaVersion: SCHEMA_VERSION, ...data }, null, 2)}\n`;
}

/**
 * `path:line:col: severity: reason [rule]` and, when there is one, an indented hint.
 *
 * @example
 * formatDiagnostic({ file: 'a.md', line: 3, reason: 'bad', ruleId: 'x', severity: 'error' }) // 'a.md:3: error: bad [x]'
 */
export function formatDiagnostic(d: Diagnostic, paint?: Painter): string {
  const where = `${d.file}${d.line !== undefined ? `:${d.line}` : ''}${d.line !== undefined && d.column !== undefined ? `:${d.column}` : ''}`;
  const sev = d.severity === 'error' ? (paint?.red('error') ?? 'error') : (paint?.yellow('warning') ?? 'warning');
  const main = `${where}: ${sev}: ${d.reason} [${d.ruleId}]`;
  return d.hint ? `${main}\n  hint: ${d.hint}` : main;
}

/**
 * A diagnostic with the line it points at quoted under it (and the line before, for
 * context), so a person sees the mistake without opening the file.
 *
 * @example
 * formatDiagnosticInSource({ file: 'a.md', line: 2, reason: 'bad', ruleId: 'x', severity: 'error' }, '---\npriority: x\n')
 * // 'a.md:2: error: bad [x]\n     1 | ---\n  >  2 | priority: x'
 */
export function formatDiagnosticInSource(d: Diagnostic, text: string | undefined, paint?: Painter): string {
  const head = formatDiagnostic({ ...d, hint: undefined }, paint);
  const lines = text?.split(/\r?\n/) ?? [];
  const quoted: string[] = [];
  if (d.line !== undefined && d.line >= 1 && d.line <= lines.length) {
    const width = String(d.line).length;
    for (let n = Math.max(1, d.line - 1); n <= d.line; n++) {
      const shown = (lines[n - 1] ?? '').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?').slice(0, 160);
      quoted.push(`  ${n === d.line ? '>' : ' '} ${String(n).padStart(width)} | ${shown}`);
    }
  }
  return [head, ...quoted, ...(d.hint ? [`  hint: ${d.hint}`] : [])].join('\n');
}

/** One line per broken file, for commands that skip bad files and carry on. */
export function formatSkipWarning(d: Diagnostic): string {
  return `warning: skipped ${d.file}${d.line !== undefined ? `:${d.line}` : ''}: ${d.reason} (run \`cortex lint\` for details)`;
}

/** Left-aligned columns separated by two spaces. */
export function columns(rows: string[][], widths?: number[]): string[] {
  const w = widths ?? rows.reduce<number[]>((acc, row) => row.map((cell, i) => Math.max(acc[i] ?? 0, visibleLength(cell))), []);
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(Math.max(0, (w[i] ?? 0) - visibleLength(cell))))).join('  '));
}

export function visibleLength(s: string): number {
  return s.replace(/\u001b\[[0-9;]*m/g, '').length;
}
