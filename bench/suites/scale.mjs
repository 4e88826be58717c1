/**
 * Suite `scale`: what a command costs as the store grows (issue 18), whole-process, per
 * corpus size (default 10,000 and 100,000 memories), each case next to `node -e 0`:
 *
 *   recall warm          `cortex recall <q>` with a current index
 *   remember             `cortex remember <text>`: one new memory, auto-linking on
 *   one-file refresh     `cortex index <file>` after that memory file was edited in place
 *   session-start        `cortex hook session-start` with a cached briefing
 *   full rebuild         `cortex index --rebuild` (fewer runs: tens of seconds at 100,000)
 *   MCP recall, warm     `memory_recall` answered by a running `cortex mcp` (median of 20 calls)
 *
 * Budgets are the goals: ratios to `node -e 0` for the per-command cases, seconds
 * and megabytes for the rebuild, milliseconds for the warm server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onJsonLines } from '../lib/json-lines.mjs';

/** The goals of issue 18 by corpus size. */
export const GOALS = {
  10000: { recall: 2.0, remember: 2.5, refresh: 2.0, start: 1.5, rebuildMs: 3000, recallRss: 100, mcpMs: 20 },
  100000: { recall: 2.5, remember: 3.0, refresh: 2.5, start: 1.5, rebuildMs: 20000, rebuildRss: 400, recallRss: 120, mcpMs: 50 },
};

const QUERIES = ['sqlite migration', 'why did we pick the retry policy'];
/** What a benchmark `remember` writes: recognisable, so the suite removes exactly these afterwards. */
const REMEMBERED = 'The scale benchmark notes that the migration runner holds the retry lock';

const ratio = (label, max) => ({ label, metric: 'ratio', max });
const parseJson = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Runs the suite for every corpus size in `ctx.ns`; returns the rows.
 *
 * @example
 * const rows = await scale(ctx);
 */
