// HTTP helpers for the cluster tests: sign in, JSON calls with a bearer token, photo uploads as
// multipart bodies (built by the server suite's own builders), bodies sent a piece at a time, and
// a handle on the cluster's database for test data (the server suite's factories take it).
import http from 'node:http';
import type { LoginResponse, Upload } from '@sitelog/shared';
import { createDatabase, type Database } from '../apps/server/src/db/database.js';
import { jpegWithExif } from '../apps/server/test/images.js';
import { dtoPart, filePart, multipartBody, type FormPart } from '../apps/server/test/uploads.js';

export { dtoPart, filePart, multipartBody, type FormPart };

/** An HTTP answer, read whole: `json` is the parsed body, or undefined when it is not JSON. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export interface RequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (with `headers` naming its type). */
  body?: Buffer;
  headers?: Record<string, string>;
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
}

/** One request to `base` + `path` (base: nginx's or an instance's URL), its answer read whole. */
export async function request<T = unknown>(
  base: string,
  path: string,
  options: RequestOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: Uint8Array | string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.body) body = new Uint8Array(options.body);
  const res = await fetch(new URL(path, base), {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as T };
}

/** `request`, expecting a 2xx answer: its JSON body, or an error naming the status and body. */
export async function apiJson<T>(
  base: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const res = await request<T>(base, path, options);
  if (res.status < 200 || res.status > 299)
    throw new Error(
      `${options.method ?? 'GET'} ${path} on ${base} answered ${res.status}: ${res.text}`,
    );
  return res.json;
}

/** POST /api/auth/login: the raw answer (a test of the limits wants the 401s and 429s). */
export function postLogin(
  base: string,
  email: string,
  password: string,
  options: { headers?: Record<string, string>; path?: string } = {},
): Promise<Answer<LoginResponse & { code?: string; message?: string }>> {
  return request(base, options.path ?? '/api/auth/login', {
    json: { login: { email, password } },
    headers: options.headers,
  });
}

/** Signs in and answers the session's token and user (fails unless the answer is 200). */
export async function signIn(base: string, email: string, password: string) {
  const res = await postLogin(base, email, password);
  if (res.status !== 200)
    throw new Error(`sign-in of ${email} on ${base} answered ${res.status}: ${res.text}`);
  return res.json;
}

let defaultPhoto: Promise<Buffer> | null = null;
/** A small JPEG with camera, time and GPS EXIF (made once per test file). */
export function samplePhoto(): Promise<Buffer> {
  defaultPhoto ??= jpegWithExif();
  return defaultPhoto;
}

export interface UploadInput {
  projectId: number;
  name?: string;
  description?: string;
  clientId?: string;
  /** The photo; `samplePhoto()` unless given. */
  file?: Buffer;
  headers?: Record<string, string>;
}

/** The multipart body of POST /api/upload/autoupload: the file part first, as the web app sends it. */
export async function uploadBody(
  input: UploadInput,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const file = input.file ?? (await samplePhoto());
  return multipartBody([
    filePart(file),
    dtoPart({
      name: input.name ?? '',
      description: input.description ?? '',
      projectId: input.projectId,
      ...(input.clientId ? { clientId: input.clientId } : {}),
    }),
  ]);
}

/** POST /api/upload/autoupload: the raw answer (the upload on 200). */
export async function postUpload(
  base: string,
  token: string,
  input: UploadInput,
  path = '/api/upload/autoupload',
): Promise<Answer<Upload & { code?: string; message?: string }>> {
  const body = await uploadBody(input);
  return request(base, path, {
    method: 'POST',
    token,
    body: body.payload,
    headers: { ...body.headers, ...input.headers },
  });
}

/** Uploads a photo and answers the upload (fails unless the answer is 200). */
export async function uploadPhoto(base: string, token: string, input: UploadInput) {
  const res = await postUpload(base, token, input);
  if (res.status !== 200) throw new Error(`upload on ${base} answered ${res.status}: ${res.text}`);
  return res.json;
}

/**
 * A request whose body the caller sends a piece at a time (`send`), to see what the other side
 * does before it has all of it. The answer may come before the body is complete (`answer`: a
 * proxy's or the app's early refusal). `contentLength` may claim more than will be sent.
 */
export interface PartialRequest {
  /**
   * Writes the next `bytes` of the body (all that is left when omitted); resolves once written.
   * The request ends when the declared length has been sent.
   */
  send(bytes?: number): Promise<void>;
  /** Bytes written so far. */
  readonly sent: number;
  /** The answer, read whole. Rejects when the connection fails before one arrives. */
  readonly answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>;
  /** Ends the request (the rest of the body unsent). */
  abort(): void;
}

export function partialRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body: Buffer;
    /** Content-Length to declare (default: the body's length). */
    contentLength?: number;
  },
): PartialRequest {
  const target = new URL(url);
  const declared = options.contentLength ?? options.body.length;
  const req = http.request({
    host: target.hostname,
    port: target.port,
    path: `${target.pathname}${target.search}`,
    method: options.method ?? 'POST',
    headers: {
      ...options.headers,
      'content-length': String(declared),
    },
    agent: false,
  });
  const answer = new Promise<{
    status: number;
    headers: http.IncomingHttpHeaders;
    text: string;
  }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // The caller awaits `answer` when it wants it; an early failure must not go unhandled first.
  answer.catch(() => undefined);
  req.flushHeaders();
  let sent = 0;
  return {
    get sent() {
      return sent;
    },
    answer,
    send(bytes) {
      const end =
        bytes === undefined ? options.body.length : Math.min(sent + bytes, options.body.length);
      const chunk = options.body.subarray(sent, end);
      sent = end;
      const complete = sent === declared;
      return new Promise<void>((resolve, reject) => {
        req.write(chunk, (err) => (err ? reject(err) : resolve()));
        if (complete) req.end();
      });
    },
    abort() {
      req.destroy();
    },
  };
}

/** The cluster's PostgreSQL database, for the server suite's factories and checks. */
export function clusterDatabase(databaseUrl: string): Database {
  return createDatabase({ kind: 'postgres', url: databaseUrl }, () => undefined);
}
