// What one process used to hold for itself, held across two instances behind nginx on one
// PostgreSQL database and one bucket (issue 17): the sample workspace seeded once, sessions and
// logout, the sign-in limits, media signatures, uploads through the proxy and their idempotency
// keys, notifications, the gazetteer, the report queue, the migrations, and one sweeper leader.
// One cluster for the whole file (a start costs ~10 s and each instance loads the gazetteer), so
// the tests run in order: the seeding is checked first, on the untouched workspace, and the
// sweeper last, as it kills an instance. Where a test needs "A" and "B" it calls the instances
// directly; where it goes through nginx it checks in nginx's access log (each request tagged with
// a `probe` query) which instances answered.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import type { LoginHints, Report, ReportDetail, SessionUser, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../apps/server/src/db/database.js';
import { contentTypeForKey, newUploadKeys } from '../apps/server/src/media/media-types.js';
import { buildProject, buildUser, DEFAULT_PASSWORD } from '../apps/server/test/factories.js';
import { photoJpeg } from '../apps/server/test/images.js';
import {
  apiJson,
  clusterDatabase,
  partialRequest,
  postLogin,
  postUpload,
  request,
  samplePhoto,
  signIn,
  uploadBody,
  uploadPhoto,
} from './api.js';
import { repoRoot, startCluster, type Cluster, type Instance, type LogLine } from './harness.js';
import { waitFor } from './processes.js';

const run = promisify(execFile);

/** Failed sign-ins per account+IP before 429: low, so the limit is reached in a few requests. */
const ACCOUNT_LIMIT = 3;
/** The app's upload limit here: above the streamed photo, far below nginx's 80m. */
const UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** How often each instance sweeps, and how often a follower asks for the leader lock (seconds). */
const SWEEP_INTERVAL_SECONDS = 2;

let cluster: Cluster;
let db: Database;
let a: Instance;
let b: Instance;
let s3: S3Client;

beforeAll(async () => {
  // Both instances start at once on an empty database, as a deploy starts them.
  cluster = await startCluster({
    instances: 2,
    sampleData: true,
    env: {
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(ACCOUNT_LIMIT),
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
      SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_SECONDS),
      // The default, said here because the report queue's test counts on it.
      REPORT_CONCURRENCY: '1',
    },
  });
  [a, b] = cluster.instances as [Instance, Instance];
  db = clusterDatabase(cluster.databaseUrl);
  s3 = new S3Client({
    endpoint: cluster.s3.endpoint,
    region: cluster.env.S3_REGION!,
    forcePathStyle: true,
    credentials: {
      accessKeyId: cluster.env.S3_ACCESS_KEY_ID!,
      secretAccessKey: cluster.env.S3_SECRET_ACCESS_KEY!,
    },
  });
});

afterAll(async () => {
  s3?.destroy();
  await db?.destroy();
  await cluster?.close();
});

const byNumber = (x: number, y: number) => x - y;

/** A tag for the requests of one step, so their lines can be found in the logs. */
const probe = (what: string) => `${what}-${randomBytes(4).toString('hex')}`;

/** The instances nginx sent the requests tagged `tag` to, one entry per request, in order. */
function upstreamsOf(tag: string): string[] {
  const byAddress = new Map(cluster.instances.map((i) => [`127.0.0.1:${i.port}`, i.name]));
  return cluster
    .accessLog()
    .split('\n')
    .filter((line) => line.includes(`probe=${tag}`))
    .map((line) => {
      const address = /upstream=(\S+)/.exec(line)?.[1] ?? '?';
      return byAddress.get(address) ?? address;
    });
}

/**
 * `upstreamsOf`, once nginx has logged `count` requests tagged `tag` (it writes the line after
 * the answer has gone out, so the client may see the answer first).
 */
async function loggedUpstreams(tag: string, count: number): Promise<string[]> {
  await waitFor(`${count} access log lines tagged ${tag}`, () => upstreamsOf(tag).length >= count);
  return upstreamsOf(tag);
}

/** Both instances' request log lines whose URL carries `tag`. */
function requestLines(tag: string) {
  return cluster.instances.flatMap((instance) =>
    instance
      .logs()
      .filter(
        (line) =>
          line.msg === 'request completed' &&
          String((line.req as { url?: string } | undefined)?.url ?? '').includes(`probe=${tag}`),
      )
      .map((line) => ({
        instance: instance.name,
        ip: (line.req as { ip?: string }).ip,
        status: (line.res as { statusCode?: number } | undefined)?.statusCode,
      })),
  );
}