export default async function scale(ctx) {
  const rows = [];
  for (const n of ctx.ns) {
    const goal = GOALS[n];
    const corpus = await ctx.corpus(n);
    const dir = corpus.dir;
    const cortex = (args, extra = {}) => ({ cmd: ctx.node, args: [ctx.cli, ...args], cwd: dir, env: ctx.env, ...extra });
    const sh = (cmd, args, input) => {
      const r = spawnSync(cmd, args, { cwd: dir, env: ctx.env, input, encoding: 'utf8', maxBuffer: 64 << 20 });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    corpus.markDirty();
    const memoriesDir = join(dir, '.cortex', 'memories');
    const edited = corpus.files[Math.floor(corpus.files.length / 2)];
    const original = readFileSync(edited, 'utf8');
    try {
      if (!statSafe(join(dir, '.git'))) sh('git', ['init', '-q', '-b', 'main']);
      ctx.log(`N = ${n.toLocaleString('en-US')}: bringing the index up to date …`);
      sh(ctx.node, [ctx.cli, 'index']);
      const start = JSON.stringify({ session_id: 'bench-scale', source: 'startup', cwd: dir, hook_event_name: 'SessionStart' });
      sh(ctx.node, [ctx.cli, 'hook', 'session-start'], start);
      let remembered = 0;
      let edits = 0;
      let sessions = 0;
      const recalls = QUERIES.map((q, k) => ({
        name: `recall warm: "${q}"`,
        ...cortex(['recall', q]),
        check: (stdout) => (stdout.trim() === '' ? 'no results' : undefined),
        meta: { key: `recallWarm${k}`, budgets: goal ? [ratio(`recall warm ≤ ${goal.recall}×`, goal.recall), { label: `recall peak RSS ≤ ${goal.recallRss} MB`, metric: 'rss', max: goal.recallRss }] : [] },
      }));
      const sessionStart = {
        name: 'hook session-start, cached',
        ...cortex(['hook', 'session-start']),
        // A new session each run: the same delivery twice in a row is injected once.
        get input() {
          return JSON.stringify({ session_id: `bench-scale-${++sessions}`, source: 'startup', cwd: dir, hook_event_name: 'SessionStart' });
        },
        check: (stdout) => (stdout.includes('additionalContext') || stdout.includes('CORTEX_MEMORY_START') ? undefined : 'no briefing'),
        meta: { key: 'sessionStart', budgets: goal ? [ratio(`cached session-start ≤ ${goal.start}×`, goal.start)] : [] },
      };
      const writes = [
        {
          name: 'remember (one memory, auto-link on)',
          cmd: ctx.node,
          get args() {
            return [ctx.cli, 'remember', '--type', 'gotcha', `${REMEMBERED}, take ${++remembered}.`];
          },
          cwd: dir,
          env: ctx.env,
          meta: { key: 'remember', budgets: goal ? [ratio(`remember ≤ ${goal.remember}×`, goal.remember)] : [] },
        },
        {
          name: 'one-file refresh (`index <file>`)',
          ...cortex(['index', edited, '--json']),
          // Edited in place (same inode: the directory does not change), as an editor saving it.
          before: () => writeFileSync(edited, `${original}\nEdited by the scale benchmark, edit ${++edits}.\n`),
          check: (stdout) => (parseJson(stdout)?.tiers?.[0]?.updated === 1 ? undefined : `expected 1 updated, got ${stdout.trim()}`),
          meta: { key: 'refreshOne', budgets: goal ? [ratio(`one-file refresh ≤ ${goal.refresh}×`, goal.refresh)] : [] },
        },
      ];
      // Three groups: a recall records usage signals and a write changes the memories, and
      // either makes the next session-start build its briefing anew (not the cached path).
      const summaries = [
        ...(await ctx.measure(`scale recall, N = ${n.toLocaleString('en-US')}`, recalls)),
        ...(await ctx.measure(`scale session-start, N = ${n.toLocaleString('en-US')}`, [sessionStart])),
        ...(await ctx.measure(`scale writes, N = ${n.toLocaleString('en-US')}`, writes)),
      ];
      for (const s of summaries) rows.push(ctx.row({ ...s, n }, s.isBaseline ? [] : (s.budgets ?? [])));

      // The rebuild: a few runs (each is seconds to tens of seconds).
      const rebuild = await ctx.measure(`scale rebuild, N = ${n.toLocaleString('en-US')}`, [
        {
          name: 'index --rebuild',
          ...cortex(['index', '--rebuild', '--json']),
          check: (stdout) => (parseJson(stdout)?.tiers?.[0]?.memories >= n ? undefined : `expected ${n} memories`),
          meta: { key: 'rebuild' },
        },
      ], { runs: Math.min(3, ctx.runs), warmup: 0 });
      for (const s of rebuild) {
        const budgets = s.isBaseline || !goal ? [] : [{ label: `full rebuild ≤ ${goal.rebuildMs / 1000} s`, metric: 'wall', max: goal.rebuildMs }, ...(goal.rebuildRss ? [{ label: `rebuild peak RSS ≤ ${goal.rebuildRss} MB`, metric: 'rss', max: goal.rebuildRss }] : [])];
        rows.push(ctx.row({ ...s, n }, budgets));
      }

      const mcp = await mcpRecall(ctx, dir, QUERIES[0], 20);
      rows.push(
        ctx.row(
          { name: 'MCP memory_recall, warm server (per call)', title: 'mcp', n, medianMs: mcp.median, p90Ms: mcp.p90, minMs: mcp.min, runs: mcp.calls, isBaseline: false },
          goal ? [{ label: `MCP recall ≤ ${goal.mcpMs} ms`, metric: 'wall', max: goal.mcpMs }] : [],
        ),
      );
    } finally {
      writeFileSync(edited, original);
      // The memories the benchmark remembered (and their auto-links), then one sweep.
      for (const name of readdirSync(memoriesDir)) {
        if (name.includes('scale-benchmark-notes')) rmSync(join(memoriesDir, name));
      }
      const edgesDir = join(dir, '.cortex', 'edges');
      for (const name of statSafe(edgesDir) ? readdirSync(edgesDir) : []) {
        if (name.includes('scale-benchmark-notes')) rmSync(join(edgesDir, name));
      }
      // And the duplicates auto-linking queued for review between them (each run queued more,
      // so every later remember read and rewrote a longer queue).
      const queue = join(dir, '.memory', 'review.jsonl');
      if (statSafe(queue)) writeFileSync(queue, readFileSync(queue, 'utf8').split('\n').filter((line) => !line.includes('scale-benchmark-notes')).join('\n'));
      spawnSync(ctx.node, [ctx.cli, 'index'], { cwd: dir, env: ctx.env });
      corpus.markClean();
    }
  }
  return rows;
}

function statSafe(path) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Starts `cortex mcp` in `dir`, asks `memory_recall` for `query` `calls` times after three
 * warm-up calls, and returns the round-trip times of the measured calls (ms).
 */
export function mcpRecall(ctx, dir, query, calls) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(ctx.node, [ctx.cli, 'mcp'], { cwd: dir, env: ctx.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const times = [];
    let started = 0n;
    let id = 1;
    let stderr = '';
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    const ask = () => {
      started = process.hrtime.bigint();
      send({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'memory_recall', arguments: { query } } });
    };
    child.stderr.on('data', (d) => (stderr += d));
    onJsonLines(child.stdout, (msg, line) => {
      if (msg.id === 1) {
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        ask();
        return;
      }
      if (msg.error || msg.result?.isError) {
        reject(new Error(`memory_recall failed: ${line.slice(0, 300)}`));
        child.kill();
        return;
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (id > 4) times.push(ms);
      if (times.length < calls) {
        ask();
      } else {
        child.stdin.end();
        const sorted = [...times].sort((a, b) => a - b);
        resolvePromise({ calls, median: sorted[Math.floor((sorted.length - 1) / 2)], p90: sorted[Math.ceil(0.9 * sorted.length) - 1], min: sorted[0] });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (times.length < calls) reject(new Error(`cortex mcp exited ${code} early: ${stderr.slice(0, 500)}`));
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-scale', version: '1' } } });
  });
}
