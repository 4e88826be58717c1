#!/usr/bin/env node
/**
 * bench:continuity — what the NEXT session gets from Cortex after real sessions were captured:
 * the SessionStart briefing and the UserPromptSubmit injection, per hand-labelled gold item
 * and its natural question (issue 35).
 *
 *   npm run bench:continuity                           # the shared scorer on all 15 development sessions
 *   npm run bench:continuity -- --split tune|held|all  # the agreed split (TUNE 01,04,07,10-13; HELD 14-21)
 *   npm run bench:continuity -- --only 07              # one transcript (the scorer's --only)
 *   npm run bench:continuity -- --from bench/.out/continuity.json   # tables of a kept report, no run
 *   npm run bench:continuity -- --long-lived           # all 15 sessions captured into ONE repository
 *   npm run bench:continuity -- --reflect-cost         # how often capture.mode reflect asks, and its price
 *
 * Modes:
 * - one session (default): runs `../shared/tools/continuity-eval.mjs` with this checkout's
 *   built CLI (one fresh repository per transcript) and prints markdown tables — per
 *   transcript, all / TUNE / HELD, the continuity miss reasons, memories and review candidates
 *   each session adds, false injections when `bench/continuity/controls.json` (or
 *   `--controls <file>`) exists. JSON: bench/.out/continuity[-<split>].json.
 * - --long-lived: captures every development session, in file order, into ONE repository (the
 *   Stop then SessionEnd hooks of each, as the scorer does), then asks every question as a new
 *   session (SessionStart + UserPromptSubmit) and runs `cortex recall --limit 3`, scored with
 *   the scorer's match rule (bench/lib/continuity.mjs holds a faithful copy); the control
 *   prompts too. Compared with the one-session report of the same build (bench/.out/continuity.json,
 *   or --compare <file>). JSON: bench/.out/continuity-long-lived.json.
 * - --reflect-cost: replays each session turn by turn (the transcript grows to the end of each
 *   turn, then the Stop hook runs with capture.mode reflect) and counts how often Stop would
 *   ask the assistant to record candidates, with the characters of each request and the reply
 *   it asks for. No model is called; no quality figure is made. JSON: bench/.out/continuity-reflect.json.
 *
 * The transcripts are real people's sessions and are never copied into this repository;
 * without them the benchmark says so and exits 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { longLivedTables, matches, matchingBlocks, oneSessionTables, onlyFor, parseArgs, pct, splitOf, textOf, UsageError } from './lib/continuity.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Where the labelled sessions live: $CORTEX_SHARED, else ../shared beside the checkout
// (or two levels up, for a worktree) — as bench/capture.mjs finds them.
const SHARED = [process.env.CORTEX_SHARED, resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((d) => d !== undefined && existsSync(d)) ?? resolve(ROOT, '../shared');
const NON_KNOWLEDGE = new Set(['plan', 'progress']);

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`bench:continuity: ${err.message} (see the header of bench/continuity.mjs)`);
  process.exit(2);
}
if (opts.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(2, 35).map((l) => l.replace(/^ \*\/?\s?/, '')).join('\n'));
  process.exit(0);
}

const scorer = resolve(opts.scorer ?? join(SHARED, 'tools/continuity-eval.mjs'));
const gold = resolve(opts.gold ?? join(SHARED, 'transcripts/gold.json'));
const questions = resolve(opts.questions ?? join(dirname(gold), 'questions.json'));
const transcripts = resolve(opts.transcripts ?? dirname(gold));
const cli = resolve(opts.cli ?? join(ROOT, 'dist/cli.js'));
const defaultControls = join(ROOT, 'bench/continuity/controls.json');
const controls = opts.controls !== undefined ? resolve(opts.controls) : existsSync(defaultControls) ? defaultControls : undefined;
if (controls !== undefined && !existsSync(controls)) {
  console.error(`bench:continuity: --controls: no file at ${controls}`);
  process.exit(2);
}
const outName = { 'one-session': `continuity${opts.split === 'all' ? '' : `-${opts.split}`}.json`, 'long-lived': 'continuity-long-lived.json', 'reflect-cost': 'continuity-reflect.json' }[opts.mode];
const out = resolve(opts.out ?? join(ROOT, 'bench/.out', outName));

if (opts.from !== undefined) {
  const doc = JSON.parse(readFileSync(resolve(opts.from), 'utf8'));
  console.log(render(doc).join('\n'));
  process.exit(0);
}

const needed = [['gold file', gold], ['questions', questions], ['transcripts', transcripts], ...(opts.mode === 'one-session' ? [['scorer', scorer]] : [])];
for (const [what, path] of needed) {
  if (!existsSync(path)) {
    console.log(`bench:continuity: skipped — no ${what} at ${path} (the labelled sessions live outside this repository).`);
    process.exit(0);
  }
}
if (!existsSync(cli)) {
  console.error(`bench:continuity: ${cli} is missing; run \`npm run build\` first.`);
  process.exit(1);
}

const started = Date.now();
let doc;
if (opts.mode === 'one-session') doc = oneSession();
else if (opts.mode === 'long-lived') doc = await longLived();
else doc = await reflectCost();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
console.log([`bench:continuity (${opts.mode}) — ${new Date().toISOString()} — node ${process.version} — ${Math.round((Date.now() - started) / 1000)} s`, `cli: ${cli}`, '', ...render(doc), '', `full report: ${out}`].join('\n'));

function render(d) {
  if (d.tool === 'continuity-eval') return oneSessionTables(d);
  if (d.mode === 'long-lived') {
    const compare = resolve(opts.compare ?? join(ROOT, 'bench/.out/continuity.json'));
    const one = existsSync(compare) ? JSON.parse(readFileSync(compare, 'utf8')) : undefined;
    return [...longLivedTables(d, one), '', ...longLivedSessions(d), ...(one ? [] : ['', `(no one-session report at ${compare} to compare with: run \`npm run bench:continuity\` first, or pass --compare <file>)`])];
  }
  return reflectTables(d);
}

// ---------------------------------------------------------------- one session per transcript: the shared scorer

function oneSession() {
  const only = onlyFor(opts);
  const args = [scorer, '--cli', cli, '--gold', gold, '--questions', questions, '--transcripts', transcripts, '--json', '--wait', String(opts.wait), ...(only ? ['--only', only] : []), ...(controls ? ['--controls', controls] : [])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  if (run.status !== 0) {
    console.error(`bench:continuity: the scorer failed (exit ${run.status}):\n${run.stderr}`);
    process.exit(1);
  }
  return JSON.parse(run.stdout);
}

// ---------------------------------------------------------------- processes and repositories (as the scorer does them)

function run(cmd, args, { cwd, env, input, timeoutMs = 180_000 }) {
  return new Promise((done) => {
    const t0 = process.hrtime.bigint();
    let stdout = '';
    let stderr = '';
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', (err) => { clearTimeout(timer); done({ code: null, stdout, stderr: `${stderr}${err.message}`, ms: 0 }); });
    child.on('close', (code) => { clearTimeout(timer); done({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6 }); });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

async function mustRun(cmd, args, o) {
  const r = await run(cmd, args, o);
  if (r.code !== 0) throw new Error(`${basename(cmd)} ${args.join(' ')}: exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return r;
}

/** A fresh repository with its own HOME, CORTEX_HOME and git config, `cortex init`ed (the scorer's set-up). */
async function freshRepo(prefix, extraEnv = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(repo);
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '');
  const env = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), CORTEX_HOME: join(home, '.cortex'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_TERMINAL_PROMPT: '0', ...extraEnv };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'CORTEX_DEBUG']) delete env[k];
  await mustRun('git', ['init', '-q'], { cwd: repo, env });
  await mustRun('git', ['config', 'user.email', 'bench@example.invalid'], { cwd: repo, env });
  await mustRun('git', ['config', 'user.name', 'bench'], { cwd: repo, env });
  await mustRun('git', ['config', 'commit.gpgsign', 'false'], { cwd: repo, env });
  writeFileSync(join(repo, 'README.md'), '# bench:continuity\n');
  await mustRun('git', ['add', 'README.md'], { cwd: repo, env });
  await mustRun('git', ['commit', '-q', '-m', 'Initial commit'], { cwd: repo, env });
  await mustRun(process.execPath, [cli, 'init'], { cwd: repo, env });
  const empty = join(base, 'session-b.jsonl');
  writeFileSync(empty, '');
  return { base, repo, env, empty };
}

