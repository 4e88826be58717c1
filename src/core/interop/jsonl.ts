/**
 * Cortex's own interchange format: JSON Lines, lossless. A header line, then one line per
 * memory (`{"kind":"memory","memory":{…every field…}}`, by id) and one per edge
 * (`{"kind":"edge","edge":{…}}`, by file name). Importing it writes the same files.
 */
import { edgeFileName, type Edge } from '../edge.js';
import type { Memory } from '../memory.js';
import type { JsonlLineError } from './mcp-memory.js';
import { emptySource, type ParsedSource } from './types.js';

export const JSONL_HEADER = { format: 'cortex-jsonl', version: 1 } as const;

/**
 * Memories and edges as JSON Lines, in a stable order (same memories → same bytes).
 *
 * @example
 * exportJsonl([memory], []).split('\n')[0] // '{"format":"cortex-jsonl","version":1}'
 */
export function exportJsonl(memories: readonly Memory[], edges: readonly Edge[]): string {
  const ms = [...memories].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const es = [...edges].sort((a, b) => (edgeFileName(a) < edgeFileName(b) ? -1 : 1));
  return [JSON.stringify(JSONL_HEADER), ...ms.map((memory) => JSON.stringify({ kind: 'memory', memory })), ...es.map((edge) => JSON.stringify({ kind: 'edge', edge }))].join('\n') + '\n';
}

/**
 * The memories and edges of a Cortex JSONL file, as given (the importer validates each by
 * rendering and parsing it). A line that is not JSON or not a memory or an edge is an error.
 *
 * @example
 * parseJsonl(exportJsonl([m], []), 'x.jsonl').source.records[0].memory.id === m.id // true
 */
export function parseJsonl(text: string, file: string): { source: ParsedSource; errors: JsonlLineError[] } {
  const out = emptySource();
  const errors: JsonlLineError[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let o: Record<string, unknown>;
    try {
      const v = JSON.parse(line) as unknown;
      o = (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
    } catch (err) {
      errors.push({ line: i + 1, reason: `is not JSON (${(err as Error).message})` });
      return;
    }
    if (o.format === JSONL_HEADER.format) {
      if (o.version !== JSONL_HEADER.version) errors.push({ line: i + 1, reason: `is version ${String(o.version)}; this cortex reads version ${JSONL_HEADER.version}` });
      return;
    }
    const m = o.memory as Memory | undefined;
    if (o.kind === 'memory' && m !== null && typeof m === 'object' && typeof m.id === 'string' && typeof m.summary === 'string') {
      out.records.push({ key: m.id, file, line: i + 1, type: m.type, summary: m.summary, body: typeof m.body === 'string' ? m.body : '', tags: Array.isArray(m.tags) ? m.tags : [], memory: { ...m, body: typeof m.body === 'string' ? m.body : '', extra: m.extra ?? {}, tags: Array.isArray(m.tags) ? m.tags : [], source: m.source ?? { kind: 'import' } } });
      return;
    }
    const e = o.edge as Edge | undefined;
    if (o.kind === 'edge' && e !== null && typeof e === 'object' && typeof e.source === 'string' && typeof e.target === 'string' && typeof e.relation === 'string') {
      out.edges.push({ ...e, body: typeof e.body === 'string' ? e.body : '', extra: e.extra ?? {} });
      return;
    }
    errors.push({ line: i + 1, reason: 'is neither a memory ({"kind":"memory","memory":{…}}) nor an edge ({"kind":"edge","edge":{…}})' });
  });
  return { source: out, errors };
}
