// The database half of backup and restore: a consistent snapshot while the app keeps writing
// (SQLite's online backup API; pg_dump on an exported PostgreSQL snapshot), and putting it back.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { createDatabase, type Database } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { BackupError, syncDir } from './backup-archive.js';

/** What a backup reads from the snapshot, in the snapshot's own read view. */
export type SnapshotReader<T> = (db: Database) => Promise<T>;

export interface DatabaseSnapshot<T> {
  /** What the reader answered. */
  read: T;
  serverVersion?: string;
  dumpToolMajor?: number;
}

// ---- SQLite ----------------------------------------------------------------------------------

/**
 * Copies the live SQLite file to `target` with SQLite's online backup API. The copy is made in
 * one step: between steps another process's write restarts the backup, so under a steady upload
 * load a paged copy might never finish; one step reads one WAL snapshot and never blocks writers.
 * Then `read` runs on the copy, so what it reads is exactly what the snapshot holds.
 */
export async function snapshotSqlite<T>(
  file: string,
  target: string,
  read: SnapshotReader<T>,
): Promise<DatabaseSnapshot<T>> {
  if (!existsSync(file))
    throw new BackupError(
      `There is no SQLite database at ${file}: check DATA_DIR and DATABASE_URL.`,
    );
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  // A self-contained file: no -wal beside it, so it can be copied and hashed as it is.
  copy.pragma('journal_mode = DELETE');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: copy }) });
  try {
    await assertHasSchema(db);
    return { read: await read(db) };
  } finally {
    await db.destroy();
  }
}

/**
 * Refuses a target SQLite file that holds tables; with `clear`, removes an empty one and its
 * journal files, so the restored file takes their place.
 */
export async function prepareSqliteTarget(file: string, clear: boolean): Promise<void> {
  if (existsSync(file)) {
    const existing = new SQLite(file, { readonly: true, fileMustExist: true });
    let tables: number;
    try {
      const row = existing
        .prepare("select count(*) as n from sqlite_master where type = 'table'")
        .get() as { n: number };
      tables = row.n;
    } finally {
      existing.close();
    }
    if (tables > 0)
      throw new BackupError(
        `The target database ${file} already holds data: restore into an empty DATA_DIR (or ` +
          'DATABASE_URL), or move that file away first.',
      );
  }
  if (clear) for (const f of [file, `${file}-wal`, `${file}-shm`]) await rm(f, { force: true });
}

/** Puts a backup's SQLite file in place: copied beside the target, flushed, then renamed. */
export async function restoreSqlite(backupFile: string, file: string): Promise<void> {
  const temp = `${file}.restore.tmp`;
  await copyFile(backupFile, temp);
  const handle = await open(temp, 'r+');
  try {
    await handle.chmod(0o600);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncDir(path.dirname(file));
}

// ---- PostgreSQL ------------------------------------------------------------------------------

/**
 * The libpq connection for pg_dump and pg_restore: the URL without its password, which goes in
 * PGPASSWORD instead, so it does not show in the process list.
 */
function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const env = { ...process.env };
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = '';
  }
  return { dbname: parsed.toString(), env };
}

interface ToolRun {
  done: Promise<void>;
  kill: () => void;
}

/** Runs a PostgreSQL client tool; its failure carries the tool's own words (stderr). */
function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): ToolRun {
  const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    // Enough to say what went wrong; a runaway tool cannot fill the memory.
    if (output.length < 20_000) output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (err) => reject(toolError(tool, err)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new BackupError(
            `${tool} failed (${signal ?? `exit code ${code}`}):\n${output.trim() || '(no output)'}`,
          ),
        );
    });
  });
  return { done, kill: () => child.kill('SIGTERM') };
}

function toolError(tool: string, err: Error): Error {
  if ((err as { code?: unknown }).code === 'ENOENT')
    return new BackupError(
      `${tool} was not found on PATH. Install the PostgreSQL client tools of your server's ` +
        `major version or newer (Debian: apt install postgresql-client) and put them on PATH.`,
    );
  return err;
}

/** The major version of a PostgreSQL client tool on PATH (`pg_dump --version`). */
export async function pgToolMajor(
  tool: 'pg_dump' | 'pg_restore',
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(tool, ['--version'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.on('error', (err) => reject(toolError(tool, err)));
    child.on('close', () => resolve(text));
  });
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(output);
  if (!match) throw new BackupError(`Could not read ${tool}'s version from: ${output.trim()}`);
  return Number(match[1]);
}