/** `requestLines`, once `count` are there (an instance logs a request after answering it). */
async function loggedRequests(tag: string, count: number) {
  await waitFor(
    `${count} request log lines tagged ${tag}`,
    () => requestLines(tag).length >= count,
  );
  return requestLines(tag);
}

/** Every key in the bucket under `prefix`. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page: ListObjectsV2CommandOutput = await s3.send(
      new ListObjectsV2Command({
        Bucket: cluster.s3.bucket,
        Prefix: prefix,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) keys.push(object.Key!);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

const count = async (table: 'users' | 'projects' | 'uploads' | 'comments' | 'reports') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const linesOf = (instance: Instance, msg: string): LogLine[] =>
  instance.logs().filter((line) => line.msg === msg);

const me = (base: string, token: string) => request<SessionUser>(base, '/api/auth/me', { token });

describe('the sample workspace', () => {
  it('is seeded once when two instances start together on an empty database', async () => {
    await waitFor('an instance to log the seeding', () =>
      cluster.instances.some((i) => linesOf(i, 'created the sample workspace').length > 0),
    );
    const seedings = cluster.instances.flatMap((i) => linesOf(i, 'created the sample workspace'));
    expect(seedings).toHaveLength(1);
    const seeded = seedings[0] as LogLine & { photos: number; comments: number };

    // One seeding's rows (sample-workspace.ts: 5 people, 7 projects, 2 reports; the photos and
    // comments as the seeding instance counted them), nothing twice.
    expect(await count('users')).toBe(5);
    expect(await count('projects')).toBe(7);
    expect(await count('uploads')).toBe(seeded.photos);
    expect(await count('comments')).toBe(seeded.comments);
    expect(await count('reports')).toBe(2);
    const twice = await db
      .selectFrom('uploads')
      .select(['project_id', 'name'])
      .groupBy(['project_id', 'name'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(twice).toEqual([]);

    // The bucket holds exactly the objects the rows reference: no second seeding's photos left
    // behind. (The report PDFs are checked once the queue has made them, further down.)
    const uploads = await db
      .selectFrom('uploads')
      .select(['preview_key', 'formatted_key', 'original_key'])
      .execute();
    expect(await bucketKeys('uploads/')).toEqual(
      uploads.flatMap((u) => [u.preview_key, u.formatted_key, u.original_key]).sort(),
    );
  });

  it('signs the sample admin in on both instances', async () => {
    // The login page's hint, asked of an instance directly on this machine (the sample password
    // is handed out only then, never through the proxy).
    const hints = await apiJson<LoginHints>(a.url, '/api/auth/hints');
    expect(hints.sample).not.toBeNull();
    const { email, password } = hints.sample!;
    expect((await apiJson<LoginHints>(cluster.url, '/api/auth/hints')).sample).toBeNull();
    const onA = await signIn(a.url, email, password);
    const onB = await signIn(b.url, email, password);
    expect(onA.isAdmin).toBe(true);
    expect(onB.id).toBe(onA.id);
  });
});

describe('sessions', () => {
  it('a sign-in on A works on B, and a logout on B ends it on A', async () => {
    const user = await buildUser({ db });
    const session = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    const onB = await me(b.url, session.token);
    expect(onB.status, onB.text).toBe(200);
    expect(onB.json.id).toBe(user.id);

    const logout = await request(b.url, '/api/auth/logout', {
      method: 'POST',
      token: session.token,
    });
    expect(logout.status, logout.text).toBe(200);
    for (const instance of [a, b]) {
      const after = await me(instance.url, session.token);
      expect(after.status, `${instance.name}: ${after.text}`).toBe(401);
    }
    expect((await me(cluster.url, session.token)).status).toBe(401);
  });

  it('a password change on A ends the other sessions on both instances', async () => {
    const user = await buildUser({ db });
    const changer = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    const otherOnB = await signIn(b.url, user.email, DEFAULT_PASSWORD);
    const otherOnA = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    for (const [instance, token] of [
      [b, otherOnB.token],
      [a, otherOnA.token],
    ] as const)
      expect((await me(instance.url, token)).status).toBe(200);

    const next = `Quartz lantern orbit ${randomBytes(3).toString('hex')} meadow`;
    const change = await request(a.url, '/api/auth/password', {
      token: changer.token,
      json: { password: { current: DEFAULT_PASSWORD, next } },
    });
    expect(change.status, change.text).toBe(200);

    for (const instance of [a, b])
      for (const token of [otherOnA.token, otherOnB.token]) {
        const res = await me(instance.url, token);
        expect(res.status, `${instance.name}: ${res.text}`).toBe(401);
      }
    // The session that changed it goes on, on either instance.
    expect((await me(b.url, changer.token)).status).toBe(200);
  });
});

describe('sign-in limits', () => {
  it('counts failures from one client across both instances', async () => {
    const user = await buildUser({ db });
    // The address a proxy in front would report (the instances trust one hop).
    const client = { 'x-forwarded-for': '198.51.100.7' };
    const tag = probe('alternate');
    const path = `/api/auth/login?probe=${tag}`;
    for (let i = 0; i < ACCOUNT_LIMIT; i += 1) {
      const instance = i % 2 === 0 ? a : b;
      const res = await postLogin(instance.url, user.email, 'wrong password', {
        headers: client,
        path,
      });
      expect(res.status, `attempt ${i + 1} on ${instance.name}: ${res.text}`).toBe(401);
    }
    // Each instance saw only half of them: the 429 comes from the shared count, on both.
    for (const instance of [a, b]) {
      const res = await postLogin(instance.url, user.email, 'wrong password', {
        headers: client,
        path,
      });
      expect(res.status, `${instance.name}: ${res.text}`).toBe(429);
      expect(res.json.code).toBe('too_many_attempts');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // Even the right password waits out the window from that address.
    expect(
      (await postLogin(b.url, user.email, DEFAULT_PASSWORD, { headers: client, path })).status,
    ).toBe(429);
    const lines = await loggedRequests(tag, ACCOUNT_LIMIT + 3);
    expect(lines).toHaveLength(ACCOUNT_LIMIT + 3);
    expect(new Set(lines.map((l) => l.instance))).toEqual(new Set(['a', 'b']));
    expect(new Set(lines.map((l) => l.ip))).toEqual(new Set(['198.51.100.7']));
  });

  it('through nginx, an X-Forwarded-For the client writes does not dodge the limit', async () => {
    const user = await buildUser({ db });
    const tag = probe('forged');
    const path = `/api/auth/login?probe=${tag}`;
    const forged = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i + 1}` });
    for (let i = 0; i < ACCOUNT_LIMIT; i += 1) {
      const res = await postLogin(cluster.url, user.email, 'wrong password', {
        headers: forged(i),
        path,
      });
      expect(res.status, `attempt ${i + 1}: ${res.text}`).toBe(401);
    }
    const refused = await postLogin(cluster.url, user.email, 'wrong password', {
      headers: forged(99),
      path,
    });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.code).toBe('too_many_attempts');

    // nginx spread the attempts over both instances, and each saw nginx's client address
    // (this machine's), never what the client wrote.
    expect(new Set(await loggedUpstreams(tag, ACCOUNT_LIMIT + 1))).toEqual(new Set(['a', 'b']));
    const seen = await loggedRequests(tag, ACCOUNT_LIMIT + 1);
    expect(seen).toHaveLength(ACCOUNT_LIMIT + 1);
    expect(new Set(seen.map((l) => l.ip))).toEqual(new Set(['127.0.0.1']));
  });

  it('with TRUST_PROXY=1 the last hop decides the client address', async () => {
    const user = await buildUser({ db });
    const tag = probe('lasthop');
    const path = `/api/auth/login?probe=${tag}`;
    // Whatever a client wrote further left changes nothing: the address the trusted proxy
    // appended (the last one) is counted, on either instance.
    for (let i = 0; i < ACCOUNT_LIMIT; i += 1) {
      const res = await postLogin(i % 2 === 0 ? a.url : b.url, user.email, 'wrong password', {
        headers: { 'x-forwarded-for': `10.9.8.${i}, 192.0.2.10` },
        path,
      });
      expect(res.status, res.text).toBe(401);
    }
    const limited = await postLogin(a.url, user.email, 'wrong password', {
      headers: { 'x-forwarded-for': '10.9.8.200, 192.0.2.10' },
      path,
    });
    expect(limited.status, limited.text).toBe(429);
    // Another last hop is another client: not limited.
    const other = await postLogin(b.url, user.email, 'wrong password', {
      headers: { 'x-forwarded-for': '192.0.2.10, 192.0.2.11' },
      path,
    });
    expect(other.status, other.text).toBe(401);
    const ips = (await loggedRequests(tag, ACCOUNT_LIMIT + 2)).map((l) => l.ip);
    expect(ips.filter((ip) => ip === '192.0.2.10')).toHaveLength(ACCOUNT_LIMIT + 1);
    expect(ips.filter((ip) => ip === '192.0.2.11')).toHaveLength(1);
  });
});

describe('media links', () => {
  it('a /media link A hands out is served by B and through nginx, its headers intact', async () => {
    // MEDIA_DELIVERY=app (the harness's default): the bucket is reached by the instances only,
    // and the API hands out /media links signed with the one SECRET, bound to the session.
    expect(cluster.env.MEDIA_DELIVERY).toBe('app');
    const user = await buildUser({ db });
    const project = await buildProject({ db }, { creatorId: user.id });
    const session = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    const upload = await uploadPhoto(cluster.url, session.token, {
      projectId: project.id,
      name: 'Cluster roof',
    });
    const feedOn = async (instance: Instance) => {
      const feed = await apiJson<Upload[]>(
        instance.url,
        `/api/upload/project/${project.id}/latest`,
        { token: session.token },
      );
      expect(feed.map((u) => u.id)).toEqual([upload.id]);
      return feed[0]!;
    };
    // A's feed answer, and B's for the same session: the same links (signed for a time bucket),
    // so a browser's cached copy stays valid whichever instance answers the next feed.
    let fromA!: Upload;
    let fromB!: Upload;
    await waitFor('the same links from A and B within one time bucket', async () => {
      fromA = await feedOn(a);
      fromB = await feedOn(b);
      // A bucket boundary between the two asks: ask again.
      return (await feedOn(a)).previewLink === fromA.previewLink;
    });
    expect(fromB.previewLink).toBe(fromA.previewLink);
    expect(fromB.originalLink).toBe(fromA.originalLink);
    const link = fromA.previewLink;
    expect(link).toMatch(/^\/media\/uploads\/.+\?exp=\d+&sid=\d+&sig=[0-9a-f]{64}$/);
    const previewKey = new URL(link, 'http://x').pathname.slice('/media/'.length);

    // Served by either instance directly, from the bucket, with the same headers.
    const heads = ['cache-control', 'etag', 'content-type'] as const;
    const direct: Record<string, Record<string, string | null>> = {};
    const bytes: Buffer[] = [];
    for (const instance of [a, b]) {
      const res = await fetch(new URL(link, instance.url));
      expect(res.status, `${instance.name}: ${await res.clone().text()}`).toBe(200);
      bytes.push(Buffer.from(await res.arrayBuffer()));
      direct[instance.name] = Object.fromEntries(heads.map((h) => [h, res.headers.get(h)]));
    }
    expect(bytes[0]!.length).toBeGreaterThan(0);
    expect(bytes[1]!.equals(bytes[0]!)).toBe(true);
    expect(direct.b).toEqual(direct.a);
    expect(direct.a!['content-type']).toBe(contentTypeForKey(previewKey));
    expect(direct.a!['cache-control']).toBe('private, max-age=300, must-revalidate');
    expect(direct.a!.etag).toMatch(/^"[\w-]+"$/);
    const etag = { 'if-none-match': direct.a!.etag! };
    for (const instance of [a, b]) {
      const res = await fetch(new URL(link, instance.url), { headers: etag });
      expect(res.status, instance.name).toBe(304);
      expect(res.headers.get('etag')).toBe(direct.a!.etag);
    }

    // Through nginx: the same bytes and headers, and the revalidation's 304 from an instance.
    const before = cluster.accessLog().split('\n').length;
    const proxied = await fetch(new URL(link, cluster.url));
    expect(proxied.status).toBe(200);
    expect(Buffer.from(await proxied.arrayBuffer()).equals(bytes[0]!)).toBe(true);
    expect(Object.fromEntries(heads.map((h) => [h, proxied.headers.get(h)]))).toEqual(direct.a);
    const revalidated = await fetch(new URL(link, cluster.url), { headers: etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(direct.a!.etag);
    expect(revalidated.headers.get('cache-control')).toBe(direct.a!['cache-control']);
    const mediaLines = () =>
      cluster
        .accessLog()
        .split('\n')
        .slice(before - 1)
        .filter((line) => line.includes('/media/'));
    await waitFor('nginx to log both', () => mediaLines().length >= 2);
    expect(mediaLines().map((line) => / (\d{3}) upstream=127/.exec(line)?.[1])).toEqual([
      '200',
      '304',
    ]);

    // The original, handed out by A, downloads from B and through nginx: named, never cached.
    for (const base of [b.url, cluster.url]) {
      const res = await fetch(new URL(fromA.originalLink, base));
      expect(res.status, base).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="Cluster roof\.jpg"/,
      );
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await res.arrayBuffer()).equals(await samplePhoto())).toBe(true);
    }

    // A tampered signature is refused by both, and through nginx.
    const url = new URL(link, 'http://x');
    const sig = url.searchParams.get('sig')!;
    url.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    const tampered = `${url.pathname}${url.search}`;
    for (const base of [a.url, b.url, cluster.url]) {
      const res = await request<{ code: string }>(base, tampered);
      expect(res.status, `${base}: ${res.text}`).toBe(403);
      expect(res.json.code).toBe('invalid_media_link');
    }

    // Signed out on B: A's link stops on both, revalidation included.
    const logout = await request(b.url, '/api/auth/logout', {
      method: 'POST',
      token: session.token,
    });
    expect(logout.status).toBe(200);
    for (const base of [a.url, b.url, cluster.url]) {
      for (const headers of [{}, etag]) {
        const res = await request<{ code: string; message: string }>(base, link, { headers });
        expect(res.status, `${base}: ${res.text}`).toBe(403);
        expect(res.json.message).toMatch(/session that has ended/);
      }
    }
  });
});

/** Files in `dir` and below. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Request bodies nginx is spooling to disk: files in its client_body temp folder, and files there
 * its processes hold open (nginx unlinks a body's temp file as soon as it creates it, so the
 * folder alone always looks empty; /proc still shows the open file, marked deleted).
 */
