/**
 * The JSON API of `cortex serve`: one table of routes, each a thin call into the library
 * API the CLI uses (`openCortex`), so an edit made in the viewer passes the same
 * validation, redaction and write lock as `cortex edit`. Handlers check the shape of what
 * they are given (query parameters, JSON bodies) and throw `UsageError`; the use cases
 * check the values. Memories are named by id only, never by path, so no request can
 * reach a file outside `.cortex/`.
 */
import type { Cortex } from '../api/cortex.js';
import type { RememberInput } from '../api/remember.js';
import { getMemory, memoryHistory, resolveMemoryId, type UpdateInput } from '../api/memories.js';
import type { MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { renderMemory } from '../core/memory-format.js';
import { CortexError, ISSUES_URL, UsageError } from '../errors.js';
import { SCHEMA_VERSION } from '../term/output.js';

export interface ApiRequest {
  method: string;
  /** The path below `/api`, e.g. `/memories/chose-sqlite-k3f9qa`. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body (`undefined` without one). */
  body: unknown;
}

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

type Handler = (cortex: Cortex, req: ApiRequest, params: string[]) => Promise<Record<string, unknown>> | Record<string, unknown>;

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  pattern: RegExp;
  handler: Handler;
  /** Status of a success (default 200). */
  status?: number;
}

const ID = '([^/]+)';

/** Every route, matched in order. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/status$/, handler: (c) => ({ ...c.status() }) },
  { method: 'GET', pattern: /^\/memories$/, handler: (c, r) => ({ ...c.list(listInput(r.query)) }) },
  { method: 'POST', pattern: /^\/memories$/, status: 201, handler: async (c, r) => ({ ...(await c.remember(rememberInput(r.body))) }) },
  { method: 'GET', pattern: /^\/search$/, handler: async (c, r) => search(c, r.query) },
  {
    method: 'GET',
    pattern: new RegExp(`^/memories/${ID}$`),
    handler: (c, _r, [id]) => {
      // Not `c.get`: looking at a memory in the viewer is not using it (no access recorded).
      const got = getMemory(c.context, resolveMemoryId(c.context, id!));
      // The text the editor starts from: the file in canonical form.
      return { ...got, source: renderMemory(got.memory) };
    },
  },
  { method: 'PATCH', pattern: new RegExp(`^/memories/${ID}$`), handler: async (c, r, [id]) => ({ ...(await c.update(id!, updateInput(r.body))) }) },
  {
    method: 'PUT',
    pattern: new RegExp(`^/memories/${ID}/source$`),
    handler: async (c, r, [id]) => {
      const { text } = fields(r.body, { text: 'string' });
      if (typeof text !== 'string') throw new UsageError('The body needs "text": the whole memory file, frontmatter and body.');
      return { ...(await c.updateSource(id!, text)) };
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/memories/${ID}/archive$`),
    handler: async (c, r, [id]) => {
      fields(r.body ?? {}, {});
      const out = await c.forget({ id: id! });
      return { ...out };
    },
  },
  { method: 'GET', pattern: new RegExp(`^/memories/${ID}/edges$`), handler: (c, _r, [id]) => edgesOf(c, id!) },
  { method: 'GET', pattern: /^\/edges$/, handler: (c) => allEdges(c) },
  { method: 'GET', pattern: new RegExp(`^/traverse/${ID}$`), handler: (c, r, [id]) => ({ ...c.traverse(traverseInput(id!, r.query)) }) },
  {
    method: 'GET',
    pattern: /^\/surface$/,
    handler: async (c, r) => {
      const budget = intParam(r.query, 'budget', [50, 100_000]);
      // Never `write` (no target file changes from a viewer) and never the cache: the
      // viewer shows what the next session would see without changing what it will see.
      const out = await c.surface({ cache: false, explainAll: r.query.get('all') === '1', ...(budget !== undefined ? { budget } : {}) });
      return { ...out };
    },
  },
  { method: 'GET', pattern: new RegExp(`^/memories/${ID}/history$`), handler: (c, _r, [id]) => ({ ...memoryHistory(c.context, resolveMemoryId(c.context, id!)) }) },
  {
    method: 'GET',
    pattern: /^\/lifecycle$/,
    handler: async (c) => {
      // Always a dry run: the viewer shows what the lifecycle would do; `cortex lifecycle` does it.
      const plan = await c.lifecycle({ dryRun: true });
      const surface = await c.surface({ cache: false, explainAll: true });
      // Each row with what a person reads (summary, last update), not only the id.
      const docs = docsById(c);
      const fading = surface.explain
        .filter((row) => row.status === 'active')
        .map((row) => ({
          id: row.id,
          type: row.type,
          summary: docs.get(row.id)?.summary ?? row.id,
          updated: docs.get(row.id)?.updated,
          decayed: row.parts.decayed,
          rank: row.rank,
          included: row.included,
        }))
        .sort((a, b) => a.decayed - b.decayed || a.id.localeCompare(b.id));
      return { ...plan, fading };
    },
  },
  {
    method: 'GET',
    pattern: /^\/diff$/,
    handler: async (c, r) => {
      const range = r.query.get('range') ?? '';
      if (range.trim() === '') throw new UsageError('Say which revisions to compare: ?range=main...feature', { hint: 'Example: /api/diff?range=main...HEAD' });
      // Only revision syntax: an option-looking range could reach git's argument parser.
      if (range.startsWith('-')) throw new UsageError(`"${range}" is not a revision range.`);
      const { diffRange } = await import('../api/diff.js');
      return { ...(await diffRange(c.context, { range })) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/doctor$/,
    handler: async (c) => {
      const { doctor } = await import('../setup/doctor.js');
      return { ...(await doctor(c.context)) };
    },
  },
  { method: 'GET', pattern: /^\/review$/, handler: async (c) => ({ ...(await c.review.list()) }) },
  { method: 'POST', pattern: /^\/review\/accept$/, handler: async (c, r) => ({ ...(await c.review.accept(selection(r.body))) }) },
  { method: 'POST', pattern: /^\/review\/reject$/, handler: async (c, r) => ({ ...(await c.review.reject(selection(r.body))) }) },
];

/** Error codes and the HTTP status each maps to (anything else is 500). */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  USAGE: 400,
  PARSE: 422,
  MEMORY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  NOT_INITIALIZED: 409,
  CONFLICT: 409,
  // A revision git does not know, for a diff: the request names something that is not there.
  GIT: 422,
  // Another process holds the write lock: try again.
  LOCKED: 503,
};

