// The on-disk layout of a backup, shared by `npm run backup` and `npm run restore`:
//
//   DIR/database.sqlite | DIR/database.pgdump   the database snapshot
//   DIR/media/<key>                             every file the snapshot's uploads and reports
//                                               reference (photos; report PDFs)
//   DIR/SHA256SUMS                              `sha256sum -c` format, one line per file above
//   DIR/manifest.json                           written last: a backup without it is unfinished
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { open, readFile, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isValidKey } from '../media/media-types.js';

/** A refusal or failure the CLIs print as a plain message (no stack) and exit 1 on. */
export class BackupError extends Error {}

export const MANIFEST_FILE = 'manifest.json';
export const CHECKSUMS_FILE = 'SHA256SUMS';
export const MEDIA_DIR = 'media';
export const DATABASE_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;

const manifestSchema = z
  .object({
    format: z.literal('sitelog-backup'),
    formatVersion: z.literal(1),
    appVersion: z.string(),
    dialect: z.enum(['sqlite', 'postgres']),
    /** When the database snapshot was taken: the backup holds the data as of this moment. */
    snapshotAt: z.string(),
    finishedAt: z.string(),
    database: z.object({
      // Only our own names: the restore reads this file, so a hostile manifest must not point
      // outside the backup folder.
      file: z.enum([DATABASE_FILES.sqlite, DATABASE_FILES.postgres]),
      bytes: z.number().int().nonnegative(),
      sha256: z.string(),
      /** PostgreSQL: the server's and pg_dump's versions (pg_restore must read pg_dump's format). */
      serverVersion: z.string().optional(),
      dumpToolMajor: z.number().int().optional(),
    }),
    counts: z.object({
      users: z.number().int().nonnegative(),
      projects: z.number().int().nonnegative(),
      uploads: z.number().int().nonnegative(),
      /** Backups made before reports existed have none. */
      reports: z.number().int().nonnegative().default(0),
    }),
    media: z.object({
      files: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
    }),
    checksums: z.object({ file: z.literal(CHECKSUMS_FILE), sha256: z.string() }),
    /**
     * Uploads in the snapshot that were deleted before their files were copied (a delete removes
     * the row, then the files). A restore removes these rows, so it gives the snapshot plus those
     * deletes: every row it keeps has its files.
     */
    deletedDuringBackup: z.array(z.number().int()),
    /** Uploads whose files were already missing from the live storage (not caused by the backup). */
    missingMedia: z.array(z.object({ id: z.number().int(), keys: z.array(z.string()) })),
    /**
     * Reports in the snapshot whose PDF was gone when it was to be copied. A report's PDF is
     * stored before its row names it, and removed only after the row is deleted or names a new
     * PDF, so the live database says which: deleted ones the restore removes (as a delete does);
     * re-generated ones it queues again without a PDF, and the restored server makes a new one.
     * `missingPdf`: the live row still names it, so the live storage lost it (kept as it is).
     */
    reports: z
      .object({
        deletedDuringBackup: z.array(z.number().int()),
        regeneratedDuringBackup: z.array(z.number().int()),
        missingPdf: z.array(z.object({ id: z.number().int(), key: z.string() })),
      })
      .default({ deletedDuringBackup: [], regeneratedDuringBackup: [], missingPdf: [] }),
  })
  .refine((m) => m.database.file === DATABASE_FILES[m.dialect], {
    message: 'the database file does not match the database kind',
    path: ['database', 'file'],
  });

export type BackupManifest = z.infer<typeof manifestSchema>;

/** The app's version, from the root package.json. */
export function appVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../../../package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** Flushes a directory's entries (new and renamed files) to disk. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a file to disk. */
export async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Refuses a target folder that holds anything: a backup never mixes with other files. */
export async function assertEmptyOrMissingDir(dir: string): Promise<void> {
  let entries: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new BackupError(`${dir} exists and is not a folder.`);
    entries = await readdir(dir);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return;
    throw err;
  }
  if (entries.length > 0)
    throw new BackupError(`${dir} is not empty: back up into a new or empty folder.`);
}

/** Writes JSON to `file` through a temp file and a rename, flushed, so it appears whole. */
export async function writeJsonAtomically(file: string, value: unknown): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncDir(path.dirname(file));
}

/** Reads and checks a backup's manifest; refuses an unfinished or foreign folder. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
    throw new BackupError(
      `${dir} has no ${MANIFEST_FILE}: it is not a Sitelog backup, or the backup did not finish.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${path.join(dir, MANIFEST_FILE)} is not valid JSON.`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success)
    throw new BackupError(
      `${path.join(dir, MANIFEST_FILE)} is not a manifest this version understands: ` +
        result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  return result.data;
}

/** One line of SHA256SUMS: a file of the backup, relative to its folder, and its hash. */
export interface ChecksumEntry {
  sha256: string;
  file: string;
}

export const checksumLine = (entry: ChecksumEntry) => `${entry.sha256}  ${entry.file}\n`;

/** The media key a backup file holds, or null for the database file. */
export function keyOfFile(file: string): string | null {
  return file.startsWith(`${MEDIA_DIR}/`) ? file.slice(MEDIA_DIR.length + 1) : null;
}

/**
 * Parses SHA256SUMS (whose own hash the manifest holds). Every name must be the database file
 * or `media/<valid key>`, so a tampered list cannot point the restore outside the folder.
 */
export function parseChecksums(text: string, databaseFile: string): ChecksumEntry[] {
  const entries: ChecksumEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    const file = match?.[2];
    const key = file === undefined ? null : keyOfFile(file);
    if (!match || !file || (file !== databaseFile && (key === null || !isValidKey(key))))
      throw new BackupError(
        `${CHECKSUMS_FILE} has a line that is not ours: ${JSON.stringify(line)}`,
      );
    entries.push({ sha256: match[1]!, file });
  }
  return entries;
}
