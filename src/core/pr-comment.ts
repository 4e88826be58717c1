/**
 * The pull-request comment of `cortex diff --format github` (issue 40): the memory changes
 * of a range grouped by type, one line each with who or what captured it and a link to the
 * file at the head commit, edits with their fields and a short before → after, unconfirmed
 * memories marked, the anchored code the range changes. Stays readable at hundreds of
 * changes (each type is a collapsed `<details>` section past a few lines) and under the
 * forge's comment limit (truncated with a count of what was left out). Pure.
 */
import { MEMORY_TYPES } from './memory.js';
import type { CodeTouch, DiffFlag, EdgeChange, MemoryChange } from './memory-diff.js';

/** The hidden marker that finds the comment again on the next push. */
export const PR_COMMENT_MARKER = '<!-- cortex-memory-review -->';
/** GitHub's limit on an issue comment body, in characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** Who or what wrote a memory, from its frontmatter. */
export interface ChangeProvenance {
  kind: string;
  session?: string | undefined;
  branch?: string | undefined;
  confidence?: number | undefined;
  /** `person` or `assistant`; absent when nobody confirmed it. */
  confirmed?: string | undefined;
}

/** One edited field, its values shortened. */
export interface FieldEdit {
  field: string;
  before: string;
  after: string;
}

export interface ReviewMemoryChange extends MemoryChange {
  provenance?: ChangeProvenance | undefined;
  edits?: FieldEdit[] | undefined;
}

export interface ReviewDiff {
  range: string;
  head: string;
  memories: ReviewMemoryChange[];
  edges: EdgeChange[];
  flags: DiffFlag[];
  code?: CodeTouch[] | undefined;
}

export interface PrCommentOptions {
  /** `owner/name`: with it, memory ids link to the file at the head commit. */
  repo?: string | undefined;
  /** Default `https://github.com`. */
  serverUrl?: string | undefined;
  /** Default GITHUB_COMMENT_LIMIT. */
  maxChars?: number | undefined;
  /** A type's section is collapsed past this many lines (default 5). */
  collapseAfter?: number | undefined;
}

const CHANGE_ORDER = ['added', 'edited', 'superseded', 'archived', 'restored', 'deleted'] as const;
const CHANGE_WORD: Record<string, string> = {
  added: 'added',
  edited: 'edited',
  superseded: 'superseded',
  archived: 'archived',
  restored: 'restored',
  deleted: 'deleted',
};

