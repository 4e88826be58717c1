import { runMergeDriver } from '../api/merge-driver.js';
import { isDebug } from '../env.js';
import { UsageError } from '../errors.js';
import type { CommandDef } from '../term/args.js';
import { printJson } from './shared.js';

const command: CommandDef = {
  name: 'merge-driver',
  summary: 'Git merge driver for .cortex/ files (configured by cortex init)',
  usage: ['merge-driver <%O> <%A> <%B> <%P> [<%L>]'],
  description:
    'Git runs this during merges for the paths .gitattributes marks `merge=cortex`; `cortex init`\n' +
    'configures it as `merge.cortex.driver`. Memory and edge files merge field by field (tags union\n' +
    'minus removals, priority and updated max, status superseded > archived > active) and their\n' +
    'bodies line by line. Projections (decisions.md, plan.md, decisions-archive.md) are regenerated\n' +
    'from the merged memories during git merge and rebase, and merged entry by entry otherwise.\n' +
    'The result is written to %A; conflicts leave standard markers there and are listed on stderr.',
  options: {},
  exitCodes: [
    '0 merged cleanly',
    '1 conflict markers were left in %A (or the files could not be read); git stops for a person',
    'Never above 128: git (2.42 and later) would take that for a crashed driver and abort the merge.',
  ],
  examples: ["git config merge.cortex.driver 'cortex merge-driver %O %A %B %P %L'"],
  async run(inv, io) {
    const [base, ours, theirs, path, marker] = inv.positionals;
    if (!base || !ours || !theirs || !path) {
      throw new UsageError('cortex merge-driver needs four arguments: %O %A %B %P.', {
        hint: 'Git passes them; run `cortex init` to configure the driver instead of calling it by hand.',
      });
    }
    const markerSize = marker === undefined ? undefined : Number(marker);
    if (markerSize !== undefined && !(Number.isInteger(markerSize) && markerSize > 0 && markerSize < 200)) {
      throw new UsageError(`The conflict marker size (%L) must be a small positive integer, got "${marker}".`);
    }
    const out = runMergeDriver({ base, ours, theirs, path, ...(markerSize ? { markerSize } : {}), cwd: inv.dir, env: io.env });
    for (const c of out.conflicts) io.err(`cortex: ${c.file}${c.line ? `:${c.line}` : ''}: ${c.reason}\n`);
    if (!out.clean && out.kind === 'projection') {
      io.err(`cortex: ${path} is generated; once the memories are merged, run \`cortex project\` and \`git add ${path}\`.\n`);
    }
    if (isDebug(io.env) && out.method) io.err(`cortex: ${path}: ${out.method === 'regenerated' ? 'regenerated from the merged memories' : `merged entry by entry (${out.note})`}\n`);
    if (inv.json) printJson(io, { path, ...out });
    return out.clean ? 0 : 1;
  },
};
export default command;
