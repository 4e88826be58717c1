/**
 * The pure parts of bench:continuity (bench/continuity.mjs): arguments, the TUNE/HELD split,
 * the markdown tables, and — for the long-lived run, which drives the hooks itself — the
 * shared scorer's match rule and block attribution.
 *
 * The match code below is a faithful copy of `../shared/tools/continuity-eval.mjs`
 * (functions `matches`, `contextBlocksOf`, `attribute`, `matchingBlocks`, `norm`): that
 * script exports nothing and runs its main() on import, so it cannot be imported. Keep the
 * two in step; test/bench-continuity.test.ts pins the rule on plain data.
 */

/** The evaluation split agreed for issue 35: tune on these, report on the others too. */
export const SPLITS = {
  tune: ['01', '04', '07', '10', '11', '12', '13'],
  held: ['14', '15', '16', '17', '18', '19', '20', '21'],
};

/** 'tune' | 'held' | undefined for a transcript file name such as `07-task-patterns-v1.0.89.jsonl`. */
export function splitOf(file) {
  const prefix = /^(\d+)/.exec(file)?.[1];
  if (prefix === undefined) return undefined;
  if (SPLITS.tune.includes(prefix)) return 'tune';
  if (SPLITS.held.includes(prefix)) return 'held';
  return undefined;
}

export class UsageError extends Error {}

const MODES = ['one-session', 'long-lived', 'reflect-cost'];

/**
 * Reads bench:continuity's arguments. Values are returned as given (paths are resolved by the
 * caller). Throws UsageError on anything unknown.
 */
export function parseArgs(argv) {
  const opts = { split: 'all', mode: 'one-session', only: undefined, controls: undefined, from: undefined, out: undefined, cli: undefined, scorer: undefined, gold: undefined, questions: undefined, transcripts: undefined, compare: undefined, keep: false, wait: 60, help: false };
  const takes = { '--split': 'split', '--only': 'only', '--controls': 'controls', '--from': 'from', '--out': 'out', '--cli': 'cli', '--scorer': 'scorer', '--gold': 'gold', '--questions': 'questions', '--transcripts': 'transcripts', '--compare': 'compare', '--wait': 'wait' };
  const modes = [];
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg in takes) {
      if (value === undefined) {
        if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`${arg} needs a value`);
        value = argv[++i];
      }
      opts[takes[arg]] = value;
      continue;
    }
    if (value !== undefined) throw new UsageError(`${arg} takes no value`);
    switch (arg) {
      case '--long-lived': modes.push('long-lived'); break;
      case '--reflect-cost': modes.push('reflect-cost'); break;
      case '--keep': opts.keep = true; break;
      case '--help': case '-h': opts.help = true; break;
      default: throw new UsageError(`unknown argument ${JSON.stringify(argv[i])}`);
    }
  }
  if (modes.length > 1) throw new UsageError(`use one of --long-lived and --reflect-cost, not both`);
  if (modes.length === 1) opts.mode = modes[0];
  if (!['all', 'tune', 'held'].includes(opts.split)) throw new UsageError(`--split takes tune, held or all, not ${JSON.stringify(opts.split)}`);
  if (opts.only !== undefined && opts.split !== 'all') throw new UsageError('--only and --split select transcripts both: give one');
  const wait = Number(opts.wait);
  if (!Number.isFinite(wait) || wait <= 0) throw new UsageError(`--wait takes a positive number of seconds, not ${JSON.stringify(opts.wait)}`);
  opts.wait = wait;
  if (!MODES.includes(opts.mode)) throw new UsageError(`unknown mode ${opts.mode}`);
  return opts;
}

/** The `--only` list the scorer gets for a split ('all' → undefined: every transcript). */
export function onlyFor(opts) {
  if (opts.only !== undefined) return opts.only;
  return opts.split === 'all' ? undefined : SPLITS[opts.split].join(',');
}

// ---------------------------------------------------------------- the scorer's match rule (copied, see above)

/** continuity-eval.mjs `matches`: every group of the item's `match` has a string in the lower-cased text. */
export function matches(item, text) {
  const t = text.toLowerCase();
  return item.match.every((group) => group.some((s) => t.includes(s.toLowerCase())));
}

