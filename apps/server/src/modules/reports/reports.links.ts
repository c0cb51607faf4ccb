import type { CreatedReportLink, ReportLink } from '@sitelog/shared';
import type { Readable } from 'node:stream';
import { nowIso } from '../../db/database.js';
import { AppError, conflict, notFound } from '../../errors.js';
import { attachmentDisposition } from '../../media/media-types.js';
import { StorageError } from '../../media/storage/index.js';
import { checkLinkGuesses, countLinkGuess, type AuthUser } from '../auth/auth.service.js';
import { hashToken, newSessionToken } from '../auth/tokens.js';
import * as repo from './reports.repository.js';
import { findManagedReport, pdfFileName, type ReportsDeps } from './reports.service.js';

/*
 * Public links to a report's PDF, for people outside the team (the client, the insurer): the
 * author or an admin makes one, it works until it expires (30 days unless asked otherwise) or is
 * revoked, and it serves that one PDF and nothing else.
 *
 * - The token is 32 random bytes (base64url), shown once; the database keeps only its SHA-256,
 *   as for sessions and invitations, so a copy of the database opens no report.
 * - Every download through a link is counted, in one statement that also checks that the link
 *   still works, so concurrent downloads all count and none slips past a revocation.
 * - A token no link has counts against the caller's address like a failed sign-in (the
 *   invitations' rule), so tokens cannot be guessed at speed.
 * - A link works only while the member who made it is active, as an invitation link does: a
 *   deactivated member's links stop (410), and work again if the account is reactivated.
 * - Deleting the report deletes its links (the foreign key cascades).
 */

const DAY_MS = 24 * 3600_000;

const LINK_UNKNOWN =
  'This report link is not valid. Check that you opened the whole link, or ask the person who shared it for a new one.';
const LINK_REVOKED =
  'This report link has been switched off. Ask the person who shared it for a new one.';
const LINK_MAKER_DEACTIVATED =
  'This link was switched off: the account of the person who shared it has been deactivated. Ask the team for a new link.';
const LINK_EXPIRED = 'This report link has expired. Ask the person who shared it for a new one.';
const PDF_MISSING =
  'The report’s PDF cannot be found right now. Ask the person who shared it to make it again.';

const linkGone = (code: string, message: string) => new AppError(410, code, message);

/** A link's state as its refusal reads it: `maker_active` is the maker's `users.is_active`. */
interface LinkState {
  revoked_at: string | null;
  expires_at: string;
  maker_active: number;
}

const isActive = (row: LinkState, now: number) => linkRefusal(row, now) === null;

function toLink(row: repo.LinkRow, now: number): ReportLink {
  return {
    id: row.id,
    reportId: row.report_id,
    createdBy: { id: row.created_by, firstname: row.maker_firstname, lastname: row.maker_lastname },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    active: isActive(row, now),
    downloads: row.downloads,
    lastDownloadAt: row.last_download_at,
  };
}

/** GET /api/report/{id}/links: the report's links, newest first (the author or an admin). */
export async function listReportLinks(
  deps: Pick<ReportsDeps, 'db'>,
  reportId: number,
  viewer: AuthUser,
): Promise<ReportLink[]> {
  await findManagedReport(deps.db, reportId, viewer, 'see its public links');
  const now = Date.now();
  return (await repo.listLinks(deps.db, reportId)).map((row) => toLink(row, now));
}

/**
 * POST /api/report/{id}/links: a new public link to the report's PDF, working for
 * `expiresInDays` days; answers it with its path, shown this once. 409 while the report has no
 * PDF yet.
 */
export async function createReportLink(
  deps: Pick<ReportsDeps, 'db'>,
  reportId: number,
  request: { expiresInDays: number },
  viewer: AuthUser,
): Promise<CreatedReportLink> {
  const report = await findManagedReport(deps.db, reportId, viewer, 'share it');
  if (report.pdf_key === null)
    throw conflict(
      'This report has no PDF yet. Wait until it is ready, then make the link.',
      'report_not_ready',
    );
  const { token, tokenHash } = newSessionToken();
  const now = Date.now();
  const id = await repo.insertLink(deps.db, {
    report_id: reportId,
    token_hash: tokenHash,
    created_by: viewer.id,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + request.expiresInDays * DAY_MS).toISOString(),
  });
  const row = await repo.findLinkById(deps.db, id);
  if (!row) throw notFound('Report link');
  return { ...toLink(row, now), path: `/api/report/shared/${token}` };
}

