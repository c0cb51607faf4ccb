import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { HEALTH_CHECK_MAX_AGE_MS } from './health.routes.js';
import {
  api,
  buildAppWithDatabase,
  createTestContext,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('GET /api/health', () => {
  it('reports health with the database checked', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('checks the database at most once a second, and sees it go away after that', async () => {
    const db = createDatabase({ kind: 'sqlite', file: `${ctx.dataDir}/health-check.db` });
    const app = await buildAppWithDatabase(ctx, db);
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await db.destroy();
      // Within the second the last check still answers (no query reaches the closed database).
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_CHECK_MAX_AGE_MS + 100));
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
      expect(res.json()).toMatchObject({
        code: 'database_unavailable',
        message: 'The database is not reachable.',
      });
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
