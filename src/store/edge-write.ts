/**
 * Writing edge files, through the redaction gate (a link's `--note` is free text). Apart
 * from the reading side (edge-store.ts) so that reading commands never load the rule sets.
 */
import { edgeFileName, type Edge } from '../core/edge.js';
import { renderEdge } from '../core/edge-format.js';
import { redactEdge } from '../core/redact-memory.js';
import { writeIfChanged } from './atomic.js';
import { edgePath } from './edge-store.js';
import type { TierPaths } from './paths.js';
import { assertTierWritable, ensureLocalIgnored } from './local-tier.js';

/** Writes an edge file atomically (its rationale through the redaction gate); a no-op when the rendered bytes are unchanged. */
export function writeEdge(paths: TierPaths, edge: Edge): { path: string; name: string; result: 'created' | 'updated' | 'unchanged'; edge: Edge } {
  const path = edgePath(paths, edge);
  assertTierWritable(paths, paths.edgesDir);
  ensureLocalIgnored(paths);
  const name = edgeFileName(edge);
  const written = redactEdge(edge).value;
  return { path, name, result: writeIfChanged(path, renderEdge(written)), edge: written };
}
