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
        edges: cy.edges().map((e) => `${e.data('source')} ${e.data('relation')} ${e.data('target')}`),
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

  it('"show weaker matches" lists the matches under the relevance floor after the others, marked as weaker', async () => {
    const { page, s, ids } = await project();
    await page.goto(`${s.origin}#/search?q=${encodeURIComponent('sqlite laptop')}`);
    await page.waitForSelector('#results li');
    const strong = await page.$$eval('#results li h3 a', (as) => as.map((a) => a.getAttribute('href')));
    expect(strong).toEqual([`#/memory/${ids.sqlite}`]);
    const toggle = await page.$eval('#weaker-toggle', (a) => a.textContent ?? '');
    const hidden = Number(/show (\d+) weaker/.exec(toggle)?.[1]);
    expect(hidden).toBeGreaterThan(0);
    await click(page, '#weaker-toggle');
    await page.waitForSelector('#results li.weaker');
    const rows = await page.$$eval('#results li', (lis) => lis.map((li) => ({ href: li.querySelector('h3 a')?.getAttribute('href'), weaker: li.classList.contains('weaker'), tag: li.querySelector('.weak-tag')?.textContent ?? null })));
    // The strong match first and unmarked; then exactly the matches the floor had left out, each marked.
    expect(rows[0]).toEqual({ href: `#/memory/${ids.sqlite}`, weaker: false, tag: null });
    expect(rows.slice(1)).toHaveLength(hidden);
    expect(rows.slice(1).every((r) => r.weaker && r.tag === 'weaker match')).toBe(true);
    expect(new Set(rows.map((r) => r.href)).size).toBe(rows.length);
    expect(page.url()).toMatch(/weaker=1/);
    await shot(page, 'search-weaker');
    await click(page, '#weaker-toggle');
    await page.waitForFunction(() => document.querySelectorAll('#results li').length === 1);
  }, 90_000);

  it('a link with the token opens the view it names (memory, graph, diff); back and forward move between views', async () => {
    const { repo, s, ids } = await project();
    repo.git(['checkout', '-qb', 'feature']);
    remember(repo, 'Sessions expire after 30 minutes of inactivity', '--type', 'decision', '--tags', 'auth');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'Session expiry']);
    /** A new tab (no token kept from another one) opened on `hash` with the token added. */
    const open = async (hash: string): Promise<Page> => {
      const page = await browser.newPage();
      onTestFinished(() => page.close());
      await page.setViewport({ width: 1280, height: 860 });
      await page.goto(`${s.origin}${hash}?token=${s.token}`);
      return page;
    };
    const memory = await open(`#/memory/${ids.wal}`);
    await memory.waitForSelector('#source');
    expect(await memory.$eval('main h2', (e) => e.textContent)).toContain('Write-ahead logging must stay on');
    // The token leaves the address bar; the view stays in it.
    expect(memory.url()).toBe(`${s.origin}#/memory/${ids.wal}`);

    const graph = await open('#/graph');
    await graph.waitForSelector('#cy canvas');
    expect(graph.url()).toBe(`${s.origin}#/graph`);

    const diff = await open('#/diff/main...feature');
    await diff.waitForSelector('cx-diff table');
    expect(await diff.$eval('#range', (e) => (e as HTMLInputElement).value)).toBe('main...feature');
    expect(await diff.$eval('cx-diff', (e) => e.textContent)).toContain('Sessions expire after 30 minutes of inactivity');
    // The form links to the comparison it shows.
    await diff.$eval('#range', (e) => ((e as HTMLInputElement).value = 'main...HEAD'));
    await click(diff, 'cx-diff form button');
    await diff.waitForFunction(() => location.hash === '#/diff/main...HEAD');

    // Back and forward: memory → graph (nav link) → another memory (table link), then back twice, forward once.
    // Back to the first tab (a tab in the background gets no animation frames to wait on).
    await memory.bringToFront();
    await click(memory, '#nav a[href="#/graph"]');
    await memory.waitForSelector('#cy canvas');
    await click(memory, `.edge-table a[href="#/memory/${ids.orm}"]`);
    await memory.waitForFunction((id) => document.querySelector('main h2')?.textContent?.includes('Rejected an ORM') && location.hash === `#/memory/${id}`, {}, ids.orm);
    await memory.goBack();
    await memory.waitForSelector('#cy canvas');
    await memory.goBack();
    await memory.waitForFunction(() => document.querySelector('main h2')?.textContent?.includes('Write-ahead logging'));
    await memory.goForward();
    await memory.waitForSelector('#cy canvas');
    expect(memory.url()).toBe(`${s.origin}#/graph`);
  }, 120_000);

  it('the graph of 50 linked memories draws no label over another label or node; an edge names its relation when pointed at', async () => {
    const repo = tempRepo({});
    expect(repo.cortex(['init']).code).toBe(0);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    // Summaries of the lengths people write, from 3 to 12 words.
    const words = ['cache', 'retry', 'queue', 'schema', 'index', 'worker', 'token', 'session', 'export', 'parser', 'router', 'config', 'logger', 'backup', 'billing', 'search'];
    const made: string[] = [];
    for (let i = 0; i < 50; i++) {
      const n = 3 + (i * 7) % 10;
      const summary = `${words[i % 16]} ${Array.from({ length: n - 1 }, (_, k) => words[(i * 3 + k * 5) % 16]).join(' ')} rule ${i}`;
      made.push((await cortex.remember({ summary, type: (['decision', 'gotcha', 'pattern', 'architecture'] as const)[i % 4], tags: [] })).memory.id);
    }
    const relations = ['relates_to', 'refines', 'derived_from', 'exemplifies'];
    let edges = 0;
    for (let i = 1; i < 50; i++) {
      // A tree (each to an earlier one), plus a cross link every fifth memory.
      await cortex.link({ source: made[i]!, relation: relations[i % 4]!, target: made[Math.floor((i - 1) / 3)]! });
      edges++;
      if (i % 5 === 0) {
        await cortex.link({ source: made[i]!, relation: 'relates_to', target: made[(i * 7) % i]! });
        edges++;
      }
    }
    // Remembering links similar memories too (suggested edges): count what is there.
    edges = cortex.graph().graph.edges.length;
    const s = await startServer({ cortex: openCortex({ dir: repo.dir, env: repo.env }), debounceMs: 50, log: () => {} });
    onTestFinished(() => s.close());
    const page = await browser.newPage();
    onTestFinished(() => page.close());
    await page.setViewport({ width: 1280, height: 860 });
    await page.goto(`${s.origin}#/graph?token=${s.token}`);
    await page.waitForFunction(() => (document.querySelector('cx-graph') as unknown as { cy?: { nodes(): { length: number } } })?.cy?.nodes().length === 50);
    expect(await page.$eval('#graph-count', (e) => e.textContent)).toBe(`50 memories, ${edges} edges`);
    type B = { x1: number; y1: number; x2: number; y2: number };
    const drawn = await page.$eval('cx-graph', (el) => {
      type Bb = { x1: number; y1: number; x2: number; y2: number; w: number; h: number };
      type N = { id(): string; data(k: string): string; boundingBox(o: Record<string, boolean>): Bb };
      const cy = (el as unknown as { cy: { zoom(): number; nodes(): { map<T>(f: (n: N) => T): T[] } } }).cy;
      return {
        fontPx: cy.zoom() * Math.min(...cy.nodes().map((n) => parseFloat((n as unknown as { style(k: string): string }).style('font-size')))),
        nodes: cy.nodes().map((n) => ({
          id: n.id(),
          label: n.data('label'),
          text: n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false }),
          body: n.boundingBox({ includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false }),
        })),
      };
    });
    const meets = (a: B, b: B): boolean => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
    const clashes: string[] = [];
    for (const a of drawn.nodes) {
      expect(a.text.x2 - a.text.x1, `label of ${a.id} measured`).toBeGreaterThan(0);
      for (const b of drawn.nodes) {
        if (a === b) continue;
        if (a.id < b.id && meets(a.text, b.text)) clashes.push(`label "${a.label}" over label "${b.label}"`);
        if (meets(a.text, b.body)) clashes.push(`label "${a.label}" over the node of "${b.label}"`);
      }
    }
    expect(clashes).toEqual([]);
    // Readable as drawn: labels are not shrunk below 10 px to fit everything in.
    expect(drawn.fontPx).toBeGreaterThanOrEqual(10);
    await shot(page, 'graph-50');

    // Pointing at an edge shows its relation (no edge label is drawn at rest). On a loaded
    // machine the drawing may still settle after it was measured: measure and point again.
    const pointAtFreeEdge = () => page.$eval('cx-graph', (el) => {
      type E = { id(): string; data(k: string): string; style(k: string): string; renderedMidpoint(): { x: number; y: number } };
      const cy = (el as unknown as { cy: { edges(): { toArray(): E[] }; nodes(): { toArray(): { renderedBoundingBox(o: Record<string, boolean>): { x1: number; x2: number; y1: number; y2: number } }[] } } }).cy;
      const boxes = cy.nodes().toArray().map((n) => n.renderedBoundingBox({ includeLabels: true, includeOverlays: false }));
      const r = el.querySelector('#cy')!.getBoundingClientRect();
      // An edge whose middle is in sight and clear of every node and label.
      const free = cy.edges().toArray().find((e) => {
        const m = e.renderedMidpoint();
        const inSight = m.x > 20 && m.y > 20 && m.x < r.width - 20 && m.y < r.height - 20;
        return inSight && !boxes.some((b) => m.x > b.x1 - 6 && m.x < b.x2 + 6 && m.y > b.y1 - 6 && m.y < b.y2 + 6);
      })!;
      return { id: free.id(), relation: free.data('label'), atRest: free.style('label'), x: r.left + free.renderedMidpoint().x, y: r.top + free.renderedMidpoint().y };
    });
    // Wait until the drawing stands still (layout and label separation finished) before aiming.
    const positions = () => page.$eval('cx-graph', (el) => JSON.stringify((el as unknown as { cy: { nodes(): { map<T>(f: (n: { position(): { x: number; y: number } }) => T): T[] } } }).cy.nodes().map((n) => n.position())));
    for (let last = '', i = 0; i < 20; i++) {
      const now = await positions();
      if (now === last) break;
      last = now;
      await new Promise((r) => setTimeout(r, 500));
    }
    let target = await pointAtFreeEdge();
    expect(target.atRest).toBe('');
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(target.x - 30, target.y - 30);
      await page.mouse.move(target.x, target.y, { steps: 5 });
      const labelled = await page
        .waitForFunction(
          (id) => (document.querySelector('cx-graph') as unknown as { cy: { getElementById(i: string): { style(k: string): string } } }).cy.getElementById(id).style('label') !== '',
          { timeout: 5_000 },
          target.id,
        )
        .then(() => true, () => false);
      if (labelled) break;
      if (attempt === 3) {
        // A loaded machine can drop the pointer's hover (Chromium throttles its frames under load):
        // deliver the same mouseover to the edge the pointer is on, so what the page does with it
        // is still checked below.
        await page.$eval('cx-graph', (el, id) => (el as unknown as { cy: { getElementById(i: string): { emit(e: string): void } } }).cy.getElementById(id).emit('mouseover'), target.id);
        break;
      }
      target = await pointAtFreeEdge();
    }
    const shown = await page.$eval('cx-graph', (el, id) => (el as unknown as { cy: { getElementById(i: string): { style(k: string): string } } }).cy.getElementById(id).style('label'), target.id);
    expect(shown).toBe(target.relation);
    expect(['relates to', 'refines', 'derived from', 'exemplifies']).toContain(shown);
    await shot(page, 'graph-hover');
    // The same edges, with the memories' summaries, in the table beside the drawing.
    expect(await page.$$eval('.edge-table tbody tr', (rows) => rows.length)).toBe(edges);
  }, 120_000);

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
    const anchored = remember(repo, 'The db module exports the connection string', '--type', 'architecture', '--files', 'src/db.ts');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'Anchor the db module']);
    repo.git(['checkout', '-qb', 'feature']);
    remember(repo, 'Sessions expire after 30 minutes of inactivity', '--type', 'decision', '--tags', 'auth');
    repo.write('src/db.ts', 'export const db = "sqlite:app.db";\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'Session expiry']);
    await page.goto(`${s.origin}#/briefing`);
    await page.waitForSelector('cx-briefing table');
    expect(await page.$eval('cx-briefing .briefing', (e) => e.textContent)).toContain('Chose SQLite over Postgres');
    expect(await page.$$eval('cx-briefing tbody tr', (rows) => rows.length)).toBeGreaterThanOrEqual(4);
    await shot(page, 'briefing');
    await page.goto(`${s.origin}#/lifecycle`);
    await page.waitForSelector('cx-lifecycle table');
    // What a person reads: summaries and dates as people write them; no ids, no ISO
    // timestamps, no markdown backticks shown as text.
    const lifecycle = await page.$eval('cx-lifecycle', (e) => e.textContent ?? '');
    expect(lifecycle).toContain('Write-ahead logging must stay on so hooks can read while the CLI writes');
    expect(lifecycle).toMatch(/today/);
    for (const id of Object.values(ids)) expect(lifecycle).not.toContain(id);
    expect(lifecycle).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(lifecycle).not.toContain('`');
    expect(await page.$eval('cx-lifecycle code', (e) => e.textContent)).toBe('cortex lifecycle');
    await shot(page, 'lifecycle');
    await page.goto(`${s.origin}#/diff/main...feature`);
    await page.waitForSelector('cx-diff table');
    const diff = await page.$eval('cx-diff', (e) => e.textContent ?? '');
    expect(diff).toContain('Sessions expire after 30 minutes of inactivity');
    expect(diff).toContain('added');
    // The code the branch changes that a memory is anchored to, as `cortex diff` lists it.
    const code = await page.$$eval('cx-diff .code-touches > li', (lis) => lis.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    expect(code).toEqual(['This range changes src/db.ts, which 1 memory describes:The db module exports the connection string']);
    expect(await page.$eval(`cx-diff .code-touches a`, (a) => a.getAttribute('href'))).toBe(`#/memory/${anchored}`);
    await shot(page, 'diff');
    await page.goto(`${s.origin}#/status`);
    await page.waitForSelector('cx-status table');
    expect(await page.$eval('cx-status', (e) => e.textContent)).toMatch(/Doctor/);
    // Whether semantic recall is on, as `cortex status` says it (nothing is embedded here).
    expect(await page.$eval('#semantic', (e) => e.textContent)).toMatch(/^Semantic recall: off, keyword only \(0 of 6 memories embedded with .+\)no memory is embedded yet: run cortex index --embed$/);
    await shot(page, 'status');
  }, 90_000);

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
