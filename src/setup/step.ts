/**
 * What one step of `init` did, and the helper the steps share to add a line to a
 * line-based file (`.gitignore`, `.gitattributes`) without duplicating it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../store/atomic.js';

export interface InitStep {
  /** What was checked, e.g. `.gitignore`. */
  target: string;
  /** `skipped`: nothing was written, and `detail` says why and what to do instead. `removed`: a file Cortex wrote earlier was deleted. */
  action: 'created' | 'updated' | 'unchanged' | 'skipped' | 'removed';
  detail: string;
}

/** Adds `line` to a line-based file (like .gitignore) unless an equivalent line is there. */
export function ensureLine(path: string, line: string, equivalents: string[] = []): 'created' | 'updated' | 'unchanged' {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const lines = (existing ?? '').split(/\r?\n/).map((l) => l.trim());
  if ([line, ...equivalents].some((l) => lines.includes(l))) return 'unchanged';
  const prefix = existing === undefined || existing === '' || existing.endsWith('\n') ? existing ?? '' : `${existing}\n`;
  writeFileAtomic(path, `${prefix}${line}\n`);
  return existing === undefined ? 'created' : 'updated';
}