/**
 * DELETE /api/report/link/{id}: the link stops working at once (the author of its report or an
 * admin; 404 for no such link). Revoking a revoked link changes nothing.
 */
export async function revokeReportLink(
  deps: Pick<ReportsDeps, 'db'>,
  linkId: number,
  viewer: AuthUser,
): Promise<void> {
  const link = await repo.findLinkById(deps.db, linkId);
  if (!link) throw notFound('Report link');
  await findManagedReport(deps.db, link.report_id, viewer, 'switch off its public links');
  await repo.revokeLink(deps.db, linkId, nowIso());
}

/** A shared PDF ready to send. */
export interface SharedPdf {
  body: Readable;
  size: number;
  /**
   * `Content-Disposition`: a download named after the report. Not inline: browsers refuse to show
   * a PDF served under the sandboxing CSP in their viewer (a blank page in Chromium and Safari),
   * and a saved file opens in any reader.
   */
  disposition: string;
}

/** Why a link that exists does not work, or null while it does. */
function linkRefusal(row: LinkState, now: number) {
  if (row.revoked_at !== null) return linkGone('report_link_revoked', LINK_REVOKED);
  if (row.maker_active !== 1)
    return linkGone('report_link_maker_deactivated', LINK_MAKER_DEACTIVATED);
  if (now >= Date.parse(row.expires_at)) return linkGone('report_link_expired', LINK_EXPIRED);
  return null;
}

/**
 * GET /api/report/shared/{token} (public): the PDF of the link's report, counted as one download.
 * 404 for a token no link has (counted against the address's limit; 429 once over it), 410 for
 * a revoked or expired link or one whose maker is deactivated, 404 when the report has no stored
 * PDF, 503 when storage cannot be reached.
 */
export async function openSharedReport(
  deps: Pick<ReportsDeps, 'db' | 'config' | 'storage'>,
  token: string,
  ip: string,
): Promise<SharedPdf> {
  await checkLinkGuesses(deps, ip);
  const link = await repo.findLinkByHash(deps.db, hashToken(token));
  if (!link) {
    await countLinkGuess(deps, ip);
    throw new AppError(404, 'report_link_not_found', LINK_UNKNOWN);
  }
  const refusal = linkRefusal(link, Date.now());
  if (refusal) throw refusal;
  if (link.pdf_key === null) throw new AppError(404, 'report_pdf_missing', PDF_MISSING);
  let object;
  try {
    object = await deps.storage.stream(link.pdf_key);
  } catch (err) {
    if (!(err instanceof StorageError)) throw err;
    const refusal = new AppError(
      503,
      'storage_unavailable',
      'The report cannot be read from storage right now. Try again in a minute.',
      { 'retry-after': '60' },
    );
    refusal.cause = err;
    throw refusal;
  }
  if (!object) throw new AppError(404, 'report_pdf_missing', PDF_MISSING);
  // Counted only if the link still works now (revoked, expired or its maker deactivated since
  // it was read: refused). The stream is closed on every way out but the answer.
  let counted: boolean;
  try {
    counted = await repo.countLinkDownload(deps.db, link.id, nowIso());
  } catch (err) {
    object.body.destroy();
    throw err;
  }
  if (!counted) {
    object.body.destroy();
    const now = await repo.findLinkByHash(deps.db, hashToken(token));
    throw (now && linkRefusal(now, Date.now())) ?? linkGone('report_link_revoked', LINK_REVOKED);
  }
  return {
    body: object.body,
    size: object.size,
    disposition: attachmentDisposition(pdfFileName(link.title, link.report_id)),
  };
}
