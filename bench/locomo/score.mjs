/**
 * Recall accuracy as the LoCoMo paper defines it (Table 3, §6.1): per question, the fraction
 * of its evidence turns among the top k retrieved units; a question with no evidence counts
 * as 1; averaged over questions, overall and within each category.
 */
import { CATEGORIES } from './dataset.mjs';

export const KS = [1, 5, 10, 25, 50];

/** Published DRAGON Dialog row (paper Table 3), in %. R@1 was not reported. */
export const DRAGON = {
  5: { 4: 68.0, 1: 35.4, 2: 70.4, 3: 33.1, 5: 43.9, all: 56.7 },
  10: { 4: 77.7, 1: 46.6, 2: 77.3, 3: 40.8, 5: 54.7, all: 66.2 },
  25: { 4: 87.1, 1: 62.5, 2: 83.5, 3: 52.6, 5: 66.3, all: 76.7 },
  50: { 4: 91.1, 1: 73.0, 2: 89.6, 3: 61.7, 5: 72.5, all: 82.7 },
};

/** Fraction of `evidence` among the first `k` of `ranked` (1 when there is no evidence). */
export function recallAt(ranked, evidence, k) {
  if (evidence.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((id) => top.has(id)).length / evidence.length;
}

/** Mean R@k in % per category code and `all`, plus the question counts. */
export function aggregate(rows, ks = KS) {
  const groups = { all: rows };
  for (const c of CATEGORIES) groups[c.code] = rows.filter((r) => r.category === c.code);
  const table = {};
  for (const k of ks) {
    table[k] = {};
    for (const [key, group] of Object.entries(groups)) {
      const sum = group.reduce((s, r) => s + recallAt(r.ranked, r.evidence, k), 0);
      table[k][key] = group.length === 0 ? NaN : (100 * sum) / group.length;
    }
  }
  const counts = Object.fromEntries(Object.entries(groups).map(([key, g]) => [key, g.length]));
  return { table, counts };
}

const fmt = (x) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(1));

/**
 * The markdown table: our row beside the DRAGON row for every k, and the rows of `others`
 * (`[{ label, table }]`, e.g. the plain-BM25 control) before ours.
 */
export function renderTable({ table, counts }, label, ks = KS, others = []) {
  const cols = [...CATEGORIES.map((c) => c.code), 'all'];
  const head = ['k', 'retriever', ...CATEGORIES.map((c) => `${c.name} (${counts[c.code]})`), `Overall (${counts.all})`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  for (const k of ks) {
    for (const o of others) lines.push(`| ${k} | ${o.label} | ${cols.map((c) => fmt(o.table[k][c])).join(' | ')} |`);
    lines.push(`| ${k} | ${label} | ${cols.map((c) => (c === 'all' ? `**${fmt(table[k][c])}**` : fmt(table[k][c]))).join(' | ')} |`);
    if (DRAGON[k]) lines.push(`| ${k} | DRAGON (paper) | ${cols.map((c) => fmt(DRAGON[k][c])).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Which k fall short of the DRAGON overall figure, and by how much (points). */
export function shortfalls({ table }, ks = KS) {
  return ks.filter((k) => DRAGON[k]).map((k) => ({ k, ours: table[k].all, dragon: DRAGON[k].all, delta: table[k].all - DRAGON[k].all }));
}
