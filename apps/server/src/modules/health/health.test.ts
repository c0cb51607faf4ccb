import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
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
