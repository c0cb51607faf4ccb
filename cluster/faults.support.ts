// Helpers of the cluster fault tests (faults*.test.ts): accounts made in-process on the cluster's
// database, uploads through nginx tagged so nginx's access log can say where each one went, and
// the checks after a run (what a client saw acknowledged is stored whole, nothing half-written,
// no orphan left after a sweep), made in-process against the same database and bucket.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig, type Config } from '../apps/server/src/config.js';
import { createDatabase, type Database } from '../apps/server/src/db/database.js';
import { createS3Storage, type Storage } from '../apps/server/src/media/storage/index.js';
import { sweepOnce } from '../apps/server/src/media/sweeper.js';
import { findReferencedMediaKeys } from '../apps/server/src/modules/uploads/uploads.repository.js';
import { buildProject, buildUser, DEFAULT_PASSWORD } from '../apps/server/test/factories.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { dtoPart, filePart, multipartBody, partialRequest, signIn } from './api.js';
import type { Cluster, Instance } from './harness.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number from the environment, or `fallback`. */
export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return n;
}

/** The cluster's database and bucket, opened by the test process itself. */
export interface Backdoor {
  db: Database;
  storage: Storage;
  config: Config;
  close(): Promise<void>;
}

export function openBackdoor(cluster: Cluster): Backdoor {
  const config = loadConfig({
    ...cluster.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitelog-faults-')),
  });
  const db = createDatabase(config.database, () => undefined);
  if (config.storage.kind !== 's3') throw new Error('the cluster runs on S3');
  const storage = createS3Storage(config.storage);
  return {
    db,
    storage,
    config,
    close: async () => {
      await storage.close();
      await db.destroy();
    },
  };
}

export interface Account {
  userId: number;
  email: string;
  projectId: number;
  token: string;
}

/** `count` members, each with a project of their own, signed in through `base` (nginx). */
export async function makeAccounts(db: Database, base: string, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < count; i++) {
    const user = await buildUser({ db });
    const project = await buildProject({ db }, { creatorId: user.id });
    const { token } = await signIn(base, user.email, DEFAULT_PASSWORD);
    accounts.push({ userId: user.id, email: user.email, projectId: project.id, token });
  }
  return accounts;
}

/** Small generated photos (noise, so they compress like photos), one per size. */
export function smallPhotos(
  sizes: [number, number][] = [
    [160, 120],
    [320, 240],
    [480, 360],
  ],
): Promise<Buffer[]> {
  return Promise.all(sizes.map(([w, h]) => photoJpeg(w, h)));
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** One upload a client means to make: its idempotency key stays the same over retries. */
export interface UploadSpec {
  index: number;
  account: Account;
  clientId: string;
  name: string;
  photo: Buffer;
  /** Acknowledged (200 with the upload): its id. */
  ackedId: number | null;
  /** Every try, in order. */
  attempts: Attempt[];
}

export interface Attempt {
  /** In the URL's query (`?fault=`), so nginx's access log names the try. */
  tag: string;
  spec: UploadSpec | null;
  startedAt: number;
  endedAt: number;
  /** The HTTP status; null when the connection failed or the client gave up waiting. */
  status: number | null;
  code: string | null;
  message: string | null;
  error: string | null;
  retryAfter: string | null;
  /** The error answer's requestId (the instance's log names it as reqId). */
  requestId: string | null;
  /** Earlier tags of this try, sent on a connection nginx had closed (see fetchAsBrowser). */
  resent: string[];
}

let tagSeq = 0;
export const newTag = (prefix: string) => `${prefix}${(tagSeq += 1)}-${randomUUID().slice(0, 8)}`;

export function newSpec(account: Account, index: number, photo: Buffer, label: string): UploadSpec {
  return {
    index,
    account,
    clientId: randomUUID(),
    name: `${label} ${index}`,
    photo,
    ackedId: null,
    attempts: [],
  };
}

/** The upload's multipart form, the JSON part first (the key is looked up as soon as it is in). */
export function uploadForm(spec: UploadSpec): FormData {
  const form = new FormData();
  form.append(
    'createUploadDto',
    JSON.stringify({
      name: spec.name,
      description: '',
      projectId: spec.account.projectId,
      clientId: spec.clientId,
    }),
  );
  form.append('file', new Blob([spec.photo], { type: 'image/jpeg' }), `${spec.clientId}.jpg`);
  return form;
}

async function readAnswer(res: Response, attempt: Attempt): Promise<unknown> {
  attempt.status = res.status;
  attempt.retryAfter = res.headers.get('retry-after');
  const text = await res.text();
  try {
    const body = JSON.parse(text) as unknown;
    if (res.status !== 200 && body && typeof body === 'object') {
      const { code, message, requestId } = body as Record<string, unknown>;
      attempt.code = typeof code === 'string' ? code : null;
      attempt.requestId = typeof requestId === 'string' ? requestId : null;
      attempt.message = typeof message === 'string' ? message : null;
    }
    return body;
  } catch {
    attempt.message = text.slice(0, 200);
    return null;
  }
}

/** An error with its cause (undici's "fetch failed" says why only there). */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const why = cause ? ` (${[cause.code, cause.message].filter(Boolean).join(' ')})` : '';
  return `${err.name}: ${err.message}${why}`;
}

