import { acceptReview, listReview, rejectReview, type ReviewItem } from '../api/review.js';
import { UsageError } from '../errors.js';
import { bool, list, type CommandDef, type IO } from '../term/args.js';
import { open, printJson } from './shared.js';

function describe(item: ReviewItem, io: IO): string {
  const p = io.paint;
  const meta = [item.type, item.confidence !== undefined ? item.confidence.toFixed(2) : undefined, item.branch].filter(Boolean).join(', ');
  return `${`#${item.n}`.padStart(4)}  ${p.cyan(item.short)}  ${item.summary}${meta ? p.dim(`  (${meta})`) : ''}`;
}

const command: CommandDef = {
  name: 'review',
  summary: 'Accept or reject the low-confidence memories extraction queued',
  usage: ['review', 'review --accept <n|id>[,…]', 'review --reject <n|id>[,…]', 'review --accept-all | --reject-all'],
  description:
    'Automatic extraction stores confident candidates as memories; the ones it was unsure about\n' +
    '(scored below extraction.threshold) wait here, in .memory/review.jsonl, which is local and never\n' +
    'committed, so nothing below the threshold reaches .cortex/ or decisions.md unless you accept it.\n' +
    'Each entry has a number (#3) and a short id (3f9a2c), given when it was queued: they never change,\n' +
    'so accepting #1 leaves #2 as #2. --accept and --reject take either (or a unique prefix of the\n' +
    'short id, or the candidate-<hex> id the prompt hook shows). Accepted candidates become memories\n' +
    'with confidence at least 0.9 and source.confirmed: person (memory_review records assistant).\n' +
    'Until then the prompt hook may inject a candidate a prompt needs, marked (unconfirmed); it stops\n' +
    'doing so review.expireDays (30) days after the candidate was queued.\n' +
    'The briefing says how many wait; the MCP tool memory_review goes through them mid-session.',
  options: {
    accept: { type: 'string', value: '<n>', multiple: true, description: 'Store these entries as memories.' },
    reject: { type: 'string', value: '<n>', multiple: true, description: 'Drop these entries.' },
    'accept-all': { type: 'boolean', description: 'Store every queued memory candidate.' },
    'reject-all': { type: 'boolean', description: 'Empty the queue.' },
  },
  examples: ['cortex review', 'cortex review --accept 1,3', 'cortex review --reject 2', 'cortex review --accept 3f9a2c', 'cortex review --json'],
  async run(inv, io) {
    const accept = list(inv, 'accept');
    const reject = list(inv, 'reject');
    const acceptAll = bool(inv, 'accept-all');
    const rejectAll = bool(inv, 'reject-all');
    const actions = [accept, reject, acceptAll || undefined, rejectAll || undefined].filter((x) => x !== undefined).length;
    if (actions > 1) {
      throw new UsageError('Use one of --accept, --reject, --accept-all and --reject-all at a time.', {
        hint: 'Run them one after the other: numbers and ids do not change in between.',
      });
    }
    for (const [flag, ids] of [['accept', accept], ['reject', reject]] as const) {
      if (ids !== undefined && ids.length === 0) throw new UsageError(`--${flag} needs entry numbers or short ids.`, { hint: `Example: cortex review --${flag} 2` });
    }
    const cortex = await open(inv, io);
    const ctx = cortex.context;
    const p = io.paint;
    if (accept || acceptAll) {
      const out = await acceptReview(ctx, { select: acceptAll ? 'all' : (accept as string[]) });
      if (inv.json) {
        printJson(io, {
          accepted: out.accepted.map((a) => ({ ...a.item, action: a.result.action, memory: a.result.memory.id, file: a.result.file })),
          skipped: out.skipped,
        });
        return 0;
      }
      for (const a of out.accepted) io.out(`${p.green('accepted')}  #${a.item.n} ${a.item.short}  ${a.item.summary}  ${p.dim(`→ ${a.result.memory.id} (${a.result.action})`)}\n`);
      if (out.accepted.length === 0) io.out('Nothing to accept.\n');
      return 0;
    }
    if (reject || rejectAll) {
      const out = await rejectReview(ctx, { select: rejectAll ? 'all' : (reject as string[]) });
      if (inv.json) {
        printJson(io, { rejected: out.rejected });
        return 0;
      }
      for (const r of out.rejected) io.out(`${p.yellow('rejected')}  #${r.n} ${r.short}  ${r.summary}\n`);
      if (out.rejected.length === 0) io.out('Nothing to reject.\n');
      return 0;
    }
    const { items, consolidate } = listReview(ctx);
    if (inv.json) {
      printJson(io, { items, consolidate });
      return 0;
    }
    const more = consolidate > 0 ? `${consolidate} likely duplicate pair${consolidate === 1 ? '' : 's'} wait in \`cortex consolidate\`.\n` : '';
    if (items.length === 0) {
      io.out('No extracted memory waits for review.\n');
      if (more) io.err(p.dim(more));
      return 0;
    }
    for (const item of items) io.out(`${describe(item, io)}\n`);
    io.err(p.dim(`\n${items.length} queued. Accept with \`cortex review --accept <n>\`, reject with \`--reject <n>\` (numbers stay as they are).\n${more}`));
    return 0;
  },
};
export default command;
