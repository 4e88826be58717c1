/**
 * `memory_remember`: store what the session learned, as the assistant's own report (layer `self-report`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from './format.js';
import { ALWAYS_LOAD_META, closed, memoryType, scope, type ToolDeps } from './tool.js';

/** Where a possible duplicate goes. */
const REVIEW_HINT = '`cortex consolidate`';

export function addRememberTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_remember',
    {
      title: 'Remember',
      description:
        'Keep something this session learned for future sessions: a decision and why, an approach that was ' +
        'rejected and why, a gotcha, a pattern the code follows, a user preference, the plan or its progress. ' +
        'Use it when something is settled that a later session would otherwise have to rediscover, not for ' +
        'routine steps. Secrets are redacted before anything is written. Identical content is never stored ' +
        'twice, and the same topic updates the memory that has it instead of adding another.',
      inputSchema: z.strictObject({
        summary: z
          .string()
          .min(1)
          .max(300)
          .describe('One line that stands on its own: what was decided or learned, and why. Briefings show this line.'),
        type: memoryType.describe(
          'architecture, decision, rejected (an approach not taken), pattern, gotcha, preference, plan, progress, context, code_description or code.',
        ),
        body: z.string().max(20_000).optional().describe('Details in markdown: context, alternatives, consequences. [[id]] links another memory.'),
        tags: z.array(z.string().min(1).max(60)).max(20).optional().describe('A few lower-case keywords, e.g. ["storage", "sqlite"].'),
        priority: z.number().int().min(1).max(10).optional().describe('1 to 10 (default 5): how much it matters to future work.'),
        topic: z
          .string()
          .min(1)
          .max(120)
          .optional()
          .describe('A stable key such as decision/storage-engine or plan/current: remembering with the same topic updates that memory.'),
        files: z
          .array(z.string().min(1))
          .max(50)
          .optional()
          .describe(
            'Files the memory is about, relative to the repository root or absolute inside it (stored relative); it is flagged as possibly outdated when they change. Paths outside the repository are refused.',
          ),
        pinned: z.boolean().optional().describe('Pinned memories never decay.'),
        scope: scope.optional().describe('project (default) or global: global memories are shared by all projects on this machine.'),
      }),
      outputSchema: z.object({
        action: z.enum(['created', 'updated', 'unchanged', 'duplicate']),
        id: z.string(),
        type: z.string(),
        summary: z.string(),
        file: z.string(),
        redacted: z.array(z.string()),
        /** Edges auto-linking wrote to similar memories. */
        linked: z.array(z.object({ id: z.string(), relation: z.string(), status: z.string() })).optional(),
        /** Memories this one may duplicate: queued for review. */
        mayDuplicate: z.array(z.string()).optional(),
        /** What to do about the notes, when there are any. */
        hint: z.string().optional(),
      }),
      // Same arguments twice store one memory: the second call finds the duplicate.
      annotations: { title: 'Remember', ...closed, readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      _meta: ALWAYS_LOAD_META,
    },
    guarded(async (args) => {
      const cortex = await open();
      const result = await cortex.remember({
        summary: args.summary,
        body: args.body ?? '',
        type: args.type,
        ...(args.tags ? { tags: args.tags } : {}),
        ...(args.priority !== undefined ? { priority: args.priority } : {}),
        ...(args.topic !== undefined ? { topic: args.topic } : {}),
        ...(args.pinned !== undefined ? { pinned: args.pinned } : {}),
        ...(args.scope ? { scope: args.scope } : {}),
        // The assistant reporting what it learned, through a tool rather than a `[MEMORY: …]` tag.
        source: { kind: 'manual', layer: 'self-report', ...(args.files ? { files: args.files } : {}) },
      });
      const m = result.memory;
      const verb = { created: 'Remembered', updated: 'Updated', unchanged: 'Unchanged', duplicate: 'Already remembered' }[result.action];
      const lines = [`${verb}: ${m.id} [${m.type}] ${m.summary}`];
      if (result.redacted.length > 0) lines.push(`note: redacted ${result.redacted.join(', ')} before writing`);
      const linked = (result.links?.edges ?? []).map((e) => ({ id: e.source === m.id ? e.target : e.source, relation: e.relation, status: e.status }));
      if (linked.length > 0) {
        lines.push(`linked to similar memories: ${linked.map((l) => `${l.id}${l.status === 'suggested' ? ' (suggested)' : ''}`).join(', ')}`);
      }
      const mayDuplicate = (result.links?.consolidate ?? []).map((c) => (c.a === m.id ? c.b : c.a));
      for (const other of mayDuplicate) lines.push(`note: may duplicate ${other}; queued for review (${REVIEW_HINT})`);
      return textResult(lines.join('\n'), {
        action: result.action,
        id: m.id,
        type: m.type,
        summary: m.summary,
        file: result.file,
        redacted: result.redacted,
        ...(linked.length > 0 ? { linked } : {}),
        ...(mayDuplicate.length > 0 ? { mayDuplicate, hint: `queued for review (${REVIEW_HINT})` } : {}),
      });
    }),
  );
}
