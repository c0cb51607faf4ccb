import type {
  Report,
  ReportDetail,
  ReportPage,
  ReportPhoto,
  ReportType,
  Upload,
  createReportRequestSchema,
  reportsQuerySchema,
} from '@sitelog/shared';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { MediaLinks } from '../../media/links.js';
import type { Storage } from '../../media/storage/index.js';
import type { AuthUser } from '../auth/auth.service.js';
import { lockOpenProjects } from '../projects/projects.service.js';
import { getUploads } from '../uploads/uploads.service.js';
import { getTeamName } from '../workspace/workspace.service.js';
import { NOTHING_LEFT, photosGoneSincePdf, type ReportQueue } from './report-generator.js';
import * as repo from './reports.repository.js';

/*
 * Photo reports (issue 16). A report is a project's photos in an order, with captions, made into
 * a PDF off the request path (`report-generator.ts`): creating or re-generating one queues it and
 * answers at once (202); the web polls the report while it is `queued` or `generating`.
 *
 * - Every signed-in member reads every report and downloads its PDF (all members see all
 *   projects); the author or an admin re-generates, deletes and shares it.
 * - A report names its photos by upload; a photo deleted later (or moved to another project)
 *   leaves the PDF as it was, and the report says it is gone (`report_photos.upload_id` becomes
 *   null on a delete). Re-generating never drops such a photo from a PDF that holds it: once a
 *   report has a PDF, re-generating it with a photo gone is refused (409).
 * - A report of an archived project is read-only: no re-generate, no delete (409), as for its
 *   photos and comments.
 * - The PDF is served like media: a signed link bound to the viewer's session (a presigned URL
 *   on S3). Public links for people outside the team are in `reports.links.ts`.
 */

export interface ReportsDeps {
  db: Database;
  config: Config;
  links: MediaLinks;
  storage: Storage;
}

/** What the calls that queue a PDF need besides: the queue, woken when a report is queued. */
export interface ReportQueueDeps extends ReportsDeps {
  reportQueue: Pick<ReportQueue, 'wake'>;
}

/** Reports waiting for a PDF, workspace-wide, beyond which a new one is refused (503). */
export const REPORT_QUEUE_MAX = 100;
const QUEUE_RETRY_AFTER_SECONDS = 60;

const reportNotFound = () => notFound('Report');
const ARCHIVED =
  'This project is archived, so no new report can be made of it; its creator or an admin can restore it.';
const READ_ONLY =
  'This project is archived, so its reports are read-only; its creator or an admin can restore it.';

/** The author or an admin may re-generate, share and delete a report. */
export const canManageReport = (row: { author_id: number }, viewer: AuthUser) =>
  row.author_id === viewer.id || viewer.isAdmin;

/**
 * The report `id` if the viewer may manage it: 404 when there is none, 403 (saying what is
 * refused, e.g. 'delete this report') for anyone but its author or an admin.
 */
export async function findManagedReport(
  db: Database,
  id: number,
  viewer: AuthUser,
  action: string,
): Promise<repo.ReportRow> {
  const row = await repo.findReportById(db, id);
  if (!row) throw reportNotFound();
  if (!canManageReport(row, viewer))
    throw forbidden(`Only the author of this report or an admin can ${action}.`);
  return row;
}

/**
 * The name a report's PDF downloads under, for the session's link and the public one alike: its
 * title without characters file systems refuse, then the report's id, so two reports of the same
 * (default) title do not overwrite each other in a downloads folder: `Week 47 (report 12).pdf`.
 * The web's `download` attribute names it the same way.
 */
export function pdfFileName(title: string, reportId: number): string {
  const cleaned = title
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 100)
    .trim();
  return `${cleaned || 'Report'} (report ${reportId}).pdf`;
}

// ---- mapping ---------------------------------------------------------------------------------