function transcriptSessionId(path) {
  let id;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"sessionId"')) continue;
    try {
      const o = JSON.parse(line);
      if (typeof o?.sessionId === 'string' && o.sessionId !== '') id = o.sessionId;
    } catch {
      // not ours to judge
    }
  }
  return id ?? randomUUID();
}

// The scorer's wait for the detached SessionEnd worker: settled when the briefing cache was
// rewritten and nothing moved for 1 s; 3 s of quiet without that sign; --wait at most.
function dirState(dir) {
  if (!existsSync(dir)) return { sig: '', newest: 0, count: 0 };
  let newest = 0;
  const parts = [];
  for (const f of readdirSync(dir).sort()) {
    try {
      const s = statSync(join(dir, f));
      parts.push(`${f}:${s.size}:${s.mtimeMs}`);
      newest = Math.max(newest, s.mtimeMs);
    } catch {
      parts.push(`${f}:gone`);
    }
  }
  return { sig: parts.join('|'), newest, count: parts.length };
}
function fileSig(file) {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}
async function waitForWorker(repo, since, baseline, maxMs) {
  const t0 = Date.now();
  const cache = join(repo, '.memory');
  const snapshot = () => {
    const surface = dirState(join(cache, 'surface-cache'));
    return {
      sig: [dirState(join(repo, '.cortex', 'memories')).sig, surface.sig, dirState(join(cache, 'hooks')).sig, fileSig(join(cache, 'review.jsonl')), fileSig(join(cache, 'cortex.log'))].join('#'),
      refreshed: surface.sig !== baseline || surface.newest >= since,
      handedOver: dirState(join(cache, 'hooks')).count === 0,
    };
  };
  let last = snapshot();
  let quietSince = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = snapshot();
    if (now.sig !== last.sig) quietSince = Date.now();
    last = now;
    const quiet = Date.now() - quietSince;
    if (now.refreshed && now.handedOver && quiet >= 1_000) return 'settled';
    if (now.handedOver && quiet >= 3_000) return 'quiet';
    if (Date.now() - t0 >= maxMs) return 'timeout';
  }
}

