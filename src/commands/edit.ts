import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { MemoryStatus, MemoryType } from '../core/memory.js';
import type { UpdateInput } from '../api/memories.js';
import { checkMemoryFile, memoryFileOf, touchMemory } from '../api/memories.js';
import { bool, int, list, num, str, type CommandDef } from '../term/args.js';
import { formatDiagnostic } from '../term/output.js';
import { openEditor } from './editor.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'edit',
  summary: 'Edit a memory in $EDITOR or with flags',
  usage: ['edit <id>', 'edit <id> [--summary <s>] [--priority <n>] [--add-tag <t>] [--remove-tag <t>] [--pin|--unpin] [--status <s>]'],
  description:
    'Without flags, opens the memory file in $EDITOR; after you save, the file is checked and `updated`\n' +
    'is set. If the file no longer parses, it is left exactly as you saved it and the problem is shown.\n' +
    'With flags, changes only those fields. The id never changes. A change that changes nothing is not written.',
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
    pin: { type: 'boolean', description: 'Pin: never decays.' },
    unpin: { type: 'boolean', description: 'Unpin.' },
  },
  examples: ['cortex edit chose-sqlite-k3f9qa', 'cortex edit chose-sqlite-k3f9qa --priority 9 --add-tag database'],
  async run(inv, io) {
    const id = inv.positionals[0];
    if (!id || inv.positionals.length > 1) throw new UsageError('cortex edit takes exactly one memory id.', { hint: 'Find ids with `cortex list`.' });
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
      ...(bool(inv, 'pin') ? { pinned: true } : {}),
      ...(bool(inv, 'unpin') ? { pinned: false } : {}),
    };
    if (Object.keys(update).length === 0) {
      // Interactive: the person edits the real file; we only check it afterwards.
      cortex.get(id);
      const path = memoryFileOf(cortex.context, id);
      const before = readFileSync(path, 'utf8');
      openEditor(path, io);
      const after = readFileSync(path, 'utf8');
      const check = checkMemoryFile(cortex.context, id);
      const errors = check.diagnostics.filter((d) => d.severity === 'error');
      for (const d of check.diagnostics) io.err(`${formatDiagnostic(d, io.paint)}\n`);
      if (!check.memory || errors.length > 0) {
        io.err(`The file was kept as you saved it. Fix it with \`cortex edit ${id}\`, or undo with \`git checkout -- ${check.file}\`.\n`);
        if (inv.json) printJson(io, { id, file: check.file, changed: before !== after, valid: false, diagnostics: check.diagnostics });
        return 1;
      }
      const changed = before !== after;
      // Stamp `updated` (and write in canonical form) only when the person changed something.
      if (changed) await touchMemory(cortex.context, id);
      if (inv.json) printJson(io, { id, file: check.file, changed, valid: true });
      else io.err(changed ? `Saved ${check.file}\n` : 'No changes.\n');
      return 0;
    }
    const result = await cortex.update(id, update);
    if (inv.json) {
      printJson(io, { id, file: result.file, changed: result.changed, memory: result.memory });
      return 0;
    }
    io.out(result.changed ? `Updated ${io.paint.cyan(id)}\n` : `No change to ${io.paint.cyan(id)}\n`);
    return 0;
  },
};
export default command;
