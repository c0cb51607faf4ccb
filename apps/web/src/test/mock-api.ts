import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  path: string;
  url: string;
  headers: Headers;
  body: unknown;
}

export interface MockResponse {
  status?: number;
  body?: unknown;
  /** Response headers beyond the JSON content type (e.g. an ETag). */
  headers?: Record<string, string>;
}

export type MockHandler =
  MockResponse | ((request: MockRequest) => MockResponse | Promise<MockResponse>);

/** Routes keyed "METHOD /path" (no query string). */
export type MockRoutes = Record<string, MockHandler>;

export function jsonError(status: number, code: string, message: string): MockResponse {
  return { status, body: { message, code, requestId: `req-${code}` } };
}

/**
 * Replaces global fetch with a tiny fake server answering from `routes`; every call is recorded.
 * An unknown route answers 404 like the real server does. Only fetch is faked, never our modules.
 */
export function mockApi(routes: MockRoutes) {
  const table: MockRoutes = { ...routes };
  const calls: MockRequest[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const rawBody = typeof init.body === 'string' ? init.body : undefined;
    const request: MockRequest = {
      method,
      path: parsed.pathname,
      url,
      headers: new Headers(init.headers),
      body: rawBody === undefined ? undefined : (JSON.parse(rawBody) as unknown),
    };
    calls.push(request);
    const handler = table[`${method} ${parsed.pathname}`];
    const answer: MockResponse =
      handler === undefined
        ? jsonError(404, 'not_found', `No route for ${method} ${parsed.pathname}.`)
        : typeof handler === 'function'
          ? await handler(request)
          : handler;
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    calls,
    /** Calls made to "METHOD /path". */
    callsTo: (route: string) => calls.filter((call) => `${call.method} ${call.path}` === route),
    /** Replaces or adds a route while the test runs. */
    set: (route: string, handler: MockHandler) => {
      table[route] = handler;
    },
  };
}
