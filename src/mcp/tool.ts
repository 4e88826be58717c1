/**
 * What every MCP tool shares: the vocabulary of their schemas (ids, types, relations,
 * scopes, from where each is defined), their annotations, and what the server gives each
 * tool: the project, opened on demand, and the wrapper that turns a throw into a tool error.
 * Cheap to import: zod and the core's constants only (the server starts without the API).
 */
import type { ToolAnnotations, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Cortex } from '../api/cortex.js';
import { RELATIONS } from '../core/edge.js';
import { MEMORY_TYPES, SCOPES } from '../core/memory.js';

/** What the server hands each tool. */
export interface ToolDeps {
  /** The project's Cortex, opened on the first call (and again when its config changes). */
  open(): Promise<Cortex>;
  /** Runs a handler; whatever it throws becomes a tool error, never a crash. */
  guarded<A>(handler: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult>;
}

/** Every tool works on this one repository's files; none reaches the outside world. */
export const closed = { openWorldHint: false } satisfies ToolAnnotations;
export const READ_ONLY: ToolAnnotations = { ...closed, readOnlyHint: true, idempotentHint: true };

/**
 * Claude Code defers MCP tools behind its tool search: the model sees their names, not
 * their descriptions, so it does not know when to use them. This `_meta` key asks it to
 * load a tool up front even where the server is registered without `alwaysLoad` (`claude
 * mcp add`, a user's own config); other clients ignore it. Only the two tools a session
 * needs unprompted carry it: recall before deciding, remember once something is settled.
 */
export const ALWAYS_LOAD_META = { 'anthropic/alwaysLoad': true } as const;

export const id = z.string().min(1).max(200).describe('A memory id, e.g. chose-sqlite-over-postgres-k3f9qa (from memory_recall).');
export const memoryType = z.enum(MEMORY_TYPES);
export const relation = z.enum(RELATIONS);
export const scope = z.enum(SCOPES);
