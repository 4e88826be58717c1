import { diffRange } from '../api/diff.js';
import { renderDiffMarkdown } from '../core/memory-diff.js';
import { UsageError } from '../errors.js';
import { bool, type CommandDef } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'diff',
  summary: 'What a revision range changes in memory (for pull requests)',
  usage: ['diff <rev-range> [--json] [--fail-on-flags]'],
  description:
    'Summarises the memory changes of a range: memories and edges added, edited (with the fields),\n' +
    'superseded, archived, restored and deleted, grouped by type, with flags for secrets,\n' +
    'contradictions (`contradicts` edges) and references to files or memories that do not exist.\n' +
    '`main..feature` and `main...feature` both compare feature with where it left main (its merge\n' +
    'base), as a pull request does; a single revision is compared with HEAD the same way.\n' +
    "Revisions take git's syntax: HEAD~1, main^, @{u}, tags, short commit ids (resolved by\n" +
    '`git rev-parse` when git is installed).\n' +
    'It also lists the code the range changes that memories are anchored to (their files: entries,\n' +
    'e.g. src/db/pool.ts#acquire): "This range changes `Pool.acquire` in `src/db/pool.ts`, which 2\n' +
    'memories describe", so a reviewer sees knowledge that may need updating. A symbol counts as\n' +
    'changed when its text (whitespace aside) differs between the two ends, parsed with tree-sitter;\n' +
    'a whole-file anchor when the file changed. --no-code leaves this out.\n' +
    'Prints markdown, ready to post as a pull-request comment; --json for tools.\n' +
    'Reads the commits directly: nothing is checked out.',
  options: {
    'no-code': { type: 'boolean', description: 'Do not list the anchored code the range changes (no source parsing).' },
    'fail-on-flags': { type: 'boolean', description: 'Exit 1 when a secret, contradiction or stale reference is flagged (for CI).' },
  },
  exitCodes: ['1 with --fail-on-flags when something is flagged'],
  examples: ['cortex diff main..feature', 'cortex diff HEAD~1..HEAD', 'cortex diff origin/main...HEAD --json', 'cortex diff main... > memory-changes.md'],
  async run(inv, io) {
    const range = inv.positionals[0];
    if (!range) throw new UsageError('Say which revisions to compare.', { hint: 'Example: cortex diff main..feature' });
    const out = await diffRange(openContextOf(inv, io), { range, ...(bool(inv, 'no-code') ? { code: false } : {}) });
    const failed = bool(inv, 'fail-on-flags') && out.flags.length > 0;
    if (inv.json) printJson(io, { ...out });
    else io.out(renderDiffMarkdown(out, { range }));
    return failed ? 1 : 0;
  },
};
export default command;
