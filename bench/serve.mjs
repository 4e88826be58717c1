#!/usr/bin/env node
/**
 * `cortex serve`, whole process: how long until the server is ready (the built CLI spawned,
 * until it prints its URL and answers /api/status), against `node -e 0`; and the first page
 * load in headless Chromium (navigation until the memory list is on screen) with 10,000
 * memories, plus the graph view with their edges.
 *
 *   npm run build && node bench/serve.mjs [--runs 7] [--n 10000] [--edges 3000] [--json]
 *
 * Needs Debian's chromium (or CORTEX_CHROMIUM) for the page loads. Figures: bench/README.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.cjs');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    n: { type: 'string', default: '10000' },
    edges: { type: 'string', default: '3000' },
    json: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const N = Number(values.n);
if (!existsSync(CLI)) throw new Error('Build first: npm run build');

const work = mkdtempSync(join(tmpdir(), 'cortex-bench-serve-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const env = {
  ...process.env,
  CORTEX_HOME: join(work, 'home'),
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: join(work, 'home'),
};
mkdirSync(env.HOME, { recursive: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A git repository with `n` memories from the shared corpus and `edges` edge files. */
async function project(name, n, edgeCount) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  run('git', ['init', '-q', '-b', 'main'], dir);
  if (n > 0) {
    const { generateCorpus, generateEdges, writeCorpus } = await import('./corpus.mjs');
    const memories = generateCorpus({ n, seed: 1 });
    writeCorpus(dir, memories);
    const { renderEdge } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'edge-format.js')).href);
    const edgesDir = join(dir, '.cortex', 'edges');
    mkdirSync(edgesDir, { recursive: true });
    for (const e of generateEdges({ memories, n: edgeCount, seed: 1 })) writeFileSync(join(edgesDir, `${e.source}--${e.relation}--${e.target}.md`), renderEdge(e));
  }
  run(process.execPath, [CLI, 'init'], dir);
  // The index is built once (as any earlier command in the clone would have): the figures are warm starts.
  run(process.execPath, [CLI, 'status'], dir);
  return dir;
}

function get(port, token, path) {
  return new Promise((resolveGet, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolveGet(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Spawns `cortex serve --json`; resolves when it printed its URL and answered /api/status. */
function startServe(dir) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--json'], { cwd: dir, env });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolveStart, reject) => {
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    child.stdout.on('data', async (d) => {
      out += d;
      let info;
      try {
        info = JSON.parse(out);
      } catch {
        return;
      }
      const printed = performance.now() - started;
      const token = info.url.split('#token=')[1];
      const status = await get(info.port, token, '/api/status');
      if (status !== 200) return reject(new Error(`status ${status}`));
      const answered = performance.now() - started;
      const stop = () =>
        new Promise((done) => {
          child.removeAllListeners('exit');
          child.once('exit', () => done());
          child.kill('SIGINT');
        });
      resolveStart({ info, printed, answered, stop });
    });
  });
}

function nodeBaseline() {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t;
}

const rows = [];
const empty = await project('small', 0, 0);
const big = await project('big', N, Number(values.edges));

for (const [label, dir] of [
  ['empty project', empty],
  [`${N.toLocaleString('en')} memories`, big],
]) {
  const base = [];
  const printed = [];
  const answered = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(nodeBaseline());
    const s = await startServe(dir);
    printed.push(s.printed);
    answered.push(s.answered);
    await s.stop();
  }
  const row = { what: `server ready, ${label}`, printedMs: median(printed), answeredMs: median(answered), nodeMs: median(base) };
  row.ratio = row.answeredMs / row.nodeMs;
  rows.push(row);
  console.error(`${row.what}: URL printed ${row.printedMs.toFixed(0)} ms, /api/status answered ${row.answeredMs.toFixed(0)} ms; node -e 0 ${row.nodeMs.toFixed(0)} ms (${row.ratio.toFixed(2)}×)`);
}

const chromium = [process.env.CORTEX_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!chromium) {
  console.error('No Chromium: page loads not measured (apt-get install chromium, or set CORTEX_CHROMIUM).');
} else {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const s = await startServe(big);
  try {
    for (const [view, hash, selector] of [
      ['first page load (memory list)', '', '#results li'],
      ['graph view', '#/graph', '#graph-count'],
    ]) {
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        // A fresh context each time: nothing cached, the token read from the URL as a person's first visit.
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        const t = performance.now();
        if (hash) {
          await page.goto(s.info.url, { waitUntil: 'domcontentloaded' });
          await page.waitForSelector('#results li');
          const t2 = performance.now();
          await page.evaluate((h) => (location.hash = h), hash);
          await page.waitForSelector(selector, { timeout: 60_000 });
          await page.waitForFunction(() => document.querySelector('cx-graph')?.getAttribute('aria-busy') === null);
          times.push(performance.now() - t2);
        } else {
          await page.goto(s.info.url, { waitUntil: 'domcontentloaded' });
          await page.waitForSelector(selector);
          times.push(performance.now() - t);
        }
        await context.close();
      }
      const row = { what: `${view}, ${N.toLocaleString('en')} memories`, ms: median(times), min: Math.min(...times), max: Math.max(...times) };
      rows.push(row);
      console.error(`${row.what}: median ${row.ms.toFixed(0)} ms (min ${row.min.toFixed(0)}, max ${row.max.toFixed(0)})`);
    }
  } finally {
    await s.stop();
    await browser.close();
  }
}
if (values.json) process.stdout.write(`${JSON.stringify({ runs: RUNS, n: N, edges: Number(values.edges), rows }, null, 2)}\n`);
