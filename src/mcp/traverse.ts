/**
 * `memory_traverse`: the memories linked to one, level by level.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_TRAVERSE_DEPTH } from '../core/graph.js';
import { TRAVERSE_MORE_HINT, formatTraverse, textResult } from './format.js';
import { READ_ONLY, id, relation, type ToolDeps } from './tool.js';

/** Memories a traversal lists by default, and at most: a hub can reach hundreds. */
export const DEFAULT_TRAVERSE_NODES = 30;
export const MAX_TRAVERSE_NODES = 200;

export function addTraverseTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_traverse',
    {
      title: 'Walk the memory graph',
      description:
        'The memories linked to one memory, level by level (depth 1 = directly linked), each with the relation ' +
        'it was reached by. Use it to see what a decision builds on, what refines or replaces it, and the code ' +
        'it describes, after memory_recall found the memory.',
      inputSchema: z.strictObject({
        id,
        depth: z.number().int().min(1).max(MAX_TRAVERSE_DEPTH).optional().describe(`Levels to walk, 1 to ${MAX_TRAVERSE_DEPTH} (default 2).`),
        direction: z
          .enum(['out', 'in', 'both'])
          .optional()
          .describe('out follows edges from this memory, in walks them backwards, both (default) does both.'),
        relations: z.array(relation).optional().describe('Only these relations (default all).'),
        limit: z.number().int().min(1).max(MAX_TRAVERSE_NODES).optional().describe(`At most this many memories in the answer (default ${DEFAULT_TRAVERSE_NODES}).`),
      }),
      outputSchema: z.object({
        start: z.object({ id: z.string(), type: z.string(), summary: z.string() }),
        total: z.number(),
        shown: z.number(),
        nodes: z.array(
          z.object({
            id: z.string(),
            type: z.string(),
            summary: z.string(),
            status: z.string(),
            depth: z.number(),
            relation: z.string(),
            direction: z.enum(['out', 'in']),
            from: z.string(),
          }),
        ),
        /** Set when not every memory reached is listed. */
        hint: z.string().optional(),
      }),
      annotations: { title: 'Walk the memory graph', ...READ_ONLY },
    },
    guarded(async (args) => {
      const cortex = await open();
      const out = cortex.traverse({
        id: args.id,
        ...(args.depth !== undefined ? { depth: args.depth } : {}),
        ...(args.direction !== undefined ? { direction: args.direction } : {}),
        ...(args.relations ? { types: args.relations } : {}),
      });
      const all = out.levels.flatMap((level) =>
        level.nodes.map((n) => ({
          id: n.id,
          type: n.type,
          summary: n.summary,
          status: n.status,
          depth: level.depth,
          relation: n.via.relation,
          direction: n.via.direction,
          from: n.via.from,
        })),
      );
      const nodes = all.slice(0, args.limit ?? DEFAULT_TRAVERSE_NODES);
      const start = { id: out.start.id, type: out.start.type, summary: out.start.summary };
      return textResult(formatTraverse(start, nodes, out.total), {
        start,
        total: out.total,
        shown: nodes.length,
        nodes,
        ...(out.total > nodes.length ? { hint: TRAVERSE_MORE_HINT } : {}),
      });
    }),
  );
}
