import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDialect, type TestContext } from '../../test/helpers.js';
import { createDatabase, migrateToLatest } from './database.js';

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

// The SQLite file holds password and session hashes: readable by the server's account only. The
// file is its own regardless of TEST_DB, so this runs (not skips) on both dialects' runs.
describe('SQLite file permissions', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitelog-perm-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

  it('creates the folder 0700 and the database, its WAL and shared memory 0600', async () => {
    const file = path.join(dir, 'fresh', 'sitelog.db');
    const db = createDatabase({ kind: 'sqlite', file });
    try {
      expect(mode(path.dirname(file))).toBe('700');
      expect(mode(file)).toBe('600');
      await migrateToLatest(db);
      await sql`insert into settings (key, value) values ('perm-test', 'x')`.execute(db);
      expect(mode(`${file}-wal`)).toBe('600');
      expect(mode(`${file}-shm`)).toBe('600');
    } finally {
      await db.destroy();
    }
  });

  it('tightens the files of an install made before (0644)', async () => {
    const folder = path.join(dir, 'old');
    mkdirSync(folder);
    const file = path.join(folder, 'sitelog.db');
    const first = createDatabase({ kind: 'sqlite', file });
    await migrateToLatest(first);
    await first.destroy();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      writeFileSync(f, '', { flag: 'a' });
      chmodSync(f, 0o644);
    }
    const db = createDatabase({ kind: 'sqlite', file });
    try {
      await sql`insert into settings (key, value) values ('perm-test', 'y')`.execute(db);
      expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual(['600', '600', '600']);
    } finally {
      await db.destroy();
    }
  });
});