/** The scorer's frontmatter reader: top-level scalars of a memory file, and its body. */
function parseMemory(text, file) {
  const lines = text.split(/\r?\n/);
  const m = { file, id: basename(file, '.md'), type: '', summary: '', body: '' };
  const end = lines[0]?.trim() === '---' ? lines.findIndex((l, i) => i > 0 && l.trim() === '---') : -1;
  if (end < 0) return { ...m, body: text };
  const scalar = (raw) => {
    const v = raw.trim();
    if (v.startsWith('"')) {
      try { return JSON.parse(v); } catch { return v.slice(1, v.endsWith('"') ? -1 : undefined); }
    }
    if (v.startsWith("'")) return v.slice(1, v.endsWith("'") ? -1 : undefined).replace(/''/g, "'");
    return v;
  };
  for (const line of lines.slice(1, end)) {
    const top = /^([A-Za-z_][\w-]*):(?:\s(.*))?$/.exec(line);
    if (!top) continue;
    const [, key, value = ''] = top;
    if (key === 'id' && value.trim()) m.id = scalar(value);
    else if (key === 'type') m.type = scalar(value);
    else if (key === 'summary') m.summary = scalar(value);
  }
  m.body = lines.slice(end + 1).join('\n').trim();
  return m;
}
function readMemories(repo) {
  const dir = join(repo, '.cortex', 'memories');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => parseMemory(readFileSync(join(dir, f), 'utf8'), `.cortex/memories/${f}`));
}
async function reviewCount(repo, env) {
  const r = await run(process.execPath, [cli, 'review', '--json'], { cwd: repo, env });
  try {
    return (JSON.parse(r.stdout)?.items ?? []).filter((it) => (it.kind ?? 'candidate') === 'candidate');
  } catch {
    return [];
  }
}
async function briefingSize(repo, env) {
  const r = await run(process.execPath, [cli, 'surface', '--json'], { cwd: repo, env });
  try {
    const d = JSON.parse(r.stdout);
    return { tokens: d.tokens, chars: d.chars, items: Array.isArray(d.items) ? d.items.length : undefined };
  } catch {
    return { tokens: undefined, chars: undefined };
  }
}

