/**
 * Opening $EDITOR (or $VISUAL) on a file and waiting for it to close.
 */
import { spawnSync } from 'node:child_process';
import { UsageError } from '../errors.js';
import type { IO } from '../term/args.js';

/** Runs the user's editor on `file`; throws a usage error when none is set or it fails. */
export function openEditor(file: string, io: IO): void {
  const editor = io.env.VISUAL || io.env.EDITOR;
  if (!editor) {
    throw new UsageError('No editor configured: set $EDITOR (or $VISUAL).', {
      hint: 'For example: export EDITOR=nano — or pass the text as an argument instead.',
    });
  }
  // EDITOR may carry arguments ("code --wait"): run it through the shell, quoting the file.
  const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
  const result = spawnSync(`${editor} ${quoted}`, { stdio: 'inherit', shell: true, env: io.env });
  if (result.error || result.status !== 0) {
    throw new UsageError(`The editor "${editor}" exited with ${result.error ? result.error.message : `status ${result.status}`}.`, {
      hint: 'Fix $EDITOR, or pass the text as an argument instead.',
    });
  }
}
