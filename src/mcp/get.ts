/**
 * `memory_get`: the full text of one memory (its file).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from './format.js';
import { READ_ONLY, id, type ToolDeps } from './tool.js';

export function addGetTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_get',
    {
      title: 'Read a memory',
      description:
        'The full text of one memory (its file: YAML frontmatter with type, tags, provenance, then the markdown ' +
        'body). Use it when a memory_recall summary or preview is not enough.',
      inputSchema: z.strictObject({ id }),
      annotations: { title: 'Read a memory', ...READ_ONLY },
    },
    guarded(async (args) => {
      const cortex = await open();
      const got = cortex.get(args.id);
      const { renderMemory } = await import('../core/memory-format.js');
      return textResult(renderMemory(got.memory));
    }),
  );
}