/**
 * Answers one API request: the matching route's data with `schemaVersion`, or an error
 * as `{ error: { code, message, hint, data } }` with its status code. Never throws.
 *
 * @example
 * await handleApi(cortex, { method: 'GET', path: '/status', query: new URLSearchParams(), body: undefined })
 * // { status: 200, body: { schemaVersion: 1, root: …, tiers: […] } }
 */
export async function handleApi(cortex: Cortex | (() => Cortex), req: ApiRequest): Promise<ApiResponse> {
  const matching = ROUTES.filter((r) => r.pattern.test(req.path));
  if (matching.length === 0) return errorResponse(404, { code: 'NOT_FOUND', message: `No API route ${req.path}.` });
  const route = matching.find((r) => r.method === req.method);
  if (!route) {
    const allow = [...new Set(matching.map((r) => r.method))].join(', ');
    return { ...errorResponse(405, { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed on ${req.path}; use ${allow}.` }), headers: { allow } };
  }
  try {
    const params = route.pattern.exec(req.path)!.slice(1).map(decodeParam);
    const data = await route.handler(typeof cortex === 'function' ? cortex() : cortex, req, params);
    return { status: route.status ?? 200, body: { schemaVersion: SCHEMA_VERSION, ...data } };
  } catch (err) {
    return errorOf(err);
  }
}

/** Any error as a JSON response: a `CortexError` with its code's status, anything else a 500 that says it is a bug. */
export function errorOf(err: unknown): ApiResponse {
  if (err instanceof CortexError) return errorResponse(ERROR_STATUS[err.code] ?? 500, err.toJSON());
  return errorResponse(500, {
    code: 'INTERNAL',
    message: `Unexpected error: ${(err as Error)?.message ?? String(err)}`,
    hint: `This is a bug in Cortex; please report it at ${ISSUES_URL}`,
  });
}

function errorResponse(status: number, error: { code: string; message: string; hint?: string; data?: Record<string, unknown> }): ApiResponse {
  return { status, body: { schemaVersion: SCHEMA_VERSION, error } };
}

function decodeParam(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    throw new UsageError(`Malformed percent-encoding in "${p}".`);
  }
}

// ---- Shapes of query parameters and bodies -------------------------------------------

type Kind = 'string' | 'number' | 'boolean' | 'string[]' | 'string|null';

/**
 * The body's fields, each checked against its kind; an unknown field or a body that is
 * not an object is a `UsageError` (a typo should not be silently ignored).
 */
function fields(body: unknown, spec: Record<string, Kind>): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UsageError('The body must be a JSON object.');
  for (const [key, value] of Object.entries(body)) {
    const kind = spec[key];
    if (kind === undefined) {
      throw new UsageError(`Unknown field "${key}".`, { hint: Object.keys(spec).length > 0 ? `Fields: ${Object.keys(spec).join(', ')}.` : 'This call takes no fields.' });
    }
    const ok =
      kind === 'string[]'
        ? Array.isArray(value) && value.every((v) => typeof v === 'string')
        : kind === 'string|null'
          ? value === null || typeof value === 'string'
          : kind === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : typeof value === kind;
    if (!ok) throw new UsageError(`Field "${key}" must be ${kind === 'string[]' ? 'an array of strings' : kind === 'string|null' ? 'a string or null' : `a ${kind}`}.`);
  }
  return body as Record<string, unknown>;
}

const REMEMBER_FIELDS: Record<string, Kind> = {
  text: 'string',
  summary: 'string',
  body: 'string',
  type: 'string',
  priority: 'number',
  confidence: 'number',
  tags: 'string[]',
  topic: 'string',
  pinned: 'boolean',
  scope: 'string',
  private: 'boolean',
  status: 'string',
};

function rememberInput(body: unknown): RememberInput {
  if (body === undefined) throw new UsageError('The body needs at least "summary" (or "text").');
  const f = fields(body, REMEMBER_FIELDS);
  if (f.text === undefined && f.summary === undefined) throw new UsageError('The body needs "summary" (or "text").', { hint: 'Example: {"summary": "Chose SQLite", "type": "decision"}' });
  return f as RememberInput;
}

const UPDATE_FIELDS: Record<string, Kind> = {
  summary: 'string',
  body: 'string',
  type: 'string',
  priority: 'number',
  confidence: 'number',
  pinned: 'boolean',
  status: 'string',
  topic: 'string|null',
  addTags: 'string[]',
  removeTags: 'string[]',
};

function updateInput(body: unknown): UpdateInput {
  const f = fields(body, UPDATE_FIELDS);
  if (Object.keys(f).length === 0) throw new UsageError('Nothing to update.', { hint: `Fields: ${Object.keys(UPDATE_FIELDS).join(', ')}.` });
  return f as UpdateInput;
}

function selection(body: unknown): string[] | 'all' {
  const f = fields(body, { select: 'string[]', all: 'boolean' });
  if (f.all === true) return 'all';
  const select = f.select as string[] | undefined;
  if (!select || select.length === 0) throw new UsageError('Say which items: {"select": ["1", "a3f9"]} or {"all": true}.');
  return select;
}

function intParam(q: URLSearchParams, name: string, [min, max]: [number, number]): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`"${name}" must be an integer from ${min} to ${max}, got "${raw}".`);
  return n;
}

function listParam(q: URLSearchParams, name: string): string[] | undefined {
  const values = q.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return values.length > 0 ? values : undefined;
}

/** Filters shared by list and search: type, tag, status (`all` for every one), scope, since. */
function filters(q: URLSearchParams): { types?: MemoryType[]; tags?: string[]; statuses?: MemoryStatus[]; scope?: Scope; since?: string } {
  const types = listParam(q, 'type');
  const tags = listParam(q, 'tag');
  const status = listParam(q, 'status');
  const scope = q.get('scope');
  const since = q.get('since');
  return {
    ...(types ? { types: types as MemoryType[] } : {}),
    ...(tags ? { tags } : {}),
    ...(status ? { statuses: (status.includes('all') ? ['active', 'archived', 'superseded'] : status) as MemoryStatus[] } : {}),
    ...(scope ? { scope: scope as Scope } : {}),
    ...(since ? { since } : {}),
  };
}

function listInput(q: URLSearchParams): Parameters<Cortex['list']>[0] {
  const limit = intParam(q, 'limit', [1, 10_000]);
  const sort = q.get('sort');
  if (sort !== null && !['updated', 'created', 'priority', 'id'].includes(sort)) throw new UsageError(`Unknown sort "${sort}".`, { hint: 'Use updated, created, priority or id.' });
  return { ...filters(q), ...(limit !== undefined ? { limit } : {}), ...(sort ? { sort: sort as 'updated' } : {}) };
}

function searchInput(q: URLSearchParams): Parameters<Cortex['recall']>[0] {
  const query = q.get('q') ?? '';
  if (query.trim() === '') throw new UsageError('The query is empty.', { hint: 'Example: /api/search?q=database' });
  const limit = intParam(q, 'limit', [1, 200]);
  // Keyword search: the viewer must not wait for the embedding model; and browsing is not
  // using, so results are not counted as accessed (that would change what decays).
  return { query, ...filters(q), mode: 'keyword', recordAccess: false, ...(limit !== undefined ? { limit } : {}) };
}

/**
 * Search as `cortex recall` does; with `weaker=1` also the matches the relevance floor left
 * out (`recall --no-floor`), listed apart as `weaker` so the page can mark them.
 */
async function search(cortex: Cortex, q: URLSearchParams): Promise<Record<string, unknown>> {
  const input = searchInput(q);
  const out = await cortex.recall(input);
  if (q.get('weaker') !== '1' || (out.belowFloor ?? 0) === 0) return { ...out, weaker: [] };
  const all = await cortex.recall({ ...input, relevance: { minScoreShare: 0, minCoverage: 0 } });
  const shown = new Set(out.results.map((r) => r.id));
  return { ...out, weaker: all.results.filter((r) => !shown.has(r.id)) };
}

/** Every indexed memory of every tier by id (the first tier that has it). */
function docsById(cortex: Cortex): Map<string, { summary: string; updated: string }> {
  const out = new Map<string, { summary: string; updated: string }>();
  for (const t of cortex.graph().tiers) for (const [id, d] of t.index.docs) if (!out.has(id)) out.set(id, { summary: d.summary, updated: d.updated });
  return out;
}

function traverseInput(id: string, q: URLSearchParams): Parameters<Cortex['traverse']>[0] {
  const depth = intParam(q, 'depth', [0, 10]);
  const direction = q.get('direction');
  if (direction !== null && !['out', 'in', 'both'].includes(direction)) throw new UsageError(`Unknown direction "${direction}".`, { hint: 'Use out, in or both.' });
  const types = listParam(q, 'relation');
  return {
    id,
    ...(depth !== undefined ? { depth } : {}),
    ...(direction ? { direction: direction as 'both' } : {}),
    ...(types ? { types } : {}),
    ...(q.get('suggested') === '1' ? { includeSuggested: true } : {}),
  };
}

function edgesOf(cortex: Cortex, ref: string): Record<string, unknown> {
  const id = resolveMemoryId(cortex.context, ref);
  const { graph, diagnostics } = cortex.graph();
  return { id, out: graph.out.get(id) ?? [], in: graph.in.get(id) ?? [], diagnostics };
}

/**
 * The graph for the explorer: every valid edge, and the memories they connect with what a
 * node needs to be drawn (type, summary, status, centrality). Memories without edges are
 * only counted: 10,000 isolated nodes draw nothing useful.
 */
function allEdges(cortex: Cortex): Record<string, unknown> {
  const { graph, centrality, diagnostics, tiers } = cortex.graph();
  const linked = new Set<string>();
  for (const e of graph.edges) {
    linked.add(e.source);
    linked.add(e.target);
  }
  const nodes: { id: string; type: string; summary: string; status: string; centrality: number }[] = [];
  for (const id of linked) {
    const doc = tiers.map((t) => t.index.docs.get(id)).find((d) => d !== undefined);
    if (doc) nodes.push({ id, type: doc.type, summary: doc.summary, status: doc.status, centrality: centrality[id] ?? 0 });
  }
  return { nodes, edges: graph.edges, isolated: graph.nodes.size - nodes.length, diagnostics };
}
