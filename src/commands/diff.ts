import { diffRange } from '../api/diff.js';
import { renderDiffMarkdown } from '../core/memory-diff.js';
import { renderPrComment } from '../core/pr-comment.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef } from '../term/args.js';
import { openContextOf, printJson } from './shared.js';

const command: CommandDef = {
  name: 'diff',
  summary: 'What a revision range changes in memory (for pull requests)',
  usage: ['diff <rev-range> [--json | --format github [--repo owner/name]] [--fail-on-flags]'],
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
    '--format github prints the review comment the CI action posts (docs/ci.md): grouped by type,\n' +
    'each memory with who or what captured it (kind, confidence, session, branch), unconfirmed\n' +
    'ones marked, edits with a short before -> after, a link to the file at the head commit (with\n' +
    '--repo, default $GITHUB_REPOSITORY), long sections collapsed, under 65,536 characters.\n' +
    'Reads the commits directly: nothing is checked out.',
  options: {
    'no-code': { type: 'boolean', description: 'Do not list the anchored code the range changes (no source parsing).' },
    format: { type: 'string', description: 'markdown (default) or github (the pull-request review comment).' },
    repo: { type: 'string', description: 'owner/name for links to the files at the head commit (default $GITHUB_REPOSITORY).' },
    'server-url': { type: 'string', description: 'Forge address for the links (default $GITHUB_SERVER_URL or https://github.com).' },
    'fail-on-flags': { type: 'boolean', description: 'Exit 1 when a secret, contradiction or stale reference is flagged (for CI).' },
  },
  exitCodes: ['1 with --fail-on-flags when something is flagged'],
  examples: ['cortex diff main..feature', 'cortex diff origin/main...HEAD --format github --repo acme/api', 'cortex diff HEAD~1..HEAD', 'cortex diff origin/main...HEAD --json', 'cortex diff main... > memory-changes.md'],
  async run(inv, io) {
    const range = inv.positionals[0];
    if (!range) throw new UsageError('Say which revisions to compare.', { hint: 'Example: cortex diff main..feature' });
    const format = str(inv, 'format') ?? 'markdown';
    if (format !== 'markdown' && format !== 'github') throw new UsageError(`Unknown --format ${format}.`, { hint: 'Use --format markdown or --format github.' });
    const out = await diffRange(openContextOf(inv, io), { range, ...(bool(inv, 'no-code') ? { code: false } : {}) });
    const failed = bool(inv, 'fail-on-flags') && out.flags.length > 0;
    if (inv.json) printJson(io, { ...out });
    else if (format === 'github') {
      const repo = str(inv, 'repo') ?? process.env['GITHUB_REPOSITORY'];
      const serverUrl = str(inv, 'server-url') ?? process.env['GITHUB_SERVER_URL'];
      io.out(renderPrComment(out, { ...(repo ? { repo } : {}), ...(serverUrl ? { serverUrl } : {}) }));
    } else io.out(renderDiffMarkdown(out, { range }));
    return failed ? 1 : 0;
  },
};
export default command;
