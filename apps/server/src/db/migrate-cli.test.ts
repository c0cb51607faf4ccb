// `npm run db:migrate` (migrate-cli.ts) as its own process, as a deploy runs it: on PostgreSQL two
// at once on an empty database (two instances of a deploy starting together) both succeed, and
// each migration runs once. Kysely's migrator takes a session-level advisory lock
// (pg_advisory_lock, PostgresAdapter.acquireMigrationLock) on a connection of its own and
// migrates in one transaction under it; the second run waits, then finds nothing to do.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createFreshPostgres,
  createTestTarget,
  targetEnv,
  testDialect,
} from '../../test/helpers.js';
import { createDatabase, migrationNames, migrationStatus } from './database.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const cli = path.join(repoRoot, 'apps/server/src/db/migrate-cli.ts');

/** Kysely's migration lock key (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

function migrate(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe(`npm run db:migrate (${testDialect})`, () => {
  it('migrates an empty database, and finds nothing to do the second time', async () => {
    const target = await createTestTarget();
    try {
      const env = targetEnv(target);
      const first = await migrate(env);
      expect(first, first.output).toMatchObject({ code: 0 });
      expect(first.output).toContain(`Database is up to date (${testDialect}).`);
      expect((await migrate(env)).code).toBe(0);
      const db = createDatabase(
        target.databaseUrl
          ? { kind: 'postgres', url: target.databaseUrl }
          : { kind: 'sqlite', file: path.join(target.dataDir, 'sitelog.db') },
      );
      try {
        expect(await migrationStatus(db)).toEqual({ pending: [], unknown: [] });
      } finally {
        await db.destroy();
      }
    } finally {
      await target.remove();
    }
  }, 120_000);

  if (testDialect === 'postgres')
    it('run twice at once on an empty PostgreSQL database: both exit 0, each migration once', async () => {
      const fresh = await createFreshPostgres();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-migrate-'));
      // The test holds the migrator's lock first, so both runs are surely at the lock together
      // (each waits in pg_advisory_lock); then it lets go.
      const holder = new pg.Client({ connectionString: fresh.url });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1::bigint)', [KYSELY_MIGRATION_LOCK]);
        const env = targetEnv({ dataDir, databaseUrl: fresh.url });
        const runs = [migrate(env), migrate(env)];
        await expect
          .poll(
            async () =>
              (
                await holder.query<{ waiting: number }>(
                  `select count(*)::int as waiting from pg_locks
                    where locktype = 'advisory' and not granted
                      and database = (select oid from pg_database where datname = current_database())`,
                )
              ).rows[0]?.waiting,
            { timeout: 60_000, interval: 100 },
          )
          .toBe(2);
        await holder.query('select pg_advisory_unlock($1::bigint)', [KYSELY_MIGRATION_LOCK]);
        const results = await Promise.all(runs);
        for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });

        const db = createDatabase({ kind: 'postgres', url: fresh.url });
        try {
          const recorded = await sql<{ name: string; n: number }>`
            select name, count(*)::int as n from kysely_migration group by name order by name`.execute(
            db,
          );
          expect(recorded.rows).toEqual(migrationNames.map((name) => ({ name, n: 1 })));
          // The schema is whole and usable.
          await sql`insert into settings (key, value) values ('migrated', 'yes')`.execute(db);
          const users = await sql<{ n: number }>`select count(*)::int as n from users`.execute(db);
          expect(users.rows[0]?.n).toBe(0);
        } finally {
          await db.destroy();
        }
      } finally {
        await holder.end();
        await fresh.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);
});
