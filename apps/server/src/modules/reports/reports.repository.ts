import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type RawBuilder, type UpdateObject } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

// ---- reports ---------------------------------------------------------------------------------

/** Reports with their project and author, as the lists and the detail map them. */
function selectReports(db: Database) {
  return db
    .selectFrom('reports')
    .innerJoin('projects', 'projects.id', 'reports.project_id')
    .innerJoin('users as author', 'author.id', 'reports.author_id')
    .select([
      'reports.id',
      'reports.project_id',
      'reports.author_id',
      'reports.type',
      'reports.title',
      'reports.intro',
      'reports.team_name',
      'reports.time_zone',
      'reports.date_from',
      'reports.date_to',
      'reports.layout',
      'reports.photo_count',
      'reports.status',
      'reports.progress',
      'reports.error',
      'reports.pdf_key',
      'reports.pdf_bytes',
      'reports.pdf_pages',
      'reports.created_at',
      'reports.generated_at',
      'projects.name as project_name',
      'projects.location as project_location',
      'projects.archived_at as project_archived_at',
      'author.firstname as author_firstname',
      'author.lastname as author_lastname',
    ]);
}

export type ReportRow = NonNullable<Awaited<ReturnType<typeof findReportById>>>;

export function findReportById(db: Database, id: number) {
  return selectReports(db).where('reports.id', '=', id).executeTakeFirst();
}

export function findReportsByIds(db: Database, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectReports(db).where('reports.id', 'in', ids).execute();
}

export interface ReportFilter {
  projectId?: number | undefined;
  authorId?: number | undefined;
  type?: string | undefined;
  /** Only reports with a smaller id (the page before's `next`). */
  before?: number | undefined;
  limit: number;
}

/** Newest first (by id), filtered; `reports_project_idx` / `reports_author_idx` serve the filters. */
export function listReports(db: Database, filter: ReportFilter) {
  let query = selectReports(db);
  if (filter.projectId !== undefined)
    query = query.where('reports.project_id', '=', filter.projectId);
  if (filter.authorId !== undefined) query = query.where('reports.author_id', '=', filter.authorId);
  if (filter.type !== undefined) query = query.where('reports.type', '=', filter.type);
  if (filter.before !== undefined) query = query.where('reports.id', '<', filter.before);
  return query.orderBy('reports.id', 'desc').limit(filter.limit).execute();
}

