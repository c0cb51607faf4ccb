// Storage faults (issue 10, suite 5): the media folder on a small tmpfs that fills up, and the S3
// server stopped before and during an upload. The client gets 507 or 503 with a message, nothing
// is half-written (no row, no stored object once the sweeper has run, no temp file, counts
// unchanged), and the same app takes uploads again once space or the bucket is back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ErrorResponse as ErrorBody } from '@sitelog/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildProject } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { photoJpeg } from '../../../test/images.js';
import { startS3Server, type TestS3Server } from '../../../test/s3.js';
import {
  dtoPart,
  filePart,
  multipartBody,
  postUpload,
  storedKeys,
  tempFiles,
  uploadPhoto,
  uploadRowCount,
} from '../../../test/uploads.js';
import { signMediaUrl } from '../../media/signed-urls.js';
import { createS3Storage, StorageError } from '../../media/storage/index.js';
import { sweepOnce } from '../../media/sweeper.js';
import { findReferencedMediaKeys } from './uploads.repository.js';

type Member = Awaited<ReturnType<typeof signedInUser>>;

const FULL_MESSAGE =
  'The server has run out of storage space, so this photo was not saved. Ask an administrator to free space, then try again.';
const UNAVAILABLE_MESSAGE =
  'Photo storage cannot be reached right now, so this photo was not saved. Try again in a minute.';

let photo: Buffer;
beforeAll(async () => {
  // Big enough that the free-space arithmetic below is not lost in block rounding.
  photo = await photoJpeg(1600, 1200);
});

/** The project's and the member's stored upload counts, and the number of upload rows. */
async function counts(ctx: TestContext, member: Member, projectId: number) {
  const project = await ctx.db
    .selectFrom('projects')
    .select('uploads_count')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const user = await ctx.db
    .selectFrom('users')
    .select('uploads_count')
    .where('id', '=', member.id)
    .executeTakeFirstOrThrow();
  return {
    project: Number(project.uploads_count),
    member: Number(user.uploads_count),
    rows: await uploadRowCount(ctx),
  };
}

/** Stored upload objects that no row references (what a sweep would remove). */
async function unreferencedKeys(ctx: TestContext): Promise<string[]> {
  const keys = await storedKeys(ctx);
  const referenced = await findReferencedMediaKeys(ctx.db, keys);
  return keys.filter((key) => !referenced.has(key));
}

const uploadBody = (projectId: number) =>
  multipartBody([dtoPart({ name: 'Slab', description: '', projectId }), filePart(photo)]);

