import type { CommandDef } from '../term/args.js';
import { bool } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'index-code',
  summary: 'Parse the source into a symbol table and resolve the memories\' code anchors',
  usage: ['index-code [--rebuild]'],
  description:
    'Parses the repository\'s source files (those git tracks, or untracked and not ignored) with\n' +
    'tree-sitter — TypeScript, TSX, JavaScript, Python, Go and Rust — into a symbol table in\n' +
    '.memory/code-index.json (local, gitignored). Only files whose size or mtime changed are parsed again.\n' +
    '\n' +
    'Then it resolves every code anchor: a memory\'s `files:` entry with a symbol or a line range,\n' +
    'e.g. src/db/pool.ts#acquire, src/db/pool.ts#Pool.acquire or src/db/pool.ts#L10-L24 (line ranges\n' +
    'resolve to the smallest symbol that contains them). An anchor follows its code: the same name\n' +
    'and kind anywhere in the same file, or in the file git recorded a rename to. It records the\n' +
    'hash of the symbol\'s text when the memory was made (at its source.commit, else when first\n' +
    'indexed) and now: when they differ the memory is flagged possibly outdated, naming the symbol\n' +
    '("symbol acquire (function) in src/db/pool.ts changed since 3f2a9c1"). Whitespace and\n' +
    'indentation do not count; moving a function does not change it.\n' +
    '\n' +
    'Prints one line per anchor: ok, changed or missing (the symbol is gone or renamed).',
  options: {
    rebuild: { type: 'boolean', description: 'Parse every file again and take every anchor\'s baseline afresh.' },
  },
  examples: ['cortex index-code', 'cortex index-code --json | jq \'.anchors[] | select(.status != "ok")\''],
  async run(inv, io) {
    const ctx = openContextOf(inv, io);
    const started = Date.now();
    const { indexCode } = await import('../api/index-code.js');
    const out = await indexCode(ctx, { rebuild: bool(inv, 'rebuild') });
    const ms = Date.now() - started;
    if (inv.json) {
      printJson(io, { ms, ...out });
      return 0;
    }
    io.out(`${out.files} source files (${out.parsed} parsed, ${out.files - out.parsed} unchanged), ${out.symbols} symbols${out.skipped > 0 ? `, ${out.skipped} skipped` : ''}\n`);
    const p = io.paint;
    for (const a of out.anchors) {
      const where = a.symbol !== undefined && a.startLine !== undefined ? ` → ${a.path}#${a.symbol} (${a.kind}, lines ${a.startLine}-${a.endLine})` : '';
      const moved = a.renamedFrom !== undefined ? ` (renamed from ${a.renamedFrom})` : '';
      const status = a.status === 'ok' ? p.green('ok') : a.status === 'changed' ? p.yellow('changed') : p.red('missing');
      io.out(`${status}  ${a.entry}${where}${moved}  [${a.id}]\n`);
    }
    io.err(`${p.dim(`${ms} ms`)}\n`);
    return 0;
  },
};
export default command;
