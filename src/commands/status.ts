import type { CommandDef } from '../term/args.js';
import { formatSkipWarning } from '../term/output.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'status',
  summary: 'Counts by type and status, and index health',
  usage: ['status'],
  description:
    'Per tier: how many memories of each type and status, and whether the search index is healthy.\n' +
    'Then whether semantic recall is on: the embedding model configured, how many memories have a\n' +
    'vector for it, and when it is off (or memories lack vectors) why, with the command that fixes it\n' +
    '(`cortex index --embed`). It reads only the cache headers: the model is not loaded.',
  options: {},
  async run(inv, io) {
    const cortex = await open(inv, io);
    const out = cortex.status();
    if (inv.json) {
      printJson(io, { root: out.root, tiers: out.tiers, semantic: out.semantic, diagnostics: out.diagnostics });
      return 0;
    }
    const p = io.paint;
    io.out(`${p.bold('Project')}: ${out.root}\n`);
    for (const t of out.tiers) {
      io.out(`\n${p.bold(t.scope === 'project' ? 'Project memories' : t.scope === 'local' ? 'Private memories' : 'Global memories')} (${t.dir}): ${t.total}\n`);
      const types = Object.entries(t.byType).sort(([a], [b]) => a.localeCompare(b));
      if (types.length > 0) io.out(`  by type:   ${types.map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
      const statuses = Object.entries(t.byStatus).sort(([a], [b]) => a.localeCompare(b));
      if (statuses.length > 0) io.out(`  by status: ${statuses.map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
      const health = t.index.brokenFiles > 0 ? p.yellow(`${t.index.brokenFiles} file(s) could not be indexed (run \`cortex lint\`)`) : p.green('healthy');
      io.out(`  index:     ${health}, ${(t.index.bytes / 1024).toFixed(0)} KiB${t.index.rebuilt ? ', rebuilt now' : ''}\n`);
    }
    const sem = out.semantic;
    const vectors = `${sem.embedded} of ${sem.embeddable} ${sem.embeddable === 1 ? 'memory' : 'memories'} embedded with ${sem.model}`;
    io.out(`\n${p.bold('Semantic recall')}: ${sem.on ? p.green('on') : p.yellow('off, keyword only')} (${sem.enabled ? vectors : 'embeddings turned off'})\n`);
    if (sem.why) io.out(`  ${sem.why}\n`);
    const config = out.diagnostics.filter((d) => d.ruleId.startsWith('config'));
    for (const d of config) io.err(`${formatSkipWarning(d)}\n`);
    return 0;
  },
};
export default command;