async function toReports(
  deps: Pick<ReportsDeps, 'db' | 'links'>,
  rows: repo.ReportRow[],
  viewer: AuthUser,
): Promise<Report[]> {
  const thumbs = new Map<number, { uploadId: number; key: string }>();
  for (const t of await repo.findReportThumbs(
    deps.db,
    rows.map((r) => r.id),
  ))
    thumbs.set(t.report_id, { uploadId: t.upload_id, key: t.preview_key });
  return Promise.all(
    rows.map(async (row): Promise<Report> => {
      const thumb = thumbs.get(row.id);
      return {
        id: row.id,
        project: {
          id: row.project_id,
          name: row.project_name,
          archived: row.project_archived_at !== null,
        },
        author: {
          id: row.author_id,
          firstname: row.author_firstname,
          lastname: row.author_lastname,
        },
        type: row.type as ReportType,
        title: row.title,
        from: row.date_from,
        to: row.date_to,
        layout: row.layout as 1 | 2 | 4,
        photoCount: row.photo_count,
        status: row.status as Report['status'],
        progress: row.progress,
        error: row.status === 'failed' ? row.error : null,
        pdf:
          row.pdf_key === null
            ? null
            : {
                link: await deps.links.url(row.pdf_key, viewer, {
                  download: {
                    filename: pdfFileName(row.title, row.id),
                    contentType: 'application/pdf',
                  },
                }),
                bytes: row.pdf_bytes ?? 0,
                pages: row.pdf_pages ?? 0,
                generatedAt: row.generated_at ?? row.created_at,
              },
        thumb: thumb
          ? { uploadId: thumb.uploadId, previewLink: await deps.links.url(thumb.key, viewer) }
          : null,
        createdAt: row.created_at,
        canManage: canManageReport(row, viewer),
      };
    }),
  );
}

async function toDetail(
  deps: Pick<ReportsDeps, 'db' | 'links'>,
  row: repo.ReportRow,
  viewer: AuthUser,
): Promise<ReportDetail> {
  const [[report], photoRows] = await Promise.all([
    toReports(deps, [row], viewer),
    repo.listReportPhotos(deps.db, row.id),
  ]);
  // Only the photos still in the report's project: one moved to another project is gone for the
  // report as a deleted one is (upload null; its id stays, the photo lives on elsewhere).
  const ids = photoRows.flatMap((p) => (p.present && p.upload_id !== null ? [p.upload_id] : []));
  // Through the uploads service, so a photo here is the same shape as in every feed.
  const uploads = new Map<number, Upload>();
  for (const upload of await getUploads(deps, ids, viewer)) uploads.set(upload.id, upload);
  const photos = photoRows.map((p): ReportPhoto => ({
    position: p.position,
    uploadId: p.upload_id,
    name: p.name,
    caption: p.caption,
    sha256: p.sha256,
    upload: p.present && p.upload_id !== null ? (uploads.get(p.upload_id) ?? null) : null,
  }));
  return {
    ...report!,
    intro: row.intro,
    teamName: row.team_name,
    timeZone: row.time_zone,
    photos,
    goneCount: photos.filter((p) => p.upload === null).length,
  };
}

// ---- reads -----------------------------------------------------------------------------------

/** GET /api/report/{id}: the report with its photos as they are now; 404 when there is none. */
export async function getReport(
  deps: Pick<ReportsDeps, 'db' | 'links'>,
  id: number,
  viewer: AuthUser,
): Promise<ReportDetail> {
  const row = await repo.findReportById(deps.db, id);
  if (!row) throw reportNotFound();
  return toDetail(deps, row, viewer);
}

