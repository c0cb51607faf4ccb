// `npm run restore -- --from DIR`: brings a backup back into an empty target.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { createDatabase, migrateToLatest } from '../db/database.js';
import { contentTypeForKey } from '../media/media-types.js';
import { createStorage, type Storage } from '../media/storage/index.js';
import { removeReportRows, requeueReportsWithoutPdf } from '../modules/reports/reports.service.js';
import { removeUploadRows } from '../modules/uploads/uploads.service.js';
import {
  BackupError,
  CHECKSUMS_FILE,
  keyOfFile,
  parseChecksums,
  readManifest,
  sha256File,
  type BackupManifest,
  type ChecksumEntry,
} from './backup-archive.js';
import {
  consoleOutput,
  forEachConcurrently,
  formatBytes,
  parseFolderOption,
  reportFailure,
  type CliOutput,
} from './cli-support.js';
import {
  assertPostgresTargetEmpty,
  countRows,
  prepareSqliteTarget,
  restorePostgres,
  restoreSqlite,
} from './database-dump.js';

export const RESTORE_USAGE = `Usage: npm run restore -- --from DIR

Restores a backup made by npm run backup into the configured target (DATA_DIR, DATABASE_URL,
STORAGE, S3_*), which must be empty: a new data dir or a new PostgreSQL database, and an empty
media folder or bucket. Checks every file against the backup's checksums first, then restores
the database, brings it up to this version's schema, and puts the photo files and report PDFs
back.

  --from DIR  the backup folder (it holds manifest.json)
  --help      show this help`;

const PUT_CONCURRENCY = 8;

const DIALECT_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** Checks every file against SHA256SUMS (whose own hash is in the manifest) before any change. */
async function verifyBackup(dir: string, manifest: BackupManifest): Promise<ChecksumEntry[]> {
  const checksumsPath = path.join(dir, CHECKSUMS_FILE);
  let listed: { sha256: string };
  try {
    listed = await sha256File(checksumsPath);
  } catch {
    throw new BackupError(`${checksumsPath} is missing: the backup is incomplete.`);
  }
  if (listed.sha256 !== manifest.checksums.sha256)
    throw new BackupError(`${CHECKSUMS_FILE} does not match the manifest: the backup was changed.`);
  const entries = parseChecksums(await readFile(checksumsPath, 'utf8'), manifest.database.file);
  const media = entries.filter((e) => keyOfFile(e.file) !== null);
  const database = entries.find((e) => e.file === manifest.database.file);
  if (
    !database ||
    database.sha256 !== manifest.database.sha256 ||
    media.length !== manifest.media.files
  )
    throw new BackupError(
      `${CHECKSUMS_FILE} does not list what the manifest says: the backup was changed.`,
    );
  await forEachConcurrently(entries, 4, async (entry) => {
    const file = path.join(dir, entry.file);
    let actual: string;
    try {
      actual = (await sha256File(file)).sha256;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
      throw new BackupError(`${file} is missing from the backup.`);
    }
    if (actual !== entry.sha256)
      throw new BackupError(
        `${file} does not match its checksum: the backup was changed or damaged. Nothing was restored.`,
      );
  });
  return media;
}

/** The prefixes the app stores under: photos, and report PDFs. */
const STORED_PREFIXES = ['uploads/', 'reports/'];

async function assertStorageEmpty(storage: Storage): Promise<void> {
  for (const prefix of STORED_PREFIXES)
    for await (const object of storage.list(prefix)) {
      throw new BackupError(
        `The target storage already holds media (${object.key}): restore into an empty media ` +
          'folder or bucket. Two installs sharing one would each sweep away the files of the other.',
      );
    }
}

export interface RestoreSummary {
  manifest: BackupManifest;
  counts: { users: number; projects: number; uploads: number; reports: number };
  removedRows: number;
  /** Reports deleted while the backup ran, left out. */
  removedReports: number;
  /** Reports re-generated while the backup ran, queued again for their PDF. */
  requeuedReports: number;
  files: number;
  bytes: number;
  seconds: number;
}

