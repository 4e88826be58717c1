/**
 * `memory_status`: how many memories each tier holds, by type and status, and the index's health.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from './format.js';
import { READ_ONLY, type ToolDeps } from './tool.js';

/** What the answer says to do about unreadable memory files. */
const LINT_HINT = 'run `cortex lint`';

export function addStatusTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_status',
    {
      title: 'Memory status',
      description:
        'How many memories this repository (and the global tier) holds, by type and status, and whether the ' +
        'search index is healthy. Use it to check that Cortex is set up here, or before a large clean-up.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        root: z.string(),
        tiers: z.array(
          z.object({
            scope: z.string(),
            total: z.number(),
            byType: z.record(z.string(), z.number()),
            byStatus: z.record(z.string(), z.number()),
            brokenFiles: z.number(),
          }),
        ),
        /** Set when files could not be read. */
        hint: z.string().optional(),
      }),
      annotations: { title: 'Memory status', ...READ_ONLY },
    },
    guarded(async () => {
      const cortex = await open();
      const out = cortex.status();
      const tiers = out.tiers.map((t) => ({
        scope: t.scope,
        total: t.total,
        byType: t.byType as Record<string, number>,
        byStatus: t.byStatus as Record<string, number>,
        brokenFiles: t.index.brokenFiles,
      }));
      const counts = (r: Record<string, number>) =>
        Object.entries(r)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
      const lines = [`Project: ${out.root}`];
      for (const t of tiers) {
        lines.push(`${t.scope === 'project' ? 'Project' : t.scope === 'local' ? 'Private' : 'Global'} memories: ${t.total}${t.total > 0 ? ` (${counts(t.byStatus)})` : ''}`);
        if (t.total > 0) lines.push(`  by type: ${counts(t.byType)}`);
        if (t.brokenFiles > 0) lines.push(`  ${t.brokenFiles} file(s) could not be read (${LINT_HINT})`);
      }
      const broken = tiers.some((t) => t.brokenFiles > 0);
      return textResult(lines.join('\n'), { root: out.root, tiers, ...(broken ? { hint: LINT_HINT } : {}) });
    }),
  );
}
