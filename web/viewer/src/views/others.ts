/** The briefing, lifecycle, review queue, branch diff and status views. */
import { api } from '../api.js';
import { append, errorBox, fmt, h, humanDate, humanizeDates, memoryLink, table } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import { View } from './view.js';

interface ExplainRow {
  id: string;
  type: string;
  status: string;
  section?: string;
  rank: number;
  parts: { decayed: number; priority: number; centrality: number; usage: number; branchBoost: number };
  tier?: string;
  tokens: number;
  included: boolean;
  reason: string;
}

/** The briefing the next session would get, and why each memory is in or out. */
export class BriefingView extends View {
  heading = 'Briefing';
  protected async load(): Promise<void> {
    const all = this.params.get('all') === '1';
    const s = await api<{ text: string; tokens?: number; explain: ExplainRow[] }>(`/surface${all ? '?all=1' : ''}`);
    const text = s.text.replace(/<!-- CORTEX_MEMORY_(START|END) -->/g, '').trim();
    const rendered = h('div', { class: 'markdown briefing' });
    rendered.innerHTML = renderMarkdown(text);
    const included = s.explain.filter((r) => r.included).length;
    this.replaceChildren(
      h('h2', {}, 'Briefing'),
      h('p', { class: 'muted' }, `What the next session starts with: ${included} memories${s.tokens !== undefined ? `, about ${s.tokens} tokens` : ''}. Viewing it records no access and writes no cache.`),
      rendered,
      h('h3', {}, 'Explain'),
      h('p', {}, all ? h('a', { href: '#/briefing' }, 'Show only the candidates') : h('a', { href: '#/briefing?all=1' }, 'Show every memory')),
      table(
        ['memory', 'type', 'section', 'rank', 'decayed', 'priority', 'centrality', 'usage', 'in', 'why'],
        s.explain.map((r) => [memoryLink(r.id), r.type, r.section ?? '—', fmt(r.rank), fmt(r.parts.decayed), fmt(r.parts.priority), fmt(r.parts.centrality), fmt(r.parts.usage), r.included ? 'yes' : 'no', r.reason]),
        'Each memory considered, with its rank and the reason it was included or left out',
      ),
    );
  }
}
customElements.define('cx-briefing', BriefingView);

/** What decays: the lifecycle's plan (a dry run) and the active memories by decayed confidence. */
export class LifecycleView extends View {
  heading = 'Lifecycle';
  protected async load(): Promise<void> {
    const l = await api<{
      now: string;
      changes: { id: string; from: string; to: string; reason: string; summary: string; file: string }[];
      fading: { id: string; type: string; summary?: string; updated?: string; decayed: number; rank: number; included: boolean }[];
    }>('/lifecycle');
    this.replaceChildren(
      h('h2', {}, 'Lifecycle'),
      h('p', { class: 'muted' }, 'What the lifecycle would do if it ran now (', humanDate(l.now), '). Nothing is changed here: ', h('code', {}, 'cortex lifecycle'), ' applies it.'),
      h('h3', {}, `Next changes (${l.changes.length})`),
      l.changes.length === 0
        ? h('p', {}, 'Nothing would be archived, reactivated or pruned now.')
        : table(['memory', 'from', 'to', 'why'], l.changes.map((c) => [memoryLink(c.id, c.summary), c.from, c.to, humanizeDates(c.reason)])),
      h('h3', {}, 'Fading first'),
      h('p', { class: 'muted' }, 'Active memories by decayed confidence (lowest first); below 0.30 for 14 days, a memory is archived unless pinned or a hub.'),
      table(
        ['memory', 'type', 'decayed confidence', 'last updated', 'in briefing'],
        l.fading
          .slice(0, 200)
          .map((f) => [memoryLink(f.id, f.summary ?? f.id), f.type, h('span', { class: f.decayed < 0.3 ? 'warn' : '' }, fmt(f.decayed)), humanDate(f.updated), f.included ? 'yes' : 'no']),
      ),
    );
  }
}
customElements.define('cx-lifecycle', LifecycleView);

interface ReviewItem {
  n: number;
  short: string;
  id: string;
  kind: string;
  created: string;
  summary: string;
  type?: string;
  confidence?: number;
  layer?: string;
  body?: string;
}

