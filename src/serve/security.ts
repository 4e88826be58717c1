/**
 * What every request to `cortex serve` must pass before it reaches the API: the Host it
 * names (no DNS rebinding), the Origin it comes from (no cross-site reads or writes), and
 * for the API the per-run token. Plain data in, a refusal or nothing out, so each rule is
 * testable without a server.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Hosts that only reach this machine: binding to them needs no warning. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/**
 * A fresh random token for one run of the server (128 bits, URL-safe).
 *
 * @example
 * createToken().length // 22
 */
export function createToken(): string {
  return randomBytes(16).toString('base64url');
}

export interface RequestFacts {
  method: string;
  /** The request path, without the query string. */
  path: string;
  host: string | undefined;
  origin: string | undefined;
  /** `Sec-Fetch-Site`, which browsers send on every request. */
  fetchSite: string | undefined;
  /** `Authorization: Bearer <token>`, or `X-Cortex-Token`. */
  token: string | undefined;
  contentType: string | undefined;
}

export interface AccessRules {
  /** The token of this run. */
  token: string;
  /** `host:port` values the server answers to (see {@link allowedHosts}). */
  hosts: ReadonlySet<string>;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/**
 * The `Host` header values that name this server: every loopback name with the port, and
 * the bound host when it is another one. A DNS-rebinding page reaches the server under its
 * own domain name, which is in none of them.
 *
 * @example
 * allowedHosts('127.0.0.1', 4000).has('localhost:4000') // true
 * allowedHosts('0.0.0.0', 4000, ['192.168.1.5']).has('192.168.1.5:4000') // true
 */
export function allowedHosts(bound: string, port: number, interfaces: readonly string[] = []): Set<string> {
  // Bound to every interface (--host 0.0.0.0 or ::): the machine's own addresses name it too.
  const any = bound === '0.0.0.0' || bound === '::';
  const names = new Set([...LOOPBACK_HOSTS, ...(any ? interfaces : [bound])]);
  const named = [...names].map((h) => (h.includes(':') ? `[${h}]` : h).toLowerCase());
  // Browsers leave the default port out of Host and Origin.
  return new Set(named.flatMap((h) => (port === 80 ? [`${h}:${port}`, h] : [`${h}:${port}`])));
}

/** Compares tokens in constant time (a wrong length is simply wrong). */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Why a request is refused, or `undefined` when it may go on. Every request must name
 * this server in `Host`; a request with an `Origin` (or `Sec-Fetch-Site`) must come from
 * the page this server served; API requests (`/api/…`) need the token, and API writes a
 * JSON body (a cross-site form cannot send one without a preflight, which is never granted).
 *
 * @example
 * checkRequest({ method: 'GET', path: '/api/status', host: 'evil.test:4000', origin: undefined, fetchSite: undefined, token: 't', contentType: undefined }, rules)
 * // { status: 421, code: 'BAD_HOST', message: … }
 */
export function checkRequest(req: RequestFacts, rules: AccessRules): Refusal | undefined {
  const host = (req.host ?? '').toLowerCase();
  if (!rules.hosts.has(host)) {
    return { status: 421, code: 'BAD_HOST', message: `This server answers to ${[...rules.hosts][0]} only, not to Host "${req.host ?? ''}".` };
  }
  if (req.origin !== undefined && req.origin !== 'null' && !rules.hosts.has(originHost(req.origin))) {
    return { status: 403, code: 'BAD_ORIGIN', message: `Requests from ${req.origin} are refused: only the viewer this server serves may call it.` };
  }
  // `null` is what a sandboxed frame or a file: page sends: never this server's own page.
  if (req.origin === 'null') return { status: 403, code: 'BAD_ORIGIN', message: 'Requests from an opaque origin are refused.' };
  if (req.fetchSite !== undefined && req.fetchSite !== 'same-origin' && req.fetchSite !== 'none') {
    return { status: 403, code: 'BAD_ORIGIN', message: `Cross-site requests are refused (Sec-Fetch-Site: ${req.fetchSite}).` };
  }
  if (!req.path.startsWith('/api/')) return undefined;
  if (req.token === undefined || !sameToken(req.token, rules.token)) {
    return { status: 401, code: 'BAD_TOKEN', message: 'A valid token is required: open the URL `cortex serve` printed (it carries the token).' };
  }
  if (!SAFE_METHODS.has(req.method) && !/^application\/json\s*(;|$)/i.test(req.contentType ?? '')) {
    return { status: 415, code: 'BAD_CONTENT_TYPE', message: 'API writes take a JSON body (Content-Type: application/json).' };
  }
  return undefined;
}

/** `http://localhost:4000` → `localhost:4000`; anything unparsable matches no host. */
function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:') return '';
    return url.host.toLowerCase();
  } catch {
    return '';
  }
}

/** Reads the token from `Authorization: Bearer …` or `X-Cortex-Token`. */
export function tokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers['authorization'];
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  const header = headers['x-cortex-token'];
  return typeof header === 'string' ? header : undefined;
}