function hookText(stdout) {
  const s = stdout.trim();
  if (s === '') return '';
  try {
    const t = JSON.parse(s)?.hookSpecificOutput?.additionalContext;
    return typeof t === 'string' ? t : '';
  } catch {
    return s;
  }
}
function sessionIds(repo, session) {
  try {
    const s = JSON.parse(readFileSync(join(repo, '.memory', 'sessions', `${session}.json`), 'utf8'));
    return Array.isArray(s?.injected) ? s.injected.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- --long-lived

async function longLived() {
  const goldDoc = JSON.parse(readFileSync(gold, 'utf8'));
  const qs = JSON.parse(readFileSync(questions, 'utf8'));
  const files = Object.keys(goldDoc.transcripts).sort();
  const { base, repo, env, empty } = await freshRepo('continuity-long-');
  const sessions = [];
  try {
    // ---- capture every session in order, into the one repository
    let before = { memories: 0, review: 0 };
    for (const file of files) {
      process.stderr.write(`bench:continuity: capturing ${file}…\n`);
      const path = join(transcripts, file);
      const sid = transcriptSessionId(path);
      const stop = await run(process.execPath, [cli, 'hook', 'stop'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: path, cwd: repo, hook_event_name: 'Stop', stop_hook_active: false })}\n` });
      const baseline = dirState(join(repo, '.memory', 'surface-cache')).sig;
      const t0 = Date.now();
      const end = await run(process.execPath, [cli, 'hook', 'session-end'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: path, cwd: repo, hook_event_name: 'SessionEnd', reason: 'other' })}\n` });
      const wait = await waitForWorker(repo, t0, baseline, opts.wait * 1000);
      const memories = readMemories(repo).length;
      const review = (await reviewCount(repo, env)).length;
      const size = await briefingSize(repo, env);
      sessions.push({ file, stopMs: Math.round(stop.ms), endMs: Math.round(end.ms), wait, memories, addedMemories: memories - before.memories, review, addedReview: review - before.review, briefingTokens: size.tokens, briefingItems: size.items });
      before = { memories, review };
    }
    const memories = readMemories(repo);
    const knowledgeIds = new Set(memories.filter((m) => !NON_KNOWLEDGE.has(m.type)).map((m) => m.id));
    const byId = new Map(memories.map((m) => [m.id, m]));
    const review = await reviewCount(repo, env);

    // ---- the next sessions: one per question (SessionStart + UserPromptSubmit), then recall
    const sessionB = randomUUID();
    const brief = await run(process.execPath, [cli, 'hook', 'session-start'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sessionB, transcript_path: empty, cwd: repo, hook_event_name: 'SessionStart', source: 'startup' })}\n` });
    const briefingText = hookText(brief.stdout);
    const size = await briefingSize(repo, env);
    // Why each memory is in or out of the briefing (diagnostic for the misses below).
    const why = new Map();
    try {
      const ex = JSON.parse((await run(process.execPath, [cli, 'surface', '--explain', '--json'], { cwd: repo, env })).stdout);
      for (const r of ex.explain ?? []) why.set(r.id, r.included ? 'in the briefing' : String(r.reason ?? '').replace(/:.*$/, ''));
    } catch {
      // the figures stand without it
    }
    const items = [];
    let i = 0;
    for (const file of files) {
      const asked = new Map((qs[file] ?? []).map((q) => [q.id, q.question]));
      for (const it of goldDoc.transcripts[file].items) {
        i++;
        const question = asked.get(it.id);
        const row = { file, id: it.id, question: question ?? null };
        const know = memories.filter((m) => !NON_KNOWLEDGE.has(m.type) && matches(it, textOf(m))).map((m) => m.id);
        const structural = memories.filter((m) => NON_KNOWLEDGE.has(m.type) && matches(it, textOf(m))).map((m) => m.id);
        row.captured = know.length > 0;
        row.capturedSummary = memories.some((m) => !NON_KNOWLEDGE.has(m.type) && matches(it, String(m.summary ?? '')));
        row.inReview = review.some((r) => matches(it, `${r.summary ?? ''}\n${r.body ?? ''}`.toLowerCase()));
        if (question === undefined) {
          row.briefing = matchingBlocks(it, briefingText, memories).length > 0;
          row.prompt = false;
          row.recall3 = false;
          row.continuity = row.briefing;
          items.push(row);
          continue;
        }
        const sid = `${sessionB}-b${i}`;
        const ss = await run(process.execPath, [cli, 'hook', 'session-start'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: empty, cwd: repo, hook_event_name: 'SessionStart', source: 'startup' })}\n` });
        const briefIds = sessionIds(repo, sid);
        const up = await run(process.execPath, [cli, 'hook', 'user-prompt-submit'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: empty, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt: question })}\n` });
        const injected = sessionIds(repo, sid).filter((id) => !briefIds.includes(id));
        const ssText = hookText(ss.stdout);
        const upText = hookText(up.stdout);
        row.briefingVia = matchingBlocks(it, ssText, memories);
        row.promptVia = matchingBlocks(it, upText, memories);
        row.briefing = row.briefingVia.length > 0;
        row.prompt = row.promptVia.length > 0;
        row.continuity = row.briefing || row.prompt;
        row.continuityKnowledge = [...row.briefingVia, ...row.promptVia].some((id) => knowledgeIds.has(id));
        row.promptChars = upText.length;
        const matching = [...know, ...structural];
        if (!row.continuity) {
          if (matching.length === 0) row.reason = row.inReview ? 'not captured (review queue only)' : 'not captured';
          else if (!matching.some((id) => briefIds.includes(id) || injected.includes(id))) {
            row.reason = 'captured, not surfaced';
            row.briefingWhy = [...new Set(matching.map((id) => why.get(id) ?? '?'))];
          }
          else row.reason = 'surfaced, answer text missing';
        }
        items.push(row);
      }
    }
    // recall after every hook call, as the scorer orders it (recall records accesses)
    for (const row of items) {
      if (row.question === null) continue;
      const it = goldDoc.transcripts[row.file].items.find((x) => x.id === row.id);
      const r = await run(process.execPath, [cli, 'recall', row.question, '--limit', '3', '--json'], { cwd: repo, env });
      let results = [];
      try {
        results = (JSON.parse(r.stdout)?.results ?? []).slice(0, 3);
      } catch {
        row.recallProblem = r.stderr.trim().split('\n').pop();
      }
      const shown = results.map((res) => byId.get(res.id) ?? (typeof res.file === 'string' && res.file !== '' && existsSync(isAbsolute(res.file) ? res.file : join(repo, res.file)) ? parseMemory(readFileSync(isAbsolute(res.file) ? res.file : join(repo, res.file), 'utf8'), res.file) : { id: String(res.id), summary: String(res.summary ?? ''), body: String(res.preview ?? '') }));
      row.recall3 = shown.some((m) => matches(it, textOf(m)));
    }
    // ---- unrelated prompts: the prompt hook alone, a fresh session each
    let controlResult;
    if (controls) {
      const prompts = JSON.parse(readFileSync(controls, 'utf8'));
      let injected = 0;
      const examples = [];
      let k = 0;
      for (const prompt of prompts) {
        const sid = `${sessionB}-c${++k}`;
        await run(process.execPath, [cli, 'hook', 'user-prompt-submit'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: empty, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt })}\n` });
        const ids = sessionIds(repo, sid);
        if (ids.length > 0) {
          injected++;
          if (examples.length < 5) examples.push({ prompt, ids });
        }
      }
      controlResult = { file: controls, prompts: prompts.length, injected, examples };
    }
    return {
      mode: 'long-lived',
      cli,
      finished: new Date().toISOString(),
      matchRule: 'continuity-eval.mjs: every group of the item\'s `match` has a string in the lower-cased text of ONE memory block',
      sessions,
      memories: memories.length,
      knowledgeMemories: knowledgeIds.size,
      reviewItems: review.length,
      briefing: { chars: briefingText.length, tokens: size.tokens, items: size.items, text: briefingText },
      controls: controlResult,
      items,
    };
  } finally {
    if (opts.keep) process.stderr.write(`bench:continuity: kept ${base}\n`);
    else rmSync(base, { recursive: true, force: true });
  }
}

