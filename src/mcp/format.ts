/**
 * What the MCP tools send back: compact text for the assistant, and errors as tool
 * results. Plain data in, plain data out, so every shape is testable without a server.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CortexError, ISSUES_URL, InternalError } from '../errors.js';
import { findSecrets, redactDeep, redactSecrets, stringsOf } from '../core/redact.js';

/** Longest preview of a memory body in a recall result (the full text is one `memory_get` away). */
export const PREVIEW_CHARS = 120;


/**
 * A body's first characters on one line, cut at a word boundary.
 *
 * @example
 * shortPreview('We need a store\nthat works offline.', 20) // 'We need a store…'
 */
export function shortPreview(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * What a preview adds to the summary: itself, or its rest when it starts with the summary
 * (a memory saved as free text keeps its first sentence as summary and the whole text as
 * body), or '' when it says nothing more.
 *
 * @example
 * previewBeyond('Use WAL', 'Use WAL mode. Hooks write concurrently.') // 'mode. Hooks write concurrently.'
 */
export function previewBeyond(summary: string, preview: string): string {
  const head = summary.replace(/\s+/g, ' ').trim().replace(/…$/, '');
  if (head === '' || !preview.startsWith(head)) return preview;
  return preview.slice(head.length).trim();
}

/** Scores are relative within one answer; two decimals say all that matters. */
export function roundScore(score: number): number {
  return Math.round(score * 100) / 100;
}

/**
 * A successful tool result: text for the model, and structured data when the tool has
 * an output schema.
 *
 * @example
 * textResult('Remembered: a-k3f9qa', { id: 'a-k3f9qa' }) // { content: [{ type: 'text', text: … }], structuredContent: { id: … } }
 */
export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  // Every answer passes the redaction gate: a hand-written memory was never gated on its way in.
  const safe = redactSecrets(text).text;
  return { content: [{ type: 'text', text: safe }], ...(structured ? { structuredContent: gateStructured(structured) } : {}) };
}

/** Most strings {@link gateStructured} remembers as clean before it starts again. */
export const CLEAN_STRINGS_LIMIT = 20_000;

/**
 * Strings the gate found nothing in (with its default options, which never change in a
 * process): ids, types, relations, field names and summaries come back in answer after
 * answer of a long-lived server, and the gate's cost is mostly per string (its vendor rules
 * run on each), so each is scanned once.
 */
const cleanStrings = new Set<string>();

/**
 * `redactDeep(value).value`, with every string scanned at most once per process while it
 * stays clean: a string the gate finds nothing in is remembered (up to
 * {@link CLEAN_STRINGS_LIMIT}, then the memory starts again), one with a finding is
 * redacted every time.
 *
 * @example
 * gateStructured({ id: 'a-k3f9qa', note: 'key AKIA' + 'IOSFODNN7EXAMPLE' }) // { id: 'a-k3f9qa', note: 'key [REDACTED:aws-access-key]' }
 */
export function gateStructured<T>(value: T): T {
  for (const s of stringsOf(value)) {
    if (cleanStrings.has(s) || findSecrets(s).length > 0) continue;
    if (cleanStrings.size >= CLEAN_STRINGS_LIMIT) cleanStrings.clear();
    cleanStrings.add(s);
  }
  return redactDeep(value, {}, cleanStrings).value;
}

/** Hints that name a CLI command where an MCP tool does the same job. */
const MCP_HINTS: Readonly<Record<string, string>> = {
  MEMORY_NOT_FOUND: 'Find the id with memory_recall (ids are returned with every result).',
};

/**
 * Turns any error into a tool error: `isError: true` and the same one-line message the
 * CLI prints, plus its hint. Anything that is not a `CortexError` is a bug, reported as
 * one; `log` receives its stack (the server writes it to stderr, never stdout).
 *
 * @example
 * errorResult(new MemoryNotFoundError('x')).content[0].text // 'No memory with id "x".\nhint: …'
 */
