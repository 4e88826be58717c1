/**
 * The viewer's entry: a hash router (`#/search?q=…`, `#/memory/<id>`, `#/graph`,
 * `#/diff/<range>`, …) that mounts one view element in <main>, the header's search box, and
 * live refresh when files change on disk. Every view is its own history entry, so a link
 * opens it and back/forward move between them.
 */
import './style.css';
import { api, takeToken, watchChanges } from './api.js';
import { h } from './dom.js';
import type { View } from './views/view.js';
import './views/search.js';
import './views/memory.js';
import './views/graph.js';
import './views/others.js';

const ROUTES: Record<string, string> = {
  search: 'cx-search',
  memory: 'cx-memory',
  graph: 'cx-graph',
  briefing: 'cx-briefing',
  lifecycle: 'cx-lifecycle',
  review: 'cx-review',
  diff: 'cx-diff',
  status: 'cx-status',
};

const main = document.getElementById('main')!;
const notice = document.getElementById('notice')!;
const q = document.getElementById('q') as HTMLInputElement;

function route(): void {
  const hash = location.hash.replace(/^#\/?/, '') || 'search';
  const [pathPart, query = ''] = hash.split('?') as [string, string?];
  const [name = 'search', ...rest] = pathPart.split('/');
  const tag = ROUTES[name] ?? 'cx-search';
  const view = document.createElement(tag) as View;
  view.arg = decodeURIComponent(rest.join('/'));
  view.params = new URLSearchParams(query);
  if (name === 'search') q.value = view.params.get('q') ?? '';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    if (a.getAttribute('href') === `#/${name}` || (name === 'memory' && a.getAttribute('href') === '#/search')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.replaceChildren(view);
  document.title = `${view.heading} · Cortex`;
}

document.getElementById('search-form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  location.hash = `#/search?q=${encodeURIComponent(q.value.trim())}`;
});
// "/" focuses the search box, as on most sites; not while typing elsewhere.
document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if (e.key === '/' && !/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) {
    e.preventDefault();
    q.focus();
  }
});

async function refreshReviewCount(): Promise<void> {
  const badge = document.getElementById('review-count')!;
  try {
    const r = await api<{ items: unknown[] }>('/review');
    badge.textContent = String(r.items.length);
    badge.hidden = r.items.length === 0;
  } catch {
    badge.hidden = true;
  }
}

async function start(): Promise<void> {
  if (!takeToken()) {
    main.replaceChildren(
      h('div', { class: 'error', role: 'alert' }, h('p', {}, 'This page needs the token of the running server: open the URL ', h('code', {}, 'cortex serve'), ' printed (it ends in #token=…).')),
    );
    return;
  }
  try {
    const s = await api<{ root: string }>('/status');
    document.getElementById('project')!.textContent = s.root;
  } catch (err) {
    main.replaceChildren(h('div', { class: 'error', role: 'alert' }, h('p', {}, `The server refused the page: ${(err as Error).message}`)));
    return;
  }
  window.addEventListener('hashchange', route);
  route();
  void refreshReviewCount();
  watchChanges(() => {
    notice.textContent = `Files changed on disk at ${new Date().toLocaleTimeString()}; view updated.`;
    (main.firstElementChild as View | null)?.filesChanged();
    void refreshReviewCount();
  });
}

void start();
