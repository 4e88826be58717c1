/**
 * Lint rules for the graph, run by `lint` (api/lint.ts): edge files that cannot be
 * parsed, dangling edges, unknown relations, self-loops, duplicate and redundant edges,
 * dangling `[[links]]` — and git conflict markers left in memory or edge files.
 * Reads every file (no cache), like the rest of lint.
 */
import { existsSync } from 'node:fs';
import type { Edge } from '../core/edge.js';
import { lintGraph, type GraphEdgeInput } from '../core/graph.js';
import type { Diagnostic } from '../core/memory.js';
import { extractWikilinks } from '../core/wikilinks.js';
import { listEdgeFiles, readEdgeFile } from '../store/edge-store.js';
import { displayPath, listMemoryFiles, readMemoryText } from '../store/memory-store.js';
import type { Context } from '../services/context.js';

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

/** The `status:` line of a memory file's frontmatter (canonical form; others are parsed by lint). */
const STATUS_LINE = /^status:[ \t]*["']?([a-z]+)["']?[ \t]*$/m;

/**
 * `consolidate --merge` writes its two `supersedes` edges first, then the merged memory,
 * then marks the originals superseded: a crash part-way leaves edges of origin
 * `consolidation` whose source is missing (reported as `edge-dangling`) or whose target is
 * still active — a half-applied merge, named here with the command that completes it.
 */
function interruptedMerge(edge: Edge, file: string, statuses: ReadonlyMap<string, string>): Diagnostic[] {
  if (edge.relation !== 'supersedes' || edge.origin !== 'consolidation' || edge.status !== 'active') return [];
  const target = statuses.get(edge.target);
  if (!statuses.has(edge.source) || target === undefined || target === 'superseded') return [];
  return [
    {
      file,
      reason: `${edge.source} supersedes ${edge.target} (a merge), but ${edge.target} is still ${target}: the merge was interrupted`,
      ruleId: 'merge-incomplete',
      severity: 'error',
      hint: `Complete it: cortex edit ${edge.target} --status superseded`,
    },
  ];
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
  const statuses = new Map<string, string>();
  for (const entry of listMemoryFiles(ctx.paths)) {
    memoryIds.push(entry.id);
    const text = readMemoryText(entry.path);
    if (text === undefined) continue; // lint's memory pass reports unreadable files
    const end = text.indexOf('\n---', 3);
    const status = STATUS_LINE.exec(end === -1 ? text : text.slice(0, end))?.[1];
    if (status !== undefined) statuses.set(entry.id, status);
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
    if (read.edge) diagnostics.push(...interruptedMerge(read.edge, shown, statuses));
  }
  diagnostics.push(...lintGraph({ memoryIds, edges, wikilinks, memoryFile: (id) => `.cortex/memories/${id}.md` }));
  return diagnostics;
}