export function errorResult(err: unknown, log?: (line: string) => void): CallToolResult {
  const error =
    err instanceof CortexError ? err : new InternalError(`Unexpected error: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  const hint = MCP_HINTS[error.code] ?? error.hint;
  const lines = [error.message];
  if (hint) lines.push(`hint: ${hint}`);
  if (error instanceof InternalError) {
    lines.push(`This is a bug in cortex; please report it at ${ISSUES_URL}.`);
    const stack = (error.cause as Error | undefined)?.stack ?? error.stack;
    log?.(`${error.message}${stack ? `\n${stack}` : ''}`);
  }
  // An error may quote its input (a summary, a path): gated like every answer.
  return { content: [{ type: 'text', text: redactSecrets(lines.join('\n')).text }], isError: true };
}

export interface RecallLine {
  id: string;
  type: string;
  summary: string;
  score: number;
  preview: string;
  status: string;
  scope: string;
  /** Set for a memory read from another branch. */
  ref?: { branch: string; merged: boolean } | undefined;
  /** "→ refines <id>": the relation, its direction and the linked memory. */
  related?: string[] | undefined;
  code?: { id: string; summary: string }[] | undefined;
  /** File recall: the anchor, and why its code may have changed. */
  anchor?: string | undefined;
  /** A captured review candidate (`candidate-<hex>`), not accepted by anyone yet. */
  unconfirmed?: boolean | undefined;
  outdated?: string | undefined;
}

/**
 * One numbered entry per memory (id, type, summary, score) with its preview, linked
 * memories and code indented below; then how many weaker matches the relevance floor left
 * out, if any.
 *
 * @example
 * formatRecall('db', [{ id: 'a', type: 'decision', summary: 'Chose SQLite', score: 1.2, preview: '', status: 'active', scope: 'project' }])
 * // '1 memory for "db":\n1. a [decision] Chose SQLite (score 1.2)'
 */
export function formatRecall(query: string, results: readonly RecallLine[], notice?: string, belowFloor = 0): string {
  const lines: string[] = [];
  const weak = `${belowFloor} ${belowFloor === 1 ? 'match' : 'matches'} below the relevance floor`;
  if (results.length === 0) lines.push(belowFloor > 0 ? `Nothing relevant to "${query}": ${weak} (no_floor shows ${belowFloor === 1 ? 'it' : 'them'}).` : `No memories match "${query}".`);
  else lines.push(`${results.length} ${results.length === 1 ? 'memory' : 'memories'} for "${query}":`);
  results.forEach((r, i) => {
    const extra = [
      r.unconfirmed ? 'unconfirmed' : '',
      r.status !== 'active' ? r.status : '',
      r.scope === 'global' ? 'global' : r.scope === 'local' ? 'private' : '',
      r.ref ? `on ${r.ref.branch}${r.ref.merged ? '' : ', not merged'}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`${i + 1}. ${r.id} [${r.type}] ${r.summary}${extra ? ` (${extra})` : ''} (score ${roundScore(r.score)})`);
    if (r.preview !== '') lines.push(`   ${r.preview}`);
    if (r.related && r.related.length > 0) {
      lines.push(`   linked: ${r.related.join(', ')}`);
    }
    if (r.code && r.code.length > 0) lines.push(`   code: ${r.code.map((c) => `${c.id} (${c.summary})`).join(', ')}`);
    if (r.anchor !== undefined) lines.push(`   anchored to ${r.anchor}${r.outdated !== undefined ? ` (possibly outdated: ${r.outdated})` : ''}`);
  });
  if (results.length > 0 && belowFloor > 0) lines.push(`(${weak} left out; no_floor shows ${belowFloor === 1 ? 'it' : 'them'})`);
  if (notice) lines.push(`notice: ${notice}`);
  return lines.join('\n');
}

/** What a traversal answer suggests when it lists fewer memories than it reached. */
export const TRAVERSE_MORE_HINT = 'raise limit, lower depth, or filter relations';

export interface TraverseLine {
  id: string;
  type: string;
  summary: string;
  status: string;
  depth: number;
  relation: string;
  /** `out`: reached along the edge's arrow from `from`; `in`: against it. */
  direction: 'out' | 'in';
  from: string;
}

/**
 * The start memory, then one line per memory reached, grouped by depth: `→` along the
 * edge's arrow, `←` against it, and the memory it was reached from below depth 1.
 *
 * @example
 * formatTraverse({ id: 'a', type: 'decision', summary: 'A' }, [{ id: 'b', type: 'gotcha', summary: 'B', status: 'active', depth: 1, relation: 'refines', direction: 'in', from: 'a' }], 1)
 * // 'a [decision] A\ndepth 1:\n  ← refines b [gotcha] B'
 */
export function formatTraverse(start: { id: string; type: string; summary: string }, nodes: readonly TraverseLine[], total: number): string {
  const lines = [`${start.id} [${start.type}] ${start.summary}`];
  if (total === 0) lines.push('No memory is linked to it.');
  let depth = 0;
  for (const n of nodes) {
    if (n.depth !== depth) {
      depth = n.depth;
      lines.push(`depth ${depth}:`);
    }
    const arrow = n.direction === 'out' ? '→' : '←';
    const extra = [n.status !== 'active' ? n.status : '', n.depth > 1 ? `via ${n.from}` : ''].filter(Boolean).join(', ');
    lines.push(`  ${arrow} ${n.relation} ${n.id} [${n.type}] ${n.summary}${extra ? ` (${extra})` : ''}`);
  }
  if (total > nodes.length) lines.push(`… and ${total - nodes.length} more (${TRAVERSE_MORE_HINT})`);
  return lines.join('\n');
}
