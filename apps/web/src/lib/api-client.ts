import type { ErrorResponse } from '@sitelog/shared';
import type { z } from 'zod';
import { endSession, getToken } from './session';

/** A failed API call: the HTTP status (0 when the server was not reached), the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details?: ErrorResponse['details'],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export const NETWORK_ERROR_MESSAGE =
  'Could not reach the server. Check your connection and try again.';

/** The readable message of anything thrown by a call (ApiError keeps the server's `message`). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Please try again.';
}

type ErrorDetail = NonNullable<ErrorResponse['details']>[number];

function readErrorDetail(value: unknown): ErrorDetail | null {
  if (typeof value !== 'object' || value === null) return null;
  const { path, message } = value as Record<string, unknown>;
  return typeof path === 'string' && typeof message === 'string' ? { path, message } : null;
}

/*
 * The error body is checked by hand rather than with `errorResponseSchema`: every call goes
 * through here, including the shell's first ones, and the schema would bring zod into the
 * initial bundle. It accepts what the schema accepts and keeps only the contract's fields.
 */
function readErrorResponse(body: unknown): ErrorResponse | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message, code, requestId, details } = body as Record<string, unknown>;
  if (typeof message !== 'string' || typeof code !== 'string' || typeof requestId !== 'string')
    return null;
  if (details === undefined) return { message, code, requestId };
  if (!Array.isArray(details)) return null;
  const read = details.map(readErrorDetail);
  if (read.some((detail) => detail === null)) return null;
  return { message, code, requestId, details: read as ErrorDetail[] };
}

function errorFromBody(status: number, body: unknown): ApiError {
  const parsed = readErrorResponse(body);
  if (parsed) {
    const { code, message, requestId, details } = parsed;
    return new ApiError(status, code, message, requestId, details);
  }
  return new ApiError(status, `http_${status}`, `The server answered with an error (${status}).`);
}

/**
 * A 401 to a call made with the stored token means the session is over (expired, revoked or
 * the user was deactivated): forget it, and the sign-in guard sends the user to /login.
 * A 401 to a call made without a token (a failed login) is just an answer.
 */
function onUnauthorized(sentToken: string | null): void {
  if (sentToken !== null && sentToken === getToken()) endSession('expired');
}

function parseWith<T>(schema: z.ZodType<T>, status: number, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    console.error('Unexpected API response', parsed.error);
    throw new ApiError(
      status,
      'invalid_response',
      'The server sent an answer this page cannot read.',
    );
  }
  return parsed.data;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Use this token instead of the stored one (e.g. to log out a session already forgotten here). */
  token?: string | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** GETs started ahead of the page that makes them (`prefetch`), by path. */
const prefetched = new Map<
  string,
  { token: string; at: number; response: Promise<Response>; controller: AbortController }
>();
/** A prefetched answer older than this is not used: the page asks again. */
export const PREFETCH_MAX_AGE_MS = 10_000;

const authHeaders = (token: string | null): Record<string, string> =>
  token
    ? { Accept: 'application/json', Authorization: `Bearer ${token}` }
    : { Accept: 'application/json' };

/**
 * Starts a GET that the page being opened is about to make, so it runs while the page's code
 * downloads rather than after. The page's own call (`apiRequest`, the same path) then takes this
 * answer instead of asking again: once, for the same signed-in session, within
 * PREFETCH_MAX_AGE_MS, and only while nothing has been changed since (any other call than a
 * GET drops every prefetched answer). The page's abort signal reaches it too. Signed out,
 * nothing is fetched.
 */
export function prefetch(path: string): void {
  const token = getToken();
  const pending = prefetched.get(path);
  if (!token || (pending && Date.now() - pending.at < PREFETCH_MAX_AGE_MS)) return;
  const controller = new AbortController();
  const response = fetch(path, {
    headers: authHeaders(token),
    credentials: 'same-origin',
    signal: controller.signal,
  });
  // A failure is the page's to report when it takes the answer; unused, it is dropped.
  response.catch(() => undefined);
  prefetched.set(path, { token, at: Date.now(), response, controller });
}

/** Forgets (and stops) every prefetched answer: something changed, they may be stale. */
function dropPrefetched(): void {
  for (const entry of prefetched.values()) entry.controller.abort();
  prefetched.clear();
}

