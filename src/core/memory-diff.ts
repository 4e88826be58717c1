/**
 * What a change does to memory, for review (`cortex diff <rev-range>`): memories and
 * edges added, edited (which fields), superseded, archived, restored, deleted, grouped
 * by type, with flags for secrets, contradictions and stale references; rendered as
 * markdown for a pull-request comment. Pure: the caller reads the two trees.
 */
import type { Edge } from './edge.js';
import { edgeFrontmatter } from './edge-format.js';
import { MEMORY_TYPES, type Memory, type MemoryType } from './memory.js';
import { memoryFrontmatter } from './memory-format.js';

export type MemoryChangeKind = 'added' | 'edited' | 'superseded' | 'archived' | 'restored' | 'deleted';

export interface MemoryChange {
  id: string;
  /** Type after the change (before, for a deletion). */
  type: MemoryType;
  summary: string;
  change: MemoryChangeKind;
  /** Changed fields (dotted for `source.*`, `body` for the text), for edits and status changes. */
  fields: string[];
  file: string;
}

export type EdgeChangeKind = 'added' | 'edited' | 'deleted';

export interface EdgeChange {
  /** `<source>--<relation>--<target>` */
  id: string;
  source: string;
  relation: string;
  target: string;
  change: EdgeChangeKind;
  fields: string[];
  file: string;
}

export interface DiffFlag {
  kind: 'secret' | 'contradiction' | 'stale-reference' | 'unreadable';
  file: string;
  line?: number | undefined;
  message: string;
}

export interface MemoryDiff {
  memories: MemoryChange[];
  edges: EdgeChange[];
  flags: DiffFlag[];
  /** Code the range changes that memories are anchored to (their `files:` entries). */
  code?: CodeTouch[] | undefined;
}

/** A file or symbol a range changes, and the memories anchored to it. */
export interface CodeTouch {
  path: string;
  /** The symbol (qualified), for symbol anchors; absent for whole-file anchors. */
  symbol?: string | undefined;
  kind?: string | undefined;
  change: 'changed' | 'added' | 'removed' | 'deleted' | 'renamed';
  memories: { id: string; summary: string; entry: string }[];
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Names of the fields that differ between two records (nested records by dotted path). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (equal(a, b)) continue;
    const nested = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (nested(a) && nested(b)) out.push(...changedFields(a as Record<string, unknown>, b as Record<string, unknown>, `${prefix}${key}.`));
    else out.push(`${prefix}${key}`);
  }
  return out;
}

/**
 * How one memory changed: `undefined` before = added, after = deleted; a status move to
 * superseded or archived (or back to active) names the change, other edits list fields.
 * `updated` alone is not a change worth listing, but it is listed beside real ones.
 *
 * @example
 * diffMemory(before, { ...before, priority: 9 }) // { change: 'edited', fields: ['priority'] }
 */
export function diffMemory(before: Memory | undefined, after: Memory | undefined): { change: MemoryChangeKind; fields: string[] } | undefined {
  if (!before && !after) return undefined;
  if (!before) return { change: 'added', fields: [] };
  if (!after) return { change: 'deleted', fields: [] };
  const fields = changedFields(memoryFrontmatter(before), memoryFrontmatter(after));
  if (before.body !== after.body) fields.push('body');
  if (fields.length === 0) return undefined;
  if (before.status !== after.status) {
    if (after.status === 'superseded') return { change: 'superseded', fields };
    if (after.status === 'archived') return { change: 'archived', fields };
    return { change: 'restored', fields };
  }
  return { change: 'edited', fields };
}

/**
 * How one edge changed (same conventions as `diffMemory`).
 *
 * @example
 * diffEdge(undefined, edge) // { change: 'added', fields: [] }
 */
export function diffEdge(before: Edge | undefined, after: Edge | undefined): { change: EdgeChangeKind; fields: string[] } | undefined {
  if (!before && !after) return undefined;
  if (!before) return { change: 'added', fields: [] };
  if (!after) return { change: 'deleted', fields: [] };
  const fields = changedFields(edgeFrontmatter(before), edgeFrontmatter(after));
  if (before.body !== after.body) fields.push('body');
  return fields.length === 0 ? undefined : { change: 'edited', fields };
}