function spooledBodies(): string[] {
  const folder = path.join(cluster.dir, 'nginx', 'client_body');
  const found = filesUnder(folder);
  const master = readFileSync(path.join(cluster.dir, 'nginx', 'nginx.pid'), 'utf8').trim();
  const parentOf = (pid: string) => {
    try {
      // /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces.
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
    } catch {
      return undefined;
    }
  };
  const nginxPids = [
    master,
    ...readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && parentOf(pid) === master),
  ];
  for (const pid of nginxPids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith(folder)) found.push(target);
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}

/** The bytes an instance has written to upload temp files so far. */
function tempUploadBytes(instance: Instance): number {
  const dir = path.join(instance.dataDir, 'tmp');
  let total = 0;
  try {
    for (const file of filesUnder(dir))
      total += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    // no temp folder yet
  }
  return total;
}

describe('uploads through nginx', () => {
  let token: string;
  let projectId: number;
  let userId: number;
  beforeAll(async () => {
    const user = await buildUser({ db });
    userId = user.id;
    projectId = (await buildProject({ db }, { creatorId: user.id })).id;
    token = (await signIn(cluster.url, user.email, DEFAULT_PASSWORD)).token;
  });

  it('streams a multi-MB body to an instance as it arrives, nothing spooled by nginx', async () => {
    const photo = await photoJpeg(2400, 1800, 95);
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const body = await uploadBody({ projectId, file: photo, name: 'streamed' });
    const tag = probe('stream');
    const upload = partialRequest(`${cluster.url}/api/upload/autoupload?probe=${tag}`, {
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      body: body.payload,
    });
    // Half the photo is sent, then the client pauses: the instance must already be writing it.
    const half = Math.floor(body.payload.length / 2);
    for (let sent = 0; sent < half; sent += 256 * 1024) await upload.send(256 * 1024);
    await waitFor(
      'an instance to hold most of the first half in its temp file',
      () => tempUploadBytes(a) + tempUploadBytes(b) >= half / 2,
      30_000,
      50,
    );
    expect(spooledBodies()).toEqual([]);
    expect(upload.sent).toBeLessThan(body.payload.length);
    // The rest, a piece at a time, with nothing spooled meanwhile either.
    while (upload.sent < body.payload.length) {
      await upload.send(512 * 1024);
      expect(spooledBodies()).toEqual([]);
    }
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(200);
    const created = JSON.parse(answer.text) as Upload;
    expect(created.name).toBe('streamed');
    expect(await loggedUpstreams(tag, 1)).toHaveLength(1);
    // The stored original is the whole photo.
    const row = await db
      .selectFrom('uploads')
      .select('original_bytes')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.original_bytes)).toBe(photo.length);
  });

  it('a body over UPLOAD_MAX_BYTES gets the app’s own 413', async () => {
    const tag = probe('applimit');
    const res = await postUpload(
      cluster.url,
      token,
      {
        projectId,
        file: Buffer.concat([
          Buffer.from([0xff, 0xd8, 0xff]),
          randomBytes(UPLOAD_MAX_BYTES + 1024),
        ]),
      },
      `/api/upload/autoupload?probe=${tag}`,
    );
    expect(res.status, res.text).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/8 MB/),
    });
    expect(res.json).toHaveProperty('requestId');
    // The app answered it (nginx passed it on to an instance).
    const [upstream, ...more] = await loggedUpstreams(tag, 1);
    expect(more).toEqual([]);
    expect(['a', 'b']).toContain(upstream);
  });

  it('a body over nginx’s limit gets nginx’s 413 in the app’s error shape', async () => {
    const tag = probe('proxylimit');
    const body = await uploadBody({ projectId });
    const upload = partialRequest(`${cluster.url}/api/upload/autoupload?probe=${tag}`, {
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      body: body.payload,
      contentLength: 81 * 1024 * 1024,
    });
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(413);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const json = JSON.parse(answer.text) as { code: string; message: string };
      expect(json.code).toBe('payload_too_large');
      expect(json.message).toBe('The request is too large.');
    } finally {
      upload.abort();
    }
    // nginx refused it itself: no instance was asked.
    expect(await loggedUpstreams(tag, 1)).toEqual(['-']);
  });

  it('the same clientId sent to A and then to B answers the same photo, stored once', async () => {
    const clientId = randomUUID();
    const first = await postUpload(a.url, token, { projectId, clientId, name: 'once' });
    expect(first.status, first.text).toBe(200);
    const again = await postUpload(b.url, token, { projectId, clientId, name: 'once' });
    expect(again.status, again.text).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    const rows = await db
      .selectFrom('uploads')
      .select('id')
      .where('creator_id', '=', userId)
      .where('client_id', '=', clientId)
      .execute();
    expect(rows).toEqual([{ id: first.json.id }]);
  });
});

