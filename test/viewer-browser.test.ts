/// <reference lib="dom" />
/**
 * The web viewer in a real headless Chromium (Debian's `chromium`, driven by puppeteer-core;
 * no browser is downloaded), against `cortex serve` over a real temporary git repository.
 * Screenshots of the main views go to .ci/out/ (linked from docs/viewer.md).
 *
 * Without a Chromium these tests are skipped with a message saying so, except when
 * CORTEX_REQUIRE_BROWSER=1 (set by .ci/run, which installs one): then they fail.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { appendReview } from '../src/cache/review-queue.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { REPO_ROOT, json, tempRepo, type TempRepo } from './helpers/repo.js';

const CANDIDATES = [process.env.CORTEX_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter((p): p is string => !!p);
const CHROMIUM = CANDIDATES.find((p) => existsSync(p));
const REQUIRED = process.env.CORTEX_REQUIRE_BROWSER === '1';
if (!CHROMIUM && !REQUIRED) {
  console.warn(`viewer-browser.test.ts: skipped — no Chromium at ${CANDIDATES.join(', ')}. Install it (apt-get install chromium) or set CORTEX_CHROMIUM.`);
}
const OUT = join(REPO_ROOT, '.ci', 'out');

let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) {
    if (REQUIRED) throw new Error(`CORTEX_REQUIRE_BROWSER=1 but no Chromium at ${CANDIDATES.join(', ')}`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

interface Project {
  repo: TempRepo;
  s: RunningServer;
  page: Page;
  ids: Record<string, string>;
}

function remember(repo: TempRepo, text: string, ...flags: string[]): string {
  const r = repo.cortex(['remember', '--json', ...flags], { input: text });
  expect(r.code, r.stderr).toBe(0);
  return json<{ memory: { id: string } }>(r).memory.id;
}

/** A small project: four memories, two edges, committed; the server; a page at its URL. */
async function project(): Promise<Project> {
  const repo = tempRepo({ 'src/db.ts': 'export const db = "sqlite";\n' });
  expect(repo.cortex(['init']).code).toBe(0);
  const ids = {
    sqlite: remember(
      repo,
      'Chose SQLite over Postgres because zero-config matters on every laptop\nWe need a store that works with **no server** on every developer laptop.\n\n- PostgreSQL needs a running daemon\n- SQLite ships inside the process\n\n<script>alert(1)</script>',
      '--type', 'decision', '--tags', 'storage,sqlite', '--priority', '8'),
    orm: remember(repo, 'Rejected an ORM: the query builder keeps SQL reviewable', '--type', 'rejected', '--tags', 'storage'),
    wal: remember(repo, 'Write-ahead logging must stay on so hooks can read while the CLI writes', '--type', 'gotcha', '--tags', 'sqlite'),
    routes: remember(repo, 'HTTP handlers live in src/routes/, one file per resource', '--type', 'architecture', '--tags', 'api'),
  };
  expect(repo.cortex(['link', ids.wal, 'refines', ids.sqlite]).code).toBe(0);
  expect(repo.cortex(['link', ids.orm, 'relates_to', ids.sqlite]).code).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'Record the storage decisions']);
  const s = await startServer({ cortex: openCortex({ dir: repo.dir, env: repo.env }), debounceMs: 50, log: () => {} });
  onTestFinished(() => s.close());
  const page = await browser.newPage();
  onTestFinished(() => page.close());
  await page.setViewport({ width: 1280, height: 860 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The bundle must live within the page's Content-Security-Policy (no inline script or style).
  page.on('console', (m) => void (/Content.Security.Policy/i.test(m.text()) && errors.push(m.text())));
  onTestFinished(() => expect(errors, 'errors thrown in the page, CSP violations').toEqual([]));
  await page.goto(s.url, { waitUntil: 'load' });
  await page.waitForSelector('#results li');
  return { repo, s, page, ids };
}

/**
 * Clicks `selector`, again if the element was replaced before the click landed: the page
 * re-renders when files change on disk, and an action's own write is such a change.
 */
async function click(page: Page, selector: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await page.click(selector);
      return;
    } catch (err) {
      if (attempt >= 10 || !/detached|not clickable|No element/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `viewer-${name}.png`) });
}

