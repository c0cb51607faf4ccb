// A database that cannot be reached (PostgreSQL down, restarting, or the network between): every
// request that needs it answers 503 `database_unavailable` with Retry-After, never a 500; the
// pool takes connections again by itself once the database is back; and the background loops
// log a warning and try again at their next round, never ending the process.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { sweepOnce, startSweeper } from '../src/media/sweeper.js';
import { startAuthHousekeeping } from '../src/modules/auth/auth.service.js';
import { startCoordinateBackfill } from '../src/modules/places/places.service.js';
import { createReportQueue } from '../src/modules/reports/report-generator.js';
import { findReferencedMediaKeys } from '../src/modules/uploads/uploads.repository.js';
import {
  buildAppWithDatabase,
  createTestContext,
  signedInUser,
  testDialect,
  type TestContext,
} from './helpers.js';
import { startTcpProxy } from './tcp-proxy.js';

const UNAVAILABLE = {
  code: 'database_unavailable',
  message: 'The database cannot be reached right now. Try again in a moment.',
};

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  reason?: Record<string, unknown>;
}

let ctx: TestContext;
let lines: LogLine[] = [];
const destination = { write: (line: string) => lines.push(JSON.parse(line) as LogLine) };
/** A PostgreSQL address nothing listens on: every connection is refused at once. */
let refused: Database;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  ctx = await createTestContext({ LOG_LEVEL: 'warn' }, { logDestination: destination });
  member = await signedInUser(ctx);
  refused = createDatabase(
    { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' },
    () => undefined,
  );
});
afterAll(async () => {
  await refused?.destroy();
  await ctx?.close();
});
beforeEach(() => {
  lines = [];
});

/** A logger that keeps what it is given, by level. */
function capture() {
  const logged = { info: [] as string[], warn: [] as string[], error: [] as string[] };
  return {
    logged,
    log: {
      // As pino is called here: (fields, message).
      info: (...args: unknown[]) => void logged.info.push(String(args[1])),
      warn: (...args: unknown[]) => void logged.warn.push(String(args[1])),
      error: (...args: unknown[]) => void logged.error.push(String(args[1])),
    },
  };
}

describe('requests while the database cannot be reached', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildAppWithDatabase(ctx, refused, { logDestination: destination });
  });
  afterAll(async () => app?.close());

  it('answers a signed-in route 503 database_unavailable with Retry-After: 5, not 500', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ ...UNAVAILABLE, requestId: expect.any(String) as string });
  });

  it('answers a write and a sign-in the same way', async () => {
    const write = await app.inject({
      method: 'POST',
      url: '/api/project/create',
      headers: { authorization: `Bearer ${member.token}` },
      payload: { project: { name: 'Outage', location: 'Kiel', description: '' } },
    });
    expect(write.statusCode).toBe(503);
    expect(write.json()).toMatchObject(UNAVAILABLE);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: { email: member.email, password: member.password } },
    });
    expect(login.statusCode).toBe(503);
    expect(login.json()).toMatchObject(UNAVAILABLE);
  });

  it('logs one warning per request, without a stack, and no error', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${member.token}` },
    });
    const mine = lines.filter((line) => line.reqId === res.json<{ requestId: string }>().requestId);
    const warnings = mine.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual(['database unavailable']);
    expect(warnings[0]?.reason).toMatchObject({ code: 'ECONNREFUSED' });
    expect(JSON.stringify(warnings[0])).not.toContain('    at ');
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

// A real PostgreSQL behind a relay the test cuts and restores: what a restart looks like to the
// app. (On SQLite the database is a file in the process; it cannot go away like this.)
if (testDialect === 'postgres')
  describe('PostgreSQL going away and coming back', () => {
    it('answers 503 while it is away and serves again once it is back, without a restart', async () => {
      if (ctx.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const url = new URL(ctx.config.database.url);
      const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      const db = createDatabase({ kind: 'postgres', url: url.toString() }, () => undefined);
      const app = await buildAppWithDatabase(ctx, db, { logDestination: destination });
      const me = () =>
        app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${member.token}` },
        });
      try {
        expect((await me()).statusCode).toBe(200);
        await proxy.stop();
        const down = await me();
        expect(down.statusCode).toBe(503);
        expect(down.json()).toMatchObject(UNAVAILABLE);
        await proxy.start();
        const back = await me();
        expect(back.statusCode, back.body).toBe(200);
        expect(back.json()).toMatchObject({ id: member.id });
      } finally {
        await app.close();
        await db.destroy();
        await proxy.close();
      }
    });
  });

describe('background work while the database cannot be reached', () => {
  it('the report queue warns at each poll and polls again', async () => {
    const { logged, log } = capture();
    const queue = createReportQueue(
      { db: refused, storage: ctx.storage, config: ctx.config, log },
      { concurrency: 1, pollMs: 20 },
    );
    queue.start();
    try {
      await expect.poll(() => logged.warn.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      expect(new Set(logged.warn)).toEqual(
        new Set(['report queue: the database cannot be reached; polling again']),
      );
      expect(logged.error).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('the auth housekeeping warns and keeps its timer', async () => {
    const { logged, log } = capture();
    const stop = startAuthHousekeeping({ db: refused, config: ctx.config }, log);
    try {
      await expect
        .poll(() => logged.warn, { timeout: 10_000 })
        .toEqual(['auth housekeeping failed']);
    } finally {
      stop();
    }
  });

  it('the coordinate backfill warns and tries again until stopped', async () => {
    const { logged, log } = capture();
    const backfill = startCoordinateBackfill({ db: refused }, log, { retryMs: 20 });
    await expect.poll(() => logged.warn.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await backfill.stop();
    await backfill.done;
    expect(new Set(logged.warn)).toEqual(
      new Set(['project coordinate backfill: the database cannot be reached; trying again later']),
    );
    expect(logged.error).toEqual([]);
  });

  it('the sweeper warns and sweeps again at its next round', async () => {
    const { logged, log } = capture();
    const deps = {
      storage: ctx.storage,
      config: ctx.config,
      log,
      findReferencedKeys: (keys: string[]) => findReferencedMediaKeys(refused, keys),
    };
    // An object no row references, old enough to be swept: the database must be asked about it.
    await ctx.storage.put('uploads/ab/outage/preview.webp', Buffer.from('x'), 'image/webp');
    const later = Date.now() + 3 * 3600_000;
    await expect(sweepOnce(deps, { now: later })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const stop = startSweeper(deps, { initialDelayMs: 10, intervalMs: 20, now: later });
    try {
      await expect.poll(() => logged.warn.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(new Set(logged.warn)).toEqual(
        new Set([
          'media sweep failed: the database or the storage cannot be reached; trying again next round',
        ]),
      );
      expect(logged.error).toEqual([]);
    } finally {
      await stop();
      await ctx.storage.delete('uploads/ab/outage/preview.webp');
    }
  });
});
