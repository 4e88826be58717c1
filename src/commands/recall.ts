import { redactDeep, redactSecrets } from '../core/redact.js';
import type { MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { RECALL_MODES, recall, type RecallMode, type RecallResult } from '../api/recall/recall.js';
import { expandStatuses } from '../api/recall/results.js';
import { UsageError } from '../errors.js';
import type { Context } from '../services/context.js';
import { bool, int, list, str, type CommandDef, type Invocation, type IO } from '../term/args.js';
import { fileArgument, formatResultLine, openContextOf, printJson, warnDiagnostics } from './shared.js';

export function statusesOf(values: string[] | undefined): MemoryStatus[] | undefined {
  if (!values) return undefined;
  return expandStatuses(values);
}

const command: CommandDef = {
  name: 'recall',
  summary: 'Find the memories relevant to a query',
  usage: ['recall <query> [--type <t>] [--tag <tag>] [--limit <n>] [--mode keyword|semantic|hybrid]', 'recall --file <path>[#symbol] [--limit <n>]'],
  description:
    'Keyword search (BM25 with stemming, prefix and fuzzy matching; summary > tags > body) over the\n' +
    'project memories and the global ones ($CORTEX_HOME). A small thesaurus of coding terms connects\n' +
    'words such as "database" and "SQLite". Only active memories are searched unless --status says\n' +
    'otherwise. Files that cannot be read are skipped with one warning each on stderr. A secret in a\n' +
    'memory file typed by hand is printed as [REDACTED:<kind>], like everything Cortex prints.\n' +
    '\n' +
    'Once `cortex index --embed` has computed embedding vectors, recall is hybrid by default: the\n' +
    'keyword ranking fused with cosine similarity of local embeddings (reciprocal rank fusion), so a\n' +
    'paraphrase finds a memory that shares no word with it. Memories added since are embedded on the\n' +
    'fly (up to 64). Without a usable model, recall stays keyword-only and prints one notice line on\n' +
    'stderr naming the cause and the fix; it never fails for that.\n' +
    '\n' +
    'Results stop where relevance does: a result scoring under recall.minScoreShare (0.2) of the\n' +
    'best one, or a keyword match holding under recall.minCoverage (0.2) of the query\'s words\n' +
    '(weighted by rarity), is not shown, so --limit is a maximum and an unrelated query finds\n' +
    'nothing. Both are settings in .cortex/config.yaml; --no-floor shows everything. Global\n' +
    'memories are ranked on the same scale as the project\'s, at recall.globalWeight (0.9) of them.\n' +
    'A match captured next to other matches in its session (up to two memories before or after)\n' +
    'ranks higher, by recall.neighbourWeight (0.1) of their score; 0 turns that off.\n' +
    '\n' +
    'A captured candidate waiting in the review queue (.memory/review.jsonl) comes among the\n' +
    'results when it passes the prompt hook\'s rule (two of the query\'s specific words in its own\n' +
    'summary): marked (unconfirmed), id candidate-<hex>, its body as the preview, no file\n' +
    '("unconfirmed": true, "file": "" in --json). It is never written to .cortex/ until accepted\n' +
    '(`cortex review --accept candidate-<hex>`); --type, --tag and --since apply to it.\n' +
    '\n' +
    'With --file, no query: the memories anchored to that file (their files: list names it), or to\n' +
    'a symbol in it with path#symbol (anchors to the whole file included), symbol anchors first —\n' +
    'what the PostToolUse hook injects when the assistant reads or edits the file. A memory whose\n' +
    'anchored symbol changed since it was made (see `cortex index-code`) is marked POSSIBLY OUTDATED.',
  options: {
    type: { type: 'string', short: 't', value: '<type>', multiple: true, description: 'Only these types (comma-separated or repeated).' },
    tag: { type: 'string', value: '<tag>', multiple: true, description: 'Only memories with all these tags.' },
    status: { type: 'string', value: '<status>', multiple: true, description: 'active (default), archived, superseded or all.' },
    scope: { type: 'string', value: '<scope>', description: 'project or global (default both).' },
    since: { type: 'string', value: '<when>', description: 'Only memories updated since an ISO date or an age (7d, 2w, 12h).' },
    limit: { type: 'string', short: 'n', value: '<n>', description: 'At most n results (default 10): a maximum, not a quota.' },
    'no-floor': { type: 'boolean', description: 'Show the whole ranking up to --limit, weak matches included (no relevance floor).' },
    branch: { type: 'string', short: 'b', value: '<branch>', description: "Search that branch's (or revision's: main~2, @{u}) memories, read from git (no checkout)." },
    'all-branches': { type: 'boolean', description: 'Search the work tree and every other local branch; marks what is not merged.' },
    'no-enrich': { type: 'boolean', description: 'Do not add linked code and graph neighbours to the results.' },
    file: { type: 'string', value: '<path>[#symbol]', description: 'The memories anchored to this file or symbol (relative to the current directory), instead of a search.' },
    mode: {
      type: 'string',
      short: 'm',
      value: '<mode>',
      description: 'keyword, semantic or hybrid (default: hybrid when `cortex index --embed` has run, else keyword).',
    },
  },
  examples: [
    'cortex recall "which database did we pick"',
    'cortex recall auth --type decision,rejected --json | jq ".results[].id"',
    'cortex recall "what storage engine did we settle on" --mode hybrid',
    'cortex recall --file src/db/pool.ts#acquire',
  ],
  async run(inv, io) {
    const mode = str(inv, 'mode');
    if (mode !== undefined && !RECALL_MODES.includes(mode as RecallMode)) {
      throw new UsageError(`--mode must be one of ${RECALL_MODES.join(', ')}, got "${mode}".`);
    }
    const ctx = openContextOf(inv, io);
    const file = str(inv, 'file');
    if (file !== undefined) return recallFileCommand(ctx, file, inv, io);
    const query = inv.positionals.join(' ');
    const out = await recall(ctx, {
      query,
      ...(list(inv, 'type') ? { types: list(inv, 'type') as MemoryType[] } : {}),
      ...(list(inv, 'tag') ? { tags: list(inv, 'tag')! } : {}),
      ...(statusesOf(list(inv, 'status')) ? { statuses: statusesOf(list(inv, 'status'))! } : {}),
      ...(str(inv, 'scope') ? { scope: str(inv, 'scope') as Scope } : {}),
      ...(str(inv, 'since') ? { since: str(inv, 'since')! } : {}),
      ...(int(inv, 'limit', [1, 1000]) !== undefined ? { limit: int(inv, 'limit', [1, 1000])! } : {}),
      ...(str(inv, 'branch') ? { branch: str(inv, 'branch')! } : {}),
      ...(inv.values['all-branches'] === true ? { allBranches: true } : {}),
      ...(bool(inv, 'no-enrich') ? { enrich: false } : {}),
      ...(mode !== undefined ? { mode: mode as RecallMode } : {}),
      ...(bool(inv, 'no-floor') ? { relevance: { minScoreShare: 0, minCoverage: 0 } } : {}),
    });
    warnDiagnostics(io, out.diagnostics);
    if (out.notice) io.err(`notice: ${out.notice}\n`);
    // The output gate (issue 36): results come from memory files, and one typed by hand
    // never passed the store's gate. The core rules only, as the prompt hooks run them.
    if (inv.json) {
      printJson(io, redactDeep({ query: out.query, mode: out.mode, ...(out.notice ? { notice: out.notice } : {}), results: out.results }, { preset: false }).value);
      return 0;
    }
    if (out.results.length === 0) {
      const shown = out.query.length > 80 ? `${out.query.slice(0, 79)}…` : out.query;
      const hidden = out.belowFloor ?? 0;
      io.err(
        hidden > 0
          ? `Nothing relevant to "${shown}": ${hidden} weak ${hidden === 1 ? 'match' : 'matches'} below the relevance floor (--no-floor shows ${hidden === 1 ? 'it' : 'them'}).\n`
          : `No memories match "${shown}".\n`,
      );
      return 0;
    }
    const where = (r: (typeof out.results)[number]) => (r.ref ? io.paint.dim(` (on ${r.ref.branch}${r.ref.merged ? '' : ', not merged'})`) : '');
    io.out(redactSecrets(out.results.map((r, i) => `${formatResultLine(r, io, i)}${where(r)}\n${formatEnrichment(r, io)}`).join(''), { preset: false }).text);
    return 0;
  },
};
async function recallFileCommand(ctx: Context, file: string, inv: Invocation, io: IO): Promise<number> {
  if (inv.positionals.length > 0) throw new UsageError('--file takes no query.', { hint: 'Run `cortex recall --file <path>[#symbol]` or `cortex recall <query>`.' });
  const { recallFile } = await import('../api/recall/file.js');
  const limit = int(inv, 'limit', [1, 1000]);
  const out = recallFile(ctx, { file: fileArgument(inv, io, ctx.root, file), ...(limit !== undefined ? { limit } : {}) });
  if (inv.json) {
    printJson(io, redactDeep({ path: out.path, ...(out.symbol !== undefined ? { symbol: out.symbol } : {}), results: out.results }, { preset: false }).value);
    return 0;
  }
  const target = `${out.path}${out.symbol !== undefined ? `#${out.symbol}` : ''}`;
  if (out.results.length === 0) {
    io.err(`No memories are anchored to ${target}.\n`);
    return 0;
  }
  const p = io.paint;
  const lines = out.results.map((r, i) => {
    const outdated = r.outdated !== undefined ? ` ${p.yellow(`[POSSIBLY OUTDATED: ${r.outdated}]`)}` : '';
    return `${String(i + 1).padStart(2)}. ${p.cyan(r.id)}  ${p.dim(`[${r.type}]`)}  ${r.summary}  ${p.dim(r.entry)}${outdated}\n`;
  });
  io.out(redactSecrets(lines.join(''), { preset: false }).text);
  return 0;
}

/** Indented lines under a result: the code it describes, then its graph neighbours. */
export function formatEnrichment(r: Pick<RecallResult, 'code' | 'related'>, io: IO): string {
  const p = io.paint;
  let text = '';
  for (const c of r.code ?? []) text += `      ${p.dim('code')} ${p.cyan(c.id)}  ${c.summary}\n`;
  for (const n of r.related ?? []) {
    const arrow = n.direction === 'out' ? '→' : '←';
    const indent = n.depth > 1 ? '        ' : '      ';
    text += `${indent}${p.dim(`${arrow} ${n.relation}`)} ${p.cyan(n.id)}  ${n.summary}${n.depth > 1 ? p.dim(`  (via ${n.from})`) : ''}\n`;
  }
  return text;
}

export default command;