describe('notifications', () => {
  it('a comment written through A shows in the unread count read through B', async () => {
    const owner = await buildUser({ db });
    const writer = await buildUser({ db });
    const project = await buildProject({ db }, { creatorId: owner.id });
    const ownerSession = await signIn(b.url, owner.email, DEFAULT_PASSWORD);
    const writerSession = await signIn(a.url, writer.email, DEFAULT_PASSWORD);
    const upload = await uploadPhoto(b.url, ownerSession.token, { projectId: project.id });
    const unread = async () =>
      (
        await apiJson<{ count: number }>(b.url, '/api/notifications/unread', {
          token: ownerSession.token,
        })
      ).count;
    const before = await unread();
    const comment = await request(a.url, `/api/upload/${upload.id}/comments`, {
      token: writerSession.token,
      json: { body: 'Formwork checked on level 2, fine to pour.' },
    });
    expect(comment.status, comment.text).toBe(201);
    // B polls as a tab would; the count is read from the shared table.
    await waitFor(
      'the unread count on B to grow',
      async () => (await unread()) === before + 1,
      10_000,
    );
  });
});

describe('the gazetteer', () => {
  it('answers place searches on both instances', async () => {
    const user = await buildUser({ db });
    const session = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    for (const instance of [a, b]) {
      // Each instance loads it from the package at start (in memory, per process).
      const places = await apiJson<{ name: string; country: string }[]>(
        instance.url,
        '/api/places?query=Hamburg',
        { token: session.token, timeoutMs: 120_000 },
      );
      expect(places).toContainEqual(
        expect.objectContaining({ name: 'Hamburg', country: 'Germany' }),
      );
    }
  });
});

