/**
 * `memory_forget`: archive a memory (or delete it with `hard`), with the way to undo it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from './format.js';
import { closed, id, type ToolDeps } from './tool.js';

export function addForgetTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_forget',
    {
      title: 'Forget a memory',
      description:
        'Archive a memory that is wrong or no longer true: it leaves recall and the briefing but stays in ' +
        '.cortex/ (memory_recall with status ["archived"] still finds it). hard: true deletes the file instead ' +
        '(git history keeps it), with the edge files that link to it. The answer says how to undo it. Use it when ' +
        'the user says something is outdated, or a memory contradicts the ' +
        'code; to correct a memory, remember the new version with the same topic instead.',
      inputSchema: z.strictObject({
        id,
        hard: z.boolean().optional().describe('Delete the file instead of archiving it (default false).'),
      }),
      outputSchema: z.object({
        action: z.enum(['archived', 'deleted', 'unchanged']),
        id: z.string(),
        type: z.string(),
        summary: z.string(),
        file: z.string(),
        edges: z.array(z.string()),
        undo: z.array(z.string()),
      }),
      annotations: { title: 'Forget a memory', ...closed, readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    guarded(async (args) => {
      const cortex = await open();
      // An id (or a unique prefix of one), never a search: an unknown id is an error.
      const out = await cortex.forget({ id: args.id, hard: args.hard === true });
      const m = out.memories[0]!;
      const verb = out.action === 'deleted' ? 'Deleted' : out.action === 'archived' ? 'Archived' : 'Already archived';
      const { undoLines } = await import('../services/undo.js');
      const lines = [`${verb}: ${m.id} [${m.type}] ${m.summary}`];
      if (out.edges.length > 0) lines.push(`Deleted ${out.edges.length} edge file(s) linking to it: ${out.edges.map((e) => e.file).join(', ')}`);
      lines.push(...undoLines(out.undo));
      return textResult(lines.join('\n'), {
        action: out.action as 'archived' | 'deleted' | 'unchanged',
        id: m.id,
        type: m.type,
        summary: m.summary,
        file: m.file,
        edges: out.edges.map((e) => e.file),
        undo: undoLines(out.undo),
      });
    }),
  );
}