function blankAttempt(tag: string, spec: UploadSpec | null): Attempt {
  return {
    tag,
    spec,
    startedAt: Date.now(),
    endedAt: 0,
    status: null,
    code: null,
    message: null,
    error: null,
    retryAfter: null,
    requestId: null,
    resent: [],
  };
}

/** Where requests go: nginx (the cluster, whose access log tells what reached it), or a URL. */
export type Target = string | Pick<Cluster, 'url' | 'accessLog'>;

const baseOf = (target: Target) => (typeof target === 'string' ? target : target.url);

/** The connection failed under the request before any answer (closed, reset). */
function connectionClosed(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Whether nginx's access log names `tag` within a second (nginx logs every request it read). */
async function reachedNginx(target: Pick<Cluster, 'accessLog'>, tag: string): Promise<boolean> {
  const deadline = Date.now() + 1000;
  for (;;) {
    if (target.accessLog().includes(`fault=${tag} `)) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/**
 * fetch, as a browser sends a request: one that went out on a kept-alive connection nginx had
 * already closed, and so never reached nginx (no line in its access log), is sent again on a new
 * connection, under a new tag (`attempt.resent` keeps why). nginx does close a connection right
 * after answering an upload that an instance refused before reading its body (the answer said
 * keep-alive); browsers send the next request again, Node's fetch does not.
 */
async function fetchAsBrowser(
  target: Target,
  attempt: Attempt,
  prefix: string,
  url: (tag: string) => string,
  init: () => RequestInit,
): Promise<Response> {
  for (let tries = 1; ; tries++) {
    try {
      return await fetch(url(attempt.tag), init());
    } catch (err) {
      if (
        typeof target === 'string' ||
        tries >= 3 ||
        !connectionClosed(err) ||
        (await reachedNginx(target, attempt.tag))
      )
        throw err;
      attempt.resent.push(`${attempt.tag}: ${errorText(err)}`);
      attempt.tag = newTag(prefix);
    }
  }
}

/** One try of `spec` through `target`; the spec is marked acknowledged on a 200. */
export async function tryUpload(
  target: Target,
  spec: UploadSpec,
  timeoutMs = 60_000,
): Promise<Attempt> {
  const attempt = blankAttempt(newTag('u'), spec);
  spec.attempts.push(attempt);
  try {
    const res = await fetchAsBrowser(
      target,
      attempt,
      'u',
      (tag) => `${baseOf(target)}/api/upload/autoupload?fault=${tag}`,
      () => ({
        method: 'POST',
        headers: { authorization: `Bearer ${spec.account.token}` },
        body: uploadForm(spec),
        signal: AbortSignal.timeout(timeoutMs),
      }),
    );
    const body = await readAnswer(res, attempt);
    if (res.status === 200) spec.ackedId = (body as { id: number }).id;
  } catch (err) {
    attempt.error = errorText(err);
  } finally {
    attempt.endedAt = Date.now();
  }
  return attempt;
}

/** A GET through `target` with a tag in its query; the answer's body is read and dropped. */
export async function tryGet(
  target: Target,
  pathname: string,
  token: string,
  timeoutMs = 60_000,
): Promise<Attempt> {
  const attempt = blankAttempt(newTag('g'), null);
  const sep = pathname.includes('?') ? '&' : '?';
  try {
    const res = await fetchAsBrowser(
      target,
      attempt,
      'g',
      (tag) => `${baseOf(target)}${pathname}${sep}fault=${tag}`,
      () => ({
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(timeoutMs),
      }),
    );
    await readAnswer(res, attempt);
  } catch (err) {
    attempt.error = errorText(err);
  } finally {
    attempt.endedAt = Date.now();
  }
  return attempt;
}

/**
 * A short account of an attempt for failure messages: what the client saw, where nginx sent it,
 * and (given the cluster) what the instance logged for it.
 */
export function describeAttempt(
  a: Attempt,
  route?: Routed,
  cluster?: Pick<Cluster, 'instances' | 'nginxErrors'>,
): string {
  const what = a.spec ? `upload ${a.spec.name}` : 'GET';
  const outcome = a.error ?? `${a.status} ${a.code ?? ''} ${a.message ?? ''}`.trim();
  const where = route
    ? ` via ${route.upstreams.join(', ')} (${route.upstreamStatuses.join(', ')})`
    : ' (not in the access log)';
  let logged = '';
  if (cluster) {
    // Its warnings and errors (by the requestId of an error answer), and its request-log line
    // (whose URL holds the tag): whether an instance answered it at all.
    const lines = cluster.instances.flatMap((i) =>
      i
        .logs()
        .filter(
          (l) =>
            (a.requestId !== null && l.reqId === a.requestId && (l.level ?? 0) >= 40) ||
            JSON.stringify(l).includes(`fault=${a.tag}`),
        )
        .map(
          (l) =>
            `${i.name}: ${l.msg ?? ''} ${JSON.stringify(l.err ?? l.reason ?? l.res ?? l.statusCode ?? '')}`,
        ),
    );
    if (lines.length) logged = `; logged: ${lines.join(' | ')}`;
  }
  if (cluster) {
    // nginx's error log names the request line, tag included.
    const errors = cluster
      .nginxErrors()
      .split('\n')
      .filter((line) => line.includes(`fault=${a.tag} `))
      .map((line) => line.replace(/^\S+ \S+ /, ''));
    if (errors.length) logged += `; nginx: ${errors.join(' | ')}`;
  }
  return `${what} [${a.tag}] ${a.startedAt}→${a.endedAt} (${a.endedAt - a.startedAt} ms): ${outcome}${where}${logged}`;
}

/** What nginx's access log says of one tagged request. */
export interface Routed {
  status: number;
  /** Every instance nginx tried, in order (`127.0.0.1:port`). */
  upstreams: string[];
  upstreamStatuses: string[];
}

/**
 * nginx's access log by tag. The harness's format: `$remote_addr "$request" $status
 * upstream=$upstream_addr upstream_status=$upstream_status time=$request_time`, where a request
 * nginx passed on to a second instance lists both (`a, b`).
 */
export function routesByTag(accessLog: string): Map<string, Routed> {
  const out = new Map<string, Routed>();
  const line =
    /"[A-Z]+ [^"]*[?&]fault=([\w-]+)[^"]*" (\d+) upstream=(.*?) upstream_status=(.*?) time=/;
  for (const text of accessLog.split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    // Tries are separated by ", " (and by " : " across an internal redirect such as error_page).
    const list = (s: string) => s.split(/, | : /).filter((x) => x && x !== '-');
    out.set(m[1]!, {
      status: Number(m[2]),
      upstreams: list(m[3]!),
      upstreamStatuses: list(m[4]!),
    });
  }
  return out;
}

/**
 * nginx's access log once it names every one of `attempts` (nginx writes a request's line after
 * the client may already have read the answer).
 */
export async function routesOf(
  cluster: Pick<Cluster, 'accessLog'>,
  attempts: Attempt[],
  timeoutMs = 10_000,
): Promise<Map<string, Routed>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const routes = routesByTag(cluster.accessLog());
    const missing = attempts.filter((a) => !routes.has(a.tag));
    if (missing.length === 0) return routes;
    if (Date.now() > deadline)
      throw new Error(
        `not in nginx's access log after ${timeoutMs} ms:\n` +
          missing.map((a) => describeAttempt(a)).join('\n'),
      );
    await sleep(50);
  }
}

/** `127.0.0.1:port`, as nginx names an instance. */
export const upstreamOf = (instance: Instance) => `127.0.0.1:${instance.port}`;

/** The instance a request finally reached (the last one nginx tried). */
export const finalUpstream = (r: Routed | undefined) => r?.upstreams[r.upstreams.length - 1];

export interface StoreCheck {
  rows: number;
  acknowledged: number;
  /** Not acknowledged (given up) but stored whole anyway. */
  unacknowledgedStored: number;
  problems: string[];
  referencedKeys: string[];
}

/**
 * What the database and the bucket hold for `specs`' accounts, against what the clients saw:
 * - every acknowledged upload is a row (the id the client got, one row per clientId) with its
 *   three objects: the original byte for byte (size and SHA-256), the renditions decodable;
 * - every upload not acknowledged is one such whole row or nothing;
 * - no row the clients did not send; no row lacking an object (a dangling row);
 * - each member's and project's stored upload count equals their rows.
 */
export async function checkStored(backdoor: Backdoor, specs: UploadSpec[]): Promise<StoreCheck> {
  const { db, storage } = backdoor;
  const problems: string[] = [];
  const accounts = [...new Map(specs.map((s) => [s.account.userId, s.account])).values()];
  const rows = await db
    .selectFrom('uploads')
    .selectAll()
    .where(
      'creator_id',
      'in',
      accounts.map((a) => a.userId),
    )
    .execute();
  const byClientId = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byClientId.get(row.client_id ?? '') ?? [];
    list.push(row);
    byClientId.set(row.client_id ?? '', list);
  }
  const sent = new Set(specs.map((s) => s.clientId));
  for (const row of rows)
    if (!sent.has(row.client_id ?? '')) problems.push(`row ${row.id} was never sent`);
  let unacknowledgedStored = 0;
  for (const spec of specs) {
    const found = byClientId.get(spec.clientId) ?? [];
    if (found.length > 1)
      problems.push(`${spec.name}: ${found.length} rows for one clientId (a retry duplicated)`);
    const row = found[0];
    if (spec.ackedId !== null) {
      if (!row) problems.push(`${spec.name}: acknowledged as ${spec.ackedId} but lost`);
      else if (row.id !== spec.ackedId)
        problems.push(`${spec.name}: acknowledged as ${spec.ackedId}, stored as ${row.id}`);
    } else if (row) unacknowledgedStored += 1;
    if (row) {
      if (row.name !== spec.name) problems.push(`row ${row.id}: name ${row.name}`);
      if (row.project_id !== spec.account.projectId) problems.push(`row ${row.id}: project`);
    }
  }
  // Every row whole: a row whose object is missing is dangling.
  const expected = new Map(specs.map((s) => [s.clientId, s]));
  await Promise.all(
    rows.map(async (row) => {
      const original = await storage.get(row.original_key);
      const spec = expected.get(row.client_id ?? '');
      if (!original) problems.push(`row ${row.id}: original ${row.original_key} missing`);
      else {
        if (original.length !== Number(row.original_bytes))
          problems.push(
            `row ${row.id}: original is ${original.length} bytes, row says ${row.original_bytes}`,
          );
        if (spec && sha256(original) !== sha256(spec.photo))
          problems.push(`row ${row.id}: original differs from the photo sent`);
        if (row.original_sha256 !== null && row.original_sha256 !== sha256(original))
          problems.push(`row ${row.id}: original's SHA-256 differs from the row's`);
      }
      for (const key of [row.preview_key, row.formatted_key]) {
        const bytes = await storage.get(key);
        if (!bytes) {
          problems.push(`row ${row.id}: ${key} missing`);
          continue;
        }
        const meta = await sharp(bytes)
          .metadata()
          .catch(() => null);
        if (!meta?.width) problems.push(`row ${row.id}: ${key} does not decode`);
      }
    }),
  );
  // The counters equal the rows.
  for (const account of accounts) {
    const mine = rows.filter((r) => r.creator_id === account.userId).length;
    const user = await db
      .selectFrom('users')
      .select('uploads_count')
      .where('id', '=', account.userId)
      .executeTakeFirstOrThrow();
    if (Number(user.uploads_count) !== mine)
      problems.push(`user ${account.userId}: uploads_count ${user.uploads_count}, rows ${mine}`);
    const inProject = rows.filter((r) => r.project_id === account.projectId).length;
    const project = await db
      .selectFrom('projects')
      .select('uploads_count')
      .where('id', '=', account.projectId)
      .executeTakeFirstOrThrow();
    if (Number(project.uploads_count) !== inProject)
      problems.push(
        `project ${account.projectId}: uploads_count ${project.uploads_count}, rows ${inProject}`,
      );
  }
  return {
    rows: rows.length,
    acknowledged: specs.filter((s) => s.ackedId !== null).length,
    unacknowledgedStored,
    problems,
    referencedKeys: rows.flatMap((r) => [r.original_key, r.preview_key, r.formatted_key]).sort(),
  };
}

