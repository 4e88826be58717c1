/**
 * A tiny element builder: every text goes in as a text node, never as HTML, so memory
 * content cannot inject markup. Only `markdown.ts` produces HTML, from escaped input.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
}

/** `text` with every occurrence of the words that start with one of `terms` wrapped in <mark>. */
export function highlight(text: string, terms: readonly string[]): (string | HTMLElement)[] {
  const words = terms.map((t) => t.trim()).filter((t) => t.length > 1);
  if (words.length === 0) return [text];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const out: (string | HTMLElement)[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index! > last) out.push(text.slice(last, m.index));
    out.push(h('mark', {}, m[0]));
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function memoryLink(id: string, label?: string): HTMLAnchorElement {
  return h('a', { href: `#/memory/${encodeURIComponent(id)}` }, label ?? id);
}

export function table(headers: string[], rows: (Child | Child[])[][], caption?: string): HTMLTableElement {
  return h(
    'table',
    {},
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, ...(Array.isArray(c) ? c : [c])))))),
  );
}

export function fmt(n: number | undefined, digits = 2): string {
  return n === undefined ? '—' : n.toFixed(digits);
}

export function errorBox(err: unknown): HTMLElement {
  const e = err as { message?: string; body?: { hint?: string; code?: string; data?: { diagnostics?: { line?: number; reason: string; hint?: string }[] } } };
  const diags = e.body?.data?.diagnostics ?? [];
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, h('strong', {}, 'Error: '), e.message ?? String(err)),
    e.body?.hint ? h('p', {}, e.body.hint) : null,
    diags.length > 0 ? h('ul', {}, diags.map((d) => h('li', {}, d.line ? `line ${d.line}: ` : '', d.reason, d.hint ? ` — ${d.hint}` : ''))) : null,
  );
}

const DAY = 86_400_000;

/**
 * A date as a person reads it: "today", "yesterday", "3 days ago" within two weeks, else
 * "5 Dec 2026"; the exact time is in the element's `datetime` and tooltip.
 *
 * @example
 * humanDate('2026-11-21T10:00:00Z', new Date('2026-11-24T09:00:00Z')).textContent // '3 days ago'
 */
export function humanDate(iso: string | undefined, now = new Date()): HTMLElement {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return h('span', { class: 'muted' }, '—');
  const when = new Date(t);
  const days = Math.floor((Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) - Date.UTC(when.getFullYear(), when.getMonth(), when.getDate())) / DAY);
  const text =
    days === 0 ? 'today' : days === 1 ? 'yesterday' : days > 1 && days < 14 ? `${days} days ago` : when.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
  return h('time', { datetime: when.toISOString(), title: when.toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short' }) }, text);
}

/** ISO dates (2026-11-01) inside a sentence, written as people write them (1 Nov 2026). */
export function humanizeDates(text: string): string {
  return text.replace(/\b(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+Z?)?\b/g, (m, y: string, mo: string, d: string) => {
    const t = Date.UTC(Number(y), Number(mo) - 1, Number(d));
    return Number.isNaN(t) ? m : new Date(t).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  });
}