function longLivedSessions(d) {
  const lines = ['| after session | memories (+ added) | review (+ added) | briefing tokens | briefing items |', '|---|--:|--:|--:|--:|'];
  for (const s of d.sessions) lines.push(`| ${s.file.replace(/\.jsonl$/, '')} | ${s.memories} (+${s.addedMemories}) | ${s.review} (+${s.addedReview}) | ${s.briefingTokens ?? '–'} | ${s.briefingItems ?? '–'} |`);
  lines.push('');
  lines.push(`next session's briefing: ~${d.briefing.tokens ?? '–'} tokens (goal ≤ 550), ${d.briefing.chars} characters of hook context, ${d.briefing.items ?? '–'} memories shown of ${d.memories} (${d.knowledgeMemories} knowledge), ${d.reviewItems} review candidates`);
  if (d.controls) lines.push(`false injections (control prompts, the prompt hook alone): ${pct(d.controls.injected, d.controls.prompts)}`);
  else lines.push('false injections: not measured (no bench/continuity/controls.json; pass --controls <file>)');
  const why = {};
  for (const r of d.items) for (const w of r.briefingWhy ?? []) why[w] = (why[w] ?? 0) + 1;
  if (Object.keys(why).length > 0) lines.push(`why the briefing left out the matching memories of "captured, not surfaced" misses (surface --explain): ${Object.entries(why).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join('; ')}`);
  const waits = d.sessions.filter((s) => s.wait === 'timeout').length;
  if (waits > 0) lines.push(`! the SessionEnd worker was still busy after --wait for ${waits} session(s)`);
  return lines;
}

