/**
 * The MCP server: the memory tools an assistant calls mid-session, over stdio. Each tool
 * is a thin call into the library API (the same one the CLI uses); arguments are
 * checked by zod schemas the SDK also publishes as JSON Schema.
 *
 * Startup loads only the SDK, zod and this file: the API (and through it the index,
 * YAML, isomorphic-git, the embedding stack) is imported by the first tool call, and
 * the project is opened afresh on every call, so a `.cortex/` created after the server
 * started is found.
 */
import { readFileSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, JSONRPCMessage, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Cortex } from '../api/cortex.js';
import type { RecallInput, RecallMode } from '../api/recall.js';
import { RELATIONS } from '../core/edge.js';
import { MAX_TRAVERSE_DEPTH } from '../core/graph.js';
import type { MemoryStatus } from '../core/memory.js';
import { MEMORY_STATUSES, MEMORY_TYPES, SCOPES } from '../core/memory.js';
import { UsageError } from '../errors.js';
import { errorResult, formatRecall, formatTraverse, roundScore, shortPreview, textResult } from './format.js';

export interface CortexMcpOptions {
  /** A directory inside the project (default: the working directory). */
  dir?: string;
  /** Environment handed to the API (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where diagnostics go: one call per message (default: stderr). */
  log?: (message: string) => void;
}

export const DEFAULT_CORTEX_MCP = {
  dir: undefined as string | undefined,
  env: process.env,
  log: (message: string): void => void process.stderr.write(`cortex mcp: ${message}\n`),
};

/** Most results one recall returns over MCP: every line costs the assistant context. */
export const MAX_RECALL_LIMIT = 50;

/** Memories a traversal lists by default, and at most: a hub can reach hundreds. */
export const DEFAULT_TRAVERSE_NODES = 30;
export const MAX_TRAVERSE_NODES = 200;

export const SERVER_NAME = 'cortex';

/** What the client may show the model about the server as a whole (MCP `instructions`). */
export const SERVER_INSTRUCTIONS =
  "Cortex is this repository's persistent memory: decisions and the approaches rejected, architecture, " +
  'gotchas, patterns, preferences, plans and progress, kept as markdown files under .cortex/ and shared ' +
  'through git. memory_recall finds what earlier sessions learned; memory_remember keeps what this ' +
  'session learns for the next one.';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Every tool works on this one repository's files; none reaches the outside world. */
const closed = { openWorldHint: false } satisfies ToolAnnotations;
const READ_ONLY: ToolAnnotations = { ...closed, readOnlyHint: true, idempotentHint: true };

const id = z.string().min(1).max(200).describe('A memory id, e.g. chose-sqlite-over-postgres-k3f9qa (from memory_recall).');
const memoryType = z.enum(MEMORY_TYPES);
// Spelled out rather than imported: api/recall.js would load the index at start-up.
const RECALL_MODES = ['keyword', 'semantic', 'hybrid'] as const satisfies readonly RecallMode[];
const relation = z.enum(RELATIONS);
const scope = z.enum(SCOPES);

const recallResult = z.object({
  id: z.string(),
  type: z.string(),
  summary: z.string(),
  score: z.number(),
  preview: z.string(),
  status: z.string(),
  scope: z.string(),
  tags: z.array(z.string()),
  /** Set when the memory was read from another branch. */
  ref: z.object({ branch: z.string(), merged: z.boolean() }).optional(),
  /** Directly linked memories (graph enrichment), strongest first. */
  related: z.array(z.object({ id: z.string(), relation: z.string(), direction: z.enum(['out', 'in']) })).optional(),
  /** The code memories this one describes (over `source_of`). */
  code: z.array(z.object({ id: z.string(), summary: z.string() })).optional(),
});

/** Linked memories listed per recall result: enough to follow up with memory_traverse. */
export const RELATED_PER_RESULT = 3;

