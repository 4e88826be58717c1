import { api } from '../api.js';
import { errorBox, fmt, h, humanDate, memoryLink, table } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import { View } from './view.js';

interface Memory {
  id: string;
  type: string;
  summary: string;
  body: string;
  status: string;
  priority: number;
  confidence: number;
  pinned: boolean;
  tags: string[];
  topic?: string;
  scope: string;
  created: string;
  updated: string;
  source?: Record<string, unknown>;
  [key: string]: unknown;
}
interface Edge {
  source: string;
  target: string;
  relation: string;
  strength: number;
  status: string;
  origin?: string;
}
interface Commit {
  commit: string;
  date: string;
  author: string;
  subject: string;
}

/** One memory: rendered body, frontmatter, provenance, usage, edges, history, and its file to edit. */
export class MemoryView extends View {
  heading = 'Memory';
  private dirty = false;
  /** The outcome of the last save, kept across reloads (the save itself changes the file, which reloads the view). */
  private outcome: HTMLElement | undefined;

  protected async load(): Promise<void> {
    const id = this.arg;
    const [got, edges, hist] = await Promise.all([
      api<{ memory: Memory; file: string; source: string; diagnostics: { reason: string }[] }>(`/memories/${encodeURIComponent(id)}`),
      api<{ out: Edge[]; in: Edge[] }>(`/memories/${encodeURIComponent(id)}/edges`),
      api<{ usage?: { accessCount?: number; lastAccess?: string }; commits: Commit[] }>(`/memories/${encodeURIComponent(id)}/history`),
    ]);
    const m = got.memory;
    const body = h('div', { class: 'markdown' });
    body.innerHTML = renderMarkdown(m.body ?? '');
    const src = m.source ?? {};
    const fm: [string, string | HTMLElement][] = [
      ['id', m.id],
      ['type', m.type],
      ['status', m.status],
      ['scope', m.scope],
      ['priority', String(m.priority)],
      ['confidence', fmt(m.confidence)],
      ['pinned', m.pinned ? 'yes' : 'no'],
      ['tags', (m.tags ?? []).join(', ') || '—'],
      ['topic', m.topic ?? '—'],
      ['created', humanDate(m.created)],
      ['updated', humanDate(m.updated)],
    ];
    const edgeRows = [...edges.out.map((e) => ({ e, dir: 'out' as const })), ...edges.in.map((e) => ({ e, dir: 'in' as const }))];
    const editor = h('textarea', {
      id: 'source',
      rows: 18,
      spellcheck: 'false',
      oninput: () => {
        this.dirty = true;
        this.outcome = undefined;
      },
    });
    editor.value = got.source;
    const result = h('div', { id: 'edit-result', 'aria-live': 'polite' }, this.outcome);
    const save = async (e: Event): Promise<void> => {
      e.preventDefault();
      result.replaceChildren(h('p', { class: 'muted' }, 'Saving…'));
      try {
        const r = await api<{ changed: boolean }>(`/memories/${encodeURIComponent(m.id)}/source`, { method: 'PUT', body: { text: editor.value } });
        this.dirty = false;
        this.outcome = h('p', { class: 'ok', role: 'status' }, r.changed ? 'Saved.' : 'No change.');
        await this.refresh();
      } catch (err) {
        this.outcome = errorBox(err);
        result.replaceChildren(this.outcome);
      }
    };
    const archive = async (): Promise<void> => {
      try {
        await api(`/memories/${encodeURIComponent(m.id)}/archive`, { method: 'POST', body: {} });
        await this.refresh();
      } catch (err) {
        result.replaceChildren(errorBox(err));
      }
    };
    this.dirty = false;
    this.replaceChildren(
      h('p', { class: 'crumbs' }, h('a', { href: '#/search' }, '← Memories')),
      h('h2', {}, h('span', { class: `type type-${m.type}` }, m.type), ' ', m.summary),
      h('p', { class: 'muted' }, got.file, m.status !== 'active' ? ` · ${m.status}` : ''),
      h(
        'div',
        { class: 'columns' },
        h('section', { 'aria-labelledby': 'h-body', class: 'main-col' }, h('h3', { id: 'h-body' }, 'Body'), body),
        h(
          'aside',
          { class: 'side-col' },
          h('section', { 'aria-labelledby': 'h-fm' }, h('h3', { id: 'h-fm' }, 'Frontmatter'), h('dl', { class: 'kv' }, fm.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]))),
          h(
            'section',
            { 'aria-labelledby': 'h-prov' },
            h('h3', { id: 'h-prov' }, 'Provenance'),
            h('dl', { class: 'kv' }, Object.entries(src).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, Array.isArray(v) ? v.join(', ') : String(v))])),
          ),
          h(
            'section',
            { 'aria-labelledby': 'h-usage' },
            h('h3', { id: 'h-usage' }, 'Usage (this clone)'),
            h('p', {}, hist.usage ? [`Recalled ${hist.usage.accessCount ?? 0} times, last `, humanDate(hist.usage.lastAccess)] : 'Never recalled here.'),
          ),
        ),
      ),
      h(
        'section',
        { 'aria-labelledby': 'h-edges' },
        h('h3', { id: 'h-edges' }, `Edges (${edgeRows.length})`),
        edgeRows.length === 0
          ? h('p', { class: 'muted' }, 'No edges.')
          : table(
              ['direction', 'relation', 'memory', 'strength', 'status'],
              edgeRows.map(({ e, dir }) => [dir === 'out' ? '→' : '←', e.relation, memoryLink(dir === 'out' ? e.target : e.source), fmt(e.strength), e.status]),
            ),
      ),
      h(
        'section',
        { 'aria-labelledby': 'h-history' },
        h('h3', { id: 'h-history' }, 'History (git log)'),
        hist.commits.length === 0
          ? h('p', { class: 'muted' }, 'Not committed yet.')
          : h('ol', { class: 'history' }, hist.commits.map((c) => h('li', {}, h('code', {}, c.commit.slice(0, 8)), ' ', humanDate(c.date), ` ${c.author}: ${c.subject}`))),
      ),
      h(
        'section',
        { 'aria-labelledby': 'h-edit' },
        h('h3', { id: 'h-edit' }, 'Edit'),
        h(
          'form',
          { id: 'edit-form', onsubmit: (e: Event) => void save(e) },
          h('label', { for: 'source' }, 'Memory file: YAML frontmatter between the --- lines, then the markdown body'),
          editor,
          h('p', { class: 'buttons' }, h('button', { type: 'submit', id: 'save' }, 'Save'), ' ', m.status === 'active' ? h('button', { type: 'button', id: 'archive', class: 'secondary', onclick: () => void archive() }, 'Archive') : null),
        ),
        result,
      ),
    );
  }

  override filesChanged(): void {
    // Never throw away a person's unsaved edit: say what happened instead.
    if (this.dirty) this.querySelector('#edit-result')?.replaceChildren(h('p', { class: 'warn', role: 'status' }, 'The file changed on disk since you started editing; saving will replace it.'));
    else void this.refresh();
  }
}
customElements.define('cx-memory', MemoryView);