/** Every object under `uploads/` in the bucket, sorted. */
export async function bucketKeys(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list('uploads/')) keys.push(object.key);
  return keys.sort();
}

export interface SweepCheck {
  objectsBefore: number;
  orphansRemoved: number;
  tempFilesRemoved: number;
  /** Objects left that no row references (must be 0). */
  orphansLeft: string[];
  /** Referenced keys missing from the bucket (must be 0). */
  danglingKeys: string[];
  /** Files left in the instances' temp folders (must be 0). */
  tempLeft: string[];
}

/**
 * One sweep as the instances' sweeper does it, in-process against the cluster's database and
 * bucket, with no grace (nothing is in flight now), over each instance's temp folder; then what
 * the bucket holds is compared with what every row of the database references.
 */
export async function sweepAndCompare(backdoor: Backdoor, cluster: Cluster): Promise<SweepCheck> {
  const { db, storage } = backdoor;
  const objectsBefore = (await bucketKeys(storage)).length;
  let orphansRemoved = 0;
  let tempFilesRemoved = 0;
  const tempDirs = cluster.instances.map((i) => path.join(i.dataDir, 'tmp'));
  for (const tempDir of tempDirs) {
    const swept = await sweepOnce(
      {
        storage,
        config: { uploads: { ...backdoor.config.uploads, tempDir } },
        findReferencedKeys: (keys) => findReferencedMediaKeys(db, keys),
      },
      { orphanMinAgeMs: 0, tempMaxAgeMs: 0 },
    );
    orphansRemoved += swept.orphansRemoved;
    tempFilesRemoved += swept.tempFilesRemoved;
  }
  const all = await db
    .selectFrom('uploads')
    .select(['original_key', 'preview_key', 'formatted_key'])
    .execute();
  const referenced = new Set(all.flatMap((r) => [r.original_key, r.preview_key, r.formatted_key]));
  const left = await bucketKeys(storage);
  const leftSet = new Set(left);
  return {
    objectsBefore,
    orphansRemoved,
    tempFilesRemoved,
    orphansLeft: left.filter((k) => !referenced.has(k)),
    danglingKeys: [...referenced].filter((k) => !leftSet.has(k)),
    tempLeft: tempDirs.flatMap((d) => (existsSync(d) ? readdirSync(d) : [])),
  };
}

