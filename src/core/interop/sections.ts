/**
 * Markdown files organised by headings — `CLAUDE.md`, `AGENTS.md`, Cline's memory-bank
 * files, Claude Code's `MEMORY.md` — read as records: each top-level list item is one
 * record (its first line the summary, its indented lines the body), each paragraph block
 * outside a list is one record, and the nearest heading that names a kind of knowledge
 * gives the type. Fenced code stays with the record before it; the Cortex briefing between
 * `<!-- CORTEX_MEMORY_START -->` and `<!-- CORTEX_MEMORY_END -->` is skipped (it is made
 * from memories already). Line-based and pure.
 */
import { isMemoryType, type MemoryType } from '../memory.js';
import { hiddenMeta, keyOf, readHiddenMeta, summaryFrom } from './text.js';

/** Heading words → type, first match wins (checked on the lower-cased heading). */
export const HEADING_TYPES: ReadonlyArray<readonly [RegExp, MemoryType]> = [
  [/\b(rejected|anti-?patterns?|don'?t|do not|avoid|alternatives considered|not to do)\b/, 'rejected'],
  [/\b(decisions?|decided|choices|adrs?)\b/, 'decision'],
  [/\b(gotchas?|pitfalls?|caveats?|known issues?|warnings?|troubleshooting|debugging|quirks?|lessons?)\b/, 'gotcha'],
  [/\b(preferences?|feedback|user)\b/, 'preference'],
  [/\b(architecture|system design|system patterns|structure|components?)\b/, 'architecture'],
  [/\b(patterns?|conventions?|style|guidelines?|rules?|best practices?|standards?|code style)\b/, 'pattern'],
  [/\b(plans?|next steps?|todo|roadmap|current focus|active context|upcoming)\b/, 'plan'],
  [/\b(progress|status|what works|what'?s left|done|completed|recent changes?|changelog|milestones?)\b/, 'progress'],
  [/\b(code descriptions?|modules?|key files|api|code map)\b/, 'code_description'],
];

/**
 * The type a heading names, if any.
 *
 * @example
 * typeOfHeading('Key Technical Decisions') // 'decision'
 */
export function typeOfHeading(heading: string): MemoryType | undefined {
  const h = heading.toLowerCase();
  for (const [re, type] of HEADING_TYPES) if (re.test(h)) return type;
  return undefined;
}

/** The heading an export writes above memories of a type (read back by {@link typeOfHeading}). */
export const TYPE_HEADINGS: Readonly<Record<MemoryType, string>> = {
  architecture: 'Architecture',
  decision: 'Decisions',
  rejected: 'Rejected approaches',
  pattern: 'Patterns and conventions',
  gotcha: 'Gotchas',
  preference: 'Preferences',
  plan: 'Plans',
  progress: 'Progress',
  context: 'Context',
  code_description: 'Code descriptions',
  code: 'Code',
};

export interface SectionRecord {
  /** The headings above it, outermost first. */
  headings: string[];
  summary: string;
  body: string;
  line: number;
  type: MemoryType;
  /** Type and tags from an export's hidden comment: authoritative when present. */
  hidden?: { type?: MemoryType | undefined; tags?: string[] | undefined } | undefined;
  /** A link to another file (`- [Title](file.md) — hook`): an index line, not knowledge. */
  link?: string | undefined;
}

const START = '<!-- CORTEX_MEMORY_START -->';
const END = '<!-- CORTEX_MEMORY_END -->';
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^(?:[-*+]|\d+[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const INDEX_LINK = /^\[([^\]]+)\]\(([^)\s]+\.md)\)\s*(?:[—–:-]\s*(.*))?$/;

/** Removes the item's indentation (the least of its indented lines; a fence at column 0 stays as is). */
function dedent(lines: string[]): string {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length).filter((n) => n > 0);
  const n = indents.length > 0 ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(Math.min(n, /^ */.exec(l)![0].length)))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/**
 * The records of a sectioned markdown text.
 *
 * @example
 * parseSections('## Decisions\n- Use SQLite\n  It needs no server.\n', { defaultType: 'context' })
 * // [{ headings: ['Decisions'], summary: 'Use SQLite', body: 'It needs no server.', line: 2, type: 'decision' }]
 */
export function parseSections(text: string, options: { defaultType: MemoryType; firstLine?: number }): SectionRecord[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const offset = options.firstLine ?? 1;
  const out: SectionRecord[] = [];
  const headings: { level: number; text: string }[] = [];
  let current: { rec: SectionRecord; rest: string[]; kind: 'item' | 'para' } | undefined;
  let fence: string | undefined;
  let skipping = false;
  let blank = false;

  const flush = (): void => {
    if (!current) return;
    const body = current.kind === 'item' ? dedent(current.rest) : current.rest.join('\n').replace(/^\n+|\n+$/g, '');
    current.rec.body = body;
    out.push(current.rec);
    current = undefined;
  };
  const typeNow = (): MemoryType => {
    for (let i = headings.length - 1; i >= 0; i--) {
      const t = typeOfHeading(headings[i]!.text);
      if (t) return t;
    }
    return options.defaultType;
  };
  const start = (line: string, n: number, kind: 'item' | 'para'): void => {
    flush();
    const meta = readHiddenMeta(line.trim());
    const link = kind === 'item' ? INDEX_LINK.exec(meta.text) : null;
    const rec: SectionRecord = {
      headings: headings.map((h) => h.text),
      summary: summaryFrom(meta.text),
      body: '',
      line: n + offset,
      type: meta.type ?? typeNow(),
      ...(meta.type !== undefined || meta.tags !== undefined ? { hidden: { type: meta.type, tags: meta.tags } } : {}),
      ...(link ? { link: link[2] } : {}),
    };
    current = { rec, rest: [], kind };
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      current?.rest.push(line);
      if (line.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (line.includes(START)) {
      flush();
      skipping = true;
    }
    if (skipping) {
      if (line.includes(END)) skipping = false;
      continue;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1];
      if (current) {
        if (blank) current.rest.push('');
        current.rest.push(line);
      }
      blank = false;
      continue;
    }
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      flush();
      const level = h[1]!.length;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, text: h[2]! });
      blank = false;
      continue;
    }
    const item = /^ {0,1}\S/.test(line) ? ITEM.exec(line) : null;
    if (item) {
      start(item[1]!, i, 'item');
    } else if (current?.kind === 'item' && /^\s{2,}\S/.test(line)) {
      if (blank) current.rest.push('');
      current.rest.push(line);
    } else if (current?.kind === 'para' && !blank) {
      current.rest.push(line);
    } else if (/^\s*<!--.*-->\s*$/.test(line)) {
      // A comment line on its own (a file's note to its readers) is not knowledge.
    } else {
      start(line, i, 'para');
    }
    blank = false;
  }
  flush();
  return out;
}

