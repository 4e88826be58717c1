import { api } from '../api.js';
import { fmt, h, highlight, memoryLink } from '../dom.js';
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

const TYPES = ['architecture', 'decision', 'rejected', 'pattern', 'gotcha', 'preference', 'plan', 'progress', 'context', 'code_description', 'code'];

/** Search with highlighted hits; without a query, the newest memories. */
export class SearchView extends View {
  heading = 'Memories';

  protected async load(): Promise<void> {
    const q = this.params.get('q') ?? '';
    const type = this.params.get('type') ?? '';
    const filter = type ? `&type=${encodeURIComponent(type)}` : '';
    const out = q.trim()
      ? await api<{ results: Result[]; notice?: string }>(`/search?q=${encodeURIComponent(q)}&limit=100${filter}`)
      : await api<{ memories: Result[]; total: number }>(`/memories?limit=200${filter}`);
    const results = 'results' in out ? out.results : out.memories;
    const total = 'total' in out ? out.total : results.length;
    const words = q.toLowerCase().split(/\s+/);
    const select = h(
      'select',
      {
        id: 'type-filter',
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          location.hash = `#/search?${new URLSearchParams({ ...(q ? { q } : {}), ...(v ? { type: v } : {}) })}`;
        },
      },
      h('option', { value: '' }, 'all types'),
      TYPES.map((t) => h('option', { value: t, selected: t === type }, t)),
    );
    this.replaceChildren(
      h('h2', {}, q ? `Results for “${q}”` : 'Newest memories'),
      h('p', { class: 'toolbar' }, h('label', { for: 'type-filter' }, 'Type '), select, ' ', h('span', { id: 'result-count', class: 'muted' }, q ? `${results.length} found` : `${results.length} of ${total}`)),
      results.length === 0
        ? h('p', { class: 'empty' }, q ? 'Nothing relevant found.' : 'No memories yet: `cortex remember "…"` adds one.')
        : h(
            'ol',
            { class: 'results', id: 'results' },
            results.map((r) => {
              const terms = [...(r.matched ?? []), ...words];
              return h(
                'li',
                { class: `result status-${r.status}` },
                h('h3', {}, h('span', { class: `type type-${r.type}` }, r.type), ' ', memoryLink(r.id, '')),
                h('p', { class: 'preview' }, highlight(r.preview ?? '', q ? terms : [])),
                h(
                  'p',
                  { class: 'meta muted' },
                  `priority ${r.priority} · confidence ${fmt(r.confidence)} · updated ${r.updated.slice(0, 10)}`,
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