/** The review queue: low-confidence candidates, accepted into memory files or rejected. */
export class ReviewView extends View {
  heading = 'Review';
  /** The last action's outcome, kept across reloads (accepting writes a file, which reloads the view). */
  private outcome: HTMLElement | undefined;
  protected async load(): Promise<void> {
    const q = await api<{ items: ReviewItem[]; consolidate?: number }>('/review');
    const status = h('div', { id: 'review-result', 'aria-live': 'polite' }, this.outcome);
    const act = async (verb: 'accept' | 'reject', item: ReviewItem): Promise<void> => {
      try {
        const r = await api<{ accepted?: { result: { file: string } }[] }>(`/review/${verb}`, { method: 'POST', body: { select: [item.id] } });
        const file = r.accepted?.[0]?.result.file;
        this.outcome = h('p', { class: 'ok', role: 'status' }, verb === 'accept' ? `Accepted: written to ${file ?? 'a memory file'}.` : 'Rejected.');
        await this.refresh();
      } catch (err) {
        this.outcome = errorBox(err);
        status.replaceChildren(this.outcome);
      }
    };
    this.replaceChildren(
      h('h2', {}, `Review (${q.items.length})`),
      h('p', { class: 'muted' }, 'Candidates extraction was not sure about. Accepting writes a memory file; rejecting drops the candidate.'),
      status,
      q.items.length === 0
        ? h('p', { class: 'empty' }, 'Nothing waits for review.')
        : h(
            'ul',
            { class: 'review', id: 'review-items' },
            q.items.map((item) =>
              h(
                'li',
                { class: 'review-item', 'data-id': item.id },
                h('h3', {}, item.type ? h('span', { class: `type type-${item.type}` }, item.type) : null, ' ', item.summary),
                item.body ? h('p', {}, item.body) : null,
                h('p', { class: 'muted' }, `#${item.n} · ${item.kind}${item.layer ? ` · ${item.layer}` : ''}${item.confidence !== undefined ? ` · confidence ${fmt(item.confidence)}` : ''} · `, humanDate(item.created)),
                h(
                  'p',
                  { class: 'buttons' },
                  h('button', { type: 'button', class: 'accept', 'aria-label': `Accept: ${item.summary}`, onclick: () => void act('accept', item) }, 'Accept'),
                  ' ',
                  h('button', { type: 'button', class: 'reject secondary', 'aria-label': `Reject: ${item.summary}`, onclick: () => void act('reject', item) }, 'Reject'),
                ),
              ),
            ),
          ),
    );
  }
}
customElements.define('cx-review', ReviewView);

