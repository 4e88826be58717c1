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
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Cortex } from '../api/cortex.js';
import type { StagingQueue } from '../services/context.js';
import { errorResult } from './format.js';
import { addForgetTool } from './forget.js';
import { addGetTool } from './get.js';
import { addLinkTool } from './link.js';
import { addRecallTool } from './recall.js';
import { addRememberTool } from './remember.js';
import { addReviewTool } from './review.js';
import { addStatusTool } from './status.js';
import { addTraverseTool } from './traverse.js';

export interface CortexMcpOptions {
  /** A directory inside the project (default: the working directory). */
  dir?: string;
  /** Environment handed to the API (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where diagnostics go: one call per message (default: stderr). */
  log?: (message: string) => void;
  /**
   * Gathers the files write calls create and stages them in bursts (default: a new
   * `queueStaging()`, flushed when the connection closes): one `git add` per burst, not per call.
   */
  staging?: StagingQueue;
}

export const DEFAULT_CORTEX_MCP = {
  dir: undefined as string | undefined,
  env: process.env,
  log: (message: string): void => void process.stderr.write(`cortex mcp: ${message}\n`),
};

export const SERVER_NAME = 'cortex';

/** What the client may show the model about the server as a whole (MCP `instructions`). */
export const SERVER_INSTRUCTIONS =
  "Cortex is this repository's persistent memory: decisions and the approaches rejected, architecture, " +
  'gotchas, patterns, preferences, plans and progress, kept as markdown files under .cortex/ and shared ' +
  'through git. Recall (memory_recall) before choosing an approach, when the user refers to earlier work ' +
  '("like before", "why did we…"), when starting on an unfamiliar part of the code, and before remembering ' +
  '(to update rather than duplicate). Remember (memory_remember) when something is settled that a later ' +
  'session would otherwise rediscover: a decision and why, a rejected approach and why, a gotcha and its ' +
  'fix, a convention, a user preference, the plan and its progress; not routine steps. Use a stable topic ' +
  'to update a memory, and name the files it is about.';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The tools, one module each, in the order a client lists them. */
const TOOLS = [addRecallTool, addGetTool, addRememberTool, addForgetTool, addReviewTool, addLinkTool, addTraverseTool, addStatusTool];

/**
 * Builds the server with its eight tools (one module each: recall.ts, get.ts …), not yet
 * connected to a transport.
 *
 * @example
 * const server = createMcpServer({ dir: '/path/to/repo' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: CortexMcpOptions = {}): McpServer {
  const o = { ...DEFAULT_CORTEX_MCP, ...options };
  const server = new McpServer({ name: SERVER_NAME, version: packageVersion() }, { instructions: SERVER_INSTRUCTIONS });
  // What the write calls create is staged in bursts, and whatever waits when the client goes.
  const staging = new LazyStaging(options.staging);
  stagings.set(server, staging);
  server.server.onclose = () => void staging.flush();

  // One Cortex for the server's life, so its index and embedder stay loaded between calls;
  // opened again when .cortex/config.yaml changes. Until a project exists, every call looks.
  let opened: { cortex: Cortex; config: string } | undefined;
  let swept = false;
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
    const cortex = openCortex({ ...(o.dir !== undefined ? { dir: o.dir } : {}), env: o.env, staging: await staging.get() });
    if (!swept) {
      // Once per server: orphaned index files go now, not at the next write (which may never
      // come), and the indexes held in memory skip stating every file between calls in quick
      // succession (a change is seen by every call 100 ms after it: test/mcp-warm.test.ts).
      swept = true;
      const { startServing } = await import('../api/sweep-caches.js');
      startServing(cortex.context);
    }
    opened = { cortex, config: configStamp(cortex.context.paths.configFile) };
    return cortex;
  };
  /** Runs a handler; whatever it throws becomes a tool error, never a crash. */
  const guarded =
    <A,>(handler: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        // One turn of the event loop first: file-system events already queued (the index's
        // watch on the memories directory) are taken in before the call looks at the index.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return await handler(args);
      } catch (err) {
        return errorResult(err, o.log);
      }
    };

  for (const add of TOOLS) add(server, { open, guarded });

  return server;
}

/**
 * The server's staging queue (services/stage.ts `queueStaging`), made by the first call that
 * opens the project: the module loads with the API, not at start-up.
 */
class LazyStaging {
  constructor(private queue: StagingQueue | undefined) {}

  async get(): Promise<StagingQueue> {
    return (this.queue ??= (await import('../services/stage.js')).queueStaging());
  }

  flush(): Promise<boolean> {
    return this.queue?.flush() ?? Promise.resolve(true);
  }

  flushSync(): boolean {
    return this.queue?.flushSync() ?? true;
  }
}

/** Each server's staging queue, for `serveStdio`'s exit handlers. */
const stagings = new WeakMap<McpServer, LazyStaging>();

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
  const staging = stagings.get(server)!;
  // Files still waiting to be staged when the process goes: staged on the way out (an exit
  // handler may block; a signal would otherwise end the process without one).
  process.once('exit', () => void staging.flushSync());
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + (signal === 'SIGHUP' ? 1 : signal === 'SIGINT' ? 2 : 15)));
  }
  // Malformed input lines and transport failures: logged, and the connection stays up.
  server.server.onerror = (err) => o.log(`protocol error: ${err.message}`);
  const transport = new StdioServerTransport(process.stdin, reserveStdout());
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  trackRequests(transport, () => void server.close());
  await closed;
  await staging.flush();
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
