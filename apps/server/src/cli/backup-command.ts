// `npm run backup -- --to DIR`: a consistent online backup of the database and the media.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { createDatabase, type Database } from '../db/database.js';
import { isValidKey } from '../media/media-types.js';
import { createStorage, type Storage } from '../media/storage/index.js';
import {
  findReportPdfKeys,
  listReportPdfs,
  type ReportPdf,
} from '../modules/reports/reports.service.js';
import {
  findExistingUploads,
  listUploadMedia,
  type UploadMedia,
} from '../modules/uploads/uploads.service.js';
import {
  BackupError,
  CHECKSUMS_FILE,
  DATABASE_FILES,
  MANIFEST_FILE,
  MEDIA_DIR,
  appVersion,
  assertEmptyOrMissingDir,
  checksumLine,
  sha256File,
  syncDir,
  syncFile,
  writeJsonAtomically,
  type BackupManifest,
} from './backup-archive.js';
import {
  consoleOutput,
  forEachConcurrently,
  formatBytes,
  parseFolderOption,
  reportFailure,
  type CliOutput,
} from './cli-support.js';
import { countRows, snapshotPostgres, snapshotSqlite } from './database-dump.js';

export const BACKUP_USAGE = `Usage: npm run backup -- --to DIR

Takes a consistent backup while the app keeps running: a snapshot of the database (SQLite's
online backup, or pg_dump for PostgreSQL), then every photo file and report PDF that snapshot
references.
Reads the same settings as the server (DATA_DIR, DATABASE_URL, STORAGE, S3_*).

  --to DIR    a new or empty folder for the backup (created if missing)
  --help      show this help

Restore it with: npm run restore -- --from DIR`;

/** Files copied at once: S3 answers each GET slowly but many in parallel. */
const COPY_CONCURRENCY = 8;

export interface BackupSummary {
  dir: string;
  manifest: BackupManifest;
  seconds: number;
}

