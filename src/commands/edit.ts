import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { MemoryStatus, MemoryType } from '../core/memory.js';
import { parseMemory } from '../core/memory-format.js';
import type { UpdateInput } from '../api/memories.js';
import { checkMemoryFile, memoryFileOf, resolveMemoryId, touchMemory } from '../api/memories.js';
import { keepForUndo, undoLines } from '../services/undo.js';
import type { Context } from '../services/context.js';
import { bool, int, list, num, str, type CommandDef, type IO } from '../term/args.js';
import { formatDiagnostic, formatDiagnosticInSource } from '../term/output.js';
import { openEditor } from './editor.js';
import { fileArgument, open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'edit',
  summary: 'Edit a memory in $EDITOR or with flags',
  usage: ['edit <id>', 'edit <id> [--summary <s>] [--priority <n>] [--add-tag <t>] [--remove-tag <t>] [--pin|--unpin] [--status <s>]'],
  description:
    'Without flags, opens the memory file in $EDITOR — a file that no longer parses too, so this is\n' +
    'how a broken memory gets fixed. After you save, the file is checked: when it is valid, `updated`\n' +
    'is set; when it is not, each mistake is shown with its line, and you are asked whether to open\n' +
    'the editor again. If you stop, the file stays exactly as you saved it (nothing typed is lost),\n' +
    'and the way back to the previous version is printed when there is one.\n' +
    'With flags, changes only those fields. The id never changes; a prefix of it that only one memory\n' +
    'has is enough. A change that changes nothing is not written.',
  options: {
    summary: { type: 'string', value: '<text>', description: 'New summary.' },
    body: { type: 'string', value: '<text>', description: 'New body.' },
    type: { type: 'string', value: '<type>', description: 'New type.' },
    priority: { type: 'string', value: '<1-10>', description: 'New priority.' },
    confidence: { type: 'string', value: '<0-1>', description: 'New confidence.' },
    status: { type: 'string', value: '<status>', description: 'active, archived or superseded.' },
    topic: { type: 'string', value: '<topic>', description: 'New topic ("" removes it).' },
    'add-tag': { type: 'string', value: '<tag>', multiple: true, description: 'Add tags.' },
    'remove-tag': { type: 'string', value: '<tag>', multiple: true, description: 'Remove tags.' },
    files: {
      type: 'string',
      value: '<a,b>',
      multiple: true,
      description: 'Replace the files the memory is about: paths (path#symbol, path#L10-L20) relative to the current directory or absolute inside the repository, stored relative to its root ("" clears them).',
    },
    pin: { type: 'boolean', description: 'Pin: never decays, always in the briefing.' },
    unpin: { type: 'boolean', description: 'Unpin.' },
  },
  exitCodes: ['1 when the file was left invalid after editing'],
  examples: ['cortex edit chose-sqlite-k3f9qa', 'cortex edit chose-sqlite-k3f9qa --priority 9 --add-tag database'],
  async run(inv, io) {
    const ref = inv.positionals[0];
    if (!ref || inv.positionals.length > 1) throw new UsageError('cortex edit takes exactly one memory id.', { hint: 'Find ids with `cortex list`.' });
    if (bool(inv, 'pin') && bool(inv, 'unpin')) throw new UsageError('Use either --pin or --unpin, not both.');
    const cortex = await open(inv, io);
    const update: UpdateInput = {
      ...(str(inv, 'summary') !== undefined ? { summary: str(inv, 'summary')! } : {}),
      ...(str(inv, 'body') !== undefined ? { body: str(inv, 'body')! } : {}),
      ...(str(inv, 'type') !== undefined ? { type: str(inv, 'type') as MemoryType } : {}),
      ...(int(inv, 'priority', [1, 10]) !== undefined ? { priority: int(inv, 'priority', [1, 10])! } : {}),
      ...(num(inv, 'confidence', [0, 1]) !== undefined ? { confidence: num(inv, 'confidence', [0, 1])! } : {}),
      ...(str(inv, 'status') !== undefined ? { status: str(inv, 'status') as MemoryStatus } : {}),
      ...(str(inv, 'topic') !== undefined ? { topic: str(inv, 'topic') === '' ? null : str(inv, 'topic')! } : {}),
      ...(list(inv, 'add-tag') ? { addTags: list(inv, 'add-tag')! } : {}),
      ...(list(inv, 'remove-tag') ? { removeTags: list(inv, 'remove-tag')! } : {}),
      ...(list(inv, 'files') ? { files: list(inv, 'files')!.filter((f) => f.trim() !== '').map((f) => fileArgument(inv, io, cortex.context.root, f)) } : {}),
      ...(bool(inv, 'pin') ? { pinned: true } : {}),
      ...(bool(inv, 'unpin') ? { pinned: false } : {}),
    };
    if (Object.keys(update).length === 0) return editInteractively(cortex.context, resolveMemoryId(cortex.context, ref), inv.json, io);
    const target = resolveMemoryId(cortex.context, ref);
    const where = memoryFileOf(cortex.context, target);
    // The way back, noted before the file is rewritten (git restore, or a copy in .memory/trash/).
    const undo = await keepForUndo(cortex.context, [{ path: where.path, scope: where.scope }], 'edit');
    const result = await cortex.update(target, update);
    // Nothing was rewritten: the copy is not needed.
    if (!result.changed && undo.trash) rmSync(resolve(cortex.context.root, undo.trash), { recursive: true, force: true });
    const id = result.memory.id;
    if (inv.json) {
      printJson(io, { id, file: result.file, changed: result.changed, memory: result.memory, undo: result.changed ? undo : null });
      return 0;
    }
    io.out(result.changed ? `Updated ${io.paint.cyan(id)}  ${io.paint.dim(result.file)}\n` : `No change to ${io.paint.cyan(id)}\n`);
    if (result.changed) for (const l of undoLines(undo)) io.out(`${l}\n`);
    return 0;
  },
};

