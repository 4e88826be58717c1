/**
 * Renders a selected briefing (`buildSurface`) as markdown, through an mdast tree and
 * remark-stringify, so escaping is the serializer's job, not string concatenation's.
 *
 * The budget is guaranteed here, on the real text: render, measure, and while the text
 * is over the hard token maximum or the character ceiling, drop the lowest-priority
 * items and render again. If even the skeleton does not fit, the introduction, then the
 * title, then the markers go; the last resort is the empty string.
 */
import type { Html, List, ListItem, PhrasingContent, Root, RootContent, Text } from 'mdast';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import {
  SURFACE_END,
  SURFACE_START,
  buildSurface,
  confidenceMarker,
  omittedStepsNote,
  provenanceLabel,
  staleNote,
  type ExplainRow,
  type SurfaceContext,
  type SurfaceItem,
  type SurfaceResult,
  type SurfaceTemplate,
} from './surface.js';
import type { Memory } from './memory.js';
import { countTokens, type Tokenizer } from './tokens.js';

/**
 * Text as written. The briefing is read by an assistant, not rendered, and remark's
 * defensive escapes (`\\[REDACTED:aws-access-key]`, `stack\\[]`, `snake\\_case`) would
 * reach it as noise. Items are single lines (whitespace collapsed, the briefing markers
 * defused); only an HTML comment opener is neutralised, so nothing can hide the rest of a
 * target file where the briefing is rendered.
 */
export function briefingText(value: string): string {
  return value.replace(/<!--/g, '&lt;!--');
}

const processor = unified()
  .use(remarkStringify, {
    bullet: '-',
    listItemIndent: 'one',
    rule: '-',
    emphasis: '_',
    strong: '*',
    handlers: { text: (node: Text) => briefingText(node.value) },
  })
  .freeze();

/**
 * How much of the skeleton is kept: everything; no introduction; `bare` (markers and
 * items, no title either); nothing. Later levels are fallbacks for tiny budgets.
 */
export const HEADER_LEVELS = ['full', 'no-intro', 'bare', 'empty'] as const;
export type HeaderLevel = (typeof HEADER_LEVELS)[number];

export interface SurfaceTreeOptions {
  header?: HeaderLevel;
  /** Lines of fact after the sections (kept down to the `no-intro` level). */
  notes?: readonly string[];
}

export const DEFAULT_SURFACE_TREE: Required<SurfaceTreeOptions> = { header: 'full', notes: [] };

export interface RenderSurfaceOptions {
  /** The tokenizer the budget is measured with; the chars-per-token estimate otherwise. */
  tokenizer?: Tokenizer | undefined;
}

export const DEFAULT_RENDER_SURFACE: RenderSurfaceOptions = { tokenizer: undefined };

export interface RenderedSurface {
  text: string;
  tokens: number;
  chars: number;
  /** The items rendered, in priority order. */
  items: SurfaceItem[];
  /** Items selected but dropped to fit the hard limits. */
  dropped: { id: string; reason: string }[];
  /** The selection's explain rows, with the dropped items marked. */
  explain: ExplainRow[];
  header: HeaderLevel;
}

const text = (value: string): PhrasingContent => ({ type: 'text', value });

/**
 * `[label]` written as a shortcut reference: the serializer keeps the brackets as they
 * are, where a text node would get `\[`. Labels are sanitised to characters that need
 * no escaping, so the output is exactly `[label]`.
 */
const label = (value: string): PhrasingContent => ({
  type: 'linkReference',
  identifier: value.toLowerCase(),
  label: value,
  referenceType: 'shortcut',
  children: [text(value)],
});

const SAFE_LABEL = /^[A-Za-z0-9 ./@:,+~()-]+$/;

