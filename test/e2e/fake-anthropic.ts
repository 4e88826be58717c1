/**
 * A local stand-in for the Anthropic Messages API, for running the real Claude Code against
 * it with no network: `POST /v1/messages` answered from a script, streamed as server-sent
 * events the way the real API streams them (message_start, content_block_start/delta/stop,
 * message_delta, message_stop, with pings), or as one JSON message when `stream` is false.
 * Every request is recorded, so a test can read exactly what the client sent the model:
 * the system prompt, the hook context, the tools it offered, the tool results.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (`undefined` for an empty or non-JSON body). */
  body: MessagesRequest | undefined;
}

export interface ContentBlock {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
}

export interface MessagesRequest {
  model: string;
  stream?: boolean;
  system?: string | ContentBlock[];
  messages: { role: string; content: string | ContentBlock[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  [key: string]: unknown;
}

/** One reply of the fake model: text, then optionally one tool call. */
export interface FakeReply {
  text?: string;
  toolUse?: { name: string; input: Record<string, unknown> };
}

export type FakeModel = (request: MessagesRequest, index: number) => FakeReply;

export interface FakeApi {
  /** `http://127.0.0.1:<port>`: the client's `ANTHROPIC_BASE_URL`. */
  url: string;
  requests: RecordedRequest[];
  /** The requests to `/v1/messages` (not token counts), in order. */
  messages(): MessagesRequest[];
  setModel(model: FakeModel): void;
  close(): Promise<void>;
}

let ids = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(ids++).toString(36).padStart(4, '0')}`;

function contentOf(reply: FakeReply): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
  if (reply.toolUse) blocks.push({ type: 'tool_use', id: nextId('toolu'), name: reply.toolUse.name, input: reply.toolUse.input });
  if (blocks.length === 0) blocks.push({ type: 'text', text: 'OK.' });
  return blocks;
}

/** Splits a string into pieces of at most `size` characters (code points kept whole). */
function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function stream(res: ServerResponse, model: string, blocks: ContentBlock[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': nextId('req') });
  const send = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const usage = { input_tokens: 1200, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  send('message_start', { message: { id: nextId('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0) send('ping', {});
      for (const piece of pieces(block.text ?? '', 24)) send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      for (const piece of pieces(JSON.stringify(block.input), 16)) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    send('content_block_stop', { index });
  });
  const toolCall = blocks.some((b) => b.type === 'tool_use');
  send('message_delta', { delta: { stop_reason: toolCall ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 42 } });
  send('message_stop', {});
  res.end();
}

/**
 * Starts the fake API on 127.0.0.1 (a free port). `model` answers each `/v1/messages`
 * request; the default says "OK.".
 *
 * @example
 * const api = await startFakeApi(() => ({ text: 'Hello' }));
 * // ANTHROPIC_BASE_URL=api.url claude -p hi  → prints "Hello"
 */
export async function startFakeApi(model: FakeModel = () => ({ text: 'OK.' })): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  let script = model;
  let answered = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: MessagesRequest | undefined;
      try {
        body = raw === '' ? undefined : (JSON.parse(raw) as MessagesRequest);
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/messages' || body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake API: no ${req.method} ${path}` } }));
        return;
      }
      let blocks: ContentBlock[];
      try {
        blocks = contentOf(script(body, answered++));
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake model failed: ${(err as Error).message}` } }));
        return;
      }
      if (body.stream) {
        stream(res, body.model, blocks);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const usage = { input_tokens: 1200, output_tokens: 42 };
      const toolCall = blocks.some((b) => b.type === 'tool_use');
      res.end(JSON.stringify({ id: nextId('msg'), type: 'message', role: 'assistant', model: body.model, content: blocks, stop_reason: toolCall ? 'tool_use' : 'end_turn', stop_sequence: null, usage }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messages: () => requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/v1/messages' && r.body !== undefined).map((r) => r.body!),
    setModel(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every text the request carries — system prompt, messages, tool results — as one string. */
export function requestText(request: MessagesRequest): string {
  return JSON.stringify({ system: request.system, messages: request.messages });
}

/** The tool results in the request's last user message. */
export function lastToolResults(request: MessagesRequest): ContentBlock[] {
  const last = request.messages[request.messages.length - 1];
  if (!last || last.role !== 'user' || typeof last.content === 'string') return [];
  return last.content.filter((b) => b.type === 'tool_result');
}

/** The text of a tool result block (its content is a string or a list of text blocks). */
export function toolResultText(block: ContentBlock): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x: { text?: string }) => x.text ?? '').join('\n');
  return '';
}