/**
 * Builds the server with its eight tools, not yet connected to a transport.
 *
 * @example
 * const server = createMcpServer({ dir: '/path/to/repo' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: CortexMcpOptions = {}): McpServer {
  const o = { ...DEFAULT_CORTEX_MCP, ...options };
  const server = new McpServer({ name: SERVER_NAME, version: packageVersion() }, { instructions: SERVER_INSTRUCTIONS });

  // One Cortex for the server's life, so its index and embedder stay loaded between calls;
  // opened again when .cortex/config.yaml changes. Until a project exists, every call looks.
  let opened: { cortex: Cortex; config: string } | undefined;
  const configStamp = (file: string): string => {
    try {
      const st = statSync(file);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  const open = async (): Promise<Cortex> => {
    if (opened && opened.config === configStamp(opened.cortex.context.paths.configFile)) return opened.cortex;
    const { openCortex } = await import('../api/cortex.js');
    const cortex = openCortex({ ...(o.dir !== undefined ? { dir: o.dir } : {}), env: o.env });
    opened = { cortex, config: configStamp(cortex.context.paths.configFile) };
    return cortex;
  };
  /** Runs a handler; whatever it throws becomes a tool error, never a crash. */
  const guarded =
    <A>(handler: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await handler(args);
      } catch (err) {
        return errorResult(err, o.log);
      }
    };

  server.registerTool(
    'memory_recall',
    {
      title: 'Recall memories',
      description:
        "Search this repository's memory for what earlier sessions decided, rejected or learned. Use it before " +
        'deciding on an approach, when the user refers to earlier work ("like we did before", "why did we…"), ' +
        'when starting on an unfamiliar part of the code, and before remembering something (to update rather ' +
        'than duplicate). Returns ids, types, one-line summaries and a short preview, best first; memory_get ' +
        'gives the full text of one.',
      inputSchema: z.strictObject({
        query: z.string().min(1).max(1000).describe('What to look for, in plain words: a question, a topic, an error message.'),
        types: z.array(memoryType).optional().describe('Only these memory types.'),
        tags: z.array(z.string()).optional().describe('Only memories carrying all these tags.'),
        status: z
          .array(z.enum([...MEMORY_STATUSES, 'all']))
          .optional()
          .describe('Statuses to include (default: active only). "archived" finds forgotten memories.'),
        scope: scope.optional().describe('project (this repository) or global (all projects); default both.'),
        since: z.string().optional().describe('Only memories updated since an ISO date or an age such as 7d, 2w, 12h.'),
        limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe('At most this many results (default 10).'),
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
      }),
      annotations: { title: 'Recall memories', ...READ_ONLY },
    },
    guarded(async (args) => {
      const cortex = await open();
      const statuses: MemoryStatus[] | undefined = args.status?.includes('all')
        ? [...MEMORY_STATUSES]
        : (args.status as MemoryStatus[] | undefined);
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
      };
      const out = await cortex.recall(input);
      const notice = out.notice;
      const results = out.results.map((r) => {
        const related = (r.related ?? [])
          .filter((n) => n.depth === 1)
          .slice(0, RELATED_PER_RESULT)
          .map((n) => ({ id: n.id, relation: n.relation, direction: n.direction }));
        return {
          id: r.id,
          type: r.type,
          summary: r.summary,
          score: roundScore(r.score),
          preview: shortPreview(r.preview),
          status: r.status,
          scope: r.scope,
          tags: r.tags,
          ...(r.ref ? { ref: { branch: r.ref.branch, merged: r.ref.merged } } : {}),
          ...(related.length > 0 ? { related } : {}),
          ...(r.code && r.code.length > 0 ? { code: r.code.map((c) => ({ id: c.id, summary: c.summary })) } : {}),
        };
      });
      return textResult(formatRecall(out.query, results, notice), {
        query: out.query,
        mode: out.mode,
        results,
        ...(notice ? { notice } : {}),
      });
    }),
  );

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
        files: z.array(z.string().min(1)).max(50).optional().describe('Repository paths the memory is about; it is flagged as possibly outdated when they change.'),
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
      }),
      // Same arguments twice store one memory: the second call finds the duplicate.
      annotations: { title: 'Remember', ...closed, readOnlyHint: false, destructiveHint: false, idempotentHint: true },
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
      for (const c of result.links?.consolidate ?? []) {
        lines.push(`note: may duplicate ${c.a === m.id ? c.b : c.a}; queued for review (\`cortex consolidate\`)`);
      }
      return textResult(lines.join('\n'), {
        action: result.action,
        id: m.id,
        type: m.type,
        summary: m.summary,
        file: result.file,
        redacted: result.redacted,
        ...(linked.length > 0 ? { linked } : {}),
      });
    }),
  );

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
      const { undoLines } = await import('../api/undo.js');
      const lines = [`${verb}: ${m.id} [${m.type}] ${m.summary}`];
      if (out.edges.length > 0) lines.push(`Deleted ${out.edges.length} edge file(s) linking to it: ${out.edges.map((e) => e.file).join(', ')}`);
      lines.push(...undoLines(out.undo));
      return textResult(lines.join('\n'), {
        action: out.action as 'archived' | 'deleted' | 'unchanged',
        id: m.id,
        file: m.file,
        edges: out.edges.map((e) => e.file),
        undo: undoLines(out.undo),
      });
    }),
  );

  server.registerTool(
    'memory_review',
    {
      title: 'Review captured candidates',
      description:
        'Memories that automatic capture was unsure about wait in a review queue instead of being stored. ' +
        'action "list" (the default) shows them: a number (#3), a short id, type, confidence and summary. ' +
        'Go through them with the user: "accept" stores the ones the user confirms as memories, "reject" drops ' +
        'the ones the user declines. Numbers and short ids never change, so #2 is still #2 after #1 is accepted. ' +
        'Accept or reject only what the user has agreed to.',
      inputSchema: z.strictObject({
        action: z.enum(['list', 'accept', 'reject']).optional().describe('list (default), accept or reject.'),
        ids: z
          .array(z.string().min(1).max(100))
          .max(100)
          .optional()
          .describe('For accept and reject: entry numbers ("3" or "#3") or short ids from the list.'),
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
        const out = await cortex.review.accept(args.ids!);
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
      if (e.status === 'suggested') {
        lines.push(`note: suggested until a person confirms it with \`cortex consolidate --accept ${e.source} ${e.target}\``);
      }
      return textResult(lines.join('\n'), {
        action: result.action,
        source: e.source,
        relation: e.relation,
        target: e.target,
        status: e.status,
        strength: e.strength,
        file: result.file,
      });
    }),
  );

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
      return textResult(formatTraverse(start, nodes, out.total), { start, total: out.total, shown: nodes.length, nodes });
    }),
  );

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
        if (t.brokenFiles > 0) lines.push(`  ${t.brokenFiles} file(s) could not be read (run \`cortex lint\`)`);
      }
      return textResult(lines.join('\n'), { root: out.root, tiers });
    }),
  );

  return server;
}