// ---------------------------------------------------------------- --reflect-cost

/** Whether a transcript line is a person's prompt (a user entry with text, not a tool result or meta line). */
function isPrompt(line) {
  let o;
  try {
    o = JSON.parse(line);
  } catch {
    return false;
  }
  if (o?.type !== 'user' || o.isMeta || o.isSidechain) return false;
  const c = o.message?.content;
  if (typeof c === 'string') return c.trim() !== '';
  return Array.isArray(c) && c.some((x) => x?.type === 'text') && !c.some((x) => x?.type === 'tool_result');
}

/** The reply a request asks for, if the assistant restated every listed candidate once: `[MEMORY: type] <summary>` per line. */
function expectedReply(reason) {
  const listed = reason.split('\n').filter((l) => /^- \([a-z]+, \d\.\d\d\) /.test(l));
  return listed.reduce((n, l) => {
    const [, type, summary] = /^- \(([a-z]+), \d\.\d\d\) (.*)$/.exec(l);
    return n + `[MEMORY: ${type}] ${summary}\n`.length;
  }, 0);
}

async function reflectCost() {
  const goldDoc = JSON.parse(readFileSync(gold, 'utf8'));
  const only = onlyFor(opts)?.split(',');
  const files = Object.keys(goldDoc.transcripts).sort().filter((f) => only === undefined || only.some((p) => f.startsWith(p)));
  const rows = [];
  for (const file of files) {
    process.stderr.write(`bench:continuity: reflect, ${file}…\n`);
    const lines = readFileSync(join(transcripts, file), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const sid = transcriptSessionId(join(transcripts, file));
    const { base, repo, env } = await freshRepo('continuity-reflect-', { CORTEX_CAPTURE_MODE: 'reflect' });
    try {
      const grown = join(base, 'transcript.jsonl');
      writeFileSync(grown, '');
      // Turn ends: just before each later prompt, and the transcript's end.
      const ends = [];
      lines.forEach((l, k) => {
        if (k > 0 && isPrompt(l)) ends.push(k);
      });
      ends.push(lines.length);
      let written = 0;
      const asks = [];
      let stops = 0;
      for (const end of ends) {
        appendFileSync(grown, lines.slice(written, end).map((l) => `${l}\n`).join(''));
        written = end;
        stops++;
        const r = await run(process.execPath, [cli, 'hook', 'stop'], { cwd: repo, env, input: `${JSON.stringify({ session_id: sid, transcript_path: grown, cwd: repo, hook_event_name: 'Stop', stop_hook_active: false })}\n` });
        let answer;
        try {
          answer = JSON.parse(r.stdout.trim() || 'null');
        } catch {
          answer = null;
        }
        if (answer?.decision === 'block' && typeof answer.reason === 'string') {
          asks.push({ turn: stops, requestChars: answer.reason.length, candidates: Number(/(\d+) things?/.exec(answer.reason)?.[1] ?? 0), expectedReplyChars: expectedReply(answer.reason) });
        }
      }
      rows.push({ file, prompts: ends.length - 1 + (isPrompt(lines[0] ?? '') ? 1 : 0), stops, asks });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
  return { mode: 'reflect-cost', cli, finished: new Date().toISOString(), everyTurns: 'capture.reflectEveryTurns (default)', rows };
}

function reflectTables(d) {
  const lines = ['| transcript | split | Stop calls (turns) | asks | request chars (mean / max) | candidates listed (mean) | expected reply chars (mean / max) |', '|---|---|--:|--:|--:|--:|--:|'];
  const mean = (xs) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : '–');
  const max = (xs) => (xs.length ? Math.max(...xs) : '–');
  for (const r of d.rows) {
    const req = r.asks.map((a) => a.requestChars);
    const rep = r.asks.map((a) => a.expectedReplyChars);
    lines.push(`| ${r.file.replace(/\.jsonl$/, '')} | ${splitOf(r.file) ?? ''} | ${r.stops} | ${r.asks.length} | ${mean(req)} / ${max(req)} | ${mean(r.asks.map((a) => Math.min(a.candidates, 8)))} | ${mean(rep)} / ${max(rep)} |`);
  }
  const all = d.rows.flatMap((r) => r.asks);
  const stops = d.rows.reduce((a, r) => a + r.stops, 0);
  lines.push(`| **all** | | ${stops} | ${all.length} (${stops ? Math.round((100 * all.length) / stops) : 0} % of turns; ${(all.length / Math.max(1, d.rows.length)).toFixed(1)} per session) | ${mean(all.map((a) => a.requestChars))} / ${max(all.map((a) => a.requestChars))} | ${mean(all.map((a) => Math.min(a.candidates, 8)))} | ${mean(all.map((a) => a.expectedReplyChars))} / ${max(all.map((a) => a.expectedReplyChars))} |`);
  return lines;
}