/** Escapes text for one markdown line (no HTML, no emphasis, no links). */
export function mdInline(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

/** Shortens text to `max` characters on one line, with `…`. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

function provenanceText(p: ChangeProvenance | undefined): string {
  if (!p) return '';
  const bits = [p.kind === 'manual' ? 'manual' : p.kind];
  if (p.confidence !== undefined) bits.push(`confidence ${p.confidence}`);
  if (p.session) bits.push(`session ${shorten(p.session, 12)}`);
  if (p.branch) bits.push(`branch ${p.branch}`);
  if (p.confirmed) bits.push(`confirmed by ${p.confirmed === 'person' ? 'a person' : p.confirmed}`);
  return bits.map(mdInline).join(', ');
}

function isUnconfirmed(m: ReviewMemoryChange): boolean {
  const p = m.provenance;
  return p !== undefined && (m.change === 'added' || m.change === 'edited' || m.change === 'restored') && p.kind !== 'manual' && p.confirmed === undefined;
}

function memoryLink(m: ReviewMemoryChange, diff: ReviewDiff, options: PrCommentOptions): string {
  const id = `\`${m.id}\``;
  if (!options.repo || m.change === 'deleted') return id;
  const server = (options.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
  return `[${id}](${server}/${options.repo}/blob/${diff.head}/${m.file.split('/').map(encodeURIComponent).join('/')})`;
}

function memoryLine(m: ReviewMemoryChange, diff: ReviewDiff, options: PrCommentOptions): string[] {
  const mark = isUnconfirmed(m) ? ' ⚠️ **unconfirmed**' : '';
  const fields = m.fields.length > 0 && m.change !== 'added' && m.change !== 'deleted' ? ` (${m.fields.map(mdInline).join(', ')})` : '';
  const prov = provenanceText(m.provenance);
  const lines = [`- **${CHANGE_WORD[m.change] ?? m.change}**${mark} ${memoryLink(m, diff, options)}: ${mdInline(m.summary)}${fields}${prov ? ` — _${prov}_` : ''}`];
  for (const e of m.edits ?? []) {
    lines.push(`  - ${mdInline(e.field)}: ${e.before === '' ? '∅' : `\`${e.before.replace(/`/g, "'")}\``} → ${e.after === '' ? '∅' : `\`${e.after.replace(/`/g, "'")}\``}`);
  }
  return lines;
}

function counts(changes: { change: string }[], order: readonly string[]): string {
  return order
    .map((k) => [k, changes.filter((c) => c.change === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

function codeLine(t: CodeTouch): string[] {
  const what = t.symbol !== undefined ? `\`${t.symbol}\` in \`${t.path}\`` : `\`${t.path}\``;
  const verb = { changed: 'changes', removed: 'removes', deleted: 'deletes', renamed: 'renames', added: 'adds' }[t.change];
  const n = t.memories.length;
  return [`- This PR ${verb} ${what}, which ${n} ${n === 1 ? 'memory describes' : 'memories describe'}:`, ...t.memories.map((m) => `  - \`${m.id}\`: ${mdInline(m.summary)}`)];
}

/**
 * The whole comment, starting with PR_COMMENT_MARKER; never longer than `maxChars`.
 *
 * @example
 * renderPrComment({ range: 'main...f', head: 'abc', memories: [], edges: [], flags: [] }).includes('No memory changes') // true
 */
export function renderPrComment(diff: ReviewDiff, options: PrCommentOptions = {}): string {
  const max = options.maxChars ?? GITHUB_COMMENT_LIMIT;
  const collapseAfter = options.collapseAfter ?? 5;
  const head: string[] = [PR_COMMENT_MARKER, `## 🧠 Memory review: \`${mdInline(diff.range)}\``, ''];
  const sections: string[][] = [];
  const code = diff.code ?? [];
  const unconfirmed = diff.memories.filter(isUnconfirmed).length;

  if (diff.memories.length === 0 && diff.edges.length === 0 && code.length === 0) {
    head.push('No memory changes in this pull request.');
  } else {
    const bits = [`**Memories:** ${counts(diff.memories, CHANGE_ORDER) || 'none'}`, `**Edges:** ${counts(diff.edges, ['added', 'edited', 'deleted']) || 'none'}`];
    if (unconfirmed > 0) bits.push(`**Unconfirmed:** ${unconfirmed}`);
    if (code.length > 0) bits.push(`**Anchored code changed:** ${code.length}`);
    if (diff.flags.length > 0) bits.push(`**Flags:** ${diff.flags.length}`);
    head.push(bits.join(' · '));
    if (unconfirmed > 0) head.push('', '_Unconfirmed memories were captured automatically and nobody has accepted them: drop the file from the PR if it is wrong._');
  }
  if (diff.flags.length > 0) {
    sections.push(['', '### 🚩 Flags', '', ...diff.flags.map((f) => `- **${f.kind}** \`${f.file}${f.line ? `:${f.line}` : ''}\`: ${mdInline(f.message)}`)]);
  }
  if (code.length > 0) sections.push(['', '### Code with memories', '', ...code.flatMap(codeLine)]);
  const types = [...MEMORY_TYPES, ...new Set(diff.memories.map((m) => m.type).filter((t) => !(MEMORY_TYPES as readonly string[]).includes(t)))];
  for (const type of types) {
    const ofType = diff.memories
      .filter((m) => m.type === type)
      .sort((a, b) => CHANGE_ORDER.indexOf(a.change) - CHANGE_ORDER.indexOf(b.change) || a.id.localeCompare(b.id));
    if (ofType.length === 0) continue;
    const body = ofType.flatMap((m) => memoryLine(m, diff, options));
    const title = `${type} (${ofType.length}: ${counts(ofType, CHANGE_ORDER)})`;
    if (ofType.length > collapseAfter) sections.push(['', `<details><summary><b>${title}</b></summary>`, '', ...body, '', '</details>']);
    else sections.push(['', `### ${title}`, '', ...body]);
  }
  if (diff.edges.length > 0) {
    const body = diff.edges.map((e) => `- **${e.change}** \`${e.source}\` ${mdInline(e.relation)} \`${e.target}\`${e.change === 'edited' && e.fields.length > 0 ? ` (${e.fields.map(mdInline).join(', ')})` : ''}`);
    const title = `edges (${diff.edges.length})`;
    sections.push(diff.edges.length > collapseAfter ? ['', `<details><summary><b>${title}</b></summary>`, '', ...body, '', '</details>'] : ['', `### ${title}`, '', ...body]);
  }
  const footer = ['', `<sub>Generated by \`cortex diff --format github\` at ${diff.head.slice(0, 12)}.</sub>`];

  // Fit under the limit: whole lines only, and say how many lines were left out.
  let text = head.join('\n');
  const tail = `\n${footer.join('\n')}`;
  const all = sections.flat();
  let kept = 0;
  const reserve = tail.length + 200;
  let openDetails = false;
  for (const line of all) {
    if (text.length + line.length + 1 + reserve > max) break;
    text += `\n${line}`;
    if (line.startsWith('<details>')) openDetails = true;
    if (line === '</details>') openDetails = false;
    kept++;
  }
  if (kept < all.length) {
    const left = all.slice(kept).filter((l) => l.startsWith('- ')).length;
    if (openDetails) text += '\n\n</details>';
    text += `\n\n**… ${left} more ${left === 1 ? 'line' : 'lines'} left out to stay under the ${max}-character comment limit;** run \`cortex diff ${mdInline(diff.range)}\` for all of them.`;
  }
  return `${text}${tail}\n`;
}