/** Reports waiting for or in generation, across the workspace (`reports_status_idx`). */
export async function countPendingReports(db: Database): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['queued', 'generating'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertReport(
  db: Database,
  row: {
    project_id: number;
    author_id: number;
    type: string;
    title: string;
    intro: string;
    team_name: string;
    time_zone: string;
    date_from: string;
    date_to: string;
    layout: number;
    photo_count: number;
    created_at: string;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('reports')
    .values({
      ...row,
      status: 'queued',
      error: null,
      pdf_key: null,
      pdf_bytes: null,
      pdf_pages: null,
      updated_at: row.created_at,
      generated_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * Back to the queue for a new PDF, unless one is queued or being made already. A person asked:
 * the count of attempts starts again.
 */
export async function requeueReport(db: Database, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({
      status: 'queued',
      progress: 0,
      error: null,
      claim_token: null,
      attempts: 0,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', ['ready', 'failed'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Deletes a report; its photos, links and events (and so their notifications) go with it.
 * Answers the key of the PDF it named as the delete saw it (a generation finishing at the same
 * moment cannot slip a key past it), or undefined when there was no such report.
 */
export async function deleteReport(
  db: Database,
  id: number,
): Promise<{ pdf_key: string | null } | undefined> {
  return db.deleteFrom('reports').where('id', '=', id).returning('pdf_key').executeTakeFirst();
}

/** The stored PDFs among `keys` that a report still names (for the sweeper; `reports_pdf_key_idx`). */
export async function findReferencedPdfKeys(db: Database, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('reports')
    .select('pdf_key')
    .where('pdf_key', 'in', keys)
    .execute();
  return new Set(rows.flatMap((r) => (r.pdf_key === null ? [] : [r.pdf_key])));
}

// ---- backup and restore ----------------------------------------------------------------------

/** Reports that name a stored PDF, by id, `limit` after `afterId` (a backup reads them all). */
export function listPdfKeys(db: Database, afterId: number, limit: number) {
  return db
    .selectFrom('reports')
    .select(['id', 'pdf_key'])
    .where('id', '>', afterId)
    .where('pdf_key', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The PDF key each of the reports `ids` that still exist names now (null: none). */
export async function findPdfKeysByIds(
  db: Database,
  ids: number[],
): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('reports')
    .select(['id', 'pdf_key'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.pdf_key]));
}

/**
 * Queues reports for a new PDF with none named meanwhile (a restore's reports whose PDF was
 * replaced while the backup ran). `generated_at` stays: the report's first PDF was made (no
 * second `report.created` event). Answers how many rows changed.
 */
export async function requeueWithoutPdf(db: Database, ids: number[], now: string): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('reports')
    .set({
      status: 'queued',
      progress: 0,
      error: null,
      pdf_key: null,
      pdf_bytes: null,
      pdf_pages: null,
      claim_token: null,
      attempts: 0,
      updated_at: now,
    })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---- the queue -------------------------------------------------------------------------------

/** The oldest report waiting for the queue, or undefined (`reports_status_idx`). */
export async function findNextQueuedReport(db: Database): Promise<number | undefined> {
  const row = await db
    .selectFrom('reports')
    .select('id')
    .where('status', '=', 'queued')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * A generation's hold on its report: the token its claim wrote. Every write of the run names it,
 * so once the report is taken from it (stale, queued again, claimed by another instance) the run
 * can write nothing more.
 */
export interface ReportClaim {
  id: number;
  token: string;
}

/** Only the run holding `claim` (the report `generating` under its token). */
const heldBy = (claim: ReportClaim) => (eb: ExpressionBuilder<DB, 'reports'>) =>
  eb.and([
    eb('id', '=', claim.id),
    eb('status', '=', 'generating'),
    eb('claim_token', '=', claim.token),
  ]);

/**
 * Takes a queued report for this process: only one of several instances (or workers) racing for
 * it changes the row, so only that one makes its PDF. The claim writes a fresh random token and
 * counts one more attempt. Answers the claim, or undefined when another took it first.
 */
export async function claimReport(
  db: Database,
  id: number,
  now: string,
): Promise<ReportClaim | undefined> {
  const token = randomUUID();
  const result = await db
    .updateTable('reports')
    .set({
      status: 'generating',
      progress: 0,
      error: null,
      claim_token: token,
      attempts: sql<number>`attempts + 1`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? { id, token } : undefined;
}

/**
 * Reports left `generating` by a process that stopped without saying so (no progress written
 * since `staleBefore`) go back to the queue, their claim void; those claimed `maxAttempts` times
 * already (they keep stopping their process) end `failed` with `failure` instead. Reads first
 * and updates only what it found, so a poll that finds nothing stalled writes nothing (on
 * SQLite, takes no write lock). Answers how many went each way.
 */
export async function requeueStaleReports(
  db: Database,
  staleBefore: string,
  options: { maxAttempts: number; failure: string; now: string },
): Promise<{ requeued: number; failed: number }> {
  const stale = await db
    .selectFrom('reports')
    .select(['id', 'attempts'])
    .where('status', '=', 'generating')
    .where('updated_at', '<', staleBefore)
    .execute();
  if (stale.length === 0) return { requeued: 0, failed: 0 };
  const spent = stale.filter((r) => r.attempts >= options.maxAttempts).map((r) => r.id);
  const again = stale.filter((r) => r.attempts < options.maxAttempts).map((r) => r.id);
  // The same conditions again: a heartbeat written since the read keeps its report.
  const update = async (ids: number[], set: UpdateObject<DB, 'reports'>) => {
    if (ids.length === 0) return 0;
    const result = await db
      .updateTable('reports')
      .set(set)
      .where('id', 'in', ids)
      .where('status', '=', 'generating')
      .where('updated_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  };
  return {
    requeued: await update(again, { status: 'queued', progress: 0, claim_token: null }),
    failed: await update(spent, {
      status: 'failed',
      error: options.failure,
      claim_token: null,
      updated_at: options.now,
    }),
  };
}

/**
 * The running generation's progress (also its heartbeat: `updated_at`). False when the report
 * is no longer this run's (deleted, or its claim taken over).
 */
export async function setReportProgress(
  db: Database,
  claim: ReportClaim,
  progress: number,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ progress, updated_at: now })
    .where(heldBy(claim))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What a finished generation leaves on the report's row. */
export interface ReadyPdf {
  key: string;
  bytes: number;
  pages: number;
  /** The photos the PDF holds: its progress, and the report's photo count from now on. */
  photos: number;
  at: string;
}

/**
 * Swaps in the new PDF, if the report is still this run's (not deleted, its claim not taken
 * over). Answers the row as it was before (its old PDF's key, whether it had one ready), or
 * undefined.
 */
export async function markReportReady(
  db: Database,
  claim: ReportClaim,
  pdf: ReadyPdf,
): Promise<{ pdf_key: string | null; generated_at: string | null } | undefined> {
  const before = await db
    .selectFrom('reports')
    .select(['pdf_key', 'generated_at'])
    .where(heldBy(claim))
    .executeTakeFirst();
  if (!before) return undefined;
  const result = await db
    .updateTable('reports')
    .set({
      status: 'ready',
      progress: pdf.photos,
      photo_count: pdf.photos,
      error: null,
      claim_token: null,
      pdf_key: pdf.key,
      pdf_bytes: pdf.bytes,
      pdf_pages: pdf.pages,
      generated_at: pdf.at,
      updated_at: pdf.at,
    })
    .where(heldBy(claim))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? before : undefined;
}

/**
 * The generation failed: the reason (read by people), the PDF made before kept. Only while the
 * report is still this run's: answers whether it was.
 */
export async function markReportFailed(
  db: Database,
  claim: ReportClaim,
  error: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ status: 'failed', error, claim_token: null, updated_at: now })
    .where(heldBy(claim))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A generation stopped because the server is shutting down: queued again for the next start,
 * the attempt not counted (the report did not stop the process). Only while the report is still
 * this run's: a report another instance took over stays with it. Answers whether it was.
 */
export async function releaseReport(
  db: Database,
  claim: ReportClaim,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({
      status: 'queued',
      progress: 0,
      claim_token: null,
      attempts: sql<number>`attempts - 1`,
      updated_at: now,
    })
    .where(heldBy(claim))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// ---- the photo list --------------------------------------------------------------------------

export async function insertReportPhotos(
  db: Database,
  reportId: number,
  photos: { uploadId: number; name: string; caption: string }[],
): Promise<void> {
  if (photos.length === 0) return;
  await db
    .insertInto('report_photos')
    .values(
      photos.map((photo, i) => ({
        report_id: reportId,
        position: i + 1,
        upload_id: photo.uploadId,
        name: photo.name,
        caption: photo.caption,
        sha256: null,
      })),
    )
    .execute();
}

/**
 * A report's photo list in order; `present` is whether the photo is still there for the report:
 * not deleted, and still in the report's project (a photo moved to another project is gone for
 * it, as for the generation).
 */
export async function listReportPhotos(db: Database, reportId: number) {
  const rows = await db
    .selectFrom('report_photos as rp')
    .innerJoin('reports', 'reports.id', 'rp.report_id')
    .leftJoin('uploads', 'uploads.id', 'rp.upload_id')
    .select([
      'rp.position',
      'rp.upload_id',
      'rp.name',
      'rp.caption',
      'rp.sha256',
      'uploads.project_id as upload_project_id',
      'reports.project_id',
    ])
    .where('rp.report_id', '=', reportId)
    .orderBy('rp.position')
    .execute();
  return rows.map(({ upload_project_id, project_id, ...row }) => ({
    ...row,
    present: upload_project_id !== null && upload_project_id === project_id,
  }));
}

/**
 * A report's photos that are gone: deleted, or moved to another project. `held` counts those of
 * them the stored PDF printed (their `sha256` is set), which a new PDF would leave out.
 */
export async function countGonePhotos(
  db: Database,
  reportId: number,
): Promise<{ total: number; gone: number; held: { deleted: number; moved: number } }> {
  const deleted = sql`(uploads.id is null)`;
  const moved = sql`(uploads.project_id <> reports.project_id)`;
  const count = (condition: RawBuilder<unknown>) =>
    sql<number | string | null>`sum(case when ${condition} then 1 else 0 end)`;
  const row = await db
    .selectFrom('report_photos as rp')
    .innerJoin('reports', 'reports.id', 'rp.report_id')
    .leftJoin('uploads', 'uploads.id', 'rp.upload_id')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      count(sql`${deleted} or ${moved}`).as('gone'),
      count(sql`${deleted} and rp.sha256 is not null`).as('held_deleted'),
      count(sql`${moved} and rp.sha256 is not null`).as('held_moved'),
    ])
    .where('rp.report_id', '=', reportId)
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    gone: Number(row.gone ?? 0),
    held: { deleted: Number(row.held_deleted ?? 0), moved: Number(row.held_moved ?? 0) },
  };
}

/**
 * The SHA-256 each photo's original had when the PDF printed it; the photos the new PDF left out
 * (gone before it was made) lose theirs, so a set hash always means "the stored PDF holds it".
 */
export async function setReportPhotoHashes(
  db: Database,
  reportId: number,
  hashes: { position: number; sha256: string }[],
): Promise<void> {
  let unprinted = db
    .updateTable('report_photos')
    .set({ sha256: null })
    .where('report_id', '=', reportId)
    .where('sha256', 'is not', null);
  if (hashes.length > 0)
    unprinted = unprinted.where(
      'position',
      'not in',
      hashes.map((h) => h.position),
    );
  await unprinted.execute();
  for (const { position, sha256 } of hashes)
    await db
      .updateTable('report_photos')
      .set({ sha256 })
      .where('report_id', '=', reportId)
      .where('position', '=', position)
      .execute();
}

/**
 * Each report's first photo that is still there (not deleted, still in the report's project),
 * with its preview's key (the report's card shows it).
 */
export function findReportThumbs(db: Database, reportIds: number[]) {
  if (reportIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('report_photos as rp')
    .innerJoin('reports', 'reports.id', 'rp.report_id')
    .innerJoin('uploads', (join) =>
      join
        .onRef('uploads.id', '=', 'rp.upload_id')
        .onRef('uploads.project_id', '=', 'reports.project_id'),
    )
    .select(['rp.report_id', 'uploads.id as upload_id', 'uploads.preview_key'])
    .where('rp.report_id', 'in', reportIds)
    .where('rp.position', '=', (eb) =>
      eb
        .selectFrom('report_photos as first')
        .innerJoin('uploads as fu', 'fu.id', 'first.upload_id')
        .select((inner) => inner.fn.min<number>('first.position').as('position'))
        .whereRef('first.report_id', '=', 'rp.report_id')
        .whereRef('fu.project_id', '=', 'reports.project_id'),
    )
    .execute();
}

/** The uploads a new report names: their project and name (missing ones are left out). */
export function findUploadsForReport(db: Database, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('uploads')
    .select(['id', 'project_id', 'name'])
    .where('id', 'in', ids)
    .execute();
}

/**
 * What the generation prints of each photo still in the report, in order: the uploader, the
 * stored keys, the capture data. Still in the report means not deleted and still in the
 * report's project (`uploads.project_id = reports.project_id`): a photo moved to another project
 * is left out as a deleted one is. Small rows (no image bytes): a 500-photo report reads them at
 * once.
 */
export function listPhotosToPrint(db: Database, reportId: number) {
  return db
    .selectFrom('report_photos as rp')
    .innerJoin('reports', 'reports.id', 'rp.report_id')
    .innerJoin('uploads', (join) =>
      join
        .onRef('uploads.id', '=', 'rp.upload_id')
        .onRef('uploads.project_id', '=', 'reports.project_id'),
    )
    .innerJoin('users as creator', 'creator.id', 'uploads.creator_id')
    .select([
      'rp.position',
      'rp.caption',
      'uploads.id as upload_id',
      'uploads.name',
      'uploads.formatted_key',
      'uploads.formatted_width',
      'uploads.formatted_height',
      'uploads.original_key',
      'uploads.original_sha256',
      'uploads.captured_at',
      'uploads.created_at',
      'uploads.latitude',
      'uploads.longitude',
      'uploads.camera',
      'creator.firstname as creator_firstname',
      'creator.lastname as creator_lastname',
    ])
    .where('rp.report_id', '=', reportId)
    .orderBy('rp.position')
    .execute();
}

export type PhotoToPrint = Awaited<ReturnType<typeof listPhotosToPrint>>[number];

/** Whether an upload still exists (a photo missing from storage: deleted meanwhile, or lost?). */
export async function uploadExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * Keeps the SHA-256 of an upload's original, computed from storage for a photo stored before
 * uploads recorded it. Written only where none is (the uploads module writes it for new photos).
 */
export async function fillOriginalSha256(db: Database, id: number, sha256: string): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ original_sha256: sha256 })
    .where('id', '=', id)
    .where('original_sha256', 'is', null)
    .execute();
}

// ---- public links ----------------------------------------------------------------------------

/** Links with who made them. */
function selectLinks(db: Database) {
  return db
    .selectFrom('report_links')
    .innerJoin('users as maker', 'maker.id', 'report_links.created_by')
    .select([
      'report_links.id',
      'report_links.report_id',
      'report_links.created_by',
      'report_links.created_at',
      'report_links.expires_at',
      'report_links.revoked_at',
      'report_links.downloads',
      'report_links.last_download_at',
      'maker.firstname as maker_firstname',
      'maker.lastname as maker_lastname',
      'maker.is_active as maker_active',
    ]);
}

export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLinkById>>>;

export function findLinkById(db: Database, id: number) {
  return selectLinks(db).where('report_links.id', '=', id).executeTakeFirst();
}

/** A report's links, newest first. */
export function listLinks(db: Database, reportId: number) {
  return selectLinks(db)
    .where('report_links.report_id', '=', reportId)
    .orderBy('report_links.id', 'desc')
    .execute();
}

export async function insertLink(
  db: Database,
  row: {
    report_id: number;
    token_hash: string;
    created_by: number;
    created_at: string;
    expires_at: string;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('report_links')
    .values({ ...row, revoked_at: null, last_download_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Revokes a link (a revoked one keeps its first revocation time). */
export async function revokeLink(db: Database, id: number, now: string): Promise<void> {
  await db
    .updateTable('report_links')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A link by its token's hash, with its report's PDF and title, and whether its maker is active. */
export function findLinkByHash(db: Database, tokenHash: string) {
  return db
    .selectFrom('report_links')
    .innerJoin('reports', 'reports.id', 'report_links.report_id')
    .innerJoin('users as maker', 'maker.id', 'report_links.created_by')
    .select([
      'report_links.id',
      'report_links.report_id',
      'report_links.expires_at',
      'report_links.revoked_at',
      'maker.is_active as maker_active',
      'reports.title',
      'reports.pdf_key',
    ])
    .where('report_links.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Counts one download, only while the link works (not revoked, not expired at `now`, its maker
 * still active): answers whether it did. One statement, so concurrent downloads each count.
 */
export async function countLinkDownload(db: Database, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('report_links')
    .set({ downloads: sql<number>`downloads + 1`, last_download_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('users')
          .select('users.id')
          .whereRef('users.id', '=', 'report_links.created_by')
          .where('users.is_active', '=', 1),
      ),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