/** GET /api/report/latest: newest first, across projects (archived ones too), filtered. */
export async function listLatestReports(
  deps: Pick<ReportsDeps, 'db' | 'links'>,
  query: z.output<typeof reportsQuerySchema>,
  viewer: AuthUser,
): Promise<ReportPage> {
  // One more than asked tells whether there is a next page.
  const rows = await repo.listReports(deps.db, {
    projectId: query.project,
    authorId: query.author,
    type: query.type,
    before: query.before,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    reports: await toReports(deps, page, viewer),
    next: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/** For search: these reports as the viewer sees them, in the order of `ids` (missing ones left out). */
export async function listReportsByIds(
  deps: Pick<ReportsDeps, 'db' | 'links'>,
  viewer: AuthUser,
  ids: number[],
): Promise<Report[]> {
  const reports = await toReports(deps, await repo.findReportsByIds(deps.db, ids), viewer);
  const byId = new Map(reports.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---- writes ----------------------------------------------------------------------------------

/** "“Deck” (photo 12), “Roof” (photo 13) and 4 more" */
function namePhotos(photos: { id: number; name: string }[]): string {
  const named = photos.slice(0, 3).map((p) => `“${p.name}” (photo ${p.id})`);
  const more = photos.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** A new report as validated (`createReportRequestSchema`). */
export type NewReport = z.output<typeof createReportRequestSchema>;

/**
 * Writes a new report of the project's photos, in the order given, `queued` for its PDF, and
 * answers its id. The project must exist (404) and be open (409, its row held on PostgreSQL while
 * the report is written); every photo must exist and be in the project (400 naming those that
 * are not). The cover names the workspace's team unless the request names another. When `REPORT_QUEUE_MAX` reports already wait, 503 with `Retry-After`.
 */
export async function insertNewReport(
  db: Database,
  input: NewReport,
  authorId: number,
): Promise<number> {
  const ids = input.photos.map((p) => p.uploadId);
  return writeTransaction(db, async (trx) => {
    const projects = await lockOpenProjects(trx, [input.projectId], () => ARCHIVED);
    const projectName = projects.get(input.projectId) ?? 'this project';
    const found = new Map((await repo.findUploadsForReport(trx, ids)).map((u) => [u.id, u]));
    const missing = ids.filter((uploadId) => !found.has(uploadId));
    if (missing.length > 0)
      throw badRequest(
        missing.length === 1
          ? `Photo ${missing[0]} does not exist (it may have been deleted). Remove it from the report.`
          : `Photos ${missing.join(', ')} do not exist (they may have been deleted). Remove them from the report.`,
        'photo_not_found',
      );
    const elsewhere = ids
      .map((uploadId) => found.get(uploadId)!)
      .filter((u) => u.project_id !== input.projectId);
    if (elsewhere.length > 0)
      throw badRequest(
        `${elsewhere.length === 1 ? 'This photo is' : `${elsewhere.length} photos are`} not in ${projectName}: ${namePhotos(elsewhere)}. A report holds only its project's photos; remove ${elsewhere.length === 1 ? 'it' : 'them'} from the report.`,
        'photo_not_in_project',
      );
    if ((await repo.countPendingReports(trx)) >= REPORT_QUEUE_MAX)
      throw new AppError(
        503,
        'reports_busy',
        `${REPORT_QUEUE_MAX} reports are already waiting to be made. Try again in a minute.`,
        { 'retry-after': String(QUEUE_RETRY_AFTER_SECONDS) },
      );
    const reportId = await repo.insertReport(trx, {
      project_id: input.projectId,
      author_id: authorId,
      type: input.type,
      title: input.title,
      intro: input.intro,
      team_name: input.teamName ?? (await getTeamName(trx)),
      time_zone: input.timeZone ?? 'UTC',
      date_from: input.from,
      date_to: input.to,
      layout: input.layout,
      photo_count: ids.length,
      created_at: nowIso(),
    });
    await repo.insertReportPhotos(
      trx,
      reportId,
      input.photos.map((p) => ({
        uploadId: p.uploadId,
        name: found.get(p.uploadId)!.name,
        caption: p.caption,
      })),
    );
    return reportId;
  });
}

/** POST /api/report: the viewer's new report (`insertNewReport`), queued: answered with 202. */
export async function createReport(
  deps: ReportQueueDeps,
  input: NewReport,
  viewer: AuthUser,
): Promise<ReportDetail> {
  const id = await insertNewReport(deps.db, input, viewer.id);
  deps.reportQueue.wake();
  return getReport(deps, id, viewer);
}

/**
 * POST /api/report/{id}/regenerate: the author or an admin asks for a new PDF of the same
 * photos as they are now. The PDF made before stays downloadable until the new one replaces it.
 * Never at the cost of evidence: once the report has a PDF, a photo gone since (deleted, or moved
 * to another project) refuses it (409: the PDF keeps the photo; a new report leaves it out).
 * Without a PDF (the first generation failed) the photos that remain are made into one, and the
 * report's photo count becomes what it holds; none left: 409. Also 409 while one is queued or
 * being made, and while the project is archived (read-only).
 */
export async function regenerateReport(
  deps: ReportQueueDeps,
  id: number,
  viewer: AuthUser,
): Promise<ReportDetail> {
  const report = await findManagedReport(deps.db, id, viewer, 're-generate it');
  await writeTransaction(deps.db, async (trx) => {
    await lockOpenProjects(trx, [report.project_id], () => READ_ONLY);
    const row = await repo.findReportById(trx, id);
    if (!row) throw reportNotFound();
    if (row.status === 'ready' || row.status === 'failed') {
      const photos = await repo.countGonePhotos(trx, id);
      if (row.pdf_key !== null && photos.held.deleted + photos.held.moved > 0)
        throw conflict(
          photosGoneSincePdf(photos.held, row.generated_at ?? row.created_at, row.time_zone),
          'report_photos_gone',
        );
      if (photos.gone >= photos.total) throw conflict(NOTHING_LEFT, 'report_empty');
    }
    if (!(await repo.requeueReport(trx, id, nowIso())))
      throw conflict(
        'This report’s PDF is being made right now. Wait until it is ready, then try again.',
        'report_generating',
      );
  });
  deps.reportQueue.wake();
  return getReport(deps, id, viewer);
}

/**
 * DELETE /api/report/{id}: the author or an admin deletes the report with its photo list, its
 * public links and its event and notifications, then its stored PDF (409 while its project is
 * archived: read-only). A generation running for it finds the report gone and deletes what it
 * made.
 */
export async function deleteReport(
  deps: Pick<ReportsDeps, 'db' | 'storage'>,
  id: number,
  viewer: AuthUser,
): Promise<void> {
  const report = await findManagedReport(deps.db, id, viewer, 'delete it');
  const deleted = await writeTransaction(deps.db, async (trx) => {
    await lockOpenProjects(trx, [report.project_id], () => READ_ONLY);
    return repo.deleteReport(trx, id);
  });
  if (!deleted) throw reportNotFound();
  // A PDF that cannot be removed now is left to the sweeper: no report names it.
  if (deleted.pdf_key !== null) await deps.storage.delete(deleted.pdf_key).catch(() => undefined);
}

/** For the media sweeper: the stored PDFs among `keys` that a report still names. */
export function findReferencedReportKeys(db: Database, keys: string[]): Promise<Set<string>> {
  return repo.findReferencedPdfKeys(db, keys);
}

// ---- backup and restore (cli/) ---------------------------------------------------------------

/** One report's stored PDF, as a backup lists them. */
export interface ReportPdf {
  id: number;
  key: string;
}

/** Every report that names a stored PDF, by id, read page by page (a backup, in its snapshot). */
export async function* listReportPdfs(db: Database, pageSize = 1000): AsyncGenerator<ReportPdf> {
  let afterId = 0;
  for (;;) {
    const rows = await repo.listPdfKeys(db, afterId, pageSize);
    for (const row of rows) if (row.pdf_key !== null) yield { id: row.id, key: row.pdf_key };
    if (rows.length < pageSize) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

/**
 * The PDF key each of the reports `ids` names now (null: none), for those that still exist: a
 * backup tells a report deleted or re-generated since its snapshot from a PDF the storage lost.
 */
export function findReportPdfKeys(
  db: Database,
  ids: number[],
): Promise<Map<number, string | null>> {
  return repo.findPdfKeysByIds(db, ids);
}

/**
 * Removes report rows as a delete does (photos, links, events and their notifications go with
 * them) but leaving storage alone: a restore drops the reports deleted while its backup ran.
 * Answers how many rows there were.
 */
export async function removeReportRows(db: Database, ids: number[]): Promise<number> {
  let removed = 0;
  for (const id of ids)
    if (await writeTransaction(db, (trx) => repo.deleteReport(trx, id))) removed += 1;
  return removed;
}

/**
 * Queues reports for a new PDF, naming none until it is made: a restore's reports whose PDF was
 * replaced (re-generated) while the backup ran, so the old one was not copied. The restored
 * server makes the PDF again, as the live one did. Answers how many there were.
 */
export function requeueReportsWithoutPdf(db: Database, ids: number[]): Promise<number> {
  return repo.requeueWithoutPdf(db, ids, nowIso());
}
