/**
 * Markdown prose as extraction sees it: units (paragraphs and list items, with the heading
 * or label that introduces them), sentences, and the cleaning that turns a sentence into a
 * one-line summary. Pure string work, no I/O.
 */
import { normalizeTags } from '../memory.js';

/** One paragraph or list item of a markdown text, with where it sits. */
export interface Unit {
  /** Raw markdown of the paragraph or list item (continuation lines joined). */
  text: string;
  /** Nearest heading or label line above, cleaned ('' when none). */
  heading: string;
  /** The markdown heading above a label line ('' when none): "Overview" above "It has 2 phases:". */
  parent: string;
  /** Depth of the nearest heading (1–6), 0 for a label line or none. */
  headingLevel: number;
  /** True for a list item. */
  isListItem: boolean;
  /** Nesting depth of a list item (0 = top level). */
  depth: number;
  /** Index of the unit in its text. */
  index: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^(\s*)(?:[-*+•▪►➜→]|\d+[.)]|[✅❌✓✗✔✘⚠🔴🟢🟡]\uFE0F?)\s+(?:\[[ xX]\]\s+)?/u;
const HEADING = /^\s{0,3}(#{1,6})\s+/;
/** "**Problem**:" or "Root cause:" alone on a line: introduces what follows, like a heading. */
const LABEL_LINE = /^\s*(?:\*\*|__)?[^*_:\n]{2,48}(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$/;
/** A table whose header names causes and fixes: each row states one (Issue | Cause | Fix). */
const DIAGNOSTIC_TABLE = /\b(?:issue|problem|cause|fix|error|symptom|solution|reason|why|root cause|gotcha|pitfall)s?\b/i;
/** Box-drawing banners some output styles print around an insight (`★ Insight ───`). */
const BANNER = /^[`\s]*[★☆*]?\s*[\p{L} ]{0,20}[─━—-]{6,}[`\s]*$/u;

/**
 * Paragraphs and list items of a markdown text. Fenced code, blockquotes, tables and
 * horizontal rules are left out: they quote output or compare options, they do not state
 * anything in the author's own words.
 *
 * @example
 * proseUnits('## Fix\n- Use `x`\n- Keep y').map((u) => [u.heading, u.text]) // [['Fix', 'Use `x`'], ['Fix', 'Keep y']]
 */
export function proseUnits(markdown: string): Unit[] {
  const units: Unit[] = [];
  let fence: string | undefined;
  let heading = '';
  let parent = '';
  let headingLevel = 0;
  let current: Omit<Unit, 'index'> | undefined;
  let table: { header: string[]; diagnostic: boolean } | undefined;

  const push = (): void => {
    if (current && current.text.trim() !== '') units.push({ ...current, index: units.length });
    current = undefined;
  };

  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      push();
      fence = f[1];
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('|')) {
      push();
      const cells = trimmed.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      if (table === undefined) table = { header: cells, diagnostic: cells.length >= 2 && cells.length <= 4 && cells.some((c) => DIAGNOSTIC_TABLE.test(c)) };
      else if (table.diagnostic && !/^[\s:|-]+$/.test(trimmed.replace(/\|/g, ''))) {
        // One row of a cause/fix table reads as one statement: "first: second — third".
        const [first = '', ...rest] = cells.filter((c) => c !== '');
        if (rest.length > 0) units.push({ text: `${first}: ${rest.join(' — ')}`, heading, parent, headingLevel, isListItem: true, depth: 0, index: units.length });
      }
      continue;
    }
    table = undefined;
    if (trimmed.startsWith('>') || /^[-*_=]{3,}$/.test(trimmed) || BANNER.test(trimmed)) {
      push();
      continue;
    }
    if (trimmed === '') {
      push();
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      push();
      heading = cleanInline(trimmed.replace(/^#+\s*/, '').replace(/\s*#+$/, ''));
      parent = heading;
      headingLevel = h[1]?.length ?? 1;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      push();
      current = { text: trimmed.replace(LIST_ITEM, '').replace(/^(?:\s*(?:[-*+•]|\d+[.)])\s+)/, ''), heading, parent, headingLevel, isListItem: true, depth: Math.floor((item[1]?.length ?? 0) / 2) };
      continue;
    }
    if (LABEL_LINE.test(trimmed) && current === undefined) {
      heading = cleanInline(trimmed).replace(/:\s*$/, '');
      headingLevel = 0;
      continue;
    }
    if (current && (!current.isListItem || /^\s/.test(line))) current.text += ` ${trimmed}`;
    else {
      push();
      current = { text: trimmed, heading, parent, headingLevel, isListItem: false, depth: 0 };
    }
  }
  push();
  return units;
}

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|Mr|Mrs|Dr|St|No|v)|\b[A-Z])\.$/;

