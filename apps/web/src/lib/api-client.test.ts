import { errorResponseSchema, okResponseSchema, sessionUserSchema } from '@sitelog/shared';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonError, mockApi } from '@/test/mock-api';
import { member, storeSession } from '@/test/fixtures';
import {
  api,
  ApiError,
  getIfChanged,
  NETWORK_ERROR_MESSAGE,
  prefetch,
  PREFETCH_MAX_AGE_MS,
  uploadMultipart,
} from './api-client';
import { getSession, TOKEN_KEY } from './session';

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('Expected the call to fail.');
}

describe('api client', () => {
  it('sends JSON with the stored bearer token and returns the parsed answer', async () => {
    storeSession(member, 'stored-token');
    const server = mockApi({ 'POST /api/things': { body: { ok: true } } });
    await expect(
      api.post('/api/things', okResponseSchema, { thing: { name: 'A' } }),
    ).resolves.toEqual({ ok: true });
    const [call] = server.calls;
    expect(call?.headers.get('authorization')).toBe('Bearer stored-token');
    expect(call?.headers.get('content-type')).toBe('application/json');
    expect(call?.body).toEqual({ thing: { name: 'A' } });
  });

  it('sends no body and no JSON content type when there is nothing to send', async () => {
    const server = mockApi({ 'POST /api/auth/logout': { body: { ok: true } } });
    await api.post('/api/auth/logout', okResponseSchema, undefined, { token: 'some-token' });
    expect(server.calls[0]?.headers.get('content-type')).toBeNull();
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer some-token');
  });

  it('sends no Authorization header when signed out', async () => {
    const server = mockApi({ 'GET /api/auth/hints': { body: { ok: true } } });
    await api.get('/api/auth/hints', okResponseSchema);
    expect(server.calls[0]?.headers.get('authorization')).toBeNull();
  });

  it("turns an error answer into an ApiError with the server's status, code and message", async () => {
    mockApi({ 'GET /api/project/id/9': jsonError(404, 'not_found', 'Project was not found.') });
    const error = await rejection(api.get('/api/project/id/9', okResponseSchema));
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('Project was not found.');
    expect(error.requestId).toBe('req-not_found');
  });

  it('reads an error body exactly as the contract schema does', async () => {
    const base = { message: 'Check the form.', code: 'validation_error', requestId: 'r9' };
    const bodies: unknown[] = [
      base,
      { ...base, extra: 1 },
      { ...base, details: [{ path: 'name', message: 'Required.', hint: 'x' }] },
      { ...base, details: [] },
      { ...base, details: [{ path: 'name' }] },
      { ...base, details: 'name' },
      { ...base, requestId: undefined },
      { ...base, code: 400 },
      [base],
      'oops',
    ];
    for (const body of bodies) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => Response.json(body, { status: 400 })),
      );
      const error = await rejection(api.get('/api/anything', okResponseSchema));
      const contract = errorResponseSchema.safeParse(body);
      const { status, code, message, requestId, details } = error;
      expect({ status, code, message, requestId, details }).toStrictEqual(
        contract.success
          ? { status: 400, details: undefined, ...contract.data }
          : {
              status: 400,
              code: 'http_400',
              message: 'The server answered with an error (400).',
              requestId: undefined,
              details: undefined,
            },
      );
    }
  });

  it('gives a readable message for an error answer that is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = await rejection(api.get('/api/anything', okResponseSchema));
    expect(error.status).toBe(502);
    expect(error.message).toBe('The server answered with an error (502).');
  });

  it('gives a readable message when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await rejection(api.get('/api/anything', okResponseSchema));
    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('rejects an answer that does not match the contract', async () => {
    mockApi({ 'GET /api/auth/me': { body: { id: 'one' } } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = await rejection(api.get('/api/auth/me', sessionUserSchema));
    expect(error.code).toBe('invalid_response');
  });

  it('ends the session on a 401 to a call made with the stored token', async () => {
    storeSession(member, 'expired-token');
    mockApi({
      'GET /api/project/user': jsonError(401, 'unauthorized', 'Please sign in to continue.'),
    });
    const error = await rejection(api.get('/api/project/user', z.array(z.unknown())));
    expect(error.status).toBe(401);
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('keeps the session on a 401 to a call made without it (a failed login)', async () => {
    storeSession(member, 'good-token');
    mockApi({
      'POST /api/auth/login': jsonError(
        401,
        'unauthorized',
        'The email or password is not correct.',
      ),
    });
    await rejection(
      api.post(
        '/api/auth/login',
        okResponseSchema,
        { login: { email: 'x', password: 'y' } },
        { token: null },
      ),
    );
    expect(getSession()?.token).toBe('good-token');
  });
});

/** A stand-in for the browser's XMLHttpRequest that answers after reporting progress. */
function fakeXhr(answer: { status: number; body: unknown; progress?: Array<[number, number]> }) {
  const sent: Array<{
    method: string;
    url: string;
    headers: Record<string, string>;
    body: unknown;
  }> = [];
  class FakeXMLHttpRequest {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    responseType = '';
    status = 0;
    responseText = '';
    private request = {
      method: '',
      url: '',
      headers: {} as Record<string, string>,
      body: undefined as unknown,
    };
    open(method: string, url: string) {
      this.request.method = method;
      this.request.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name.toLowerCase()] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      this.request.body = body;
      sent.push(this.request);
      queueMicrotask(() => {
        for (const [loaded, total] of answer.progress ?? []) {
          this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
        }
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return sent;
}

describe('conditional GET', () => {
  const readCount = (body: unknown) =>
    typeof body === 'object' && body !== null && typeof (body as { n?: unknown }).n === 'number'
      ? (body as { n: number }).n
      : null;

  it('reads the body and the ETag, then sends the ETag back and reads a 304 as unchanged', async () => {
    storeSession(member, 'stored-token');
    let etag = '"v1"';
    const server = mockApi({
      'GET /api/count': (request) =>
        request.headers.get('if-none-match') === etag
          ? { status: 304 }
          : { body: { n: 3 }, headers: { ETag: etag } },
    });
    await expect(getIfChanged('/api/count', readCount, null)).resolves.toEqual({
      changed: true,
      data: 3,
      etag: '"v1"',
    });
    expect(server.calls[0]?.headers.get('if-none-match')).toBeNull();
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer stored-token');
    await expect(getIfChanged('/api/count', readCount, '"v1"')).resolves.toEqual({
      changed: false,
    });
    expect(server.calls[1]?.headers.get('if-none-match')).toBe('"v1"');
    etag = '"v2"';
    await expect(getIfChanged('/api/count', readCount, '"v1"')).resolves.toEqual({
      changed: true,
      data: 3,
      etag: '"v2"',
    });
  });

  it('fails as any call does: the server message, a 401 ends the session, an unreadable body', async () => {
    storeSession(member, 'stored-token');
    const server = mockApi({ 'GET /api/count': jsonError(500, 'internal', 'It broke.') });
    const failed = await rejection(getIfChanged('/api/count', readCount, null));
    expect([failed.status, failed.message]).toEqual([500, 'It broke.']);
    server.set('GET /api/count', { body: { n: 'three' } });
    expect((await rejection(getIfChanged('/api/count', readCount, null))).code).toBe(
      'invalid_response',
    );
    server.set('GET /api/count', jsonError(401, 'unauthorized', 'Sign in.'));
    await rejection(getIfChanged('/api/count', readCount, '"v1"'));
    expect(getSession()).toBeNull();
  });

  it('says the server could not be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await rejection(getIfChanged('/api/count', readCount, null));
    expect([error.status, error.message]).toEqual([0, NETWORK_ERROR_MESSAGE]);
  });
});

describe('multipart upload', () => {
  const created = z.object({ id: z.number() });

  it('posts the form with the bearer token and reports progress', async () => {
    storeSession(member, 'upload-token');
    const sent = fakeXhr({
      status: 200,
      body: { id: 42 },
      progress: [
        [50, 200],
        [200, 200],
      ],
    });
    const form = new FormData();
    form.append('createUploadDto', JSON.stringify({ name: '', description: '', projectId: 3 }));
    const progress: Array<number | null> = [];

    const result = await uploadMultipart('/api/upload/autoupload', form, created, {
      onProgress: (p) => progress.push(p.fraction),
    });

    expect(result).toEqual({ id: 42 });
    expect(progress).toEqual([0.25, 1]);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.url).toBe('/api/upload/autoupload');
    expect(sent[0]?.headers.authorization).toBe('Bearer upload-token');
    expect(sent[0]?.body).toBe(form);
  });

  it("fails with the server's message", async () => {
    fakeXhr({
      status: 415,
      body: {
        message: 'That file is not an image we can read.',
        code: 'unsupported_media_type',
        requestId: 'r1',
      },
    });
    const error = await rejection(
      uploadMultipart('/api/upload/autoupload', new FormData(), created),
    );
    expect(error.status).toBe(415);
    expect(error.message).toBe('That file is not an image we can read.');
  });

  it('ends the session on a 401', async () => {
    storeSession(member, 'old-token');
    fakeXhr({
      status: 401,
      body: { message: 'Please sign in to continue.', code: 'unauthorized', requestId: 'r2' },
    });
    await rejection(uploadMultipart('/api/upload/autoupload', new FormData(), created));
    expect(getSession()).toBeNull();
  });

  it('can be cancelled', async () => {
    fakeXhr({ status: 200, body: { id: 1 } });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      uploadMultipart('/api/upload/autoupload', new FormData(), created, {
        signal: controller.signal,
      }),
    );
    expect(error.code).toBe('aborted');
  });
});

describe('prefetch', () => {
  const things = z.array(z.number());

  it("hands a page's first GET the answer fetched ahead of its code, once", async () => {
    storeSession(member, 'stored-token');
    const server = mockApi({ 'GET /api/prefetched/a': { body: [1, 2] } });
    prefetch('/api/prefetched/a');
    prefetch('/api/prefetched/a');
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer stored-token');
    await expect(api.get('/api/prefetched/a', things)).resolves.toEqual([1, 2]);
    expect(server.calls).toHaveLength(1);
    // Taken once: the next call asks the server again.
    await expect(api.get('/api/prefetched/a', things)).resolves.toEqual([1, 2]);
    expect(server.calls).toHaveLength(2);
  });

  it('fetches nothing signed out', () => {
    const server = mockApi({});
    prefetch('/api/prefetched/b');
    expect(server.calls).toHaveLength(0);
  });

  it('is not used by another session, nor once it is old', async () => {
    storeSession(member, 'first-token');
    const server = mockApi({ 'GET /api/prefetched/c': { body: [3] } });
    prefetch('/api/prefetched/c');
    storeSession(member, 'second-token');
    await api.get('/api/prefetched/c', things);
    expect(server.calls.map((c) => c.headers.get('authorization'))).toEqual([
      'Bearer first-token',
      'Bearer second-token',
    ]);

    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1_000_000);
    prefetch('/api/prefetched/c');
    now.mockReturnValue(1_000_000 + PREFETCH_MAX_AGE_MS);
    await api.get('/api/prefetched/c', things);
    expect(server.calls).toHaveLength(4);
    now.mockRestore();
  });

  it("is stopped by the page's abort, and dropped by any change", async () => {
    storeSession(member, 'stored-token');
    const server = mockApi({
      'GET /api/prefetched/e': { body: [5] },
      'POST /api/things': { body: { ok: true } },
    });
    prefetch('/api/prefetched/e');
    const controller = new AbortController();
    const call = api.get('/api/prefetched/e', things, { signal: controller.signal });
    controller.abort();
    await call.catch(() => undefined);
    const init = (vi.mocked(fetch).mock.calls[0]?.[1] ?? {}) as RequestInit;
    expect(init.signal?.aborted).toBe(true);

    prefetch('/api/prefetched/e');
    await api.post('/api/things', okResponseSchema, {});
    await api.get('/api/prefetched/e', things);
    // prefetch, prefetch, POST, then the GET asks again: the prefetched answer was dropped.
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/prefetched/e',
      'GET /api/prefetched/e',
      'POST /api/things',
      'GET /api/prefetched/e',
    ]);
  });

  it('reports a prefetched error answer as the call would have', async () => {
    storeSession(member, 'stored-token');
    mockApi({ 'GET /api/prefetched/d': jsonError(404, 'not_found', 'No such thing.') });
    prefetch('/api/prefetched/d');
    const error = await rejection(api.get('/api/prefetched/d', things));
    expect([error.status, error.message]).toEqual([404, 'No such thing.']);
  });
});