const CHANGE_ORDER: MemoryChangeKind[] = ['added', 'edited', 'superseded', 'archived', 'restored', 'deleted'];

/** Sorts changes the way they are shown: by type (model order), then change, then id. */
export function sortChanges(d: MemoryDiff): MemoryDiff {
  const memories = [...d.memories].sort(
    (a, b) =>
      MEMORY_TYPES.indexOf(a.type) - MEMORY_TYPES.indexOf(b.type) ||
      CHANGE_ORDER.indexOf(a.change) - CHANGE_ORDER.indexOf(b.change) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const edges = [...d.edges].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const flags = [...d.flags].sort((a, b) => a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
  return { memories, edges, flags };
}

export interface RenderDiffOptions {
  /** Shown in the title, e.g. `main...feature`. */
  range: string;
}

function count(changes: { change: string }[], kind: string): number {
  return changes.filter((c) => c.change === kind).length;
}

/** Escapes text for a markdown table cell or list item. */
function inline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
}

/**
 * Markdown for a pull-request comment: a summary line, the memory changes by type, the
 * edge changes, then the flags.
 *
 * @example
 * renderDiffMarkdown(diff, { range: 'main...feature' }).startsWith('## Memory changes') // true
 */
export function renderDiffMarkdown(diff: MemoryDiff, options: RenderDiffOptions): string {
  const d = sortChanges(diff);
  const lines: string[] = [`## Memory changes in \`${options.range}\``, ''];
  if (d.memories.length === 0 && d.edges.length === 0) {
    lines.push('No memory or edge changes.');
  } else {
    const parts = CHANGE_ORDER.map((k) => [k, count(d.memories, k)] as const).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    const edgeParts = (['added', 'edited', 'deleted'] as const).map((k) => [k, count(d.edges, k)] as const).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    lines.push(`**Memories:** ${parts.join(', ') || 'none'} · **Edges:** ${edgeParts.join(', ') || 'none'}${d.flags.length > 0 ? ` · **Flags:** ${d.flags.length}` : ''}`);
    for (const type of MEMORY_TYPES) {
      const ofType = d.memories.filter((m) => m.type === type);
      if (ofType.length === 0) continue;
      lines.push('', `### ${type}`, '');
      for (const m of ofType) {
        const fields = m.fields.length > 0 && m.change !== 'added' && m.change !== 'deleted' ? ` (${m.fields.join(', ')})` : '';
        lines.push(`- **${m.change}** \`${m.id}\`: ${inline(m.summary)}${fields}`);
      }
    }
    if (d.edges.length > 0) {
      lines.push('', '### edges', '');
      for (const e of d.edges) {
        const fields = e.fields.length > 0 && e.change === 'edited' ? ` (${e.fields.join(', ')})` : '';
        lines.push(`- **${e.change}** \`${e.source}\` ${e.relation} \`${e.target}\`${fields}`);
      }
    }
  }
  const code = diff.code ?? [];
  if (code.length > 0) {
    lines.push('', '### Code with memories', '');
    for (const t of code) {
      const what = t.symbol !== undefined ? `\`${t.symbol}\` in \`${t.path}\`` : `\`${t.path}\``;
      const n = t.memories.length;
      lines.push(`- This range ${t.change === 'changed' ? 'changes' : t.change === 'removed' ? 'removes' : t.change === 'deleted' ? 'deletes' : t.change === 'renamed' ? 'renames' : 'adds'} ${what}, which ${n} ${n === 1 ? 'memory describes' : 'memories describe'}:`);
      for (const m of t.memories) lines.push(`  - \`${m.id}\`: ${inline(m.summary)}`);
    }
  }
  if (d.flags.length > 0) {
    lines.push('', '### Flags', '');
    for (const f of d.flags) lines.push(`- **${f.kind}** \`${f.file}${f.line ? `:${f.line}` : ''}\`: ${inline(f.message)}`);
  }
  return `${lines.join('\n')}\n`;
}