async function serverVersion(db: Database): Promise<{ text: string; major: number }> {
  const { rows } = await sql<{
    num: string;
    text: string;
  }>`select current_setting('server_version_num') as num, current_setting('server_version') as text`.execute(
    db,
  );
  const row = rows[0]!;
  return { text: row.text, major: Math.floor(Number(row.num) / 10_000) };
}

/**
 * Dumps the database with pg_dump while `read` runs in the same snapshot: a REPEATABLE READ
 * transaction exports its snapshot, pg_dump imports it (`--snapshot`), and the transaction stays
 * open until pg_dump is done, so the dump and what `read` answers are the same moment.
 */
export async function snapshotPostgres<T>(
  url: string,
  target: string,
  read: SnapshotReader<T>,
): Promise<DatabaseSnapshot<T>> {
  const db = createDatabase({ kind: 'postgres', url });
  try {
    const server = await serverVersion(db);
    const toolMajor = await pgToolMajor('pg_dump');
    if (toolMajor < server.major)
      throw new BackupError(
        `pg_dump on PATH is version ${toolMajor}, older than the server (${server.text}): install ` +
          `the PostgreSQL ${server.major} client tools (or newer) and put them first on PATH.`,
      );
    await assertHasSchema(db);
    const connection = libpqConnection(url);
    const result = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const dump = runTool(
          'pg_dump',
          [
            '--format=custom',
            `--snapshot=${rows[0]!.id}`,
            '--no-owner',
            `--file=${target}`,
            `--dbname=${connection.dbname}`,
          ],
          connection.env,
        );
        try {
          const value = await read(trx);
          await dump.done;
          return value;
        } catch (err) {
          dump.kill();
          await dump.done.catch(() => undefined);
          throw err;
        }
      });
    return { read: result, serverVersion: server.text, dumpToolMajor: toolMajor };
  } finally {
    await db.destroy();
  }
}

/** Refuses a target PostgreSQL database that has any table. */
export async function assertPostgresTargetEmpty(url: string): Promise<void> {
  const db = createDatabase({ kind: 'postgres', url });
  try {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema')`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0)
      throw new BackupError(
        'The target database (DATABASE_URL) already has tables: restore into a new, empty ' +
          'database (createdb), never over a live one.',
      );
  } finally {
    await db.destroy();
  }
}

/**
 * Loads a pg_dump archive into the (empty) target database in one transaction: a failure leaves
 * it empty. Owners and grants are the target's, not the source's.
 */
export async function restorePostgres(
  dumpFile: string,
  url: string,
  dumpToolMajor: number | undefined,
): Promise<void> {
  const toolMajor = await pgToolMajor('pg_restore');
  if (dumpToolMajor !== undefined && toolMajor < dumpToolMajor)
    throw new BackupError(
      `pg_restore on PATH is version ${toolMajor}, older than the pg_dump ${dumpToolMajor} that ` +
        `made this backup: install the PostgreSQL ${dumpToolMajor} client tools (or newer).`,
    );
  const connection = libpqConnection(url);
  await runTool(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      // The dump carries `COMMENT ON EXTENSION unaccent` (search); where an administrator created
      // the extension beforehand, only its owner may comment on it, and the restore would stop.
      '--no-comments',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${connection.dbname}`,
      dumpFile,
    ],
    connection.env,
  ).done;
}

// ---- both ------------------------------------------------------------------------------------

/** Refuses a source database the app never migrated (a wrong DATABASE_URL or DATA_DIR). */
async function assertHasSchema(db: Database): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === 'uploads'))
    throw new BackupError(
      'The configured database has no Sitelog tables: check DATA_DIR and DATABASE_URL.',
    );
}

/** Row counts for the manifest and the summaries. */
export async function countRows(
  db: Database,
): Promise<{ users: number; projects: number; uploads: number; reports: number }> {
  const count = async (table: 'users' | 'projects' | 'uploads' | 'reports') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    users: await count('users'),
    projects: await count('projects'),
    uploads: await count('uploads'),
    reports: await count('reports'),
  };
}
