#!/usr/bin/env node
/**
 * bench:capture — how much of what real sessions decided the automatic capture keeps.
 *
 * Runs the shared scorer (`../shared/tools/capture-eval.mjs`: the real Stop and SessionEnd
 * hooks on each transcript in a fresh temporary repository, memories and review queue scored
 * against hand-labelled gold) with this checkout's built CLI, and prints the figures as
 * markdown tables: per transcript, overall, by gold type, by who stated it, hook times — recall
 * also counted by the summary alone (the gold rule applied to summaries only). The
 * whole JSON report is kept in bench/.out/capture.json.
 *
 *   npm run bench:capture                       # ../shared/transcripts/gold.json
 *   npm run bench:capture -- --gold g.json --transcripts dir [--only 12] [--out file.json]
 *   npm run bench:capture -- --record-prompts <dir>   # write what the model layer would send
 *   npm run bench:capture -- --replay <dir>           # replay recorded model answers (capture.mode claude)
 *
 * The transcripts are real people's sessions and are never copied into this repository;
 * without them the benchmark says so and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Where the labelled sessions live: $CORTEX_SHARED, else ../shared beside the checkout
// (or two levels up, for a worktree).
const SHARED = [process.env.CORTEX_SHARED, resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((d) => d !== undefined && existsSync(d)) ?? resolve(ROOT, '../shared');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i !== -1 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const scorer = arg('--scorer', join(SHARED, 'tools/capture-eval.mjs'));
const gold = resolve(arg('--gold', join(SHARED, 'transcripts/gold.json')));
const transcripts = resolve(arg('--transcripts', dirname(gold)));
const out = resolve(arg('--out', join(ROOT, 'bench/.out/capture.json')));
const only = arg('--only', undefined);
const replay = arg('--replay', undefined);
const recordPrompts = arg('--record-prompts', undefined);
const cli = join(ROOT, 'dist/cli.cjs');
// The model layer, replayed: Cortex runs bench/replay-claude.mjs in place of `claude -p`.
const modelEnv =
  replay !== undefined || recordPrompts !== undefined
    ? {
        CORTEX_CAPTURE_MODE: 'claude',
        CORTEX_CAPTURE_COMMAND: join(ROOT, 'bench/replay-claude.mjs'),
        ...(replay !== undefined ? { CORTEX_REPLAY_DIR: resolve(replay) } : {}),
        ...(recordPrompts !== undefined ? { CORTEX_RECORD_PROMPTS: resolve(recordPrompts) } : {}),
      }
    : {};

for (const [what, path] of [['scorer', scorer], ['gold file', gold], ['transcripts', transcripts]]) {
  if (!existsSync(path)) {
    console.log(`bench:capture: skipped — no ${what} at ${path} (the labelled sessions live outside this repository).`);
    process.exit(0);
  }
}
if (!existsSync(cli)) {
  console.error('bench:capture: dist/cli.cjs is missing; run `npm run build` first.');
  process.exit(1);
}

const args = [scorer, '--cli', cli, '--gold', gold, '--transcripts', transcripts, '--json', '--wait', '60', ...(only ? ['--only', only] : [])];
const started = Date.now();
const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', ...modelEnv } });
if (run.status !== 0) {
  console.error(`bench:capture: the scorer failed (exit ${run.status}):\n${run.stderr}`);
  process.exit(1);
}
const doc = JSON.parse(run.stdout);

// Matched by the summary alone: the gold `match` rule (every group has a string occurring in
// the lower-cased text) applied to each knowledge memory's summary, without its body. A memory
// is credited for what it states, not for the transcript quoted under it.
const goldDoc = JSON.parse(readFileSync(gold, 'utf8'));
const matchesText = (item, text) => Array.isArray(item.match) && item.match.every((group) => group.some((s) => text.includes(String(s).toLowerCase())));
let summaryAlone = 0;
for (const t of doc.transcripts) {
  const items = goldDoc.transcripts?.[t.file]?.items ?? [];
  const summaries = (t.memories ?? []).filter((m) => m.knowledge).map((m) => String(m.summary ?? '').toLowerCase());
  t.summaryAlone = items.filter((item) => summaries.some((s) => matchesText(item, s))).length;
  summaryAlone += t.summaryAlone;
}
doc.overall.summaryAlone = summaryAlone;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);

const pct = (a, b) => (b ? `${a}/${b} (${Math.round((100 * a) / b)} %)` : '–');
const ms = (x) => (typeof x === 'number' ? `${Math.round(x)}` : '–');
const lines = [];
lines.push(`bench:capture — ${new Date().toISOString()} — node ${process.version} — ${Math.round((Date.now() - started) / 1000)} s`);
lines.push(`gold: ${gold}`);
if (replay !== undefined) lines.push(`model layer: RECORDED answers replayed from ${resolve(replay)} (capture.mode claude; not a live model call)`);
if (recordPrompts !== undefined) lines.push(`model layer: prompts recorded to ${resolve(recordPrompts)} (no model answered; figures are the rules' alone)`);
lines.push('');
lines.push('| transcript | gold | memories | knowledge | review | recall | summary alone | + review | precision | stop ms | end ms |');
lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
for (const t of doc.transcripts) {
  const name = t.file.replace(/\.jsonl$/, '');
  if (t.error) {
    lines.push(`| ${name} | error: ${t.error} |`);
    continue;
  }
  lines.push(
    `| ${name} | ${t.goldItems} | ${t.memoryCount} | ${t.knowledgeMemories} | ${t.reviewItems} | ${pct(t.matched, t.goldItems)} | ${pct(t.summaryAlone, t.goldItems)} | ${pct(t.matchedWithReview, t.goldItems)} | ${pct(t.knowledgeMatched, t.knowledgeMemories)} | ${ms(t.timings?.stopMs)} | ${ms(t.timings?.sessionEndMs)} |`,
  );
}
const o = doc.overall;
lines.push(
  `| **overall** | ${o.goldItems} | ${o.memoryCount} | ${o.knowledgeMemories} | ${o.reviewItems} | **${pct(o.matched, o.goldItems)}** | **${pct(o.summaryAlone, o.goldItems)}** | **${pct(o.matchedWithReview, o.goldItems)}** | **${pct(o.knowledgeMatched, o.knowledgeMemories)}** | max ${ms(o.timings.stopMsMax)} | max ${ms(o.timings.sessionEndMsMax)} |`,
);
lines.push('');
lines.push('| gold type | items | recall | + review |');
lines.push('|---|--:|--:|--:|');
for (const [k, v] of Object.entries(o.goldByType).sort((a, b) => b[1].items - a[1].items)) lines.push(`| ${k} | ${v.items} | ${pct(v.matched, v.items)} | ${pct(v.matchedWithReview, v.items)} |`);
lines.push('');
lines.push('| stated by | items | recall | + review |');
lines.push('|---|--:|--:|--:|');
for (const [k, v] of Object.entries(o.goldByWho).sort((a, b) => b[1].items - a[1].items)) lines.push(`| ${k} | ${v.items} | ${pct(v.matched, v.items)} | ${pct(v.matchedWithReview, v.items)} |`);
lines.push('');
const list = (obj) => Object.entries(obj).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
lines.push(`memories by type: ${list(o.memoriesByType)}`);
lines.push(`memories by layer: ${list(o.memoriesByLayer)}`);
lines.push(`review candidates by type: ${list(o.reviewByType)}`);
lines.push(`hook wall times (whole process, each transcript read from its start): Stop max ${ms(o.timings.stopMsMax)} ms, SessionEnd max ${ms(o.timings.sessionEndMsMax)} ms`);
lines.push(`full report: ${out}`);
console.log(lines.join('\n'));
