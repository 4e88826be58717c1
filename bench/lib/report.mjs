/**
 * Machine description and the results sections of bench/README.md, one marker pair per
 * suite: <!-- BENCH:<suite>:START --> … <!-- BENCH:<suite>:END -->.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { TABLE_HEADER, budgetText, markdownRow } from './measure.mjs';

/** A verdict's measured value with its unit. */
export function formatValue(v) {
  return v.metric === 'rss' ? `${Math.round(v.value)} MB` : v.metric === 'ratio' ? `${v.value.toFixed(2)}×` : `${Math.round(v.value)} ms`;
}

/**
 * One verdict per budget: the worst row it was judged on (a budget such as "peak memory,
 * any keyword path" covers several rows), in first-seen order.
 *
 * @example
 * summarizeBudgets(rows) // [{ label: 'recall keyword, warm', value: 1110, pass: false, text: 'FAIL', row }, …]
 */
export function summarizeBudgets(rows) {
  const worst = new Map();
  for (const row of rows) {
    for (const v of row.verdicts ?? []) {
      const known = worst.get(v.label);
      if (!known || v.value > known.value) worst.set(v.label, { ...v, row });
    }
  }
  return [...worst.values()];
}

/**
 * What the figures were measured on. Load average matters: budgets are for an idle machine.
 *
 * @example
 * machineInfo() // { cpu: 'AMD EPYC 7B13', cores: 2, ramGb: 23.5, node: 'v20.20.2', … }
 */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadavg: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

export function loadText(loadavg) {
  return loadavg.map((v) => v.toFixed(2)).join(' / ');
}

/**
 * The markdown of one suite's results: machine, date, conditions, table, budget verdicts.
 *
 * @example
 * renderSection({ suite: 'foundation', rows, machine, date, loadStart, loadEnd, runs, warmup, rssMethod })
 */
export function renderSection({ suite, rows, machine, date, loadStart, loadEnd, runs, warmup, rssMethod, notes = [] }) {
  const lines = [
    `Suite \`${suite}\`, measured ${date} on ${machine.cpu} (${machine.cores} cores, ${machine.ramGb} GB RAM), Node ${machine.node}, ${machine.platform}.`,
    `Load average (1/5/15 min) at start ${loadText(loadStart)}, at end ${loadText(loadEnd)}. ` +
      `${runs} measured runs per case after ${warmup} warm-up, interleaved with \`node -e 0\`; peak RSS via ${rssMethod === 'gnu-time' ? 'GNU time' : 'a resourceUsage() preload'}.`,
    ...notes,
    '',
    ...TABLE_HEADER,
    ...rows.map(markdownRow),
  ];
  const budgets = summarizeBudgets(rows);
  if (budgets.length > 0) {
    lines.push('', '| budget (DESIGN §10) | limit | worst case | measured | result |', '|---|--:|---|--:|---|');
    for (const b of budgets) {
      lines.push(`| ${b.label} | ${budgetText(b)} | ${b.row.name}, N = ${b.row.n?.toLocaleString('en-US') ?? '–'} | ${formatValue(b)} | ${b.text} |`);
    }
  }
  return lines.join('\n');
}

/**
 * Replaces the text between a suite's markers in `file`; appends a new section with
 * markers when the suite has none yet. Returns true when the file changed.
 *
 * @example
 * writeSection('bench/README.md', 'foundation', markdown)
 */
export function writeSection(file, suite, markdown) {
  const start = `<!-- BENCH:${suite}:START -->`;
  const end = `<!-- BENCH:${suite}:END -->`;
  const text = readFileSync(file, 'utf8');
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  let next;
  if (i >= 0 && j > i) {
    next = `${text.slice(0, i + start.length)}\n${markdown}\n${text.slice(j)}`;
  } else {
    next = `${text.replace(/\s*$/, '')}\n\n### Results: ${suite}\n\n${start}\n${markdown}\n${end}\n`;
  }
  if (next === text) return false;
  writeFileSync(file, next);
  return true;
}
