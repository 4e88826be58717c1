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

/** Reads the token from `#token=…` once (then from sessionStorage) and returns the route part of the hash. */
export function takeToken(): string | undefined {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(KEY, m[1]!);
    history.replaceState(null, '', `${location.pathname}${location.search}#/search`);
  }
  return sessionStorage.getItem(KEY) ?? undefined;
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
