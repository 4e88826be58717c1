/**
 * `memory_review`: list, accept or reject the captured candidates waiting in the review queue.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { textResult } from './format.js';
import { closed, type ToolDeps } from './tool.js';

export function addReviewTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_review',
    {
      title: 'Review captured candidates',
      description:
        'Memories that automatic capture was unsure about wait in a review queue instead of being stored. ' +
        'action "list" (the default) shows them: a number (#3), a short id, type, confidence and summary. ' +
        'Go through them with the user: "accept" stores the ones the user confirms as memories, "reject" drops ' +
        'the ones the user declines. Numbers and short ids never change, so #2 is still #2 after #1 is accepted. ' +
        'Accept or reject only what the user has agreed to. A candidate the prompt hook injected as "(unconfirmed)" ' +
        'carries an id such as candidate-3f9a2c1d04, which selects it here too; an accepted one records source.confirmed: assistant.',
      inputSchema: z.strictObject({
        action: z.enum(['list', 'accept', 'reject']).optional().describe('list (default), accept or reject.'),
        ids: z
          .array(z.string().min(1).max(100))
          .max(100)
          .optional()
          .describe('For accept and reject: entry numbers ("3" or "#3"), short ids from the list, or the id an injected "(unconfirmed)" memory carries (candidate-3f9a2c1d04).'),
      }),
      outputSchema: z.object({
        action: z.enum(['list', 'accept', 'reject']),
        items: z.array(z.object({ n: z.number(), short: z.string(), summary: z.string(), type: z.string().optional(), confidence: z.number().optional() })),
        accepted: z.array(z.object({ n: z.number(), short: z.string(), memory: z.string() })).optional(),
        rejected: z.array(z.object({ n: z.number(), short: z.string() })).optional(),
      }),
      annotations: { title: 'Review captured candidates', ...closed, readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    guarded(async (args) => {
      const cortex = await open();
      const action = args.action ?? 'list';
      const line = (i: { n: number; short: string; summary: string; type?: string | undefined; confidence?: number | undefined }) =>
        `#${i.n} ${i.short} [${i.type ?? 'candidate'}${i.confidence !== undefined ? ` ${i.confidence.toFixed(2)}` : ''}] ${i.summary}`;
      const brief = (i: { n: number; short: string; summary: string; type?: string | undefined; confidence?: number | undefined }) => ({
        n: i.n,
        short: i.short,
        summary: i.summary,
        ...(i.type !== undefined ? { type: i.type } : {}),
        ...(i.confidence !== undefined ? { confidence: i.confidence } : {}),
      });
      if (action !== 'list' && (args.ids === undefined || args.ids.length === 0)) {
        throw new UsageError(`Say which entries to ${action}: ids, as numbers or short ids from the list.`);
      }
      const lines: string[] = [];
      const extra: { accepted?: { n: number; short: string; memory: string }[]; rejected?: { n: number; short: string }[] } = {};
      if (action === 'accept') {
        // The assistant accepts through this tool: recorded in the memory as `source.confirmed: assistant`.
        const out = await cortex.review.accept(args.ids!, 'assistant');
        extra.accepted = out.accepted.map((a) => ({ n: a.item.n, short: a.item.short, memory: a.result.memory.id }));
        for (const a of out.accepted) lines.push(`Accepted #${a.item.n} ${a.item.short} → ${a.result.memory.id} (${a.result.action})`);
      } else if (action === 'reject') {
        const out = await cortex.review.reject(args.ids!);
        extra.rejected = out.rejected.map((r) => ({ n: r.n, short: r.short }));
        for (const r of out.rejected) lines.push(`Rejected #${r.n} ${r.short} ${r.summary}`);
      }
      const { items } = await cortex.review.list();
      lines.push(items.length === 0 ? 'No candidate waits for review.' : `${items.length} candidate(s) wait for review:`, ...items.map(line));
      return textResult(lines.join('\n'), { action, items: items.map(brief), ...extra });
    }),
  );
}