describe('the media folder on a full disk (tmpfs)', () => {
  let mount: string;
  let mounted = false;
  let ctx: TestContext;
  let alice: Member;
  let projectId: number;
  const filler = () => path.join(mount, 'filler');

  beforeAll(async () => {
    mount = mkdtempSync(path.join(tmpdir(), 'sitelog-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', mount], {
        stdio: 'pipe',
      });
    } catch (err) {
      throw new Error(
        `This suite needs a small tmpfs to fill up and could not mount one at ${mount} ` +
          `(it runs as root in CI): ${String((err as { stderr?: unknown }).stderr ?? err)}`,
      );
    }
    mounted = true;
    // The media folder and the upload temp folder on the small disk; the database stays where
    // it was, so only the photo's bytes meet the full disk.
    mkdirSync(path.join(mount, 'media'), { mode: 0o700 });
    mkdirSync(path.join(mount, 'tmp'), { mode: 0o700 });
    ctx = await createTestContext(
      {},
      {
        prepareDataDir: (dataDir) => {
          symlinkSync(path.join(mount, 'media'), path.join(dataDir, 'media'));
          symlinkSync(path.join(mount, 'tmp'), path.join(dataDir, 'tmp'));
        },
      },
    );
    alice = await signedInUser(ctx);
    projectId = (await buildProject(ctx, { creatorId: alice.id })).id;
  });
  afterAll(async () => {
    try {
      await ctx?.close();
    } finally {
      // Never leave the mount behind, even when closing failed or a file is still open.
      if (mounted) {
        try {
          execFileSync('umount', [mount]);
        } catch {
          execFileSync('umount', ['-l', mount]);
        }
      }
      rmSync(mount, { recursive: true, force: true });
    }
  });

  /** Fills the disk so that `free` bytes are left (to the block). */
  function leaveFree(free: number) {
    rmSync(filler(), { force: true });
    const { bavail, bsize } = statfsSync(mount);
    const size = bavail * bsize - free;
    expect(size, 'the tmpfs has room for the filler').toBeGreaterThan(0);
    writeFileSync(filler(), Buffer.alloc(size));
    expect(statfsSync(mount).bavail * bsize).toBeLessThanOrEqual(free);
  }

  async function expectFull(before: Awaited<ReturnType<typeof counts>>) {
    const res = await postUpload(ctx, alice.token, [
      dtoPart({ name: 'Slab', description: '', projectId }),
      filePart(photo),
    ]);
    expect(res.statusCode, res.body).toBe(507);
    const body = res.json<ErrorBody>();
    expect(body).toMatchObject({ code: 'storage_full', message: FULL_MESSAGE });
    expect(body.requestId).toBeTruthy();
    expect(res.body).not.toMatch(/ENOSPC|at .*\.ts/);
    expect(await storedKeys(ctx)).toEqual([]);
    expect(tempFiles(ctx)).toEqual([]);
    expect(await counts(ctx, alice, projectId)).toEqual(before);
  }

  it('answers 507 when not even the temp file fits, and leaves nothing', async () => {
    const before = await counts(ctx, alice, projectId);
    leaveFree(Math.floor(photo.length / 2));
    await expectFull(before);
  });

  it('answers 507 when the temp file fits but the stored files do not, and removes them', async () => {
    const before = await counts(ctx, alice, projectId);
    // Room for the temp file and a little more: the original's copy cannot fit.
    leaveFree(photo.length + 64 * 1024);
    await expectFull(before);
  });

  it('takes the same upload once space is freed, without a restart', async () => {
    const before = await counts(ctx, alice, projectId);
    rmSync(filler(), { force: true });
    const upload = await uploadPhoto(ctx, alice.token, projectId, { file: photo });
    expect(await counts(ctx, alice, projectId)).toEqual({
      project: before.project + 1,
      member: before.member + 1,
      rows: before.rows + 1,
    });
    expect(await storedKeys(ctx)).toHaveLength(3);
    expect(await unreferencedKeys(ctx)).toEqual([]);
    expect(tempFiles(ctx)).toEqual([]);

    // Reading and deleting need no space: both still work on a full disk.
    leaveFree(0);
    const media = await api(ctx, { method: 'GET', url: upload.previewLink });
    expect(media.statusCode).toBe(200);
    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${upload.id}`,
      token: alice.token,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await storedKeys(ctx)).toEqual([]);
    rmSync(filler(), { force: true });
  });
});

describe('the S3 server stopped', () => {
  let s3: TestS3Server;
  let ctx: TestContext;
  let alice: Member;
  let projectId: number;
  let base: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    ctx = await createTestContext(s3.env);
    alice = await signedInUser(ctx);
    projectId = (await buildProject(ctx, { creatorId: alice.id })).id;
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });
  // Each case starts with the bucket up, even when the one before failed while it was down.
  beforeEach(() => s3.start());

  function expectUnavailable(res: { statusCode: number; body: string; headers: object }) {
    expect(res.statusCode, res.body).toBe(503);
    const body = JSON.parse(res.body) as ErrorBody;
    expect(body).toMatchObject({ code: 'storage_unavailable', message: UNAVAILABLE_MESSAGE });
    expect(body.requestId).toBeTruthy();
    expect((res.headers as Record<string, unknown>)['retry-after']).toMatch(/^\d+$/);
  }

  /** Starts the bucket again, sweeps once, and checks nothing unreferenced is left. */
  async function restartAndSweep() {
    await s3.start();
    await sweepOnce(
      {
        storage: ctx.storage,
        config: ctx.config,
        findReferencedKeys: (keys) => findReferencedMediaKeys(ctx.db, keys),
      },
      { orphanMinAgeMs: 0 },
    );
    expect(await unreferencedKeys(ctx)).toEqual([]);
  }

  it('answers 503 with Retry-After when the bucket is down before the upload', async () => {
    const before = await counts(ctx, alice, projectId);
    await s3.stop();
    const res = await postUpload(ctx, alice.token, [
      dtoPart({ name: 'Slab', description: '', projectId }),
      filePart(photo),
    ]);
    expectUnavailable(res);
    expect(tempFiles(ctx)).toEqual([]);
    expect(await counts(ctx, alice, projectId)).toEqual(before);
    await restartAndSweep();
  });

  it('answers 503 when the bucket goes down while the photo is arriving', async () => {
    const before = await counts(ctx, alice, projectId);
    const body = uploadBody(projectId);
    // The JSON part and half the photo first: the server has checked the project and is
    // writing the temp file when the bucket goes.
    const half = body.payload.length - Math.floor(photo.length / 2);
    const req = httpRequest(`${base}/api/upload/autoupload`, {
      method: 'POST',
      headers: {
        ...body.headers,
        authorization: `Bearer ${alice.token}`,
        'content-length': String(body.payload.length),
      },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    req.write(body.payload.subarray(0, half));
    await expect.poll(() => tempFiles(ctx).length, { timeout: 10_000 }).toBe(1);
    await s3.stop();
    req.end(body.payload.subarray(half));
    const res = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    expectUnavailable({
      statusCode: res.statusCode ?? 0,
      body: Buffer.concat(chunks).toString('utf8'),
      headers: res.headers,
    });
    expect(tempFiles(ctx)).toEqual([]);
    expect(await counts(ctx, alice, projectId)).toEqual(before);
    await restartAndSweep();
  });

  it('leaves the files written before the outage to the sweeper, which removes them', async () => {
    const before = await counts(ctx, alice, projectId);
    const keysBefore = await storedKeys(ctx);
    // The bucket stores the preview and the display image, holds the original's PUT, and goes
    // down: the upload fails, and so do the deletes that would remove what it wrote.
    const server = s3.httpServer();
    const handlers = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    let stored = 0;
    let held = false;
    const stopWhenReady = () => {
      if (held && stored === 2) void s3.stop();
    };
    server.on('request', (req, res) => {
      if (req.method === 'PUT' && /\/original\.[a-z]+(\?|$)/.test(req.url ?? '')) {
        held = true;
        req.resume();
        stopWhenReady();
        return;
      }
      if (req.method === 'PUT') {
        res.on('finish', () => {
          stored += 1;
          stopWhenReady();
        });
      }
      for (const handler of handlers) handler(req, res);
    });
    const res = await postUpload(ctx, alice.token, [
      dtoPart({ name: 'Slab', description: '', projectId }),
      filePart(photo),
    ]);
    expectUnavailable(res);
    expect(tempFiles(ctx)).toEqual([]);
    expect(await counts(ctx, alice, projectId)).toEqual(before);

    await s3.start();
    const left = (await storedKeys(ctx)).filter((key) => !keysBefore.includes(key));
    expect(left, 'the two files stored before the outage are still there').toHaveLength(2);
    await restartAndSweep();
    expect(await storedKeys(ctx)).toEqual(keysBefore);
  });

  it('takes uploads again once the bucket is back, without a restart', async () => {
    const before = await counts(ctx, alice, projectId);
    const upload = await uploadPhoto(ctx, alice.token, projectId, { file: photo });
    expect(await counts(ctx, alice, projectId)).toEqual({
      project: before.project + 1,
      member: before.member + 1,
      rows: before.rows + 1,
    });
    expect((await fetch(upload.previewLink)).status).toBe(200);
    expect(await unreferencedKeys(ctx)).toEqual([]);
  });

  it('answers 503 for a media link and 200 for a delete while the bucket is down', async () => {
    const upload = await uploadPhoto(ctx, alice.token, projectId, { file: photo });
    const session = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    const key = new URL(upload.previewLink).pathname.split(`/${s3.bucket}/`)[1] ?? '';
    const mediaUrl = signMediaUrl(key, {
      secret: ctx.config.secret,
      ttlSeconds: ctx.config.mediaUrlTtlSeconds,
      sessionId: session.id,
    });
    expect((await api(ctx, { method: 'GET', url: mediaUrl })).statusCode).toBe(200);

    await s3.stop();
    const media = await api(ctx, { method: 'GET', url: mediaUrl });
    expect(media.statusCode, media.body).toBe(503);
    expect(media.json<ErrorBody>()).toMatchObject({
      code: 'storage_unavailable',
      message: 'Photo storage cannot be reached right now. Try again in a minute.',
    });
    expect(media.headers['retry-after']).toMatch(/^\d+$/);

    const before = await counts(ctx, alice, projectId);
    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${upload.id}`,
      token: alice.token,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await counts(ctx, alice, projectId)).toEqual({
      project: before.project - 1,
      member: before.member - 1,
      rows: before.rows - 1,
    });
    // The files could not be removed with the bucket down; the sweeper removes them.
    await restartAndSweep();
    expect(await storedKeys(ctx)).not.toContain(key);
  });
});