/**
 * Sentence spans of a (masked) text: after . ! ? followed by space and a capital, a digit
 * or markup. Splitting the masked text keeps a period inside code or quotes from ending a sentence.
 */
function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?]+(?=\s+[\p{Lu}0-9`*_"'([\u00a4])/gu;
  let start = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    const end = match.index + match[0].length;
    if (match[0] === '.' && ABBREVIATIONS.test(text.slice(start, end))) continue;
    // "**1. Add the type**": a list number, not the end of a sentence.
    if (/^[\s*_#]*\d{1,3}\.$/.test(text.slice(start, end))) continue;
    out.push([start, end]);
    start = end;
  }
  if (text.slice(start).trim() !== '') out.push([start, text.length]);
  return out;
}

/**
 * The sentences of one unit of prose (markdown kept).
 *
 * @example
 * sentences('It broke. The fix is `a.b()` now!') // ['It broke.', 'The fix is `a.b()` now!']
 */
export function sentences(text: string): string[] {
  const masked = maskInline(text);
  return sentenceSpans(masked)
    .map(([a, b]) => text.slice(a, b).trim())
    .filter((s) => s !== '');
}

export const MASK = '\u00a4';

/**
 * Inline code, quoted strings and URLs overwritten with `¤` (same length, so offsets still
 * match the original): words inside them never count as cues.
 *
 * @example
 * maskInline('use `never` here') // 'use ¤¤¤¤¤¤¤ here'
 */
export function maskInline(text: string): string {
  const hide = (m: string): string => MASK.repeat(m.length);
  return text
    .replace(/`+[^`]*`+/g, hide)
    .replace(/\]\([^)\s]*\)/g, (m) => `]${hide(m.slice(1))}`)
    .replace(/https?:\/\/\S+/g, hide)
    .replace(/"[^"\n]*"|\u201c[^\u201d\n]*\u201d/g, hide);
}

/** Markdown inline markup removed, whitespace folded. */
export function cleanInline(markdown: string): string {
  return oneLine(
    markdown
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<\/?[a-zA-Z][^>\n]*>/g, '')
      .replace(/`+([^`]*)`+/g, '$1')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, '$1$2')
      .replace(/^\s*(?:#{1,6}\s+|[-*+•]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/, '')
      .replace(/\*\*|__/g, '')
      // Decoration in front of a heading, label or item ("🛠️ Stack", "✅ Done"), not emoji in a sentence.
      .replace(/^(?:(?:\p{Extended_Pictographic}|[✓✗✔✘★☆])\uFE0F?\s*)+/u, '')
      .replace(/(^|[:;]\s)(?:(?:\p{Extended_Pictographic}|[✓✗✔✘★☆])\uFE0F?\s*)+/gu, '$1'),
  );
}

/** Summaries are one line of at most this many characters (memory files allow 300). */
export const MAX_CANDIDATE_SUMMARY = 200;

/**
 * Markdown stripped to one plain line of at most `MAX_CANDIDATE_SUMMARY` characters. A
 * longer line is cut at the last clause boundary that keeps most of it, else at a word.
 *
 * @example
 * cleanSummary('- **Chose** `pnpm` over [npm](https://npmjs.com)') // 'Chose pnpm over npm'
 */
export function cleanSummary(markdown: string, max: number = MAX_CANDIDATE_SUMMARY): string {
  return shorten(cleanInline(markdown), max);
}

/**
 * A line cut to `max` characters: at a clause boundary (`;`, ` — `, `: `, `, `) in its
 * second half when there is one, so the result still reads as a statement; else at a word
 * with an ellipsis.
 *
 * @example
 * shorten('aaa bbb; ccc ddd', 10) // 'aaa bbb'
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const boundary = Math.max(head.lastIndexOf('; '), head.lastIndexOf(' — '), head.lastIndexOf(' - '), head.lastIndexOf(': '), head.lastIndexOf(', '), head.lastIndexOf('. '));
  if (boundary >= max * 0.5) return head.slice(0, boundary).replace(/[\s,;:—-]+$/, '');
  const cut = head.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/, '')}…`;
}