/**
 * An upload whose body is sent in two halves, the second only when `finish()` is called: the
 * request stays in flight (reading its body) on whichever instance nginx gave it to.
 */
export interface SlowUpload {
  spec: UploadSpec;
  attempt: Attempt;
  /** Sends the rest of the body. */
  finish(): Promise<void>;
  /** Resolves with the attempt once the answer is in (or the connection failed). */
  done: Promise<Attempt>;
}

export async function slowUpload(base: string, spec: UploadSpec): Promise<SlowUpload> {
  const attempt = blankAttempt(newTag('s'), spec);
  spec.attempts.push(attempt);
  const body = multipartBody([
    dtoPart({
      name: spec.name,
      description: '',
      projectId: spec.account.projectId,
      clientId: spec.clientId,
    }),
    filePart(spec.photo, `${spec.clientId}.jpg`),
  ]);
  const req = partialRequest(`${base}/api/upload/autoupload?fault=${attempt.tag}`, {
    headers: { ...body.headers, authorization: `Bearer ${spec.account.token}` },
    body: body.payload,
  });
  const done = req.answer.then(
    async (res) => {
      const answer = await readAnswer(new Response(res.text, { status: res.status }), attempt);
      attempt.retryAfter = res.headers['retry-after'] ?? null;
      if (res.status === 200) spec.ackedId = (answer as { id: number }).id;
      attempt.endedAt = Date.now();
      return attempt;
    },
    (err: unknown) => {
      attempt.error = errorText(err);
      attempt.endedAt = Date.now();
      return attempt;
    },
  );
  // The JSON part and the first half of the photo now; the rest on finish().
  await req.send(body.payload.length - Math.floor(spec.photo.length / 2));
  return { spec, attempt, finish: () => req.send(), done };
}