describe.skipIf(!CHROMIUM && !REQUIRED)('the viewer in headless Chromium', () => {
  it('search finds a memory and highlights the hits; the result opens the memory view', async () => {
    const { page, ids } = await project();
    await page.type('#q', 'sqlite');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('h2')?.textContent?.includes('Results for'));
    const results = await page.$$eval('#results li h3 a', (as) => as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent })));
    expect(results.map((r) => r.href)).toContain(`#/memory/${ids.sqlite}`);
    expect(results.map((r) => r.href)).not.toContain(`#/memory/${ids.routes}`);
    const marks = await page.$$eval('#results mark', (ms) => ms.map((m) => m.textContent?.toLowerCase()));
    expect(marks).toContain('sqlite');
    await shot(page, 'search');

    await click(page, `#results a[href="#/memory/${ids.sqlite}"]`);
    await page.waitForSelector('#source');
    const text = await page.$eval('main', (m) => m.textContent ?? '');
    expect(text).toContain('Chose SQLite over Postgres');
    expect(text).toContain('Record the storage decisions'); // the git log of its file
    expect(text).toMatch(/Edges \(2\)/);
    // The body is rendered markdown, and HTML in it is text, not markup.
    expect(await page.$$eval('.markdown li', (li) => li.map((l) => l.textContent))).toEqual(['PostgreSQL needs a running daemon', 'SQLite ships inside the process']);
    expect(await page.$eval('.markdown', (m) => [m.querySelector('strong')?.textContent, m.querySelector('script'), m.textContent?.includes('<script>')])).toEqual(['no server', null, true]);
    await shot(page, 'memory');
  });

  it('the graph renders the memories as nodes and the edges between them', async () => {
    const { page, ids } = await project();
    await page.goto(`${s0(page)}#/graph`);
    await page.waitForSelector('#cy canvas');
    await page.waitForFunction(() => (document.querySelector('cx-graph') as unknown as { cy?: { nodes(): { length: number } } })?.cy?.nodes().length);
    const graph = await page.$eval('cx-graph', (el) => {
      const cy = (el as unknown as { cy: { nodes(): { map<T>(f: (n: { id(): string; renderedBoundingBox(): { w: number } }) => T): T[] }; edges(): { map<T>(f: (e: { data(k: string): string }) => T): T[] } } }).cy;
      return {
        nodes: cy.nodes().map((n) => ({ id: n.id(), width: n.renderedBoundingBox().w })),
        edges: cy.edges().map((e) => `${e.data('source')} ${e.data('label')} ${e.data('target')}`),
      };
    });
    expect(graph.nodes.map((n) => n.id).sort()).toEqual([ids.orm, ids.sqlite, ids.wal].sort());
    expect(graph.nodes.every((n) => n.width > 0)).toBe(true);
    expect(graph.edges.sort()).toEqual([`${ids.orm} relates_to ${ids.sqlite}`, `${ids.wal} refines ${ids.sqlite}`].sort());
    // Something was drawn: the canvas is not blank.
    const inked = await page.$$eval('#cy canvas', (cs) =>
      cs.some((c) => {
        const d = (c as HTMLCanvasElement).getContext('2d')?.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
        if (!d) return false;
        for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) return true;
        return false;
      }),
    );
    expect(inked).toBe(true);
    expect(await page.$eval('#graph-count', (e) => e.textContent)).toBe('3 memories, 2 edges');
    await shot(page, 'graph');
  });

  it('accepting a review item writes the memory file; rejecting one removes it', async () => {
    const { page, repo, s } = await project();
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    await appendReview(cortex.context.paths, [
      { kind: 'candidate', id: 'candidate:3f9a2c1d04', created: '2026-11-21T10:00:00Z', candidate: { type: 'decision', summary: 'Go with Redis for the session cache', body: 'Said in passing during the auth work.', confidence: 0.55, tags: ['cache'], layer: 'keyword', session: 's1' } },
      { kind: 'candidate', id: 'candidate:77aa2c1d04', created: '2026-11-21T10:05:00Z', candidate: { type: 'pattern', summary: 'Maybe name tests after behaviours', body: 'A guess.', confidence: 0.4, tags: [], layer: 'keyword', session: 's1' } },
    ]);
    await page.goto(`${s.origin}#/review`);
    await page.waitForSelector('.review-item');
    await shot(page, 'review');
    const before = repo.list('.cortex/memories').length;
    await click(page, '.review-item[data-id="candidate:3f9a2c1d04"] button.accept');
    await page.waitForFunction(() => document.querySelector('#review-result')?.textContent?.startsWith('Accepted'));
    const files = repo.list('.cortex/memories');
    expect(files.length).toBe(before + 1);
    const written = files.map((f) => repo.read(`.cortex/memories/${f}`)).find((t) => t.includes('summary: Go with Redis for the session cache'));
    expect(written).toMatch(/type: decision/);
    await click(page, '.review-item[data-id="candidate:77aa2c1d04"] button.reject');
    await page.waitForFunction(() => document.querySelector('#review-result')?.textContent === 'Rejected.');
    expect(repo.list('.cortex/memories').length).toBe(before + 1);
    expect(await page.$$('.review-item')).toHaveLength(0);
  });

  it('an edit with invalid YAML shows the error and keeps the file; a valid edit is saved', async () => {
    const { page, repo, s, ids } = await project();
    const file = `.cortex/memories/${ids.routes}.md`;
    const before = repo.read(file);
    await page.goto(`${s.origin}#/memory/${ids.routes}`);
    await page.waitForSelector('#source');
    const setSource = (text: string) =>
      page.$eval('#source', (t, v) => {
        (t as HTMLTextAreaElement).value = v;
        t.dispatchEvent(new Event('input'));
      }, text);
    await setSource(before.replace('type: architecture', 'type: [architecture'));
    await click(page, '#save');
    await page.waitForSelector('#edit-result [role="alert"]');
    const alert = await page.$eval('#edit-result [role="alert"]', (e) => e.textContent ?? '');
    expect(alert).toMatch(/not a valid memory/);
    expect(alert).toMatch(/file was not changed/);
    expect(repo.read(file)).toBe(before);
    await shot(page, 'edit-error');

    await setSource(before.replace('one file per resource', 'one file per resource, named after it'));
    await click(page, '#save');
    await page.waitForFunction(() => document.querySelector('#edit-result')?.textContent === 'Saved.');
    expect(repo.read(file)).toContain('summary: HTTP handlers live in src/routes/, one file per resource, named after it');
  });

  it('updates the page when a memory file changes on disk', async () => {
    const { page, repo } = await project();
    const id = remember(repo, 'Feature flags are read once at startup, never per request', '--type', 'pattern');
    await page.waitForSelector(`#results a[href="#/memory/${id}"]`, { timeout: 10_000 });
    expect(await page.$eval('#notice', (e) => e.textContent)).toMatch(/Files changed on disk/);
  });

  it('shows the briefing with its explain table, the lifecycle plan, the branch diff and status', async () => {
    const { page, repo, s, ids } = await project();
    repo.git(['checkout', '-qb', 'feature']);
    remember(repo, 'Sessions expire after 30 minutes of inactivity', '--type', 'decision', '--tags', 'auth');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'Session expiry']);
    await page.goto(`${s.origin}#/briefing`);
    await page.waitForSelector('cx-briefing table');
    expect(await page.$eval('cx-briefing .briefing', (e) => e.textContent)).toContain('Chose SQLite over Postgres');
    expect(await page.$$eval('cx-briefing tbody tr', (rows) => rows.length)).toBeGreaterThanOrEqual(4);
    await shot(page, 'briefing');
    await page.goto(`${s.origin}#/lifecycle`);
    await page.waitForSelector('cx-lifecycle table');
    expect(await page.$eval('cx-lifecycle', (e) => e.textContent)).toContain(ids.wal);
    await shot(page, 'lifecycle');
    await page.goto(`${s.origin}#/diff?range=main...feature`);
    await page.waitForSelector('cx-diff table');
    const diff = await page.$eval('cx-diff', (e) => e.textContent ?? '');
    expect(diff).toContain('Sessions expire after 30 minutes of inactivity');
    expect(diff).toContain('added');
    await shot(page, 'diff');
    await page.goto(`${s.origin}#/status`);
    await page.waitForSelector('cx-status table');
    expect(await page.$eval('cx-status', (e) => e.textContent)).toMatch(/Doctor/);
  });

  it('without the token the page says how to get one, and the API refuses it', async () => {
    const { s } = await project();
    const page = await browser.newPage();
    onTestFinished(() => page.close());
    await page.evaluateOnNewDocument(() => sessionStorage.clear());
    await page.goto(s.origin);
    await page.waitForSelector('[role="alert"]');
    expect(await page.$eval('[role="alert"]', (e) => e.textContent)).toMatch(/token/);
    const status = await page.evaluate(async () => (await fetch('/api/status')).status);
    expect(status).toBe(401);
  });
});

/** The origin of the page's server (its URL without fragment). */
function s0(page: Page): string {
  return new URL(page.url()).origin + '/';
}