/**
 * $EDITOR on the real file (broken or not), checked after each save; asks to reopen it while
 * it is invalid. The file is never rewritten here except to stamp `updated` on a valid change.
 */
async function editInteractively(ctx: Context, id: string, json: boolean, io: IO): Promise<number> {
  const { path, file, scope } = memoryFileOf(ctx, id);
  const original = readFileSync(path, 'utf8');
  const wasValid = parseMemory(original, { file, expectedId: id }).memory !== undefined;
  // The way back to what the file was, when git cannot give it (an uncommitted memory).
  const undo = wasValid ? await keepForUndo(ctx, [{ path, scope }], 'edit') : undefined;
  for (;;) {
    openEditor(path, io);
    const check = checkMemoryFile(ctx, id);
    const errors = check.diagnostics.filter((d) => d.severity === 'error');
    if (check.memory && errors.length === 0) {
      for (const d of check.diagnostics) io.err(`${formatDiagnostic(d, io.paint)}\n`);
      const changed = readFileSync(path, 'utf8') !== original;
      // Stamp `updated` (and write in canonical form) only when the person changed something.
      if (changed) await touchMemory(ctx, id);
      else if (undo?.trash) rmSync(resolve(ctx.root, undo.trash), { recursive: true, force: true });
      if (json) printJson(io, { id, file, changed, valid: true, undo: changed ? (undo ?? null) : null });
      else {
        io.err(changed ? `Saved ${file}\n` : 'No changes.\n');
        if (changed) for (const l of undoLines(undo)) io.err(`${l}\n`);
      }
      return 0;
    }
    const text = readFileSync(path, 'utf8');
    io.err(`${file} is not a valid memory:\n`);
    for (const d of check.diagnostics) io.err(`${formatDiagnosticInSource(d, text, io.paint)}\n`);
    const answer = json ? undefined : await io.ask?.('Open the editor again to fix it? [Y/n] ');
    if (answer === undefined || /^\s*n/i.test(answer)) {
      io.err(`${file} was kept as you saved it. Until it is fixed, recall, the briefing and the projections skip it.\n`);
      io.err(`fix: cortex edit ${id}\n`);
      if (undo?.gitRestore) io.err(`or go back to the committed version: ${undo.gitRestore}\n`);
      else if (undo?.trashRestore) io.err(`or go back to the version before this edit: ${undo.trashRestore}\n`);
      if (json) printJson(io, { id, file, changed: text !== original, valid: false, diagnostics: check.diagnostics });
      return 1;
    }
  }
}
export default command;
