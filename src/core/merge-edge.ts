/**
 * Three-way merge of edge files (`.cortex/edges/<source>--<relation>--<target>.md`),
 * with the same engine and conventions as memories (see merge.ts): every field is 3-way
 * first, and only when both sides changed a field differently does its rule decide:
 *
 * | field | both sides changed differently |
 * | --- | --- |
 * | `strength` | max |
 * | `status` | active > suggested (a confirmed edge stays confirmed) |
 * | `bidirectional` | true wins |
 * | `origin` | manual > consolidation > wikilink > code_index > embedding > jaccard (a person's word beats a heuristic) |
 * | `created` | min |
 * | `source`, `target`, `relation`, unknown keys | conflict (ours kept, both in a block at the top of the body) |
 *
 * The body (the rationale) merges line by line. Deletion, add/add and unparseable sides
 * follow the memory rules: modify/delete keeps the changed edge and reports a conflict;
 * a side that does not parse cleanly merges as plain text.
 */
import { EDGE_KEY_ORDER } from './edge.js';
import { edgeFrontmatter, parseEdge } from './edge-format.js';
import { mergeFrontmatterText, type FrontmatterFormat, type MergeLabels, type MergeResult, type RecordRules } from './merge.js';
import { renderFrontmatterFile } from './memory-format.js';

/** Merge rules for edge frontmatter (see the table at the top of this module). */
export const EDGE_MERGE_RULES: RecordRules = {
  keyOrder: EDGE_KEY_ORDER,
  other: 'conflict',
  fields: {
    source: 'conflict',
    target: 'conflict',
    relation: 'conflict',
    strength: 'max',
    status: { precedence: ['active', 'suggested'] },
    bidirectional: 'or',
    origin: { precedence: ['manual', 'consolidation', 'wikilink', 'code_index', 'embedding', 'jaccard'] },
    created: 'min',
  },
};

/** The edge file format for `mergeFrontmatterText`. */
export const EDGE_FORMAT: FrontmatterFormat = {
  parse(text, file) {
    const { edge, diagnostics } = parseEdge(text, { file });
    // As for memories: an error means a value was replaced by a default, so merge as text.
    if (edge === undefined || diagnostics.some((d) => d.severity === 'error')) return undefined;
    return { record: edgeFrontmatter(edge), body: edge.body };
  },
  render: renderFrontmatterFile,
  rules: EDGE_MERGE_RULES,
};

export interface MergeEdgeTextOptions {
  /** Text of each side, or null when the file is absent on that side. */
  base: string | null;
  ours: string | null;
  theirs: string | null;
  /**
   * Path shown in conflicts. When it ends in `.md` its base name must be the edge's
   * `<source>--<relation>--<target>.md`, or the side merges as plain text.
   */
  file?: string;
  labels?: MergeLabels;
  markerSize?: number;
}

export const DEFAULT_MERGE_EDGE = {
  file: '<edge>',
  labels: { ours: 'ours', theirs: 'theirs' } as MergeLabels,
  markerSize: 7,
};

/**
 * 3-way merge of one edge file. `text` is null when the merged edge is deleted; `clean`
 * is false when conflict markers were written or a modify/delete needs a person.
 *
 * @example
 * const r = mergeEdgeText({ base, ours, theirs, file: '.cortex/edges/a-k3f9qa--refines--b-p2x81d.md' });
 * r.clean // true when, say, one side raised strength and the other confirmed the edge
 */
export function mergeEdgeText(options: MergeEdgeTextOptions): MergeResult {
  const o = { ...DEFAULT_MERGE_EDGE, ...options };
  return mergeFrontmatterText({ ...o, format: EDGE_FORMAT });
}