/** A stable key for a section record: its headings and its summary. */
export function sectionKey(file: string, rec: Pick<SectionRecord, 'headings' | 'summary'>): string {
  return [file.replace(/\.md$/i, ''), ...rec.headings.map(keyOf), keyOf(rec.summary)].join('/');
}

export interface SectionMemory {
  type: MemoryType;
  summary: string;
  body: string;
  tags: readonly string[];
}

/**
 * Memories as a markdown section: one `##` heading per type (in the order given), each
 * memory a list item — the summary with the hidden type-and-tags comment, the body
 * indented under it — so {@link parseSections} reads back the same records.
 *
 * @example
 * renderSections([{ type: 'decision', summary: 'Use SQLite', body: 'No server.', tags: [] }])
 * // '## Decisions\n\n- Use SQLite <!-- cortex type=decision -->\n\n  No server.\n'
 */
export function renderSections(memories: readonly SectionMemory[], options: { level?: number; order?: readonly MemoryType[] } = {}): string {
  const level = options.level ?? 2;
  const types = [...(options.order ?? []), ...Object.keys(TYPE_HEADINGS).filter((t) => !(options.order ?? []).includes(t as MemoryType))].filter(isMemoryType);
  const blocks: string[] = [];
  for (const type of types) {
    const mine = memories.filter((m) => m.type === type);
    if (mine.length === 0) continue;
    const items = mine.map((m) => {
      const head = `- ${m.summary.replace(/\s+/g, ' ').trim()} ${hiddenMeta(m)}`;
      const body = m.body.trim() === '' ? '' : `\n\n${m.body.replace(/\r\n?/g, '\n').trim().split('\n').map((l) => (l === '' ? '' : `  ${l}`)).join('\n')}`;
      return `${head}${body}`;
    });
    blocks.push(`${'#'.repeat(level)} ${TYPE_HEADINGS[type]}\n\n${items.join('\n\n')}\n`);
  }
  return blocks.join('\n');
}

/**
 * Replaces the text between two marker lines of a file, keeping the rest byte for byte;
 * appends the section when the file has no markers. Refuses (with a reason) a file with
 * one marker without the other, or several pairs: guessing could delete what a person wrote.
 *
 * @example
 * spliceBetween('# A\n', 'new\n', { start: '<!-- S -->', end: '<!-- E -->' }) // { ok: true, text: '# A\n\n<!-- S -->\nnew\n<!-- E -->\n' }
 */
export function spliceBetween(existing: string | undefined, section: string, markers: { start: string; end: string }): { ok: true; text: string } | { ok: false; reason: string } {
  const block = `${markers.start}\n${section.endsWith('\n') || section === '' ? section : `${section}\n`}${markers.end}\n`;
  if (existing === undefined || existing === '') return { ok: true, text: block };
  const count = (needle: string): number => existing.split(needle).length - 1;
  const starts = count(markers.start);
  const ends = count(markers.end);
  if (starts === 0 && ends === 0) return { ok: true, text: `${existing}${existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n'}${block}` };
  if (starts !== 1 || ends !== 1 || existing.indexOf(markers.end) < existing.indexOf(markers.start)) {
    return { ok: false, reason: `has ${starts} ${markers.start} and ${ends} ${markers.end} markers; exactly one pair, in that order, is needed` };
  }
  const from = existing.indexOf(markers.start);
  let to = existing.indexOf(markers.end) + markers.end.length;
  if (existing.startsWith('\n', to)) to += 1;
  return { ok: true, text: `${existing.slice(0, from)}${block}${existing.slice(to)}` };
}