describe('a bucket that hangs or fails', () => {
  const timeouts = { connectionTimeoutMs: 500, socketTimeoutMs: 500, maxAttempts: 2 };
  const s3Config = (port: number) => ({
    kind: 's3' as const,
    bucket: 'sitelog-test',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });

  async function listen(server: NetServer): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('gives up on a bucket that accepts the connection and never answers', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.resume();
    });
    const storage = createS3Storage(s3Config(await listen(server)), timeouts);
    try {
      const started = performance.now();
      const err: unknown = await storage
        .put('uploads/00/x/preview.webp', Buffer.from('x'), 'image/webp')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).reason).toBe('unavailable');
      // Two attempts of 0.5 s of silence each, plus backoff; generous.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await storage.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    [503, 'SlowDown', 'unavailable'],
    [500, 'InternalError', 'unavailable'],
    [507, 'XMinioStorageFull', 'full'],
  ])('reads a %i %s answer as %s', async (status, code, reason) => {
    const server = createServer((socket) => {
      socket.once('data', () => {
        const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;
        socket.end(
          `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/xml\r\n` +
            `Content-Length: ${Buffer.byteLength(xml)}\r\nConnection: close\r\n\r\n${xml}`,
        );
      });
      socket.on('error', () => {});
    });
    const storage = createS3Storage(s3Config(await listen(server)), timeouts);
    try {
      const err: unknown = await storage
        .put('uploads/00/x/preview.webp', Buffer.from('x'), 'image/webp')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).reason).toBe(reason);
    } finally {
      await storage.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
