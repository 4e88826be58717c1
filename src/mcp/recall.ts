/**
 * `memory_recall`: search the memories (the api's `recall`), compactly: ids, types,
 * summaries, a short preview, and the directly linked memories of each result.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ALL_STATUSES, RECALL_MODES, expandStatuses, type RecallInput } from '../api/recall/results.js';
import { MEMORY_STATUSES } from '../core/memory.js';
import { UsageError } from '../errors.js';
import { formatRecall, previewBeyond, roundScore, shortPreview, textResult } from './format.js';
import { ALWAYS_LOAD_META, READ_ONLY, memoryType, scope, type ToolDeps } from './tool.js';

/** Most results one recall returns over MCP: every line costs the assistant context. */
export const MAX_RECALL_LIMIT = 50;

// Compact: Claude Code hands the model this JSON instead of the text, so a field at its
// default (status active, scope project, no preview beyond the summary) is left out, and the
// tags, which the text never showed, are not sent (bench/mcp-chars.mjs: 64,176 → 48,896
// characters for 10 recalls; the text is 44,831).
const recallResult = z.object({
  id: z.string(),
  type: z.string(),
  summary: z.string(),
  score: z.number(),
  /** The body's start, when it says more than the summary. */
  preview: z.string().optional(),
  /** When not active. */
  status: z.string().optional(),
  /** When not project. */
  scope: z.string().optional(),
  /** Set when the memory was read from another branch. */
  ref: z.object({ branch: z.string(), merged: z.boolean() }).optional(),
  /** Directly linked memories (graph enrichment), strongest first: "→ refines <id>" (this one refines it) or "← refines <id>". */
  related: z.array(z.string()).optional(),
  /** The code memories this one describes (over `source_of`). */
  code: z.array(z.object({ id: z.string(), summary: z.string() })).optional(),
  /** With `file`: the `files:` entry that anchors the memory there (`src/db.ts#acquire`). */
  anchor: z.string().optional(),
  /** With `file`: why the anchored code may have changed under the memory. */
  outdated: z.string().optional(),
});

/** Linked memories listed per recall result: enough to follow up with memory_traverse. */
export const RELATED_PER_RESULT = 3;

