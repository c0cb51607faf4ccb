import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDialect, type TestContext } from '../../test/helpers.js';
import { isDatabaseUnavailable } from './database-errors.js';
import {
  CONNECT_TIMEOUT_MS,
  createDatabase,
  migrateToLatest,
  TRANSACTION_ATTEMPTS,
  writeTransaction,
} from './database.js';

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

  it('survives the server terminating a connection in use between two queries (a restart)', async () => {
    if (ctx.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    // A restart terminates every backend (57P01). One held by a transaction while the app awaits
    // something else gets no query to fail: pg emits 'error' on the client, which ended the
    // process when nobody listened. A test process that dies fails the run.
    const db = createDatabase(ctx.config.database, () => undefined);
    const admin = new pg.Client({ connectionString: ctx.config.database.url });
    await admin.connect();
    try {
      const failure = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
          // Wait until the client has heard of it (its 'error' event has been emitted).
          await new Promise((resolve) => setTimeout(resolve, 300));
          await sql`select 1`.execute(trx);
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      // The pool dropped the broken client: the next query gets a new connection.
      const row = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(row.rows[0]?.one).toBe(1);
    } finally {
      await admin.end();
      await db.destroy();
    }
  });
});

describe.skipIf(testDialect !== 'postgres')('PostgreSQL write transactions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await sql`create table deadlock_probe (id integer primary key, n integer not null)`.execute(
      ctx.db,
    );
  });
  afterAll(async () => ctx.close());

  it('runs a transaction PostgreSQL aborted as a deadlock again: both writers commit, once each', async () => {
    await sql`insert into deadlock_probe (id, n) values (1, 0), (2, 0)`.execute(ctx.db);
    // Each writer locks one row, waits until the other holds its row, then asks for the other's:
    // PostgreSQL aborts one of them (40P01) after deadlock_timeout.
    let arrived = 0;
    let release!: () => void;
    const bothHoldOneRow = new Promise<void>((resolve) => (release = resolve));
    const runs = { first: 0, second: 0 };
    const writer = (name: keyof typeof runs, rows: [number, number]) =>
      writeTransaction(ctx.db, async (trx) => {
        runs[name]++;
        await sql`update deadlock_probe set n = n + 1 where id = ${rows[0]}`.execute(trx);
        if (runs[name] === 1) {
          if (++arrived === 2) release();
          await bothHoldOneRow;
        }
        await sql`update deadlock_probe set n = n + 1 where id = ${rows[1]}`.execute(trx);
      });
    await Promise.all([writer('first', [1, 2]), writer('second', [2, 1])]);
    // Three runs in all: the aborted one kept nothing, its second run added its 1 to each row.
    expect(runs.first + runs.second).toBe(3);
    const { rows } = await sql<{
      id: number;
      n: number;
    }>`select id, n from deadlock_probe order by id`.execute(ctx.db);
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} runs, and never runs again for other errors`, async () => {
    const serialization = Object.assign(new pg.DatabaseError('could not serialize', 0, 'error'), {
      code: '40001',
    });
    let runs = 0;
    await expect(
      writeTransaction(ctx.db, () => {
        runs++;
        return Promise.reject(serialization);
      }),
    ).rejects.toBe(serialization);
    expect(runs).toBe(TRANSACTION_ATTEMPTS);

    runs = 0;
    const unique = Object.assign(new pg.DatabaseError('duplicate key', 0, 'error'), {
      code: '23505',
    });
    await expect(
      writeTransaction(ctx.db, () => {
        runs++;
        return Promise.reject(unique);
      }),
    ).rejects.toBe(unique);
    expect(runs).toBe(1);
  });
});

// No PostgreSQL server needed: a port that accepts connections and never answers. Runs on both
// dialects' runs.
describe('the PostgreSQL pool against a server that never answers', () => {
  it(`gives up connecting after ${CONNECT_TIMEOUT_MS / 1000} s, as an unavailable database (not for ever)`, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const db = createDatabase(
      { kind: 'postgres', url: `postgres://nobody@127.0.0.1:${port}/none` },
      () => undefined,
    );
    try {
      const failure = await sql`select 1`.execute(db).then(
        () => null,
        (err: unknown) => err,
      );
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    } finally {
      await db.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
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