/** Streams one stored object into `file`, hashing it; null when the object is gone. */
async function copyObject(
  storage: Storage,
  key: string,
  file: string,
): Promise<{ sha256: string; bytes: number } | null> {
  const object = await storage.stream(key);
  if (!object) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(file, 'wx', 0o600);
    try {
      for await (const chunk of object.body as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        await handle.write(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    object.body.destroy();
    throw err;
  }
  return { sha256: hash.digest('hex'), bytes };
}

interface MediaResult {
  files: number;
  bytes: number;
  deletedDuringBackup: number[];
  missingMedia: { id: number; keys: string[] }[];
  reports: BackupManifest['reports'];
}

/** What stores files in the snapshot: an upload (its three files) or a report (its PDF). */
type MediaOwner =
  { kind: 'upload'; id: number; keys: string[] } | { kind: 'report'; id: number; keys: [string] };

/**
 * Why an owner's file was gone, from the live database: its row was deleted (or, for a report,
 * names a new PDF) after the snapshot, or the row still names it and the live storage lost it.
 */
async function whyMissing(
  live: Database,
  owner: MediaOwner,
): Promise<'deleted' | 'regenerated' | 'lost'> {
  if (owner.kind === 'upload')
    return (await findExistingUploads(live, [owner.id])).has(owner.id) ? 'lost' : 'deleted';
  const now = await findReportPdfKeys(live, [owner.id]);
  if (!now.has(owner.id)) return 'deleted';
  return now.get(owner.id) === owner.keys[0] ? 'lost' : 'regenerated';
}

/**
 * Copies every file the snapshot's uploads and reports reference. The app stores a file before
 * a row names it and removes it only after the row was deleted (or, for a report's PDF, names a
 * new one), so a file can only be missing because that happened after the snapshot, unless the
 * live storage lost it: the live database tells them apart. A deleted upload's other files are
 * dropped from the backup too.
 */
async function copyMedia(
  deps: { storage: Storage; live: Database },
  dir: string,
  owners: Iterable<MediaOwner>,
  writeChecksum: (line: string) => Promise<void>,
): Promise<MediaResult> {
  const result: MediaResult = {
    files: 0,
    bytes: 0,
    deletedDuringBackup: [],
    missingMedia: [],
    reports: { deletedDuringBackup: [], regeneratedDuringBackup: [], missingPdf: [] },
  };
  const fanOutDirs = new Set<string>();
  await forEachConcurrently(owners, COPY_CONCURRENCY, async (owner) => {
    const copied: { file: string; sha256: string; bytes: number }[] = [];
    const missing: string[] = [];
    for (const key of owner.keys) {
      if (!isValidKey(key))
        throw new BackupError(
          `${owner.kind === 'upload' ? 'Upload' : 'Report'} ${owner.id} references an invalid media key: ${key}`,
        );
      const file = `${MEDIA_DIR}/${key}`;
      const done = await copyObject(deps.storage, key, path.join(dir, file));
      if (done) copied.push({ file, ...done });
      else missing.push(key);
    }
    // An owner's files share one folder of their own: `uploads|reports/<2 hex>/<uuid>/`.
    const folder = path.dirname(path.join(dir, `${MEDIA_DIR}/${owner.keys[0]}`));
    if (missing.length > 0) {
      const why = await whyMissing(deps.live, owner);
      if (why !== 'lost') {
        for (const c of copied) await rm(path.join(dir, c.file), { force: true });
        await rm(folder, { recursive: true, force: true });
        if (owner.kind === 'upload') result.deletedDuringBackup.push(owner.id);
        else if (why === 'deleted') result.reports.deletedDuringBackup.push(owner.id);
        else result.reports.regeneratedDuringBackup.push(owner.id);
        return;
      }
      if (owner.kind === 'upload') result.missingMedia.push({ id: owner.id, keys: missing });
      else result.reports.missingPdf.push({ id: owner.id, key: owner.keys[0] });
    }
    if (copied.length === 0) return;
    await syncDir(folder);
    fanOutDirs.add(path.dirname(folder));
    for (const c of copied) {
      await writeChecksum(checksumLine(c));
      result.files += 1;
      result.bytes += c.bytes;
    }
  });
  for (const folder of fanOutDirs) await syncDir(folder);
  for (const prefix of ['uploads', 'reports']) {
    const prefixDir = path.join(dir, MEDIA_DIR, prefix);
    if (existsSync(prefixDir)) await syncDir(prefixDir);
  }
  const byId = (a: number, b: number) => a - b;
  result.deletedDuringBackup.sort(byId);
  result.missingMedia.sort((a, b) => a.id - b.id);
  result.reports.deletedDuringBackup.sort(byId);
  result.reports.regeneratedDuringBackup.sort(byId);
  result.reports.missingPdf.sort((a, b) => a.id - b.id);
  return result;
}

export interface BackupOptions {
  /** Runs between the snapshot and the media copy (the tests delete an upload there). */
  afterSnapshot?: () => Promise<void>;
}

/** Takes the backup into `dir` (new or empty). On failure nothing is left in it. */
export async function runBackup(
  config: Config,
  dir: string,
  options: BackupOptions = {},
): Promise<BackupSummary> {
  const started = Date.now();
  await assertEmptyOrMissingDir(dir);
  const created = !existsSync(dir);
  await mkdir(path.join(dir, MEDIA_DIR), { recursive: true, mode: 0o700 });
  try {
    const dialect = config.database.kind;
    const databaseFile = DATABASE_FILES[dialect];
    const target = path.join(dir, databaseFile);
    // Read in the snapshot, then the snapshot is let go before the (longer) media copy. The lists
    // are kept in memory: about 200 bytes an upload, 100 a report.
    const read = async (db: Database) => {
      const uploads: UploadMedia[] = [];
      for await (const upload of listUploadMedia(db)) uploads.push(upload);
      const reports: ReportPdf[] = [];
      for await (const report of listReportPdfs(db)) reports.push(report);
      return { counts: await countRows(db), uploads, reports };
    };
    // Taken just before the snapshot, which is as of a moment a few milliseconds later.
    const snapshotAt = new Date().toISOString();
    const snapshot =
      config.database.kind === 'sqlite'
        ? await snapshotSqlite(config.database.file, target, read)
        : await snapshotPostgres(config.database.url, target, read);
    // It holds password and session hashes: the backup's files are the operator's alone.
    await chmod(target, 0o600);
    await syncFile(target);
    const database = await sha256File(target);
    await options.afterSnapshot?.();

    // Appended to by parallel copies: O_APPEND puts each line whole at the end.
    const checksums = await open(path.join(dir, CHECKSUMS_FILE), 'ax', 0o600);
    let media: MediaResult;
    const live = createDatabase(config.database);
    const storage = createStorage(config);
    try {
      await checksums.write(checksumLine({ sha256: database.sha256, file: databaseFile }));
      const { uploads, reports } = snapshot.read;
      const owners = function* (): Generator<MediaOwner> {
        for (const u of uploads) yield { kind: 'upload', id: u.id, keys: u.keys };
        for (const r of reports) yield { kind: 'report', id: r.id, keys: [r.key] };
      };
      media = await copyMedia({ storage, live }, dir, owners(), async (line) => {
        await checksums.write(line);
      });
      await checksums.sync();
    } finally {
      await checksums.close();
      await storage.close();
      await live.destroy();
    }
    await syncDir(path.join(dir, MEDIA_DIR));
    await syncDir(dir);

    const manifest: BackupManifest = {
      format: 'sitelog-backup',
      formatVersion: 1,
      appVersion: appVersion(),
      dialect,
      snapshotAt,
      finishedAt: new Date().toISOString(),
      database: {
        file: databaseFile,
        bytes: database.bytes,
        sha256: database.sha256,
        ...(snapshot.serverVersion ? { serverVersion: snapshot.serverVersion } : {}),
        ...(snapshot.dumpToolMajor ? { dumpToolMajor: snapshot.dumpToolMajor } : {}),
      },
      counts: snapshot.read.counts,
      media: { files: media.files, bytes: media.bytes },
      checksums: {
        file: CHECKSUMS_FILE,
        sha256: (await sha256File(path.join(dir, CHECKSUMS_FILE))).sha256,
      },
      deletedDuringBackup: media.deletedDuringBackup,
      missingMedia: media.missingMedia,
      reports: media.reports,
    };
    // Last: a folder without a manifest is an unfinished backup, and restore refuses it.
    await writeJsonAtomically(path.join(dir, MANIFEST_FILE), manifest);
    return { dir, manifest, seconds: (Date.now() - started) / 1000 };
  } catch (err) {
    if (created) await rm(dir, { recursive: true, force: true });
    else
      for (const entry of await readdir(dir))
        await rm(path.join(dir, entry), { recursive: true, force: true });
    throw err;
  }
}

/** The whole command; answers the exit code. */
export async function backupCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: CliOutput = consoleOutput,
): Promise<number> {
  try {
    const dir = parseFolderOption(argv, 'to', BACKUP_USAGE, out);
    if (dir === null) return 0;
    const { manifest, seconds } = await runBackup(loadConfig(env), dir);
    const { counts, media, reports } = manifest;
    out.log(
      `Backed up ${counts.users} users, ${counts.projects} projects, ${counts.uploads} uploads ` +
        `and ${counts.reports} reports (${manifest.dialect}) with ${media.files} files ` +
        `(${formatBytes(media.bytes)}) to ${dir} in ${seconds.toFixed(1)} s.`,
    );
    if (manifest.deletedDuringBackup.length > 0)
      out.log(
        `${manifest.deletedDuringBackup.length} uploads were deleted while the backup ran; ` +
          'a restore leaves them out.',
      );
    if (reports.deletedDuringBackup.length > 0)
      out.log(
        `${reports.deletedDuringBackup.length} reports were deleted while the backup ran; ` +
          'a restore leaves them out.',
      );
    if (reports.regeneratedDuringBackup.length > 0)
      out.log(
        `${reports.regeneratedDuringBackup.length} reports were re-generated while the backup ` +
          'ran; a restore queues them again, and the restored server makes their PDF.',
      );
    if (manifest.missingMedia.length > 0)
      out.error(
        `Warning: ${manifest.missingMedia.length} uploads have files missing from the live ` +
          `storage (not caused by the backup), e.g. upload ${manifest.missingMedia[0]!.id}: ` +
          `${manifest.missingMedia[0]!.keys.join(', ')}. They are listed in ${MANIFEST_FILE}.`,
      );
    if (reports.missingPdf.length > 0)
      out.error(
        `Warning: ${reports.missingPdf.length} reports have their PDF missing from the live ` +
          `storage (not caused by the backup), e.g. report ${reports.missingPdf[0]!.id}: ` +
          `${reports.missingPdf[0]!.key}. They are listed in ${MANIFEST_FILE}; re-generate them.`,
      );
    return 0;
  } catch (err) {
    reportFailure('backup', err, out);
    return 1;
  }
}
