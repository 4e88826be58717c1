/**
 * The HTTP server behind `cortex serve`: node:http, no framework. It answers the JSON API
 * (routes.ts) and the viewer's few static files, and nothing else: no directory listing,
 * no file named by a request. Every request first passes `checkRequest` (Host, Origin,
 * token), and a request body is cut off at `maxBodyBytes`.
 */
import { existsSync, readFileSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Cortex } from '../api/cortex.js';
import { handleApi, type ApiResponse } from './routes.js';
import { allowedHosts, checkRequest, createToken, tokenOf } from './security.js';
import { SCHEMA_VERSION } from '../term/output.js';
import { InternalError } from '../errors.js';
import { redactDeep } from '../core/redact.js';

export interface ServeOptions {
  /** The project's API (the command opens it, so that a missing `.cortex/` fails before listening). */
  cortex: Cortex;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free one). */
  port?: number;
  /** The per-run token (default: a fresh random one). */
  token?: string;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Wait this long after a file change before telling the pages (default 150 ms), so one write is one event. */
  debounceMs?: number;
  /** Where request failures that are bugs are reported (default: stderr). */
  log?: (message: string) => void;
}

export const DEFAULT_SERVE = {
  host: '127.0.0.1',
  port: 0,
  maxBodyBytes: 1024 * 1024,
  debounceMs: 150,
  log: (message: string): void => void process.stderr.write(`cortex serve: ${message}\n`),
};

export interface RunningServer {
  /** `http://host:port/` */
  origin: string;
  /** The URL to open: the origin with the token in the fragment (never sent to the server, never in a Referer). */
  url: string;
  host: string;
  port: number;
  token: string;
  server: Server;
  close(): Promise<void>;
}

/** Content types of the files the viewer's build emits. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** Where the build puts the viewer (`vite build`, see web/viewer/vite.config.ts): `dist/viewer/`, beside `dist/serve/`. */
export const VIEWER_DIR = new URL('../../dist/viewer/', import.meta.url);

/** Headers on every response: the page loads only its own files and talks only to this server. */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The viewer's files, read once at start and served from memory by exact request path:
 * a request never names a file on disk, so nothing outside them (and no listing) is reachable.
 */
function loadAssets(dir: URL): Map<string, { body: Buffer; type: string }> {
  const root = fileURLToPath(dir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new InternalError(`The viewer is not built: ${join(root, 'index.html')} is missing.`, { hint: 'Run `npm run build` in the Cortex checkout.' });
  }
  const assets = new Map<string, { body: Buffer; type: string }>();
  const walk = (sub: string): void => {
    for (const name of readdirSync(join(root, sub))) {
      const rel = sub === '' ? name : `${sub}/${name}`;
      const full = join(root, rel);
      if (statSync(full).isDirectory()) walk(rel);
      else {
        const type = TYPES[name.slice(name.lastIndexOf('.'))];
        if (type) assets.set(`/${rel}`, { body: readFileSync(full), type });
      }
    }
  };
  walk('');
  const index = assets.get('/index.html')!;
  assets.delete('/index.html');
  assets.set('/', index);
  return assets;
}

/**
 * Tells open pages that memory files changed (hooks, `git pull`, an editor), as
 * server-sent events on `/api/events`. Watches the directories that hold memory and edge
 * files, one level each (a recursive watch walks every file first: seconds at 10,000
 * memories), and `.memory/` for the review queue; changes within `debounceMs` are one event.
 */
