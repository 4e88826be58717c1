import type { MemoryType, Scope } from '../core/memory.js';
import { int, list, str, type CommandDef } from '../term/args.js';
import { statusesOf } from './recall.js';
import { formatResultLine, open, printJson, warnDiagnostics } from './shared.js';

const command: CommandDef = {
  name: 'list',
  summary: 'List memories, with filters',
  usage: ['list [--type <t>] [--tag <tag>] [--status <s>] [--sort updated|created|priority|id]'],
  description: 'Lists memories from the index, newest first. Only active ones unless --status says otherwise.',
  options: {
    type: { type: 'string', short: 't', value: '<type>', multiple: true, description: 'Only these types.' },
    tag: { type: 'string', value: '<tag>', multiple: true, description: 'Only memories with all these tags.' },
    status: { type: 'string', value: '<status>', multiple: true, description: 'active (default), archived, superseded or all.' },
    scope: { type: 'string', value: '<scope>', description: 'project or global (default both).' },
    since: { type: 'string', value: '<when>', description: 'Only memories updated since an ISO date or an age (7d, 2w).' },
    sort: { type: 'string', value: '<key>', description: 'updated (default), created, priority or id.' },
    limit: { type: 'string', short: 'n', value: '<n>', description: 'At most n memories.' },
  },
  examples: ['cortex list --type decision', 'cortex list --status all --json'],
  async run(inv, io) {
    const cortex = await open(inv, io);
    const out = cortex.list({
      ...(list(inv, 'type') ? { types: list(inv, 'type') as MemoryType[] } : {}),
      ...(list(inv, 'tag') ? { tags: list(inv, 'tag')! } : {}),
      ...(statusesOf(list(inv, 'status')) ? { statuses: statusesOf(list(inv, 'status'))! } : {}),
      ...(str(inv, 'scope') ? { scope: str(inv, 'scope') as Scope } : {}),
      ...(str(inv, 'since') ? { since: str(inv, 'since')! } : {}),
      ...(str(inv, 'sort') ? { sort: str(inv, 'sort') as 'updated' } : {}),
      ...(int(inv, 'limit', [1, 1_000_000]) !== undefined ? { limit: int(inv, 'limit', [1, 1_000_000])! } : {}),
    });
    warnDiagnostics(io, out.diagnostics);
    if (inv.json) {
      printJson(io, { total: out.total, memories: out.memories });
      return 0;
    }
    for (const m of out.memories) io.out(`${formatResultLine(m, io)}\n`);
    io.err(`${io.paint.dim(`${out.memories.length} of ${out.total} memories`)}\n`);
    return 0;
  },
};
export default command;
