/**
 * The official MCP memory server's knowledge graph: a JSONL file (`memory.jsonl`, or
 * `MEMORY_FILE_PATH`), one JSON object per line — `{"type":"entity","name",
 * "entityType","observations":[…]}` or `{"type":"relation","from","to","relationType"}`.
 * Source: modelcontextprotocol/servers, src/memory/index.ts (`loadGraph`, `saveGraph`).
 */
import type { Edge } from '../edge.js';
import { isMemoryType, normalizeTag, type Memory } from '../memory.js';
import { emptySource, type ParsedSource } from './types.js';

/** A tag that carries the source's own entity type when it is not a Cortex type. */
export const ENTITY_TAG_PREFIX = 'entity:';

export interface JsonlLineError {
  line: number;
  reason: string;
}

/**
 * The records of a knowledge-graph file. A line that is not JSON, or not an entity or a
 * relation, is an error naming the line (nothing is imported from a broken file).
 *
 * @example
 * parseMcpMemory('{"type":"entity","name":"Cortex","entityType":"project","observations":["Stores memories as markdown"]}', 'memory.jsonl').source.records[0].summary // 'Cortex'
 */
export function parseMcpMemory(text: string, file: string): { source: ParsedSource; errors: JsonlLineError[] } {
  const out = emptySource();
  const errors: JsonlLineError[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let item: unknown;
    try {
      item = JSON.parse(line);
    } catch (err) {
      errors.push({ line: i + 1, reason: `is not JSON (${(err as Error).message})` });
      return;
    }
    const o = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    // A line with only a "//" key is a comment (the server itself keeps only entities and relations).
    if (Object.keys(o).length === 1 && '//' in o) return;
    if (o.type === 'entity' && typeof o.name === 'string' && o.name.trim() !== '') {
      const observations = Array.isArray(o.observations) ? o.observations.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
      const entityType = typeof o.entityType === 'string' ? o.entityType.trim() : '';
      const type = isMemoryType(entityType) ? entityType : 'context';
      out.records.push({
        key: o.name,
        file,
        line: i + 1,
        type,
        summary: o.name.trim(),
        body: observations.map((x) => `- ${x.replace(/\s*\n\s*/g, ' ').trim()}`).join('\n'),
        tags: entityType !== '' && !isMemoryType(entityType) ? [normalizeTag(`${ENTITY_TAG_PREFIX}${entityType}`)] : [],
      });
    } else if (o.type === 'relation' && typeof o.from === 'string' && typeof o.to === 'string' && typeof o.relationType === 'string') {
      out.relations.push({ from: o.from, to: o.to, relation: o.relationType, file, line: i + 1 });
    } else {
      errors.push({ line: i + 1, reason: 'is neither an entity ({"type":"entity","name",…}) nor a relation ({"type":"relation","from","to","relationType"})' });
    }
  });
  return { source: out, errors };
}

/** A body as observations: its list items when it is a list, else its paragraphs. */
export function observationsOf(body: string): string[] {
  const text = body.replace(/\r\n?/g, '\n').trim();
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.every((l) => /^[-*+]\s+/.test(l))) return lines.map((l) => l.replace(/^[-*+]\s+/, '').trim());
  return text.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean);
}

/**
 * Memories and their edges as a knowledge graph: an entity per memory (its summary the
 * name, made unique with the id when two memories share one), a relation per edge.
 *
 * @example
 * exportMcpMemory(memories, edges).split('\n')[0] // '{"type":"entity","name":"Use SQLite",…}'
 */
export function exportMcpMemory(memories: readonly Memory[], edges: readonly Edge[]): string {
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const m of memories) taken.set(m.summary, (taken.get(m.summary) ?? 0) + 1);
  for (const m of memories) names.set(m.id, (taken.get(m.summary) ?? 0) > 1 ? `${m.summary} (${m.id})` : m.summary);
  const lines: string[] = [];
  for (const m of memories) {
    const entityTag = m.tags.find((t) => t.startsWith(ENTITY_TAG_PREFIX));
    lines.push(JSON.stringify({ type: 'entity', name: names.get(m.id), entityType: entityTag ? entityTag.slice(ENTITY_TAG_PREFIX.length) : m.type, observations: observationsOf(m.body) }));
  }
  for (const e of edges) {
    const from = names.get(e.source);
    const to = names.get(e.target);
    if (from !== undefined && to !== undefined) lines.push(JSON.stringify({ type: 'relation', from, to, relationType: e.relation }));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
