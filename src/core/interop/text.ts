/**
 * Small text helpers the importers share: frontmatter splitting, dates, keys, the hidden
 * `<!-- cortex … -->` comment markdown exports carry so a round trip keeps type and tags.
 */
import { parse as parseYaml } from 'yaml';
import { formatDate, isMemoryType, normalizeTags, slugify, type MemoryType } from '../memory.js';

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** Lines the frontmatter took (so body line numbers can be reported). */
  lines: number;
  error?: string | undefined;
}

/**
 * Splits `---` YAML frontmatter from a markdown text. A text without it has empty data;
 * broken YAML is reported in `error` and the whole text is the body.
 *
 * @example
 * splitFrontmatter('---\ntitle: A\n---\nBody\n').data.title // 'A'
 */
export function splitFrontmatter(text: string): Frontmatter {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!src.startsWith('---\n')) return { data: {}, body: src, lines: 0 };
  const end = src.indexOf('\n---', 3);
  if (end === -1) return { data: {}, body: src, lines: 0 };
  const yaml = src.slice(4, end + 1);
  const after = src.indexOf('\n', end + 4);
  const body = after === -1 ? '' : src.slice(after + 1);
  const lines = yaml.split('\n').length + 1;
  try {
    const data = parseYaml(yaml, { maxAliasCount: 50 }) as unknown;
    return { data: data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}, body, lines };
  } catch (err) {
    return { data: {}, body: src, lines: 0, error: `invalid YAML frontmatter: ${((err as Error).message ?? String(err)).split('\n')[0]}` };
  }
}

/**
 * An ISO date from a source's date field (a string, a YAML date, a `YYYY-MM-DD`), or
 * `undefined` when it is not one.
 *
 * @example
 * toIsoDate('2026-03-05') // '2026-03-05T00:00:00Z'
 */
export function toIsoDate(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : formatDate(value);
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
  const d = new Date(value.trim());
  return Number.isNaN(d.getTime()) ? undefined : formatDate(d);
}

/** Tags from a frontmatter value: a list or a comma-separated string. */
export function tagsOf(value: unknown): string[] {
  if (Array.isArray(value)) return normalizeTags(value.filter((t) => typeof t === 'string' || typeof t === 'number').map(String));
  if (typeof value === 'string') return normalizeTags(value.split(','));
  return [];
}

/** A stable, path-safe key part from free text. */
export function keyOf(text: string): string {
  return slugify(text, 60);
}

export const HIDDEN_PREFIX = '<!-- cortex';

/**
 * The hidden comment a markdown export puts after a memory's summary, so importing the
 * export again gives back its type and tags (rendered markdown does not show it).
 *
 * @example
 * hiddenMeta({ type: 'decision', tags: ['storage'] }) // '<!-- cortex type=decision tags=storage -->'
 */
export function hiddenMeta(meta: { type: MemoryType; tags: readonly string[] }): string {
  return `${HIDDEN_PREFIX} type=${meta.type}${meta.tags.length > 0 ? ` tags=${meta.tags.join(',')}` : ''} -->`;
}

const HIDDEN = /\s*<!-- cortex((?:\s+[a-z]+=[^\s]*)*)\s*-->\s*$/;

/**
 * Reads (and strips) the hidden comment at the end of a line.
 *
 * @example
 * readHiddenMeta('Use WAL <!-- cortex type=decision tags=a,b -->') // { text: 'Use WAL', type: 'decision', tags: ['a', 'b'] }
 */
export function readHiddenMeta(line: string): { text: string; type?: MemoryType | undefined; tags?: string[] | undefined } {
  const m = HIDDEN.exec(line);
  if (!m) return { text: line };
  const out: { text: string; type?: MemoryType; tags?: string[] } = { text: line.slice(0, m.index) };
  for (const pair of (m[1] ?? '').trim().split(/\s+/).filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    if (k === 'type' && isMemoryType(v)) out.type = v;
    if (k === 'tags') out.tags = normalizeTags(v.split(','));
  }
  return out;
}

/** The summary a record gets from a longer text: the first line, else the first sentence, at most 200 characters. */
export function summaryFrom(text: string): string {
  const first = text.trim().split('\n')[0]?.trim() ?? '';
  if (first.length <= 200) return first;
  const sentence = /^(.{20,}?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  return sentence.length <= 200 ? sentence : `${sentence.slice(0, 199).replace(/\s+\S*$/, '')}…`;
}
