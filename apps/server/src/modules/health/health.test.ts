import { once } from 'node:events';
import { renameSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { healthSchema } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { createStorage } from '../../media/storage/index.js';
import {
  HEALTH_CHECK_MAX_AGE_MS,
  STORAGE_CHECK_MAX_AGE_MS,
  healthRoutes,
} from './health.routes.js';
import { registerErrorHandler } from '../../http/error-handler.js';
import { createReadiness } from './readiness.js';
import {
  api,
  buildAppWithDatabase,
  createTestContext,
  type TestContext,
} from '../../../test/helpers.js';
import { startS3Server, type TestS3Server } from '../../../test/s3.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('GET /api/health', () => {
  it('reports health with the database and the storage checked', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
    expect(healthSchema.parse(res.json())).toEqual(res.json());
  });

  it('checks the database at most once a second, and sees it go away after that', async () => {
    const db = createDatabase({ kind: 'sqlite', file: `${ctx.dataDir}/health-check.db` });
    const app = await buildAppWithDatabase(ctx, db);
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await db.destroy();
      // Within the second the last check still answers (no query reaches the closed database).
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await sleep(HEALTH_CHECK_MAX_AGE_MS + 100);
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'database_unavailable' });
    } finally {
      await app.close();
    }
  });

  it('answers 503 when the database cannot be reached', async () => {
    // A PostgreSQL address nothing listens on: the pool opens, every query fails to connect.
    const db = createDatabase(
      { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' },
      () => undefined,
    );
    const app = await buildAppWithDatabase(ctx, db);
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'database_unavailable',
        message: 'The database cannot be reached right now. Try again in a moment.',
        requestId: expect.any(String) as string,
      });
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('answers 503 within its time limit when the database never answers', async () => {
    // A server that accepts connections and never says a word (a network that drops packets),
    // behind a pool that would wait a minute: health must not wait with it.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const pool = new pg.Pool({
      connectionString: `postgres://nobody@127.0.0.1:${port}/none`,
      connectionTimeoutMillis: 60_000,
    });
    pool.on('error', () => undefined);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    // The route alone: the whole app would wait for the database at start.
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    healthRoutes(app, { db, storage: ctx.storage, readiness: createReadiness() });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'database_unavailable' });
      // The probe is still waiting on the silent server: the answer did not wait for it.
      expect(sockets.length).toBeGreaterThan(0);
      expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
      await db.destroy().catch(() => undefined);
    }
  }, 20_000);

  it('answers 503 draining while the instance is stopping, whatever the checks say', async () => {
    const readiness = createReadiness();
    const app = await buildAppWithDatabase(ctx, ctx.db, { readiness });
    try {
      const before = await app.inject({ method: 'GET', url: '/api/health' });
      expect(before.statusCode).toBe(200);
      expect(before.headers.connection).not.toBe('close');
      readiness.draining = true;
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'draining',
        message:
          'This instance is shutting down; the load balancer should send requests to another one.',
        requestId: expect.any(String) as string,
      });
      // Every answer while draining closes its connection, so keep-alive clients go elsewhere.
      expect(res.headers.connection).toBe('close');
      const other = await app.inject({ method: 'GET', url: '/api/config' });
      expect(other.statusCode).toBe(200);
      expect(other.headers.connection).toBe('close');
    } finally {
      await app.close();
    }
  });

  it('answers 503 storage_unavailable when the media folder is gone, and 200 once it is back', async () => {
    const local = await createTestContext();
    try {
      const dir = local.config.storage.kind === 'local' ? local.config.storage.dir : '';
      expect((await api(local, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      renameSync(dir, `${dir}.away`);
      await sleep(STORAGE_CHECK_MAX_AGE_MS + 100);
      const res = await api(local, { method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'storage_unavailable',
        message: 'Photo storage cannot be reached right now. Try again in a moment.',
      });
      renameSync(`${dir}.away`, dir);
      await sleep(STORAGE_CHECK_MAX_AGE_MS + 100);
      expect((await api(local, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('GET /api/health on a bucket', () => {
  let s3: TestS3Server;
  let bucketCtx: TestContext;
  beforeAll(async () => {
    s3 = await startS3Server();
    bucketCtx = await createTestContext(s3.env);
  });
  afterAll(async () => {
    await bucketCtx?.close();
    await s3?.close();
  });

  it('answers 503 storage_unavailable while the S3 server is stopped, and 200 once it is back', async () => {
    expect((await api(bucketCtx, { method: 'GET', url: '/api/health' })).json()).toEqual({
      status: 'ok',
      database: 'ok',
      storage: 'ok',
    });
    await s3.stop();
    // The last check answers for its 5 s; after that the stopped server is noticed.
    expect((await api(bucketCtx, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await sleep(STORAGE_CHECK_MAX_AGE_MS + 100);
    const down = await api(bucketCtx, { method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: 'storage_unavailable' });
    await s3.start();
    await sleep(STORAGE_CHECK_MAX_AGE_MS + 100);
    expect((await api(bucketCtx, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('sees a bucket that does not exist as unavailable', async () => {
    const storage = createStorage({ storage: { ...bucketStorage(), bucket: 'no-such-bucket' } });
    try {
      await expect(storage.check()).rejects.toMatchObject({
        name: 'StorageError',
        reason: 'unavailable',
      });
    } finally {
      await storage.close();
    }
  });

  const bucketStorage = () => {
    if (bucketCtx.config.storage.kind !== 's3') throw new Error('expected S3');
    return bucketCtx.config.storage;
  };
});
