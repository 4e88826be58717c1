import { api } from '../api.js';
import { fmt, h, highlight, humanDate, memoryLink } from '../dom.js';
import { View } from './view.js';

interface Result {
  id: string;
  type: string;
  summary: string;
  status: string;
  tags: string[];
  priority: number;
  confidence: number;
  updated: string;
  preview: string;
  matched: string[];
  score: number;
}

interface SearchOut {
  results: Result[];
  belowFloor?: number;
  /** With `weaker=1`: the matches under the relevance floor. */
  weaker?: Result[];
  notice?: string;
}

const TYPES = ['architecture', 'decision', 'rejected', 'pattern', 'gotcha', 'preference', 'plan', 'progress', 'context', 'code_description', 'code'];

/** Search with highlighted hits; without a query, the newest memories. */
export class SearchView extends View {
  heading = 'Memories';

  protected async load(): Promise<void> {
    const q = this.params.get('q') ?? '';
    const type = this.params.get('type') ?? '';
    const weaker = this.params.get('weaker') === '1';
    const filter = type ? `&type=${encodeURIComponent(type)}` : '';
    const out = q.trim()
      ? await api<SearchOut>(`/search?q=${encodeURIComponent(q)}&limit=100${filter}${weaker ? '&weaker=1' : ''}`)
      : await api<{ memories: Result[]; total: number }>(`/memories?limit=200${filter}`);
    const strong = 'results' in out ? out.results : out.memories;
    const weak = 'results' in out ? (out.weaker ?? []) : [];
    const hidden = 'results' in out ? (out.belowFloor ?? 0) : 0;
    const results = [...strong, ...weak];
    const total = 'total' in out ? out.total : strong.length;
    const hashWith = (extra: Record<string, string>): string =>
      `#/search?${new URLSearchParams({ ...(q ? { q } : {}), ...(type ? { type } : {}), ...extra })}`;
    // The floor's count and the way to see what it left out (or to hide it again).
    const floorNote =
      hidden === 0
        ? null
        : weaker
          ? h('a', { id: 'weaker-toggle', href: hashWith({}) }, 'hide weaker matches')
          : h('a', { id: 'weaker-toggle', href: hashWith({ weaker: '1' }) }, `show ${hidden} weaker ${hidden === 1 ? 'match' : 'matches'}`);
    const words = q.toLowerCase().split(/\s+/);
    const select = h(
      'select',
      {
        id: 'type-filter',
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          location.hash = `#/search?${new URLSearchParams({ ...(q ? { q } : {}), ...(v ? { type: v } : {}), ...(weaker ? { weaker: '1' } : {}) })}`;
        },
      },
      h('option', { value: '' }, 'all types'),
      TYPES.map((t) => h('option', { value: t, selected: t === type }, t)),
    );
    this.replaceChildren(
      h('h2', {}, q ? `Results for “${q}”` : 'Newest memories'),
      h('p', { class: 'toolbar' }, h('label', { for: 'type-filter' }, 'Type '), select, ' ', h('span', { id: 'result-count', class: 'muted' }, q ? `${strong.length} found` : `${strong.length} of ${total}`), ' ', floorNote),
      results.length === 0
        ? h('p', { class: 'empty' }, q ? (hidden > 0 ? `Nothing above the relevance floor; ${hidden} weaker ${hidden === 1 ? 'match' : 'matches'} below it.` : 'Nothing relevant found.') : ['No memories yet: ', h('code', {}, 'cortex remember "…"'), ' adds one.'])
        : h(
            'ol',
            { class: 'results', id: 'results' },
            results.map((r, i) => {
              const terms = [...(r.matched ?? []), ...words];
              const isWeak = i >= strong.length;
              return h(
                'li',
                { class: `result status-${r.status}${isWeak ? ' weaker' : ''}` },
                h('h3', {}, h('span', { class: `type type-${r.type}` }, r.type), ' ', isWeak ? h('span', { class: 'weak-tag' }, 'weaker match') : null, isWeak ? ' ' : null, memoryLink(r.id, '')),
                h('p', { class: 'preview' }, highlight(r.preview ?? '', q ? terms : [])),
                h(
                  'p',
                  { class: 'meta muted' },
                  `priority ${r.priority} · confidence ${fmt(r.confidence)} · updated `,
                  humanDate(r.updated),
                  r.status !== 'active' ? ` · ${r.status}` : '',
                  r.tags.length ? ` · ${r.tags.map((t) => `#${t}`).join(' ')}` : '',
                ),
              );
            }),
          ),
    );
    // Summaries go in after building: the link's text is highlighted too.
    for (const [i, r] of results.entries()) {
      const a = this.querySelectorAll<HTMLAnchorElement>('.results h3 a')[i];
      a?.append(...highlight(r.summary, q ? [...(r.matched ?? []), ...words] : []));
    }
  }
}
customElements.define('cx-search', SearchView);
