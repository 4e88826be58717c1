/**
 * `memory_link`: an edge between two memories; `supersedes` stays suggested until a person confirms it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from './format.js';
import { closed, id, relation, type ToolDeps } from './tool.js';

export function addLinkTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_link',
    {
      title: 'Link two memories',
      description:
        'Record how two memories relate, as an edge "source <relation> target": refines (narrows or elaborates), ' +
        'derived_from (builds on), exemplifies (is an example of), contradicts, supersedes (replaces), source_of ' +
        '(e.g. code → its description), relates_to (anything weaker). Use it when a new memory builds on, corrects ' +
        'or replaces an earlier one, so recall and memory_traverse bring them together. A supersedes edge is ' +
        'written as suggested until a person confirms it. Linking the same pair again updates the edge.',
      inputSchema: z.strictObject({
        source: id.describe('The memory the sentence starts from (the one that refines, supersedes …).'),
        relation,
        target: id.describe('The memory the sentence ends at.'),
        note: z.string().max(2000).optional().describe('Why they are linked, in a sentence (kept in the edge file).'),
        strength: z.number().min(0).max(1).optional().describe('0 to 1, how strong the relation is (default 0.5).'),
        bidirectional: z.boolean().optional().describe('The relation holds both ways.'),
      }),
      outputSchema: z.object({
        action: z.enum(['created', 'updated', 'unchanged']),
        source: z.string(),
        relation: z.string(),
        target: z.string(),
        status: z.string(),
        strength: z.number(),
        file: z.string(),
        /** Set when the edge is suggested: how a person confirms it. */
        note: z.string().optional(),
      }),
      annotations: { title: 'Link two memories', ...closed, readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    guarded(async (args) => {
      const cortex = await open();
      // DESIGN §2.1: only a person (or a confirmed consolidation) creates supersedes edges,
      // so the assistant's is a suggestion; one a person already made stays active.
      const confirmed =
        args.relation === 'supersedes' &&
        cortex.graph().graph.edges.some((e) => e.source === args.source && e.relation === 'supersedes' && e.target === args.target && e.status === 'active');
      const result = await cortex.link({
        source: args.source,
        relation: args.relation,
        target: args.target,
        ...(args.note !== undefined ? { note: args.note } : {}),
        ...(args.strength !== undefined ? { strength: args.strength } : {}),
        ...(args.bidirectional !== undefined ? { bidirectional: args.bidirectional } : {}),
        ...(args.relation === 'supersedes' && !confirmed ? { suggested: true } : {}),
      });
      const e = result.edge;
      const verb = { created: 'Linked', updated: 'Updated', unchanged: 'Unchanged' }[result.action];
      const lines = [`${verb}: ${e.source} ${e.relation} ${e.target} (${e.status}, strength ${e.strength})`];
      const note = e.status === 'suggested' ? `suggested until a person confirms it with \`cortex consolidate --accept ${e.source} ${e.target}\`` : undefined;
      if (note) lines.push(`note: ${note}`);
      return textResult(lines.join('\n'), {
        action: result.action,
        source: e.source,
        relation: e.relation,
        target: e.target,
        status: e.status,
        strength: e.strength,
        file: result.file,
        ...(note ? { note } : {}),
      });
    }),
  );
}
