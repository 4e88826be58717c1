#!/usr/bin/env node
/**
 * Whole-process timings of the Claude Code hooks, beside bare `node -e 0`:
 *   - `cortex hook stop` on the 2.8 MB real transcript, cold (no checkpoint, empty store)
 *     and incremental (one new turn appended before each run);
 *   - `cortex hook user-prompt-submit` with 10,000 memories (warm index);
 *   - `cortex hook session-start` with 10,000 memories, cached briefing.
 *
 * Self-contained: needs only the built CLI (`npm run build`) and, for the stop figures,
 * ../shared/transcripts (skipped when absent). Usage: node bench/hooks.mjs [--runs 15] [--memories 10000]
 * Prints a markdown table and writes bench/.out/hooks.json.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const RUNS = arg('runs', 15);
const MEMORIES = arg('memories', 10_000);
const SHARED = [process.env.CORTEX_SHARED, join(ROOT, '..', 'shared'), join(ROOT, '..', '..', 'shared')].find((p) => p && existsSync(p));
const TRANSCRIPT = SHARED && join(SHARED, 'transcripts', '07-task-patterns-v1.0.89.jsonl');

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: run `npm run build` first.');
  process.exit(1);
}

const base = mkdtempSync(join(tmpdir(), 'cortex-bench-hooks-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, 'gitconfig'), '[init]\n\tdefaultBranch = main\n[user]\n\tname = Bench\n\temail = bench@example.com\n');
const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}

function repo(name) {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  sh('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  sh('git', ['add', '.'], { cwd: dir });
  sh('git', ['commit', '-q', '-m', 'init'], { cwd: dir });
  sh(process.execPath, [CLI, 'init'], { cwd: dir });
  return dir;
}

/** Wall time of one process, in ms. */
function time(args, { cwd, input = '', before } = {}) {
  before?.();
  const start = process.hrtime.bigint();
  const r = spawnSync(args[0], args.slice(1), { cwd, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

function measure(label, args, options = {}) {
  for (let i = 0; i < (options.warmup ?? 2); i++) time(args, options);
  const samples = [];
  let last;
  for (let i = 0; i < (options.runs ?? RUNS); i++) {
    last = time(args, options);
    samples.push(last.ms);
  }
  samples.sort((a, b) => a - b);
  const pick = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  const row = { label, runs: samples.length, median: pick(0.5), p90: pick(0.9), min: samples[0], stdoutChars: last?.stdout.length ?? 0 };
  console.error(`${label}: median ${row.median.toFixed(0)} ms (p90 ${row.p90.toFixed(0)})`);
  return row;
}

// --- A store of MEMORIES synthetic memories (written directly as files, then indexed once).
const WORDS = {
  tech: ['SQLite', 'PostgreSQL', 'Redis', 'Kafka', 'RabbitMQ', 'gRPC', 'GraphQL', 'REST', 'Vitest', 'Jest', 'esbuild', 'webpack', 'Docker', 'Nix', 'Terraform', 'MiniSearch', 'Lucene', 'tRPC', 'Zod', 'Prisma'],
  area: ['billing', 'auth', 'search', 'ingest', 'export', 'sync', 'notifications', 'reporting', 'the CLI', 'the scheduler', 'uploads', 'the cache', 'migrations', 'the queue', 'metrics'],
  reason: ['zero-config matters most', 'it runs without a daemon', 'the team knows it', 'it is faster on cold start', 'it keeps the bundle small', 'it is deterministic', 'it has no native dependency'],
  gotcha: ['times out behind the proxy', 'needs UTC fixtures', 'leaks file handles on Windows', 'breaks when the locale is Turkish', 'caches across test files', 'drops the last line without a newline'],
};
const TYPES = ['decision', 'decision', 'rejected', 'gotcha', 'pattern', 'architecture', 'context', 'preference', 'progress'];
const pick = (list, n) => list[n % list.length];

function writeStore(dir, count) {
  const memories = join(dir, '.cortex', 'memories');
  for (let i = 0; i < count; i++) {
    const type = pick(TYPES, i);
    const a = pick(WORDS.tech, i * 7 + 3);
    const b = pick(WORDS.tech, i * 11 + 5);
    const area = pick(WORDS.area, i * 13);
    const summary =
      type === 'gotcha'
        ? `${a} in ${area} ${pick(WORDS.gotcha, i)} (case ${i})`
        : type === 'rejected'
          ? `Rejected ${a} for ${area}: ${pick(WORDS.reason, i * 3)} did not hold (case ${i})`
          : `Chose ${a} over ${b} for ${area} because ${pick(WORDS.reason, i)} (case ${i})`;
    const id = `bench-memory-${i}-${'abcdefghijklmnopqrstuvwxyz234567'[i % 32]}aaaaa`;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const text = [
      '---',
      `id: ${id}`,
      `type: ${type}`,
      `summary: ${JSON.stringify(summary)}`,
      'scope: project',
      `priority: ${1 + (i % 10)}`,
      `confidence: ${(0.5 + (i % 50) / 100).toFixed(2)}`,
      'pinned: false',
      'status: active',
      `tags: [${area.replace(/^the /, '').replace(/\s+/g, '-')}, ${a.toLowerCase()}]`,
      `created: 2026-10-${day}T10:00:00Z`,
      `updated: 2026-10-${day}T10:00:00Z`,
      'source:',
      '  kind: manual',
      '  layer: manual',
      '  branch: main',
      '---',
      `Memory ${i} about ${area}. ${a} was weighed against ${b}; ${pick(WORDS.reason, i * 5)}.`,
      '',
    ].join('\n');
    writeFileSync(join(memories, `${id}.md`), text);
  }
}

const rows = [];
rows.push(measure('node -e 0', [process.execPath, '-e', '0']));
const baseline = rows[0].median;

// --- Stop: cold and incremental on the 2.8 MB transcript.
if (TRANSCRIPT && existsSync(TRANSCRIPT)) {
  const dir = repo('stop');
  const transcript = join(base, 'stop.jsonl');
  const input = JSON.stringify({ session_id: 'bench-stop', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' });
  const fresh = () => {
    copyFileSync(TRANSCRIPT, transcript);
    rmSync(join(dir, '.memory'), { recursive: true, force: true });
    for (const sub of ['memories']) {
      rmSync(join(dir, '.cortex', sub), { recursive: true, force: true });
      mkdirSync(join(dir, '.cortex', sub), { recursive: true });
    }
  };
  rows.push(measure('hook stop, 2.8 MB transcript, cold (no checkpoint, empty store)', [process.execPath, CLI, 'hook', 'stop'], { cwd: dir, input, before: fresh, runs: Math.min(RUNS, 8), warmup: 1 }));

  // One new turn per run: a prompt, a reply with a tool call, its result (same envelope as the file).
  const lines = readFileSync(TRANSCRIPT, 'utf8').trimEnd().split('\n');
  const envelope = JSON.parse(lines.findLast((l) => l.includes('"type":"assistant"')));
  let n = 0;
  const turn = () => {
    n++;
    const common = { ...envelope, isSidechain: false, timestamp: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString() };
    const line = (o) => `${JSON.stringify({ ...common, ...o })}\n`;
    appendFileSync(
      transcript,
      line({ type: 'user', uuid: `bench-u-${n}`, message: { role: 'user', content: `Now run the unit tests for module ${n}` } }) +
        line({
          type: 'assistant',
          uuid: `bench-a-${n}`,
          message: {
            id: `bench-msg-${n}`,
            role: 'assistant',
            model: envelope.message?.model ?? 'claude',
            content: [
              { type: 'text', text: `Running the tests for module ${n}. [MEMORY: gotcha] Module ${n} tests need the fake clock (bench turn ${n}).` },
              { type: 'tool_use', id: `bench-tool-${n}`, name: 'Bash', input: { command: `npm test -- module-${n}` } },
            ],
          },
        }) +
        line({ type: 'user', uuid: `bench-r-${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `bench-tool-${n}`, content: 'ok' }] } }),
    );
  };
  fresh();
  time([process.execPath, CLI, 'hook', 'stop'], { cwd: dir, input });
  rows.push(measure('hook stop, 2.8 MB transcript, incremental (one new turn)', [process.execPath, CLI, 'hook', 'stop'], { cwd: dir, input, before: turn }));
} else {
  console.error('../shared/transcripts not found: stop figures skipped.');
}

// --- 10k memories: user-prompt-submit and session-start.
{
  const dir = repo('store');
  console.error(`writing ${MEMORIES} memories…`);
  writeStore(dir, MEMORIES);
  sh(process.execPath, [CLI, 'index'], { cwd: dir });
  const prompt = (text, session) => JSON.stringify({ session_id: session, prompt: text, cwd: dir, hook_event_name: 'UserPromptSubmit' });
  const related = measure(`hook user-prompt-submit, ${MEMORIES} memories, related prompt`, [process.execPath, CLI, 'hook', 'user-prompt-submit'], {
    cwd: dir,
    input: prompt('Should billing move from Redis to Kafka for the queue?', 'bench-prompt'),
  });
  rows.push(related);
  rows.push(
    measure(`hook user-prompt-submit, ${MEMORIES} memories, unrelated prompt`, [process.execPath, CLI, 'hook', 'user-prompt-submit'], {
      cwd: dir,
      input: prompt('What a lovely afternoon in Lisbon', 'bench-prompt-2'),
    }),
  );
  const start = JSON.stringify({ session_id: 'bench-start', source: 'startup', cwd: dir, hook_event_name: 'SessionStart' });
  // The first run builds and caches the briefing; the measured runs are the cached path.
  time([process.execPath, CLI, 'hook', 'session-start'], { cwd: dir, input: start });
  rows.push(measure(`hook session-start, ${MEMORIES} memories, cached briefing`, [process.execPath, CLI, 'hook', 'session-start'], { cwd: dir, input: start }));
}

const table = [
  '| path | median ms | p90 ms | × node -e 0 | stdout chars |',
  '|---|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.label} | ${r.median.toFixed(0)} | ${r.p90.toFixed(0)} | ${(r.median / baseline).toFixed(2)} | ${r.stdoutChars} |`),
].join('\n');
console.log(table);
mkdirSync(join(ROOT, 'bench', '.out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', '.out', 'hooks.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs: RUNS, memories: MEMORIES, rows }, null, 2)}\n`);
