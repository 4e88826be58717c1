#!/usr/bin/env node
/**
 * LoCoMo retrieval benchmark for Cortex recall.
 *
 *   npm run bench:locomo -- --mode keyword
 *
 * For each of the 10 conversations, every turn of every session becomes one memory
 * (the paper's Dialog unit), written with the library's own `renderMemory` into a fresh
 * temporary project, exactly as `cortex remember "<unit>"` would split it into summary and
 * body. Each question is then asked through `openCortex({ dir }).recall()` — the code path of
 * `cortex recall` — with limit 50, and scored as R@k against its evidence turns.
 * Results: a markdown table on stdout (ours beside the published DRAGON row), timings and
 * notes on stderr, per-question rankings in bench/.out/locomo-<mode>.json.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT, findData, loadLocomo, normaliseEvidence, parseSessionDate, turnsOf } from './dataset.mjs';
import { aggregate, renderTable, shortfalls } from './score.mjs';
import { plainBm25 } from '../lib/bm25.mjs';

const MODES = ['keyword', 'hybrid', 'semantic'];
const LIMIT = 50;

const HELP = `Usage: node bench/locomo/run.mjs [options]   (or: npm run bench:locomo -- [options])

  --mode <m>      keyword (default) | hybrid | semantic (these two first compute every
                  turn's vector with the configured model: CORTEX_MODEL_DIR, CORTEX_EMBED_MODEL)
  --conv <ids>    only these sample ids, comma-separated (e.g. conv-26,conv-30)
  --json          print one JSON document on stdout instead of the markdown table
  --out <file>    per-question results (default bench/.out/locomo-<mode>.json)
  --keep          keep the temporary projects (their paths go to stderr)
  --control       also rank with the plain-BM25 control (MiniSearch, stemmer, default BM25)
                  and print its rows above ours
  --remember      store every turn through cortex.remember() (auto-linking on) instead of
                  writing the files, and score the graph enrichment of the results too
                  (see "Enrichment" in bench/locomo/README.md)
  --config <file> use this .cortex/config.yaml in every project (e.g. recall.neighbourWeight: 0
                  to measure without conversation neighbours)
  -h, --help      this text

Data: ../shared/bench-data/locomo/locomo10.json beside the clone, or LOCOMO_DATA=<path>.
The data is CC BY-NC 4.0 (Maharana et al. 2024): read in place, never copied into the repository.`;

function die(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    options: {
      mode: { type: 'string', default: 'keyword' },
      conv: { type: 'string' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      remember: { type: 'boolean', default: false },
      control: { type: 'boolean', default: false },
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
if (!MODES.includes(args.mode)) die(`Unknown --mode "${args.mode}". Use one of: ${MODES.join(', ')}.`, 2);

let lib;
let splitText;
let aboveFloor;
try {
  lib = await import(pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href);
  ({ splitText } = await import(pathToFileURL(join(REPO_ROOT, 'dist/api/remember.js')).href));
  ({ aboveFloor } = await import(pathToFileURL(join(REPO_ROOT, 'dist/core/recall-rank.js')).href));
} catch (err) {
  die(`Cannot load the built library (dist/): ${err.message}\nRun \`npm run build\` first (npm run bench:locomo does).`);
}
const { openCortex, renderMemory } = lib;

let dataPath;
try {
  dataPath = findData();
} catch (err) {
  die(err.message);
}
let samples = loadLocomo(dataPath);
if (args.conv) {
  const wanted = new Set(args.conv.split(',').map((s) => s.trim()));
  samples = samples.filter((s) => wanted.has(s.sample_id));
  if (samples.length === 0) die(`No conversation matches --conv ${args.conv}.`, 2);
}

/** One memory per turn, shaped as `remember` shapes free text (first line/sentence → summary). */
function memoryOf(turn, index) {
  const { summary, body } = splitText(turn.text);
  // The session's date, plus the turn's place in it in seconds: a capture dates the memories
  // of a conversation in the order they were said (the order recall's neighbours follow).
  const start = Date.parse(parseSessionDate(turn.dateTime) ?? '2023-01-01T00:00:00Z');
  const date = new Date(start + turn.position * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    // An opaque id: the dia_id lives only in the bench's own map, never in searchable text.
    id: `turn-${String(index).padStart(5, '0')}`,
    type: 'context',
    summary,
    scope: 'project',
    priority: 5,
    confidence: 1,
    pinned: false,
    status: 'active',
    tags: [],
    created: date,
    updated: date,
    // The conversation's session, as capture records the session a memory came from.
    source: { kind: 'import', layer: 'manual', session: `session-${turn.session}` },
    body,
    extra: {},
  };
}