/** continuity-eval.mjs `contextBlocksOf`: bullet lines with their indented lines, Cortex's tags removed. */
export function contextBlocksOf(text) {
  const blocks = [];
  for (const raw of text.split('\n')) {
    const line = raw
      .replace(/\[s[0-9a-f]{4,12}(?:, [^\]]+)?\]/g, '')
      .replace(/\(~\d(?:\.\d+)?\)/g, '')
      .replace(/\[POSSIBLY OUTDATED[^\]]*\]/g, '')
      .replace(/\[[a-z0-9][a-z0-9-]*, \d{4}-\d{2}-\d{2}\]/g, '');
    if (/^[-*] /.test(raw)) blocks.push({ text: line, head: raw });
    else if (/^\s+\S/.test(raw) && blocks.length > 0) blocks[blocks.length - 1].text += `\n${line}`;
  }
  return blocks;
}

const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** continuity-eval.mjs `attribute`: the memory a block shows (its [id, date] tag, else the summary prefix). */
export function attribute(block, memories) {
  const tag = /\[([a-z0-9][a-z0-9-]*), \d{4}-\d{2}-\d{2}\]/.exec(block.head);
  if (tag) return tag[1];
  const line = norm(block.head.replace(/^[-*] /, ''));
  let best;
  for (const m of memories) {
    const sum = norm(m.summary ?? '');
    if (sum === '') continue;
    const prefix = sum.slice(0, 40).replace(/…$/, '');
    if (line.startsWith(prefix) && (best === undefined || sum.length > norm(best.summary).length)) best = m;
  }
  return best?.id;
}

/** continuity-eval.mjs `matchingBlocks`: ids ('?' when unknown) of the blocks of a hook's text that match. */
export function matchingBlocks(item, text, memories) {
  return contextBlocksOf(text).filter((b) => matches(item, b.text)).map((b) => attribute(b, memories) ?? '?');
}

/** continuity-eval.mjs `textOf`. */
export function textOf(m) {
  return `${m.summary}\n${m.body}`.toLowerCase();
}

// ---------------------------------------------------------------- tables

export const pct = (a, b) => (b ? `${a}/${b} (${Math.round((100 * a) / b)} %)` : '–');

const FIGURES = ['captured', 'capturedSummary', 'briefing', 'prompt', 'continuity', 'recall3'];

/** Sums the per-transcript figures of the scorer's JSON over the transcripts `pick` keeps. */
export function totals(transcripts, pick = () => true) {
  const ok = transcripts.filter((t) => !t.error && pick(t.file));
  const sum = { transcripts: ok.length, goldItems: 0, memoryCount: 0, knowledgeMemories: 0, reviewItems: 0, controlPrompts: 0, controlInjected: 0, reasons: {} };
  for (const f of FIGURES) sum[f] = 0;
  for (const t of ok) {
    sum.goldItems += t.goldItems ?? 0;
    sum.memoryCount += t.memoryCount ?? 0;
    sum.knowledgeMemories += t.knowledgeMemories ?? 0;
    sum.reviewItems += t.reviewItems ?? 0;
    sum.controlPrompts += t.controls?.prompts ?? 0;
    sum.controlInjected += t.controls?.injected ?? 0;
    for (const f of FIGURES) sum[f] += t[f] ?? 0;
    for (const [k, n] of Object.entries(t.reasons ?? {})) sum.reasons[k] = (sum.reasons[k] ?? 0) + n;
  }
  return sum;
}

/** The groups a report shows: every transcript, then TUNE and HELD when the run covers any of them. */
export function groupsOf(transcripts) {
  const groups = [['all', () => true]];
  for (const s of ['tune', 'held']) if (transcripts.some((t) => splitOf(t.file) === s)) groups.push([s.toUpperCase(), (f) => splitOf(f) === s]);
  return groups;
}

/**
 * Markdown tables of one scorer report (continuity-eval --json): per transcript, the totals
 * for all / TUNE / HELD, the miss reasons, and the false injections when controls ran.
 */