/** Text cut to `max` characters at a line or word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const nl = cut.lastIndexOf('\n');
  if (nl > max * 0.7) return `${cut.slice(0, nl).trimEnd()}\n…`;
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.7 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const CODE_TAG = /`([^`\s]{2,40})`/g;

/** Tags from identifiers quoted as inline code (`skipPermissions`, `@linear/sdk`), at most three. */
export function tagsOf(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.matchAll(CODE_TAG)) {
    const t = m[1] ?? '';
    if (!/^[@\w][\w@./-]*$/.test(t) || /\.\w{1,5}$/.test(t) || /^[\d.]+$/.test(t) || t.includes('/')) continue;
    tags.push(t);
    if (tags.length === 3) break;
  }
  return normalizeTags(tags);
}

const FILE_PATH =
  /(?:^|[\s`'"(])((?:~?\.{0,2}\/)?[\w@.-]+(?:\/[\w@.[\]-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|rb|ya?ml|toml|css|scss|html|sh|sql|vue|svelte|c|h|cpp|hpp|cs|kt|swift|php|lock|txt|nix|templ|tf|ini|cfg|conf|xml|gradle|proto)(?:#[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)?)(?=[\s`'"),:;]|\.(?:\s|$)|$)/g;

/**
 * File paths a text names, in order, at most `max`; a code anchor (`src/db.ts#acquire`) is
 * kept with its symbol.
 *
 * @example
 * filesIn('see `src/a.ts` and b.py.') // ['src/a.ts', 'b.py']
 * filesIn('the retry in `src/jobs.py#run_with_retry` is deliberate') // ['src/jobs.py#run_with_retry']
 */
export function filesIn(text: string, max = 10): string[] {
  const files: string[] = [];
  for (const m of text.matchAll(FILE_PATH)) {
    const f = m[1] ?? '';
    const path = f.replace(/#.*$/, '');
    if (/^\d+(?:\.\d+)+$/.test(path) || !/[a-zA-Z]/.test(path.replace(/\.\w+$/, ''))) continue;
    // "Node.js", "Next.js", "Vue.js": names of things, not files.
    if (/^[A-Z][A-Za-z]*\.js$/.test(path)) continue;
    if (!files.includes(f)) files.push(f);
    if (files.length === max) break;
  }
  return files;
}

/** Path relative to `root` when it lies under it. */
export function relativePath(path: string, root: string | undefined): string {
  if (root === undefined || root === '') return path;
  const base = root.endsWith('/') || root.endsWith('\\') ? root : `${root}${root.includes('\\') && !root.includes('/') ? '\\' : '/'}`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

export function basename(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Lower-case content words of a text (for near-duplicate detection), stop words out. */
export function contentWords(text: string): string[] {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}_.@/-]+/u)) {
    const w = raw.replace(/^[.@/-]+|[.@/-]+$/g, '');
    if (w.length < 3 || STOP.has(w)) continue;
    words.add(w);
  }
  return [...words];
}

const STOP = new Set(
  'the and for are but not you your with this that these those from into onto have has had was were will would should could can its it\'s they them their there here then than when what which who why how all any each also just only very more most some such been being does did doing done use used using now new let get got make made need needs see one two via per out off our ours we\'re i\'ll i\'ve let\'s don\'t doesn\'t didn\'t isn\'t wasn\'t'.split(' '),
);
