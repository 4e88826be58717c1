/**
 * Lint rules for the graph, registered with `cortex lint`: edge files that cannot be
 * parsed, dangling edges, unknown relations, self-loops, duplicate and redundant edges,
 * dangling `[[links]]` — and git conflict markers left in memory or edge files.
 * Reads every file (no cache), like the rest of lint.
 */
import { existsSync } from 'node:fs';
import { lintGraph, type GraphEdgeInput } from '../core/graph.js';
import type { Diagnostic } from '../core/memory.js';
import { extractWikilinks } from '../core/wikilinks.js';
import { listEdgeFiles, readEdgeFile } from '../store/edge-store.js';
import { displayPath, listMemoryFiles, readMemoryText } from '../store/memory-store.js';
import type { Context } from './context.js';
import { registerLintRule } from './lint.js';

const CONFLICT_START = /^<{7}(?: |$)/m;
const CONFLICT_END = /^>{7}(?: |$)/m;

/**
 * The `conflict-markers` diagnostic for a text holding an unresolved git conflict
 * (a `<<<<<<<` line and a `>>>>>>>` line), or `undefined`.
 *
 * @example
 * conflictMarkers('a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n', 'm.md')?.line // 2
 */
export function conflictMarkers(text: string, file: string): Diagnostic | undefined {
  const start = CONFLICT_START.exec(text);
  if (!start || !CONFLICT_END.test(text.slice(start.index))) return undefined;
  return {
    file,
    line: text.slice(0, start.index).split('\n').length,
    reason: 'unresolved git conflict markers (<<<<<<< … >>>>>>>)',
    ruleId: 'conflict-markers',
    severity: 'error',
    hint: 'Resolve the conflict: keep the text that is right, delete the marker lines, then commit.',
  };
}

/** The body of a memory file: everything after the closing `---` of the frontmatter. */
function bodyOf(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return normalized;
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return '';
  const after = normalized.indexOf('\n', end + 4);
  return after === -1 ? '' : normalized.slice(after + 1);
}

/**
 * The graph lint rule: every problem of the project's edges and links.
 *
 * @example
 * (await graphLintRule(ctx)).filter((d) => d.ruleId === 'edge-dangling')
 */
export function graphLintRule(ctx: Context): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const memoryIds: string[] = [];
  const wikilinks: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const entry of listMemoryFiles(ctx.paths)) {
    memoryIds.push(entry.id);
    const text = readMemoryText(entry.path);
    if (text === undefined) continue; // lint's memory pass reports unreadable files
    const shown = displayPath(entry.path, ctx.root);
    const conflict = conflictMarkers(text, shown);
    if (conflict) diagnostics.push(conflict);
    const links = extractWikilinks(bodyOf(text));
    if (links.length > 0) wikilinks[entry.id] = links;
  }
  // Project edges may point at global memories: those are not dangling.
  if (ctx.includeGlobal && existsSync(ctx.global.memoriesDir)) {
    for (const entry of listMemoryFiles(ctx.global)) memoryIds.push(entry.id);
  }
  const edges: GraphEdgeInput[] = [];
  for (const entry of listEdgeFiles(ctx.paths, { base: ctx.root, skipped: diagnostics })) {
    const shown = displayPath(entry.path, ctx.root);
    const read = readEdgeFile(entry, shown);
    diagnostics.push(...read.diagnostics);
    if (read.text !== undefined) {
      const conflict = conflictMarkers(read.text, shown);
      if (conflict) diagnostics.push(conflict);
    }
    if (read.edge) edges.push({ ...read.edge, file: shown });
  }
  diagnostics.push(...lintGraph({ memoryIds, edges, wikilinks, memoryFile: (id) => `.cortex/memories/${id}.md` }));
  return diagnostics;
}

registerLintRule(graphLintRule);