export function oneSessionTables(doc) {
  const ts = doc.transcripts;
  const lines = [];
  lines.push('| transcript | split | gold | memories | knowledge | review | captured | by summary | briefing | prompt | continuity | recall@3 | brief ch |');
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const t of ts) {
    const name = t.file.replace(/\.jsonl$/, '');
    if (t.error) {
      lines.push(`| ${name} | ${splitOf(t.file) ?? ''} | error: ${t.error.replace(/\|/g, '/')} |`);
      continue;
    }
    lines.push(
      `| ${name} | ${splitOf(t.file) ?? ''} | ${t.goldItems} | ${t.memoryCount} | ${t.knowledgeMemories} | ${t.reviewItems} | ${pct(t.captured, t.goldItems)} | ${pct(t.capturedSummary ?? 0, t.goldItems)} | ${pct(t.briefing, t.goldItems)} | ${pct(t.prompt, t.goldItems)} | ${pct(t.continuity, t.goldItems)} | ${pct(t.recall3, t.goldItems)} | ${t.briefingB?.chars ?? '–'} |`,
    );
  }
  lines.push('');
  const groups = groupsOf(ts);
  lines.push('| set | transcripts | gold | captured | by summary | briefing | prompt | **continuity** | recall@3 | memories / session | review / session |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const [label, pick] of groups) {
    const s = totals(ts, pick);
    const per = (n) => (s.transcripts ? (n / s.transcripts).toFixed(1) : '–');
    lines.push(`| ${label} | ${s.transcripts} | ${s.goldItems} | ${pct(s.captured, s.goldItems)} | ${pct(s.capturedSummary, s.goldItems)} | ${pct(s.briefing, s.goldItems)} | ${pct(s.prompt, s.goldItems)} | **${pct(s.continuity, s.goldItems)}** | ${pct(s.recall3, s.goldItems)} | ${per(s.memoryCount)} | ${per(s.reviewItems)} |`);
  }
  lines.push('');
  lines.push(...reasonTable(groups.map(([label, pick]) => [label, totals(ts, pick).reasons])));
  const all = totals(ts);
  if (all.controlPrompts > 0) {
    lines.push('');
    lines.push(`false injections (control prompts, the prompt hook alone, in each transcript's repository): ${pct(all.controlInjected, all.controlPrompts)}`);
  }
  return lines;
}

/** | miss reason | all | TUNE | HELD | from [label, reasons] pairs. */
export function reasonTable(columns) {
  const keys = [...new Set(columns.flatMap(([, r]) => Object.keys(r)))].sort((a, b) => (columns[0][1][b] ?? 0) - (columns[0][1][a] ?? 0) || (a < b ? -1 : 1));
  const lines = [`| continuity miss | ${columns.map(([l]) => l).join(' | ')} |`, `|---|${columns.map(() => '--:').join('|')}|`];
  for (const k of keys) lines.push(`| ${k} | ${columns.map(([, r]) => r[k] ?? 0).join(' | ')} |`);
  if (keys.length === 0) lines.push(`| (none) | ${columns.map(() => 0).join(' | ')} |`);
  return lines;
}

/**
 * The long-lived run beside the one-session run of the same build: continuity per group and
 * the ratio (goal ≥ 0.8).
 */
export function longLivedTables(long, oneSession) {
  const lines = [];
  const groups = [['all', () => true], ['TUNE', (f) => splitOf(f) === 'tune'], ['HELD', (f) => splitOf(f) === 'held']];
  lines.push('| set | gold | long-lived: captured | briefing | prompt | **continuity** | recall@3 | one-session continuity | ratio |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const [label, pick] of groups) {
    const rows = long.items.filter((r) => pick(r.file));
    if (rows.length === 0) continue;
    const n = (k) => rows.filter((r) => r[k]).length;
    const one = oneSession ? totals(oneSession.transcripts, pick) : undefined;
    const ratio = one && one.goldItems === rows.length && one.continuity > 0 ? (n('continuity') / one.continuity).toFixed(2) : '–';
    lines.push(`| ${label} | ${rows.length} | ${pct(n('captured'), rows.length)} | ${pct(n('briefing'), rows.length)} | ${pct(n('prompt'), rows.length)} | **${pct(n('continuity'), rows.length)}** | ${pct(n('recall3'), rows.length)} | ${one ? pct(one.continuity, one.goldItems) : '–'} | ${ratio} |`);
  }
  lines.push('');
  const reasons = (pick) => {
    const r = {};
    for (const row of long.items.filter((x) => pick(x.file))) if (row.reason) r[row.reason] = (r[row.reason] ?? 0) + 1;
    return r;
  };
  lines.push(...reasonTable(groups.map(([label, pick]) => [label, reasons(pick)])));
  return lines;
}
