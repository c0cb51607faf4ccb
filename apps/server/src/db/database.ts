import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { isTransactionConflict } from './database-errors.js';
import * as m01 from './migrations/2026-11-22-01-users-sessions.js';
import * as m02 from './migrations/2026-11-22-02-projects-uploads.js';
import * as m03 from './migrations/2026-11-22-03-upload-media-key-indexes.js';
import * as m04 from './migrations/2026-11-23-01-login-limits.js';
import * as m05 from './migrations/2026-11-23-02-upload-client-ids.js';
import * as m06 from './migrations/2026-11-26-01-project-coordinates-backfill.js';
import * as m07 from './migrations/2026-11-26-02-project-archived-by.js';
import * as m08 from './migrations/2026-11-26-03-search-index.js';
import * as m09 from './migrations/2026-11-26-04-collaboration.js';
import * as m10 from './migrations/2026-11-26-05-search-tags.js';
import * as m11 from './migrations/2026-11-26-06-tag-prefix-index.js';
import * as m12 from './migrations/2026-11-26-07-reports.js';
import * as m13 from './migrations/2026-11-26-08-search-reports.js';
import type { DB } from './schema.js';
import { withStatementCache } from './sqlite-statements.js';

export type Database = Kysely<DB>;

// PostgreSQL answers bigint (count(*), sum) as text; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const migrations: Record<string, Migration> = {
  '2026-11-22-01-users-sessions': m01,
  '2026-11-22-02-projects-uploads': m02,
  '2026-11-22-03-upload-media-key-indexes': m03,
  '2026-11-23-01-login-limits': m04,
  '2026-11-23-02-upload-client-ids': m05,
  '2026-11-26-01-project-coordinates-backfill': m06,
  '2026-11-26-02-project-archived-by': m07,
  '2026-11-26-03-search-index': m08,
  '2026-11-26-04-collaboration': m09,
  '2026-11-26-05-search-tags': m10,
  '2026-11-26-06-tag-prefix-index': m11,
  '2026-11-26-07-reports': m12,
  '2026-11-26-08-search-reports': m13,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Where an idle PostgreSQL connection's failure is reported (restart, failover, PgBouncer). */
type PoolErrorHandler = (err: Error) => void;

const logPoolError: PoolErrorHandler = (err) => {
  console.error(
    JSON.stringify({
      level: 40,
      time: Date.now(),
      msg: 'idle database connection failed',
      err: err.message,
    }),
  );
};

/** How long a request waits for a PostgreSQL connection before it is answered 503. */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * Opens the configured database: SQLite (WAL, foreign keys, busy timeout) or PostgreSQL. A dropped
 * idle PostgreSQL connection is reported and replaced, never allowed to crash the process.
 */
export function createDatabase(
  database: Config['database'],
  onPoolError: PoolErrorHandler = logPoolError,
): Database {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: 10,
      // A server that accepts no connection (down, restarting, full) fails a request within
      // this, as 503; by default the pool would wait for ever.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    pool.on('error', onPoolError);
    // The pool listens for a client's errors only while the client is idle. One in use by a
    // transaction, between two of its queries, that loses its server (a restart terminates
    // every backend) emits 'error' with no listener, which would end the process. The query
    // that follows fails instead, and the pool drops the client when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  openPrivately(database.file);
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * The SQLite file holds password and session hashes: its folder is made 0700 when we create it,
 * and the file is created 0600 before SQLite opens it. SQLite gives its `-wal` and `-shm` files
 * the main file's mode; those of an older install (0644) are tightened here too. A chmod per
 * file rather than `process.umask`, which would change every file the process writes.
 */
function openPrivately(file: string): void {
  if (file === ':memory:' || file === '') return;
  const dir = path.dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(f)) chmodSync(f, 0o600);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database shape
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Database): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}

/** The migrations of this code, in the order they run. */
export const migrationNames: readonly string[] = Object.keys(migrations).sort();

/**
 * How the database's schema compares with this code: `pending`, this code's migrations the
 * database has not run (all of them on an empty database); `unknown`, migrations the database
 * has run that this code does not know (a newer version migrated it).
 */
export async function migrationStatus(
  db: Database,
): Promise<{ pending: string[]; unknown: string[] }> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const applied = tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)
    ? (
        await db
          .withoutPlugins()
          .selectFrom(sql.table(DEFAULT_MIGRATION_TABLE).as('m'))
          .select(sql<string>`m.name`.as('name'))
          .execute()
      ).map((row) => row.name)
    : [];
  const known = new Set(migrationNames);
  const done = new Set(applied);
  return {
    pending: migrationNames.filter((name) => !done.has(name)),
    unknown: applied.filter((name) => !known.has(name)).sort(),
  };
}

/** How many times a PostgreSQL transaction aborted by a deadlock or serialization failure runs. */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * Runs `fn` in a write transaction. On SQLite it is `BEGIN IMMEDIATE`, so the write lock is
 * taken up front and concurrent writers wait (busy_timeout) instead of failing mid-transaction.
 * On PostgreSQL a transaction the server aborts for a deadlock or a serialization failure runs
 * again, up to TRANSACTION_ATTEMPTS times in all, after a short random pause: the aborted one
 * kept nothing, and the other has usually committed by then. `fn` must therefore do nothing
 * outside the database (no files, no messages) that a second run would repeat; all callers
 * write rows only.
 */
export async function writeTransaction<T>(
  db: Database,
  fn: (trx: Database) => Promise<T>,
): Promise<T> {
  if (!isSqlite(db)) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(fn);
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(err)) throw err;
        await delay(attempt * (10 + Math.random() * 40));
      }
    }
  }
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}

/** True when a database error is a unique-constraint violation (either dialect). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export const nowIso = () => new Date().toISOString();