describe('the report queue', () => {
  it('makes each report created through A once, and B serves it', async () => {
    const user = await buildUser({ db });
    const project = await buildProject({ db }, { creatorId: user.id });
    const session = await signIn(a.url, user.email, DEFAULT_PASSWORD);
    const photo = await uploadPhoto(a.url, session.token, { projectId: project.id });
    // Days around the photo's, whatever the time zone.
    const day = (offset: number) =>
      new Date(Date.parse(photo.createdAt) + offset * 86_400_000).toISOString().slice(0, 10);
    // Three at once: A's worker (REPORT_CONCURRENCY=1) takes one, B's poll may take another.
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const report = await apiJson<ReportDetail>(a.url, '/api/report', {
        token: session.token,
        json: {
          projectId: project.id,
          type: 'daily',
          title: `Cluster report ${i + 1}`,
          from: day(-1),
          to: day(1),
          layout: 1,
          photos: [{ uploadId: photo.id }],
        },
      });
      ids.push(report.id);
    }
    const reportOnB = (id: number) =>
      apiJson<ReportDetail>(b.url, `/api/report/${id}`, { token: session.token });
    await waitFor(
      'the reports to be ready',
      async () => {
        const states = await Promise.all(ids.map(reportOnB));
        for (const state of states) expect(state.status).not.toBe('failed');
        return states.every((s) => s.status === 'ready');
      },
      120_000,
      500,
    );
    const made = (instance: Instance) =>
      instance
        .logs()
        .filter((line) => line.msg === 'report PDF made')
        .map((l) => l.reportId);
    await waitFor('the instances to log the PDFs', () =>
      ids.every((id) => [...made(a), ...made(b)].includes(id)),
    );
    const byInstance = { a: made(a), b: made(b) };
    for (const id of ids)
      expect(
        [...byInstance.a, ...byInstance.b].filter((r) => r === id),
        `report ${id}`,
      ).toHaveLength(1);
    const rows = await db
      .selectFrom('reports')
      .select(['id', 'attempts', 'pdf_key'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) expect(row.attempts, `report ${row.id}`).toBe(1);

    // Downloadable through B: the /media link B hands out, and a public link made on A that B
    // streams itself.
    const detail = await reportOnB(ids[0]!);
    expect(detail.pdf!.link).toMatch(/^\/media\/reports\//);
    const pdf = await fetch(new URL(detail.pdf!.link, b.url));
    expect(pdf.status).toBe(200);
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfBytes.length).toBe(detail.pdf!.bytes);
    const shared = await apiJson<{ path: string }>(a.url, `/api/report/${ids[0]}/links`, {
      method: 'POST',
      token: session.token,
    });
    const viaB = await fetch(new URL(shared.path, b.url));
    expect(viaB.status).toBe(200);
    expect(viaB.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(Buffer.from(await viaB.arrayBuffer()).equals(pdfBytes)).toBe(true);
    const list = await apiJson<{ reports: Report[] }>(
      b.url,
      `/api/report/latest?project=${project.id}`,
      {
        token: session.token,
      },
    );
    expect(list.reports.map((r) => r.id).sort(byNumber)).toEqual([...ids].sort(byNumber));
  });

  it('made every report once, the sample’s included, and the bucket holds just their PDFs', async () => {
    // The two sample reports were queued at the start, when both instances' queues woke.
    await waitFor(
      'every report’s PDF',
      async () => {
        const reports = await db.selectFrom('reports').select(['status', 'error']).execute();
        for (const report of reports) expect(report.status, report.error ?? '').not.toBe('failed');
        return reports.every((report) => report.status === 'ready');
      },
      120_000,
      500,
    );
    const reports = await db.selectFrom('reports').select(['id', 'pdf_key', 'attempts']).execute();
    expect(await bucketKeys('reports/')).toEqual(reports.map((r) => r.pdf_key!).sort());
    const made = () =>
      cluster.instances.flatMap((i) => linesOf(i, 'report PDF made').map((line) => line.reportId));
    await waitFor('the instances to log the PDFs', () => made().length >= reports.length);
    expect(made().map(Number).sort(byNumber)).toEqual(reports.map((r) => r.id).sort(byNumber));
    for (const report of reports) expect(report.attempts, `report ${report.id}`).toBe(1);
  });
});

describe('migrations', () => {
  const migrationFiles = readdirSync(path.join(repoRoot, 'apps/server/src/db/migrations')).filter(
    (name) => name.endsWith('.ts'),
  );
  const migrateCli = path.join(repoRoot, 'apps/server/src/db/migrate-cli.ts');
  const migrate = (env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', migrateCli], { cwd: repoRoot, env });
  const applied = async (database: Database) =>
    (
      await database
        .selectFrom('kysely_migration' as never)
        .select(['name' as never, 'timestamp' as never])
        .orderBy('name' as never)
        .execute()
    ).map((row) => ({ ...(row as { name: string; timestamp: string }) }));

  // Two db:migrate at once on an empty database: apps/server/src/db/migrate-cli.test.ts.
  it('ran once for the cluster, and a second db:migrate changes nothing', async () => {
    const before = await applied(db);
    expect(before.map((m) => `${m.name}.ts`)).toEqual([...migrationFiles].sort());
    const again = await migrate(cluster.env);
    expect(again.stdout).toMatch(/Database is up to date \(postgres\)/);
    expect(await applied(db)).toEqual(before);
  });
});

/** Puts an object no row references, as an upload in flight has before its row commits. */
async function putOrphan(): Promise<string> {
  const key = newUploadKeys({
    original: 'image/jpeg',
    formatted: 'image/webp',
    preview: 'image/webp',
  }).original;
  await s3.send(
    new PutObjectCommand({
      Bucket: cluster.s3.bucket,
      Key: key,
      Body: Buffer.from('an upload in flight'),
      ContentType: 'image/jpeg',
    }),
  );
  return key;
}

/**
 * Makes an object look `ageMs` old to the bucket: s3rver keeps each object in a file and reports
 * that file's mtime as its LastModified (what the sweeper's grace is measured from).
 */
function backdate(key: string, ageMs: number): void {
  const parts = key.split('/');
  const last = parts.pop()!;
  const file = path.join(cluster.dir, 's3', cluster.s3.bucket, ...parts, `${last}._S3rver_object`);
  const when = new Date(Date.now() - ageMs);
  utimesSync(file, when, when);
}

const HOUR = 3600_000;

/** The instances whose sweeper removed orphaned objects, per log line. */
const orphanSweeps = (instance: Instance) =>
  instance
    .logs()
    .filter(
      (line) =>
        line.msg === 'media sweep removed leftovers' && Number(line.orphansRemoved ?? 0) > 0,
    );

describe('the sweeper', () => {
  it('has one leader; when it dies the other takes over and sweeps, sparing fresh objects', async () => {
    const taken = (instance: Instance) => linesOf(instance, 'sweeper leadership taken').length;
    await waitFor('a sweeper leader', () => cluster.instances.some((i) => taken(i) > 0));
    const leader = cluster.instances.find((i) => taken(i) > 0)!;
    const follower = cluster.instances.find((i) => i !== leader)!;

    // An orphan older than the grace: the leader removes it, the follower sweeps only its own
    // temp folder.
    const old = await putOrphan();
    backdate(old, 2 * HOUR);
    expect(await bucketKeys(old)).toEqual([old]);
    await waitFor(
      'the leader to remove the old orphan',
      async () => (await bucketKeys(old)).length === 0,
    );
    await waitFor('the leader to log it', () => orphanSweeps(leader).length > 0);
    expect(orphanSweeps(follower)).toEqual([]);
    // The follower asked for the lock every round meanwhile and never got it.
    expect(taken(leader)).toBe(1);
    expect(taken(follower)).toBe(0);

    // The leader dies (no goodbye): its session ends, the lock with it, and the follower takes it.
    await leader.kill();
    await waitFor(
      'the follower to take the sweeper leadership',
      () => taken(follower) === 1,
      30_000,
    );

    // A fresh object (another instance's upload in flight) and an old orphan: the new leader's
    // sweep removes the old one only.
    const sweepsBefore = orphanSweeps(follower).length;
    const fresh = await putOrphan();
    const stale = await putOrphan();
    backdate(stale, 2 * HOUR);
    await waitFor(
      'the new leader to remove the old orphan',
      async () => (await bucketKeys(stale)).length === 0,
    );
    await waitFor('the new leader to log it', () => orphanSweeps(follower).length > sweepsBefore);
    expect(await bucketKeys(fresh)).toEqual([fresh]);
    // Its rows' objects are all still there.
    const uploads = await db.selectFrom('uploads').select('original_key').execute();
    const stored = new Set(await bucketKeys('uploads/'));
    for (const upload of uploads) expect(stored.has(upload.original_key)).toBe(true);
  });
});
