/**
 * The page's only way to the server: `fetch` with this run's token in a header (never in a
 * URL the server logs). The token arrives in the URL's fragment, which browsers never send;
 * it is kept in sessionStorage so a reload keeps working, and removed from the address bar.
 */

export interface ApiErrorBody {
  code: string;
  message: string;
  hint?: string;
  data?: { diagnostics?: { file?: string; line?: number; reason: string; hint?: string; severity?: string }[] } & Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

const KEY = 'cortex-token';

/**
 * Reads the token from the fragment once (then from sessionStorage) and leaves the view it
 * names in the address bar: `#token=…` opens the search, `#/memory/<id>?token=…`,
 * `#/graph?token=…` or `#/diff/<range>?token=…` open that view.
 */
export function takeToken(): string | undefined {
  const { token, route } = splitToken(location.hash);
  if (token) {
    sessionStorage.setItem(KEY, token);
    history.replaceState(null, '', `${location.pathname}${location.search}${route}`);
  }
  return sessionStorage.getItem(KEY) ?? undefined;
}

/**
 * A fragment without its `token=` parameter: the token, and the route left (`#/search` when
 * none is left).
 *
 * @example
 * splitToken('#/memory/chose-sqlite-k3f9qa?token=abc') // { token: 'abc', route: '#/memory/chose-sqlite-k3f9qa' }
 */
export function splitToken(hash: string): { token?: string; route: string } {
  const m = /([#?&])token=([A-Za-z0-9_-]+)&?/.exec(hash);
  if (!m) return { route: hash };
  let rest = hash.slice(0, m.index) + (m[1] === '#' ? '#' : m[1]!) + hash.slice(m.index + m[0].length);
  rest = rest.replace(/[?&]$/, '').replace(/^#\/?$/, '');
  return { token: m[2]!, route: rest === '' || rest === '#' ? '#/search' : rest };
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}`, ...extra };
}

/** Calls the API; a non-2xx answer throws `ApiError` with the server's `{ code, message, hint, data }`. */
export async function api<T = Record<string, unknown>>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    headers: headers(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const error = (json.error as ApiErrorBody | undefined) ?? { code: `HTTP_${res.status}`, message: res.statusText };
    throw new ApiError(res.status, error);
  }
  return json as T;
}

/**
 * Listens to `/api/events` (server-sent events read through fetch, so the token stays in a
 * header) and calls `onChange` when memory files change on disk; reconnects after a drop.
 */
export function watchChanges(onChange: () => void): void {
  const connect = async (): Promise<void> => {
    try {
      const res = await fetch('/api/events', { headers: headers() });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: change$/m.test(message)) onChange();
        }
      }
    } catch {
      /* the server stopped or restarted: try again below */
    }
    setTimeout(() => void connect(), 2000);
  };
  void connect();
}
