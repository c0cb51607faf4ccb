import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDialect, type TestContext } from '../../test/helpers.js';
import { createDatabase } from './database.js';

describe.skipIf(testDialect !== 'postgres')('PostgreSQL connection pool', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('survives an idle connection being terminated by the server', async () => {
    if (ctx.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const failures: Error[] = [];
    const db = createDatabase(ctx.config.database, (err) => failures.push(err));
    try {
      // Open a pooled connection and leave it idle.
      await sql`select 1`.execute(db);
      const admin = new pg.Client({ connectionString: ctx.config.database.url });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'`,
      );
      await admin.end();
      await expect.poll(() => failures.length, { timeout: 5000 }).toBeGreaterThan(0);
      // The pool replaces the dead connection.
      const row = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(row.rows[0]?.one).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});