function watchChanges(dirs: { dir: string; only?: RegExp }[], debounceMs: number, notify: () => void): () => void {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(notify, debounceMs);
  };
  for (const { dir, only } of dirs) {
    if (!existsSync(dir)) continue;
    try {
      const w = watch(dir, (_event, name) => {
        // Temporary files of atomic writes, locks and index rewrites are not changes a page shows.
        if (name && /\.tmp$|\.lock$/.test(String(name))) return;
        if (only && name && !only.test(String(name))) return;
        changed();
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // Not watchable (gone, or no inotify left): the page still refreshes on its own actions.
    }
  }
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: Buffer | string, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, r: ApiResponse, head = false): void {
  // Every answer passes the redaction gate (a hand-written memory was never gated on its way in).
  const text = `${JSON.stringify(redactDeep(r.body).value)}\n`;
  if (head) {
    res.writeHead(r.status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', ...r.headers });
    res.end();
    return;
  }
  send(res, r.status, text, 'application/json; charset=utf-8', r.headers);
}

function refusal(status: number, code: string, message: string): ApiResponse {
  return { status, body: { schemaVersion: SCHEMA_VERSION, error: { code, message } } };
}

/**
 * Starts the server and resolves once it listens. It serves until `close()`.
 *
 * @example
 * const s = await startServer({ cortex: openCortex({ dir }) });
 * console.log(s.url); // http://127.0.0.1:41234/#token=…
 * await s.close();
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const o = { ...DEFAULT_SERVE, ...options };
  const token = o.token ?? createToken();
  const assets = loadAssets(VIEWER_DIR);
  let rules = { token, hosts: new Set<string>() };
  const listeners = new Set<ServerResponse>();
  let version = 0;
  const { paths, local } = o.cortex.context;
  const watched = [
    { dir: paths.cortexDir, only: /^(config\.yaml|memories|edges)$/ },
    { dir: paths.memoriesDir },
    { dir: paths.edgesDir },
    { dir: local.memoriesDir },
    { dir: paths.cacheDir, only: /^review/ },
  ];
  const stopWatching = watchChanges(watched, o.debounceMs, () => {
    version += 1;
    for (const res of listeners) res.write(`event: change\ndata: {"version":${version}}\n\n`);
  });

  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => {
      o.log(`request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) sendJson(res, refusal(500, 'INTERNAL', 'The request failed; see the server output.'));
      else res.destroy();
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const refused = checkRequest(
      { method, path, host: header('host'), origin: header('origin'), fetchSite: header('sec-fetch-site'), token: tokenOf(req.headers), contentType: header('content-type') },
      rules,
    );
    if (refused) {
      req.resume();
      return sendJson(res, refusal(refused.status, refused.code, refused.message));
    }
    if (!path.startsWith('/api/')) {
      const asset = assets.get(path);
      if (!asset) return sendJson(res, refusal(404, 'NOT_FOUND', `Nothing at ${path}.`));
      if (method !== 'GET' && method !== 'HEAD') return sendJson(res, { ...refusal(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}.`), headers: { allow: 'GET, HEAD' } });
      if (method === 'HEAD') {
        res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': String(asset.body.length) });
        res.end();
        return;
      }
      return send(res, 200, asset.body, asset.type);
    }
    if (path === '/api/events' && method === 'GET') {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
      res.write(`retry: 2000\nevent: hello\ndata: {"version":${version}}\n\n`);
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    let body: unknown;
    try {
      const raw = await readBody(req, o.maxBodyBytes);
      if (raw.length > 0) body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        res.setHeader('connection', 'close');
        return sendJson(res, refusal(413, 'TOO_LARGE', `Request bodies are limited to ${o.maxBodyBytes} bytes.`));
      }
      if (err instanceof SyntaxError) return sendJson(res, refusal(400, 'BAD_JSON', `The body is not valid JSON: ${err.message}`));
      throw err;
    }
    const apiMethod = method === 'HEAD' ? 'GET' : method;
    const r = await handleApi(o.cortex, { method: apiMethod, path: path.slice('/api'.length), query: url.searchParams, body });
    if (r.status >= 500) o.log(`${method} ${path}: ${JSON.stringify(r.body)}`);
    sendJson(res, r, method === 'HEAD');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const interfaces = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  rules = { token, hosts: allowedHosts(o.host, address.port, interfaces) };
  const hostInUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  const origin = `http://${hostInUrl}:${address.port}/`;
  return {
    origin,
    url: `${origin}#token=${token}`,
    host: o.host,
    port: address.port,
    token,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatching();
        for (const res of listeners) res.end();
        listeners.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