/** Intro text with its `[labels]` kept as written. */
function introPhrasing(value: string): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let last = 0;
  for (const m of value.matchAll(/\[([^[\]\n]+)\]/g)) {
    const inner = m[1] ?? '';
    if (!SAFE_LABEL.test(inner) || inner.trim() === '') continue;
    if (m.index > last) out.push(text(value.slice(last, m.index)));
    out.push(label(inner));
    last = m.index + m[0].length;
  }
  if (last < value.length) out.push(text(value.slice(last)));
  return out;
}

function itemPhrasing(item: SurfaceItem): PhrasingContent[] {
  let head = item.summary;
  if (item.detail) head += ` — ${item.detail}`;
  if (item.stepsOmitted > 0) head += ` ${omittedStepsNote(item.stepsOmitted)}`;
  const out: PhrasingContent[] = [text(head)];
  const provenance = provenanceLabel(item);
  if (provenance) out.push(text(' '), label(provenance));
  if (item.lowConfidence) out.push(text(` ${confidenceMarker(item.confidence)}`));
  if (item.stale.length > 0) out.push(text(' '), label('POSSIBLY OUTDATED'), text(` (${staleNote(item.stale)})`));
  return out;
}

function listOf(children: ListItem[]): List {
  return { type: 'list', ordered: false, spread: false, children };
}

function listItem(item: SurfaceItem): ListItem {
  const children: ListItem['children'] = [{ type: 'paragraph', children: itemPhrasing(item) }];
  if (item.steps && item.steps.length > 0) {
    children.push(
      listOf(
        item.steps.map((step) => ({
          type: 'listItem',
          spread: false,
          children: [{ type: 'paragraph', children: [label(step.done ? 'x' : ' '), text(` ${step.text}`)] }],
        })),
      ),
    );
  }
  return { type: 'listItem', spread: false, children };
}

/**
 * The mdast tree of a briefing: markers, title, introduction, then one section per
 * template section that has items — the section holding the active plan first — with
 * the plan first inside it and the rest in rank order.
 *
 * @example
 * buildSurfaceTree(surface.template, surface.items).children[0] // { type: 'html', value: '<!-- CORTEX_MEMORY_START -->' }
 */
export function buildSurfaceTree(
  template: SurfaceTemplate,
  items: readonly SurfaceItem[],
  options: SurfaceTreeOptions = {},
): Root {
  const { header, notes } = { ...DEFAULT_SURFACE_TREE, ...options };
  if (header === 'empty') return { type: 'root', children: [] };
  const level = HEADER_LEVELS.indexOf(header);
  const start: Html = { type: 'html', value: SURFACE_START };
  const end: Html = { type: 'html', value: SURFACE_END };
  const children: RootContent[] = [start];
  if (level < HEADER_LEVELS.indexOf('bare') && template.title) {
    children.push({ type: 'heading', depth: clampDepth(template.titleDepth), children: [text(template.title)] });
  }
  if (level < HEADER_LEVELS.indexOf('no-intro')) {
    for (const paragraph of template.intro) children.push({ type: 'paragraph', children: introPhrasing(paragraph) });
  }
  const bySection = new Map<number, SurfaceItem[]>();
  for (const item of items) {
    const list = bySection.get(item.section) ?? [];
    list.push(item);
    bySection.set(item.section, list);
  }
  const planSection = items.find((i) => i.stage === 'plan')?.section;
  const order = [...bySection.keys()].sort((a, b) => (a === planSection ? -1 : b === planSection ? 1 : a - b));
  for (const index of order) {
    const section = template.sections[index];
    const sectionItems = (bySection.get(index) ?? []).sort(
      (a, b) => Number(b.stage === 'plan') - Number(a.stage === 'plan') || a.rankIndex - b.rankIndex,
    );
    if (section) children.push({ type: 'heading', depth: clampDepth(section.depth), children: [text(section.title)] });
    children.push(listOf(sectionItems.map(listItem)));
  }
  if (level < HEADER_LEVELS.indexOf('bare')) for (const note of notes) children.push({ type: 'paragraph', children: introPhrasing(note) });
  children.push(end);
  return { type: 'root', children };
}