const loadBefore = loadavg()[0];
const env = { ...process.env, CORTEX_HOME: join(tmpdir(), 'cortex-locomo-no-global') };
/** Temporary projects still on disk: removed on any exit, including `die`. */
const temporary = new Set();
process.on('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
const rows = [];
const controlRows = [];
const perConv = [];
let sessionsIndexed = 0;
let turnsIndexed = 0;
let droppedEvidence = 0;
let emptyEvidence = 0;
let modeUsed;
let edgesWritten = 0;
let remembered = 0;
/** Per question, what graph enrichment adds to the first ENRICH_K results (--remember). */
const ENRICH_K = 5;
const enrichRows = [];

for (const sample of samples) {
  const { sessions, turns } = turnsOf(sample);
  sessionsIndexed += sessions;
  turnsIndexed += turns.length;
  const dir = mkdtempSync(join(tmpdir(), `cortex-locomo-${sample.sample_id}-`));
  if (!args.keep) temporary.add(dir);
  try {
    const t0 = performance.now();
    const memories = join(dir, '.cortex', 'memories');
    mkdirSync(memories, { recursive: true });
    if (args.config) copyFileSync(args.config, join(dir, '.cortex', 'config.yaml'));
    const diaOf = new Map();
    const cortex = openCortex({ dir, env, includeGlobal: false });
    if (args.remember) {
      // As `cortex remember "<unit>"` stores it, auto-linking included; ids are slugs of the text.
      for (const [i, turn] of turns.entries()) {
        const { summary, body } = memoryOf(turn, i);
        const out = await cortex.remember({ summary, body, type: 'context', source: { kind: 'import', branch: 'main' } });
        diaOf.set(out.memory.id, turn.diaId);
        edgesWritten += out.links?.edges.length ?? 0;
      }
      remembered += turns.length;
    } else {
      turns.forEach((turn, i) => {
        const memory = memoryOf(turn, i);
        diaOf.set(memory.id, turn.diaId);
        writeFileSync(join(memories, `${memory.id}.md`), renderMemory(memory));
      });
    }
    const status = cortex.status();
    const indexed = status.tiers.reduce((n, t) => n + t.total, 0);
    if (indexed !== turns.length) die(`${sample.sample_id}: indexed ${indexed} of ${turns.length} turns.`);
    let indexMs = performance.now() - t0;
    if (args.mode !== 'keyword') {
      // Vectors for every turn first (`cortex index --embed`), so recall never embeds on the fly.
      const embedded = typeof cortex.embed === 'function' ? await cortex.embed({}) : { available: false, notice: 'this build has no embeddings' };
      if (!embedded.available) die(`--mode ${args.mode} is unavailable: ${embedded.notice ?? 'no embedding model could be loaded'}`);
      indexMs = performance.now() - t0;
    }

    const known = new Set(turns.map((t) => t.diaId));
    const control = args.control ? plainBm25(turns.map((t) => ({ id: t.diaId, text: t.text }))) : undefined;
    const t1 = performance.now();
    for (const qa of sample.qa) {
      const { ids: evidence, dropped } = normaliseEvidence(qa.evidence, known);
      droppedEvidence += dropped;
      if (evidence.length === 0) emptyEvidence++;
      // R@k measures the ranking: the relevance floor is off, so every question gets its 50
      // (`shown` counts what the default floor would have shown, for the README).
      const out = await cortex.recall({ query: qa.question, limit: LIMIT, mode: args.mode, embedOnRecall: 0, recordAccess: false, relevance: { minScoreShare: 0, minCoverage: 0 } });
      const got = out.mode ?? 'keyword';
      if (got !== args.mode) die(`--mode ${args.mode} is unavailable: recall answered in ${got} mode${out.notice ? ` (${out.notice})` : '.'}`);
      modeUsed = got;
      if (control) controlRows.push({ category: qa.category, evidence, ranked: control.search(qa.question, LIMIT) });
      rows.push({
        conv: sample.sample_id,
        question: qa.question,
        category: qa.category,
        evidence,
        ranked: out.results.map((r) => diaOf.get(r.id)),
        shown: aboveFloor(out.results).length,
      });
      if (args.remember) {
        // What the MCP tool shows: up to 3 depth-1 neighbours per result (RELATED_PER_RESULT).
        const top = out.results.slice(0, ENRICH_K);
        const inTop = new Set(top.map((r) => diaOf.get(r.id)));
        const related = top.flatMap((r) => (r.related ?? []).filter((n) => n.depth === 1).slice(0, 3).map((n) => diaOf.get(n.id)));
        const wanted = new Set(evidence);
        const added = new Set(related.filter((d) => wanted.has(d) && !inTop.has(d)));
        enrichRows.push({ category: qa.category, evidence, inTop, shown: related.length, hits: related.filter((d) => wanted.has(d)).length, added: added.size });
      }
    }
    const queryMs = performance.now() - t1;
    perConv.push({ conv: sample.sample_id, sessions, turns: turns.length, questions: sample.qa.length, indexMs, queryMs });
  } finally {
    if (args.keep) process.stderr.write(`kept ${dir}\n`);
    else {
      rmSync(dir, { recursive: true, force: true });
      temporary.delete(dir);
    }
  }
}

const result = aggregate(rows);
const controlResult = args.control ? aggregate(controlRows) : undefined;
const indexMs = perConv.reduce((s, c) => s + c.indexMs, 0);
const queryMs = perConv.reduce((s, c) => s + c.queryMs, 0);
const machine =
  `${cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${process.platform}; ` +
  `load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} (times stretch on a busy machine; the recall figures do not change)`;
const summary = {
  schemaVersion: 1,
  mode: modeUsed,
  limit: LIMIT,
  data: { conversations: samples.length, sessions: sessionsIndexed, turns: turnsIndexed, questions: rows.length, emptyEvidence, droppedEvidenceIds: droppedEvidence },
  recall: result.table,
  ...(controlResult ? { control: controlResult.table } : {}),
  counts: result.counts,
  shortfalls: shortfalls(result),
  meanShownAtDefaultFloor: +(rows.reduce((n, r) => n + r.shown, 0) / rows.length).toFixed(1),
  timing: { indexMs: Math.round(indexMs), queryMs: Math.round(queryMs), perQueryMs: +(queryMs / rows.length).toFixed(2) },
  machine,
  perConversation: perConv.map((c) => ({ ...c, indexMs: Math.round(c.indexMs), queryMs: Math.round(c.queryMs) })),
};

if (args.remember) {
  const withEvidence = enrichRows.filter((r) => r.evidence.length > 0);
  const mean = (f) => (100 * withEvidence.reduce((t, r) => t + f(r), 0)) / Math.max(1, withEvidence.length);
  const shown = enrichRows.reduce((t, r) => t + r.shown, 0);
  const hits = enrichRows.reduce((t, r) => t + r.hits, 0);
  summary.enrichment = {
    memories: remembered,
    edges: edgesWritten,
    edgesPerMemory: +(edgesWritten / Math.max(1, remembered)).toFixed(2),
    k: ENRICH_K,
    [`R@${ENRICH_K}`]: +mean((r) => r.evidence.filter((d) => r.inTop.has(d)).length / r.evidence.length).toFixed(1),
    [`R@${ENRICH_K}+related`]: +mean((r) => (r.evidence.filter((d) => r.inTop.has(d)).length + r.added) / r.evidence.length).toFixed(1),
    relatedPerQuestion: +(shown / Math.max(1, enrichRows.length)).toFixed(2),
    relatedPrecision: +((100 * hits) / Math.max(1, shown)).toFixed(1),
    evidenceAddedPerQuestion: +(enrichRows.reduce((t, r) => t + r.added, 0) / Math.max(1, enrichRows.length)).toFixed(3),
  };
}

const outFile = args.out ?? join(REPO_ROOT, 'bench', '.out', `locomo-${args.mode}.json`);
mkdirSync(join(outFile, '..'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify({ ...summary, questions: rows }, null, 1)}\n`);

if (args.json) {
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} else {
  const label = `Cortex ${modeUsed}`;
  process.stdout.write(`${renderTable(result, label, undefined, controlResult ? [{ label: 'plain BM25', table: controlResult.table }] : [])}\n\n`);
  process.stdout.write(
    `Indexed ${samples.length} conversations, ${sessionsIndexed} sessions (all), ${turnsIndexed} turns; ${rows.length} questions, top ${LIMIT}.\n` +
      `Index: ${(indexMs / 1000).toFixed(2)} s total (write files + build index${args.mode === 'keyword' ? '' : ' + embed'}). ` +
      `Query: ${(queryMs / 1000).toFixed(2)} s total, ${(queryMs / rows.length).toFixed(1)} ms per question.\n` +
      `Machine: ${machine}.\n`,
  );
  const short = summary.shortfalls.filter((s) => !(s.delta > 0));
  process.stdout.write(
    short.length === 0
      ? 'Above the DRAGON row at every published k.\n'
      : `Below DRAGON at ${short.map((s) => `R@${s.k} by ${(-s.delta).toFixed(1)} points`).join(', ')}.\n`,
  );
}
if (args.remember && !args.json) {
  const e = summary.enrichment;
  process.stdout.write(
    `Enrichment (--remember): ${e.memories} memories stored through remember, ${e.edges} edges (${e.edgesPerMemory} per memory). ` +
      `Top ${e.k}: R@${e.k} ${e[`R@${e.k}`]}, with the neighbours shown ${e[`R@${e.k}+related`]}; ` +
      `${e.relatedPerQuestion} neighbours shown per question, ${e.relatedPrecision} % of them evidence; ${e.evidenceAddedPerQuestion} evidence turns added per question.\n`,
  );
}
process.stderr.write(
  `${emptyEvidence} questions have no usable evidence (counted as 1); ${droppedEvidence} malformed evidence ids dropped. ` +
    `Per-question results: ${outFile}\n`,
);
