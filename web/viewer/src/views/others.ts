/** The briefing, lifecycle, review queue, branch diff and status views. */
import { api } from '../api.js';
import { append, errorBox, fmt, h, memoryLink, table } from '../dom.js';
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
      fading: { id: string; type: string; decayed: number; rank: number; included: boolean }[];
    }>('/lifecycle');
    this.replaceChildren(
      h('h2', {}, 'Lifecycle'),
      h('p', { class: 'muted' }, `Planned at ${l.now}; nothing is changed here (\`cortex lifecycle\` applies it).`),
      h('h3', {}, `Next changes (${l.changes.length})`),
      l.changes.length === 0
        ? h('p', {}, 'Nothing would be archived, reactivated or pruned now.')
        : table(['memory', 'from', 'to', 'why'], l.changes.map((c) => [memoryLink(c.id, c.summary), c.from, c.to, c.reason])),
      h('h3', {}, 'Fading first'),
      h('p', { class: 'muted' }, 'Active memories by decayed confidence (lowest first); below 0.30 for 14 days, a memory is archived unless pinned or a hub.'),
      table(
        ['memory', 'type', 'decayed confidence', 'rank', 'in briefing'],
        l.fading.slice(0, 200).map((f) => [memoryLink(f.id), f.type, h('span', { class: f.decayed < 0.3 ? 'warn' : '' }, fmt(f.decayed)), fmt(f.rank), f.included ? 'yes' : 'no']),
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
                h('p', { class: 'muted' }, `#${item.n} · ${item.kind}${item.layer ? ` · ${item.layer}` : ''}${item.confidence !== undefined ? ` · confidence ${fmt(item.confidence)}` : ''} · ${item.created.slice(0, 10)}`),
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
    const range = this.params.get('range') ?? '';
    const input = h('input', { id: 'range', name: 'range', value: range, placeholder: 'main...HEAD', autocomplete: 'off' });
    const form = h(
      'form',
      { class: 'toolbar', onsubmit: (e: Event) => ((e.preventDefault(), (location.hash = `#/diff?range=${encodeURIComponent(input.value.trim() || 'main...HEAD')}`))) },
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
        flags: { kind: string; file: string; message: string }[];
      }>(`/diff?range=${encodeURIComponent(range)}`);
      append(this, [
        h('p', { class: 'muted' }, `${d.base.slice(0, 8)} → ${d.head.slice(0, 8)}: ${d.memories.length} memories, ${d.edges.length} edges changed`),
        d.flags.length > 0 ? h('div', { class: 'warnbox', role: 'note' }, h('h3', {}, 'Flags'), h('ul', {}, d.flags.map((f) => h('li', {}, `${f.kind}: ${f.file}: ${f.message}`)))) : null,
        h('h3', {}, 'Memories'),
        d.memories.length === 0
          ? h('p', {}, 'No memory changes.')
          : table(['change', 'type', 'memory', 'fields'], d.memories.map((m) => [h('span', { class: `change change-${m.change}` }, m.change), m.type, m.change === 'deleted' ? m.summary : memoryLink(m.id, m.summary), m.fields.join(', ')])),
        h('h3', {}, 'Edges'),
        d.edges.length === 0 ? h('p', {}, 'No edge changes.') : table(['change', 'source', 'relation', 'target'], d.edges.map((e) => [e.change, e.source, e.relation, e.target])),
      ]);
    } catch (err) {
      this.append(errorBox(err));
    }
  }
}
customElements.define('cx-diff', DiffView);

/** Counts per tier and `cortex doctor`'s checks. */
export class StatusView extends View {
  heading = 'Status';
  protected async load(): Promise<void> {
    const [s, d] = await Promise.all([
      api<{ root: string; tiers: { scope: string; total: number; byType: Record<string, number>; byStatus: Record<string, number> }[] }>('/status'),
      api<{ ok: boolean; checks: { id: string; severity: string; message: string; fix?: string }[] }>('/doctor'),
    ]);
    this.replaceChildren(
      h('h2', {}, 'Status'),
      h('p', {}, s.root),
      table(
        ['tier', 'memories', 'by type', 'by status'],
        s.tiers.map((t) => [t.scope, String(t.total), Object.entries(t.byType ?? {}).map(([k, v]) => `${k} ${v}`).join(', '), Object.entries(t.byStatus ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')]),
      ),
      h('h3', {}, `Doctor: ${d.ok ? 'healthy' : 'problems found'}`),
      table(['check', 'result', 'message', 'fix'], d.checks.map((c) => [c.id, h('span', { class: `sev sev-${c.severity}` }, c.severity), c.message, c.fix ? h('code', {}, c.fix) : '—'])),
    );
  }
}
customElements.define('cx-status', StatusView);