function takePrefetched(
  path: string,
  token: string | null,
  signal: AbortSignal | undefined,
): Promise<Response> | null {
  const entry = prefetched.get(path);
  if (!entry) return null;
  prefetched.delete(path);
  if (entry.token !== token || Date.now() - entry.at >= PREFETCH_MAX_AGE_MS) {
    entry.controller.abort();
    return null;
  }
  if (signal?.aborted) entry.controller.abort();
  else signal?.addEventListener('abort', () => entry.controller.abort(), { once: true });
  return entry.response;
}

/**
 * Calls the JSON API. The response is validated with the contract's schema, so its type comes
 * from `packages/shared`; any failure becomes an `ApiError` carrying the server's message.
 */
export async function apiRequest<T>(
  method: Method,
  path: string,
  schema: z.ZodType<T>,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const token = options.token !== undefined ? options.token : getToken();
  const headers = authHeaders(token);
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  if (method !== 'GET') dropPrefetched();
  let response: Response;
  try {
    response = await ((method === 'GET' ? takePrefetched(path, token, options.signal) : null) ??
      fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
        credentials: 'same-origin',
      }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
  }

  const data = await readJson(response);
  if (!response.ok) {
    if (response.status === 401) onUnauthorized(token);
    throw errorFromBody(response.status, data);
  }
  return parseWith(schema, response.status, data);
}

/** A conditional GET's answer: unchanged since `etag` (304), or the body read and its ETag. */
export type IfChanged<T> = { changed: false } | { changed: true; data: T; etag: string | null };

/**
 * A GET that sends `If-None-Match: etag` (when there is one), for a poll that is cheap while
 * nothing changed: a 304 answers `{ changed: false }`. Otherwise as `apiRequest`, except that the
 * body is checked by `read` (null: not what was expected) rather than by a zod schema, so a call
 * the shell makes keeps zod out of the first download.
 */
export async function getIfChanged<T>(
  path: string,
  read: (body: unknown) => T | null,
  etag: string | null,
  options: RequestOptions = {},
): Promise<IfChanged<T>> {
  const token = getToken();
  const headers = authHeaders(token);
  if (etag !== null) headers['If-None-Match'] = etag;
  let response: Response;
  try {
    response = await fetch(path, { headers, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
  }
  if (response.status === 304) return { changed: false };
  const data = await readJson(response);
  if (!response.ok) {
    if (response.status === 401) onUnauthorized(token);
    throw errorFromBody(response.status, data);
  }
  const parsed = read(data);
  if (parsed === null)
    throw new ApiError(
      response.status,
      'invalid_response',
      'The server sent an answer this page cannot read.',
    );
  return { changed: true, data: parsed, etag: response.headers.get('ETag') };
}

export const api = {
  get: <T>(path: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    apiRequest('GET', path, schema, undefined, options),
  post: <T>(path: string, schema: z.ZodType<T>, body?: unknown, options?: RequestOptions) =>
    apiRequest('POST', path, schema, body, options),
  patch: <T>(path: string, schema: z.ZodType<T>, body?: unknown, options?: RequestOptions) =>
    apiRequest('PATCH', path, schema, body, options),
  delete: <T>(path: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    apiRequest('DELETE', path, schema, undefined, options),
};

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..1, or null while the browser does not know the total size. */
  fraction: number | null;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Send with this token instead of the stored one (the upload queue sends as its own user). */
  token?: string | null;
}

/**
 * Posts a multipart form (e.g. POST /api/upload/autoupload) and reports upload progress,
 * which fetch cannot do. Same bearer header, 401 handling and errors as `apiRequest`.
 */
export function uploadMultipart<T>(
  path: string,
  form: FormData,
  schema: z.ZodType<T>,
  options: UploadOptions = {},
): Promise<T> {
  const token = options.token !== undefined ? options.token : getToken();
  dropPrefetched();
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'text';

    const onAbortSignal = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbortSignal, { once: true });
    const done = () => options.signal?.removeEventListener('abort', onAbortSignal);

    xhr.upload.onprogress = (event) => {
      options.onProgress?.({
        loaded: event.loaded,
        total: event.total,
        fraction: event.lengthComputable && event.total > 0 ? event.loaded / event.total : null,
      });
    };
    xhr.onload = () => {
      done();
      let data: unknown;
      try {
        data = xhr.responseText === '' ? undefined : (JSON.parse(xhr.responseText) as unknown);
      } catch {
        data = undefined;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        if (xhr.status === 401) onUnauthorized(token);
        reject(errorFromBody(xhr.status, data));
        return;
      }
      try {
        resolve(parseWith(schema, xhr.status, data));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
    };
    xhr.send(form);
  });
}