/**
 * A stdout for the protocol alone. Everything else that would reach fd 1 (a library's
 * `console.log`, a stray `process.stdout.write`) is sent to stderr instead, because a
 * single non-JSON line there breaks the client's connection.
 */
function reserveStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, cb: (err?: Error | null) => void) => boolean;
  const toStderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = toStderr as typeof process.stdout.write;
  for (const level of ['log', 'info', 'debug'] as const) {
    console[level] = (...args: unknown[]) => console.error(...args);
  }
  return new Writable({
    write(chunk, _encoding, callback) {
      write(chunk, callback);
    },
  });
}

/**
 * Serves the tools on stdin/stdout until the client closes stdin. Resolves then.
 *
 * @example
 * await serveStdio({ dir: process.cwd() });
 */
export async function serveStdio(options: CortexMcpOptions = {}): Promise<void> {
  const o = { ...DEFAULT_CORTEX_MCP, ...options };
  // A failure outside a tool call is logged; the server keeps serving the next call.
  process.on('unhandledRejection', (err) => o.log(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));
  const server = createMcpServer(o);
  // Malformed input lines and transport failures: logged, and the connection stays up.
  server.server.onerror = (err) => o.log(`protocol error: ${err.message}`);
  const transport = new StdioServerTransport(process.stdin, reserveStdout());
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  trackRequests(transport, () => void server.close());
  await closed;
}

/**
 * Tool calls whose `arguments` the SDK would reject as a protocol error (-32603) before any
 * tool sees them: `null` means "no arguments" (the tool's own validation then names what is
 * missing, as a tool error); any other non-object is answered here with a tool error.
 *
 * @example
 * screenToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'memory_status', arguments: null } })
 * // { message: { …, params: { name: 'memory_status' } } }
 */
export function screenToolCall(message: JSONRPCMessage): { message: JSONRPCMessage } | { reply: JSONRPCMessage } {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return { message };
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (params === undefined || params === null || !('arguments' in params)) return { message };
  const args = params.arguments;
  if (args === null) {
    const { arguments: _dropped, ...rest } = params;
    return { message: { ...message, params: rest } as JSONRPCMessage };
  }
  if (typeof args === 'object' && !Array.isArray(args)) return { message };
  const kind = Array.isArray(args) ? 'an array' : typeof args;
  const text = `Invalid arguments for ${typeof params.name === 'string' ? params.name : 'the tool'}: expected an object of named arguments, got ${kind}.`;
  return { reply: { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }], isError: true } } as JSONRPCMessage };
}

/**
 * Calls `close` once stdin has ended and every request received has been answered: a
 * client may write its last request and close stdin at once, and closing earlier would
 * lose those answers.
 */
function trackRequests(transport: StdioServerTransport, close: () => void): void {
  const pending = new Set<string | number>();
  let ended = false;
  const maybeClose = (): void => {
    if (ended && pending.size === 0) close();
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    const screened = screenToolCall(message);
    if ('reply' in screened) void transport.send(screened.reply);
    else onmessage?.(screened.message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      pending.delete(message.id);
      maybeClose();
    }
  };
  process.stdin.once('end', () => {
    ended = true;
    maybeClose();
  });
}