/** What a branch (or any revision range) changes in memory: `cortex diff` in the page. */
export class DiffView extends View {
  heading = 'Branch diff';
  protected async load(): Promise<void> {
    // `#/diff/<range>` (a link to one comparison), or `#/diff?range=…` as before.
    const range = this.arg || (this.params.get('range') ?? '');
    const input = h('input', { id: 'range', name: 'range', value: range, placeholder: 'main...HEAD', autocomplete: 'off' });
    const form = h(
      'form',
      { class: 'toolbar', onsubmit: (e: Event) => ((e.preventDefault(), (location.hash = diffHash(input.value.trim() || 'main...HEAD')))) },
      h('label', { for: 'range' }, 'Revision range'),
      ' ',
      input,
      ' ',
      h('button', { type: 'submit' }, 'Compare'),
    );
    this.replaceChildren(h('h2', {}, 'Branch diff'), form);
    if (!range) {
      this.append(h('p', { class: 'muted' }, 'Give a range such as main...feature (what feature adds since it left main) or HEAD~3..HEAD.'));
      return;
    }
    try {
      const d = await api<{
        base: string;
        head: string;
        memories: { id: string; type: string; summary: string; change: string; fields: string[] }[];
        edges: { source: string; relation: string; target: string; change: string }[];
        flags: { kind: string; file: string; line?: number; message: string }[];
        code?: { path: string; symbol?: string; change: string; memories: { id: string; summary: string }[] }[];
      }>(`/diff?range=${encodeURIComponent(range)}`);
      const code = d.code ?? [];
      const titles = new Map(d.memories.map((m) => [m.id, m.summary]));
      append(this, [
        h('p', { class: 'muted' }, `${d.base.slice(0, 8)} → ${d.head.slice(0, 8)}: ${d.memories.length} memories, ${d.edges.length} edges changed`),
        d.flags.length > 0 ? h('div', { class: 'warnbox', role: 'note' }, h('h3', {}, 'Flags'), h('ul', {}, d.flags.map((f) => h('li', {}, `${f.kind}: ${f.file}${f.line ? `:${f.line}` : ''}: ${f.message}`)))) : null,
        h('h3', {}, 'Memories'),
        d.memories.length === 0
          ? h('p', {}, 'No memory changes.')
          : table(['change', 'type', 'memory', 'fields'], d.memories.map((m) => [h('span', { class: `change change-${m.change}` }, m.change), m.type, m.change === 'deleted' ? m.summary : memoryLink(m.id, m.summary), m.fields.join(', ')])),
        h('h3', {}, 'Edges'),
        d.edges.length === 0
          ? h('p', {}, 'No edge changes.')
          : table(['change', 'source', 'relation', 'target'], d.edges.map((e) => [e.change, memoryLink(e.source, titles.get(e.source)), e.relation, memoryLink(e.target, titles.get(e.target))])),
        // What `cortex diff` prints under "Code with memories": anchored code this range changes.
        h('h3', { id: 'h-code' }, 'Code with memories'),
        code.length === 0
          ? h('p', { class: 'muted' }, 'This range changes no code that a memory is anchored to.')
          : h(
              'ul',
              { class: 'code-touches', 'aria-labelledby': 'h-code' },
              code.map((t) =>
                h(
                  'li',
                  {},
                  `This range ${CODE_VERB[t.change] ?? t.change} `,
                  t.symbol !== undefined ? [h('code', {}, t.symbol), ' in ', h('code', {}, t.path)] : h('code', {}, t.path),
                  `, which ${t.memories.length} ${t.memories.length === 1 ? 'memory describes' : 'memories describe'}:`,
                  h('ul', {}, t.memories.map((m) => h('li', {}, memoryLink(m.id, m.summary)))),
                ),
              ),
            ),
      ]);
    } catch (err) {
      this.append(errorBox(err));
    }
  }
}
customElements.define('cx-diff', DiffView);

const CODE_VERB: Record<string, string> = { changed: 'changes', added: 'adds', removed: 'removes', deleted: 'deletes', renamed: 'renames' };

/** The link to one comparison: `#/diff/main...feature` (slashes of branch names kept readable). */
export function diffHash(range: string): string {
  return `#/diff/${range.split('/').map(encodeURIComponent).join('/')}`;
}

/** Counts per tier and `cortex doctor`'s checks. */
export class StatusView extends View {
  heading = 'Status';
  protected async load(): Promise<void> {
    const [s, d] = await Promise.all([
      api<{
        root: string;
        tiers: { scope: string; total: number; byType: Record<string, number>; byStatus: Record<string, number> }[];
        semantic?: { on: boolean; enabled: boolean; model: string; embedded: number; embeddable: number; why?: string };
      }>('/status'),
      api<{ ok: boolean; checks: { id: string; severity: string; message: string; fix?: string }[] }>('/doctor'),
    ]);
    this.replaceChildren(
      h('h2', {}, 'Status'),
      h('p', {}, s.root),
      table(
        ['tier', 'memories', 'by type', 'by status'],
        s.tiers.map((t) => [t.scope, String(t.total), Object.entries(t.byType ?? {}).map(([k, v]) => `${k} ${v}`).join(', '), Object.entries(t.byStatus ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')]),
      ),
      s.semantic
        ? h(
            'p',
            { id: 'semantic' },
            h('strong', {}, 'Semantic recall: '),
            s.semantic.on ? 'on' : 'off, keyword only',
            s.semantic.enabled ? ` (${s.semantic.embedded} of ${s.semantic.embeddable} memories embedded with ${s.semantic.model})` : ' (embeddings turned off)',
            s.semantic.why ? h('br') : null,
            s.semantic.why ? h('span', { class: 'muted' }, s.semantic.why.replace(/`/g, '')) : null,
          )
        : '',
      h('h3', {}, `Doctor: ${d.ok ? 'healthy' : 'problems found'}`),
      table(['check', 'result', 'message', 'fix'], d.checks.map((c) => [c.id, h('span', { class: `sev sev-${c.severity}` }, c.severity), c.message, c.fix ? h('code', {}, c.fix) : '—'])),
    );
  }
}
customElements.define('cx-status', StatusView);