export function addRecallTool(server: McpServer, { open, guarded }: ToolDeps): void {
  server.registerTool(
    'memory_recall',
    {
      title: 'Recall memories',
      description:
        "Search this repository's memory for what earlier sessions decided, rejected or learned. Use it before " +
        'deciding on an approach, when the user refers to earlier work ("like we did before", "why did we…"), ' +
        'when starting on an unfamiliar part of the code, and before remembering something (to update rather ' +
        'than duplicate). Returns ids, types, one-line summaries and a short preview, best first; memory_get ' +
        'gives the full text of one. With `file` instead of a query: the memories anchored to that file or ' +
        'symbol (`src/db.ts` or `src/db.ts#acquire`), e.g. before changing it. A result marked unconfirmed ' +
        '(id candidate-…) was captured but not accepted yet (memory_review accepts it).',
      inputSchema: z.strictObject({
        query: z.string().min(1).max(1000).optional().describe('What to look for, in plain words: a question, a topic, an error message. Required unless `file` is given.'),
        file: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .describe('Instead of a query: a repository path, optionally with #symbol (src/db/pool.ts#acquire); returns the memories anchored to it.'),
        types: z.array(memoryType).optional().describe('Only these memory types.'),
        tags: z.array(z.string()).optional().describe('Only memories carrying all these tags.'),
        status: z
          .array(z.enum([...MEMORY_STATUSES, ALL_STATUSES]))
          .optional()
          .describe('Statuses to include (default: active only). "archived" finds forgotten memories.'),
        scope: scope.optional().describe('project (this repository) or global (all projects); default both.'),
        since: z.string().optional().describe('Only memories updated since an ISO date or an age such as 7d, 2w, 12h.'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_RECALL_LIMIT)
          .optional()
          .describe('At most this many results (default 10): a maximum; results stop where relevance does.'),
        no_floor: z
          .boolean()
          .optional()
          .describe('Also return weak matches (scoring far below the best, or holding few of the query words), up to limit.'),
        branch: z
          .string()
          .min(1)
          .max(250)
          .optional()
          .describe("Search this git branch's memories, read from git without a checkout (e.g. another feature branch)."),
        all_branches: z.boolean().optional().describe('Search this work tree and every other local branch; results from elsewhere name their branch.'),
        mode: z
          .enum(RECALL_MODES)
          .optional()
          .describe(
            'keyword (exact words, fastest), semantic (meaning, finds paraphrases) or hybrid (both fused). Default: hybrid once `cortex index --embed` has run, else keyword.',
          ),
      }),
      outputSchema: z.object({
        query: z.string(),
        mode: z.string(),
        results: z.array(recallResult),
        notice: z.string().optional(),
        /** Weaker matches the relevance floor left out (no_floor returns them). */
        belowFloor: z.number().int().optional(),
      }),
      annotations: { title: 'Recall memories', ...READ_ONLY },
      _meta: ALWAYS_LOAD_META,
    },
    guarded(async (args) => {
      const cortex = await open();
      if (args.file !== undefined) {
        const out = cortex.recallFile({ file: args.file, ...(args.limit !== undefined ? { limit: args.limit } : {}) });
        const query = `file ${out.path}${out.symbol !== undefined ? `#${out.symbol}` : ''}`;
        const results = out.results.map((r) => {
          const preview = previewBeyond(r.summary, shortPreview(r.preview));
          return {
            id: r.id,
            type: r.type,
            summary: r.summary,
            score: 1,
            ...(preview !== '' ? { preview } : {}),
            anchor: r.entry,
            ...(r.outdated !== undefined ? { outdated: r.outdated } : {}),
          };
        });
        const lines = results.map((r) => ({ ...r, preview: r.preview ?? '', status: 'active', scope: 'project' }));
        return textResult(formatRecall(query, lines), { query, mode: 'file', results });
      }
      if (args.query === undefined) throw new UsageError('memory_recall needs a query or a file.', { hint: 'Pass `query` (what to look for) or `file` (src/db.ts#acquire).' });
      const statuses = args.status ? expandStatuses(args.status) : undefined;
      const input: RecallInput = {
        query: args.query,
        ...(args.types ? { types: args.types } : {}),
        ...(args.tags ? { tags: args.tags } : {}),
        ...(statuses ? { statuses } : {}),
        ...(args.scope ? { scope: args.scope } : {}),
        ...(args.since ? { since: args.since } : {}),
        ...(args.limit !== undefined ? { limit: args.limit } : {}),
        ...(args.mode !== undefined ? { mode: args.mode } : {}),
        ...(args.branch !== undefined ? { branch: args.branch } : {}),
        ...(args.all_branches === true ? { allBranches: true } : {}),
        ...(args.no_floor === true ? { relevance: { minScoreShare: 0, minCoverage: 0 } } : {}),
      };
      const out = await cortex.recall(input);
      const notice = out.notice;
      const results = out.results.map((r) => {
        const related = (r.related ?? [])
          .filter((n) => n.depth === 1)
          .slice(0, RELATED_PER_RESULT)
          .map((n) => `${n.direction === 'out' ? '→' : '←'} ${n.relation} ${n.id}`);
        const preview = previewBeyond(r.summary, shortPreview(r.preview));
        return {
          id: r.id,
          type: r.type,
          summary: r.summary,
          score: roundScore(r.score),
          ...(preview !== '' ? { preview } : {}),
          ...(r.status !== 'active' ? { status: r.status } : {}),
          ...(r.scope !== 'project' ? { scope: r.scope } : {}),
          ...(r.ref ? { ref: { branch: r.ref.branch, merged: r.ref.merged } } : {}),
          ...(related.length > 0 ? { related } : {}),
          ...(r.code && r.code.length > 0 ? { code: r.code.map((c) => ({ id: c.id, summary: c.summary })) } : {}),
          ...(r.unconfirmed ? { unconfirmed: true } : {}),
        };
      });
      const lines = results.map((r) => ({ ...r, preview: r.preview ?? '', status: r.status ?? 'active', scope: r.scope ?? 'project' }));
      const belowFloor = out.belowFloor ?? 0;
      return textResult(formatRecall(out.query, lines, notice, belowFloor), {
        query: out.query,
        mode: out.mode,
        results,
        ...(notice ? { notice } : {}),
        ...(belowFloor > 0 ? { belowFloor } : {}),
      });
    }),
  );
}