function clampDepth(depth: number): 1 | 2 | 3 | 4 | 5 | 6 {
  return Math.min(6, Math.max(1, Math.floor(depth) || 1)) as 1 | 2 | 3 | 4 | 5 | 6;
}

/**
 * Serialises an mdast tree with the briefing's markdown settings.
 *
 * @example
 * stringifySurfaceTree({ type: 'root', children: [{ type: 'html', value: '<!-- x -->' }] }) // '<!-- x -->\n'
 */
export function stringifySurfaceTree(tree: Root): string {
  return tree.children.length === 0 ? '' : processor.stringify(tree);
}

/**
 * Renders a selected briefing within its hard limits (see the module comment).
 *
 * @example
 * const { text, tokens } = renderSurface(buildSurface(memories, { now, template }));
 * text.startsWith('<!-- CORTEX_MEMORY_START -->') // true
 * tokens <= 550 // true
 */
export function renderSurface(surface: SurfaceResult, options: RenderSurfaceOptions = {}): RenderedSurface {
  const { tokenizer } = { ...DEFAULT_RENDER_SURFACE, ...options };
  const { maxTokens, maxChars, charsPerToken } = surface.limits;
  const measure = (value: string): { tokens: number; chars: number } => ({
    tokens: countTokens(value, { tokenizer, charsPerToken }),
    chars: value.length,
  });
  const fits = (m: { tokens: number; chars: number }): boolean => m.tokens <= maxTokens && m.chars <= maxChars;

  let kept: SurfaceItem[] = [];
  let result = { text: '', tokens: 0, chars: 0 };
  let header: HeaderLevel = 'empty';
  for (const level of HEADER_LEVELS) {
    const skeleton = stringifySurfaceTree(buildSurfaceTree(surface.template, [], { header: level, notes: surface.notes }));
    if (!fits(measure(skeleton))) continue;
    header = level;
    // At the 'empty' level nothing is written, so no item counts as shown.
    kept = level === 'empty' ? [] : [...surface.items].sort((a, b) => a.order - b.order);
    for (;;) {
      const out = stringifySurfaceTree(buildSurfaceTree(surface.template, kept, { header: level, notes: surface.notes }));
      const m = measure(out);
      if (fits(m) || kept.length === 0) {
        result = { text: out, ...m };
        break;
      }
      // Drop enough of the lowest-priority items to cover the overshoot by their
      // estimates (at least one), so the loop takes few renders even with huge items.
      const overshoot = Math.max(m.chars - maxChars, (m.tokens - maxTokens) * charsPerToken, 1);
      let freed = 0;
      while (kept.length > 0 && freed < overshoot) freed += (kept.pop() as SurfaceItem).chars || 1;
    }
    break;
  }

  const keptIds = new Set(kept.map((i) => i.id));
  const reason = `dropped after rendering to fit the hard limit of ${maxTokens} tokens and ${maxChars} characters`;
  const dropped = surface.items.filter((i) => !keptIds.has(i.id)).map((i) => ({ id: i.id, reason }));
  const droppedIds = new Set(dropped.map((d) => d.id));
  const explain =
    dropped.length === 0
      ? surface.explain
      : surface.explain.map((row) => (droppedIds.has(row.id) && row.included ? { ...row, included: false, reason } : row));
  return { ...result, items: kept, dropped, explain, header };
}

/**
 * Selects and renders the briefing in one call: the shell's entry point.
 *
 * @example
 * renderSurfaceText(memories, { now, currentBranch: 'main', template }) // '<!-- CORTEX_MEMORY_START -->\n\n# Project memory\n…'
 */
export function renderSurfaceText(memories: readonly Memory[], ctx: SurfaceContext): string {
  return renderSurface(buildSurface(memories, ctx), { tokenizer: ctx.tokenizer }).text;
}