/** Restores the backup in `dir` into the configured, empty target. */
export async function runRestore(config: Config, dir: string): Promise<RestoreSummary> {
  const started = Date.now();
  const manifest = await readManifest(dir);
  if (manifest.dialect !== config.database.kind)
    throw new BackupError(
      `This backup holds a ${DIALECT_NAMES[manifest.dialect]} database and the target is ` +
        `${DIALECT_NAMES[config.database.kind]}: a backup restores into the same kind of ` +
        'database (DATABASE_URL set to postgres://… for PostgreSQL, unset for SQLite).',
    );
  const storage = createStorage(config);
  try {
    // Every refusal comes before the first change.
    if (config.database.kind === 'sqlite') await prepareSqliteTarget(config.database.file, false);
    else await assertPostgresTargetEmpty(config.database.url);
    await assertStorageEmpty(storage);
    const media = await verifyBackup(dir, manifest);

    const dumpFile = path.join(dir, manifest.database.file);
    if (config.database.kind === 'sqlite') {
      await prepareSqliteTarget(config.database.file, true);
      await restoreSqlite(dumpFile, config.database.file);
    } else {
      await restorePostgres(dumpFile, config.database.url, manifest.database.dumpToolMajor);
    }

    const db = createDatabase(config.database);
    try {
      // An older backup comes up to this version's schema before this version's code edits it.
      await migrateToLatest(db);
      // The snapshot plus what happened to its rows before their files were copied.
      const removedRows = await removeUploadRows(db, manifest.deletedDuringBackup);
      const removedReports = await removeReportRows(db, manifest.reports.deletedDuringBackup);
      const requeuedReports = await requeueReportsWithoutPdf(
        db,
        manifest.reports.regeneratedDuringBackup,
      );
      let bytes = 0;
      await forEachConcurrently(media, PUT_CONCURRENCY, async (entry) => {
        const key = keyOfFile(entry.file)!;
        const filePath = path.join(dir, entry.file);
        await storage.put(key, { filePath }, contentTypeForKey(key));
        // Read first, then added: `bytes += await …` would add to a stale total.
        const { size } = await stat(filePath);
        bytes += size;
      });
      return {
        manifest,
        counts: await countRows(db),
        removedRows,
        removedReports,
        requeuedReports,
        files: media.length,
        bytes,
        seconds: (Date.now() - started) / 1000,
      };
    } finally {
      await db.destroy();
    }
  } finally {
    await storage.close();
  }
}

/** The whole command; answers the exit code. */
export async function restoreCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: CliOutput = consoleOutput,
): Promise<number> {
  let changing = false;
  try {
    const dir = parseFolderOption(argv, 'from', RESTORE_USAGE, out);
    if (dir === null) return 0;
    const config = loadConfig(env);
    changing = true;
    const summary = await runRestore(config, dir);
    const { counts } = summary;
    out.log(
      `Restored ${counts.users} users, ${counts.projects} projects, ${counts.uploads} uploads ` +
        `and ${counts.reports} reports with ${summary.files} files ` +
        `(${formatBytes(summary.bytes)}) from the backup of ${summary.manifest.snapshotAt} in ` +
        `${summary.seconds.toFixed(1)} s.`,
    );
    if (summary.removedRows > 0)
      out.log(`Left out ${summary.removedRows} uploads that were deleted while the backup ran.`);
    if (summary.removedReports > 0)
      out.log(`Left out ${summary.removedReports} reports that were deleted while the backup ran.`);
    if (summary.requeuedReports > 0)
      out.log(
        `Queued ${summary.requeuedReports} reports for a new PDF: they were re-generated while ` +
          'the backup ran. The server makes their PDF when it starts.',
      );
    return 0;
  } catch (err) {
    reportFailure('restore', err, out);
    if (changing && !(err instanceof BackupError))
      out.error(
        'The target may be partly restored: empty it (a new DATA_DIR or database, an empty ' +
          'bucket) before trying again.',
      );
    return 1;
  }
}
