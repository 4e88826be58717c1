/**
 * `[[id]]` links in memory bodies (DESIGN §2.1): they are `relates_to` edges with origin
 * `wikilink` that have no edge file. Pure: strings in, data out.
 */
import type { Nodes, Root } from 'mdast';
import { loadMarkdownParser } from './lazy.js';
import { checkIdSafety } from './memory.js';

export { WIKILINK_STRENGTH } from './edge.js';

const WIKILINK = /\[\[([^[\]\n]+)\]\]/g;

// Parsing markdown is the expensive part of an index rebuild over 10,000 bodies; most
// bodies have no link, so one substring test decides whether to parse at all. The
// parser itself loads on the first body that needs it (see loadMarkdownParser).

const MAY_HOLD_LITERALS = /[`<\t]|~~~| {4}/;

/** Marks of a construct that can span blank lines (fenced code, HTML blocks): any in the body counts. */
const MAY_SPAN_PARAGRAPHS = /```|~~~|</;

/**
 * True when a `[[link]]` of `body` may sit in code or HTML. Code spans and indented code
 * need a backtick, a tab or four spaces in the paragraph the link is in (a code span never
 * crosses a blank line); fences and HTML blocks can, so those count anywhere. Memories
 * often mention `code` in one paragraph and link in another: no parse for them.
 */
function mayHoldLiteralLink(body: string): boolean {
  if (!MAY_HOLD_LITERALS.test(body)) return false;
  if (MAY_SPAN_PARAGRAPHS.test(body)) return true;
  for (const match of body.matchAll(WIKILINK)) {
    const blank = /\n[ \t]*\n/g;
    let start = 0;
    let end = body.length;
    for (let m = blank.exec(body); m !== null; m = blank.exec(body)) {
      if (m.index + m[0].length <= match.index) start = m.index + m[0].length;
      else if (m.index >= match.index) {
        end = m.index;
        break;
      }
    }
    if (MAY_HOLD_LITERALS.test(body.slice(start, end))) return true;
  }
  return false;
}

/** Node types whose text is literal (code, raw HTML): links inside them are not links. */
const LITERAL_TYPES = new Set(['code', 'inlineCode', 'html']);

function literalRanges(tree: Root): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const visit = (node: Nodes): void => {
    if (LITERAL_TYPES.has(node.type)) {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start !== undefined && end !== undefined) ranges.push([start, end]);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return ranges;
}

/**
 * The memory id a link text names, or `undefined` when it cannot be one:
 * `id`, `id|label` and `id#heading` all name `id`.
 */
function linkTarget(inner: string): string | undefined {
  const id = inner.split('|')[0]!.split('#')[0]!.trim();
  return checkIdSafety(id) === undefined ? id : undefined;
}

/**
 * Unique memory ids linked from a markdown body as `[[id]]` or `[[id|label]]`, in order
 * of first appearance. Links inside code blocks, inline code and raw HTML are ignored,
 * and so is a link text that is not a safe id (e.g. `[[Some Page]]`).
 *
 * @example
 * extractWikilinks('See [[wal-mode-p2x81d]] and `[[not-a-link]]`.') // ['wal-mode-p2x81d']
 */
export function extractWikilinks(body: string): string[] {
  if (!body.includes('[[')) return [];
  // Without these markers the body can hold no code or HTML node, so the markdown parse
  // (the slow part: ~0.5 ms a body) would exclude nothing. Indented code always needs
  // four spaces or a tab, whatever container (list, quote) it sits in.
  // Without require(esm) (Node < 20.19) there is no parser: links in code then count too.
  const parser = mayHoldLiteralLink(body) ? loadMarkdownParser() : undefined;
  const ranges = parser ? literalRanges(parser.parse(body)) : [];
  const ids: string[] = [];
  const seen = new Set<string>();
  let r = 0;
  for (const match of body.matchAll(WIKILINK)) {
    const at = match.index;
    // Ranges and matches both come in document order: one forward pass.
    while (r < ranges.length && ranges[r]![1] <= at) r++;
    const range = ranges[r];
    if (range && range[0] <= at) continue;
    const id = linkTarget(match[1]!);
    if (id !== undefined && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}
