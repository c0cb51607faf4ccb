import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import type {
  FeedQuery,
  PhotoLocation,
  TagSuggestion,
  Upload,
  updateUploadRequestSchema,
} from '@sitelog/shared';
import { limits, mapLimits } from '@sitelog/shared';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import { isUniqueViolation, nowIso, writeTransaction, type Database } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { ImageProcessor } from '../../media/image-processor.js';
import type { MediaLinks } from '../../media/links.js';
import { extensionForType, newUploadKeys } from '../../media/media-types.js';
import type { Storage } from '../../media/storage/index.js';
import { removeFile } from '../../media/temp-files.js';
import type { AuthUser } from '../auth/auth.service.js';
import { recordEvent } from '../events/events.service.js';
import {
  assertProjectOpen,
  getProject,
  lockOpenProjects,
  recordUploadChange,
} from '../projects/projects.service.js';
import { assertMemberExists } from '../users/users.service.js';
import { throwAsHttpError } from './image-refusals.js';
import { storageAsHttpError } from './storage-refusals.js';
import { readUploadForm } from './upload-form.js';
import * as repo from './uploads.repository.js';
import { readTags, sameTags, suggestTags, writeUploadTags } from './uploads.tags.js';

export interface UploadsDeps {
  db: Database;
  config: Config;
  links: MediaLinks;
  storage: Storage;
  images: ImageProcessor;
}

/** Newest uploads a project's or a member's feed answers. */
const FEED_LIMIT = limits.latestUploadsMax;

const uploadNotFound = () => notFound('Upload');

// ---- mapping ---------------------------------------------------------------------------------

/** File name an original downloads under: the upload's name with the sniffed type's extension. */
function downloadName(row: Pick<repo.UploadDbRow, 'name' | 'original_type'>): string {
  return `${row.name || 'photo'}.${extensionForType(row.original_type)}`;
}

async function toUpload(
  deps: Pick<UploadsDeps, 'links'>,
  row: repo.UploadDbRow,
  viewer: AuthUser,
): Promise<Upload> {
  const [previewLink, formatedLink, originalLink] = await Promise.all([
    deps.links.url(row.preview_key, viewer),
    deps.links.url(row.formatted_key, viewer),
    deps.links.url(row.original_key, viewer, {
      download: { filename: downloadName(row), contentType: row.original_type },
    }),
  ]);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    previewLink,
    formatedLink,
    formatedWidth: row.formatted_width,
    formatedHeight: row.formatted_height,
    originalLink,
    creator: {
      id: row.creator_id,
      firstname: row.creator_firstname,
      lastname: row.creator_lastname,
    },
    project: {
      id: row.project_id,
      name: row.project_name,
      archived: row.project_archived_at !== null,
    },
    capturedAt: row.captured_at,
    latitude: row.latitude,
    longitude: row.longitude,
    camera: row.camera,
    tags: readTags(row.tags),
    commentsCount: row.comments_count,
  };
}

const toUploads = (deps: Pick<UploadsDeps, 'links'>, rows: repo.UploadDbRow[], viewer: AuthUser) =>
  Promise.all(rows.map((row) => toUpload(deps, row, viewer)));

// ---- reads -----------------------------------------------------------------------------------

/** One upload; 404 when there is none. */
export async function getUpload(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  id: number,
  viewer: AuthUser,
): Promise<Upload> {
  const row = await repo.findUploadById(deps.db, id);
  if (!row) throw uploadNotFound();
  return toUpload(deps, row, viewer);
}

/** For search: these uploads, in any order (unknown ids are left out). */
export async function getUploads(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  ids: number[],
  viewer: AuthUser,
): Promise<Upload[]> {
  return toUploads(deps, await repo.findUploadsByIds(deps.db, ids), viewer);
}

/**
 * The newest `count` uploads across the workspace (the route caps `count`). Those of archived
 * projects are left out: they stay on their project's feed and by link.
 */
export async function listLatestUploads(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  count: number,
  viewer: AuthUser,
): Promise<Upload[]> {
  return toUploads(deps, await repo.listLatestUploads(deps.db, { limit: count }), viewer);
}

/**
 * The page of a feed that `query` asks for: at most `limit` uploads, older than the upload
 * `before` when given (400 when there is no such upload).
 */
async function feedPage(db: Database, query: FeedQuery): Promise<repo.FeedPage> {
  const { limit } = query;
  const tag = query.tag === undefined ? {} : { tag: query.tag };
  if (query.before === undefined) return { limit, ...tag };
  const before = await repo.findFeedCursor(db, query.before);
  if (!before) {
    throw badRequest(`before: there is no upload ${query.before} to page from.`, 'unknown_before');
  }
  return { limit, before, ...tag };
}

/**
 * A page of a project's uploads, newest first (at most FEED_LIMIT), archived or not, only those
 * with `query.tag` when given; 404 when there is no such project.
 */
export async function listProjectUploads(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  projectId: number,
  viewer: AuthUser,
  query: FeedQuery = { limit: FEED_LIMIT },
): Promise<Upload[]> {
  const rows = await repo.listProjectUploads(deps.db, projectId, await feedPage(deps.db, query));
  // Only an empty answer needs telling "no uploads (left)" from "no such project".
  if (rows.length === 0) await getProject(deps, projectId, viewer);
  return toUploads(deps, rows, viewer);
}

/**
 * The pins of a project's geotagged photos for its map: the newest `mapLimits.photoPinsMax`
 * uploads that have GPS, newest first. Seen by whoever may see the project's feed; 404 when there
 * is no such project.
 */
export async function listProjectPhotoLocations(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  projectId: number,
  viewer: AuthUser,
): Promise<PhotoLocation[]> {
  const rows = await repo.listProjectUploadLocations(deps.db, projectId, mapLimits.photoPinsMax);
  // As the feed: only an empty answer needs telling "no geotagged photos" from "no such project".
  if (rows.length === 0) await getProject(deps, projectId, viewer);
  return rows.map((row) => ({
    id: row.id,
    latitude: row.latitude,
    longitude: row.longitude,
    name: row.name,
    capturedAt: row.captured_at,
  }));
}

/**
 * A page of a member's uploads in open projects, newest first (at most FEED_LIMIT), only those
 * with `query.tag` when given; 404 when there is no such member. Like the workspace's latest
 * uploads, it leaves archived projects out.
 */
export async function listMemberUploads(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  memberId: number,
  viewer: AuthUser,
  query: FeedQuery = { limit: FEED_LIMIT },
): Promise<Upload[]> {
  const rows = await repo.listMemberUploads(deps.db, memberId, await feedPage(deps.db, query));
  if (rows.length === 0) await assertMemberExists(deps, memberId);
  return toUploads(deps, rows, viewer);
}

// ---- create ----------------------------------------------------------------------------------

const NAME_SEPARATOR = ' · ';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` cut to at most `max` UTF-16 code units (what the name's length check counts), at a
 * grapheme boundary, so no emoji, surrogate pair or accent is split.
 */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = '';
  for (const { segment } of graphemes.segment(text)) {
    if (cut.length + segment.length > max) break;
    cut += segment;
  }
  return cut;
}

/**
 * The name of an upload sent without one, never the camera's file name ("IMG_5195"): the
 * project's name and the time the photo was taken on the camera's own clock ("Riverside Block C ·
 * 14:32"), or, when the photo does not say, the upload time in UTC with its date ("Riverside
 * Block C · 2026-01-02 03:04 UTC"). Within the name limit: a long project name is cut, never the
 * time.
 */
export function defaultUploadName(
  projectName: string,
  /** The camera's wall-clock capture time, "YYYY-MM-DDTHH:MM:SS" (`PhotoMeta.capturedLocal`). */
  capturedLocal: string | null,
  /** When the upload was made, an ISO 8601 instant. */
  uploadedAt: string,
): string {
  let time: string;
  if (capturedLocal) {
    time = capturedLocal.slice(11, 16);
  } else {
    const utc = new Date(uploadedAt).toISOString();
    time = `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
  }
  const room = limits.uploadNameMax - NAME_SEPARATOR.length - time.length;
  const project = cutText(projectName.trim(), room).trimEnd();
  return project ? `${project}${NAME_SEPARATOR}${time}` : time;
}

/**
 * The SHA-256 (hex) of a file, streamed through the hash a chunk at a time (a 12 MB photo takes
 * some 30 ms and never sits in memory whole). The reports print it as the original's fingerprint.
 */
export async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath), hash);
  return hash.digest('hex');
}

export interface NewUploadInput {
  /** The uploaded file on local disk (left in place: the caller removes it). */
  filePath: string;
  /** Its size in bytes. */
  bytes: number;
  /** Empty for the default name (`defaultUploadName`). */
  name: string;
  description: string;
  projectId: number;
  creatorId: number;
  /** Creation time; now unless given (the sample workspace spreads its photos over weeks). */
  createdAt?: string;
  /** The client's idempotency key (`createUploadDto.clientId`), unique per creator. */
  clientId?: string | undefined;
  /** The photo's tags, normalised and merged (`tagListSchema`); none unless given. */
  tags?: readonly string[] | undefined;
}

/**
 * The pipeline after the file is on disk: decode and check it (type from the bytes, pixel
 * limit, EXIF), write preview, formatted image and original under fresh server-made keys (and
 * take the original's SHA-256 meanwhile), then insert the row last, in one transaction with the
 * project's and the member's counts. Any failure removes every object written; the row never
 * points at missing files. When the row cannot be inserted because the creator already has an
 * upload with `clientId` (a concurrent call with the same key committed first), the objects
 * written are removed as well and that upload's id is answered: the counts moved once, with the
 * winner's row.
 */
export async function storeUpload(
  deps: Pick<UploadsDeps, 'db' | 'storage' | 'images'>,
  input: NewUploadInput,
): Promise<number> {
  const image = await deps.images.process(input.filePath).catch(throwAsHttpError);
  const keys = newUploadKeys({
    original: image.type,
    formatted: image.formatted.contentType,
    preview: image.preview.contentType,
  });
  const createdAt = input.createdAt ?? nowIso();
  const removeAll = () =>
    Promise.all(
      [keys.preview, keys.formatted, keys.original].map((key) =>
        deps.storage.delete(key).catch(() => undefined),
      ),
    );
  // Every write is awaited before cleaning up, so none can land after the cleanup. The
  // original's fingerprint is read from the same file while it is written.
  const [hashed, ...written] = await Promise.allSettled([
    sha256OfFile(input.filePath),
    deps.storage.put(keys.original, { filePath: input.filePath }, image.type),
    deps.storage.put(keys.preview, image.preview.buffer, image.preview.contentType),
    deps.storage.put(keys.formatted, image.formatted.buffer, image.formatted.contentType),
  ]);
  const failed = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // With the bucket down these deletes fail too; the sweeper removes what they leave.
    await removeAll();
    throw storageAsHttpError(failed.reason, 'save');
  }
  if (hashed.status === 'rejected') {
    await removeAll();
    throw hashed.reason;
  }

  try {
    return await writeTransaction(deps.db, async (trx) => {
      // Checked again inside the transaction, which holds the project's row until it commits:
      // the project may have been archived since the form's first check.
      const projectName = (await lockOpenProjects(trx, [input.projectId])).get(input.projectId);
      const id = await repo.insertUpload(trx, {
        project_id: input.projectId,
        creator_id: input.creatorId,
        client_id: input.clientId ?? null,
        name:
          input.name || defaultUploadName(projectName ?? '', image.meta.capturedLocal, createdAt),
        description: input.description,
        created_at: createdAt,
        updated_at: createdAt,
        preview_key: keys.preview,
        formatted_key: keys.formatted,
        original_key: keys.original,
        original_type: image.type,
        original_bytes: input.bytes,
        original_sha256: hashed.value,
        formatted_width: image.formatted.width,
        formatted_height: image.formatted.height,
        preview_width: image.preview.width,
        preview_height: image.preview.height,
        captured_at: image.meta.capturedAt,
        latitude: image.meta.latitude,
        longitude: image.meta.longitude,
        camera: image.meta.camera,
      });
      await writeUploadTags(trx, id, input.tags ?? [], { fresh: true });
      await recordUploadChange(trx, {
        kind: 'added',
        projectId: input.projectId,
        creatorId: input.creatorId,
        at: createdAt,
      });
      // The event and its notifications commit with the row, or not at all.
      await recordEvent(trx, {
        kind: 'upload.added',
        actorId: input.creatorId,
        projectId: input.projectId,
        uploadId: id,
        at: createdAt,
      });
      return id;
    });
  } catch (err) {
    await removeAll();
    if (input.clientId !== undefined && isUniqueViolation(err)) {
      // Read after the rollback, outside the failed transaction (PostgreSQL refuses more
      // statements in it); the winner has committed, as its row's index entry made us fail.
      const winner = await repo.findUploadByClientId(deps.db, input.creatorId, input.clientId);
      if (winner) return winner.id;
    }
    throw err;
  }
}

/**
 * POST /api/upload/autoupload: reads the form (the project is checked as soon as the JSON part
 * arrives), runs the pipeline and answers the new upload. The temp file never outlives the call.
 *
 * Exactly once: when the form carries a `clientId` the viewer already used, the call answers that
 * upload as the first call did (200, whatever project, name or file the repeat names) and stores
 * nothing; the file streamed meanwhile is discarded. A repeat racing the first call loses at the
 * unique index and answers the winner's upload too (`storeUpload`).
 */
export async function createUploadFromForm(
  deps: UploadsDeps,
  parts: AsyncIterator<Multipart>,
  viewer: AuthUser,
  /** Aborted when the body stops arriving; its reason is what the call fails with. */
  stalled?: AbortSignal,
): Promise<Upload> {
  // The upload an earlier call with the same key made, looked up as soon as the JSON part is in.
  let earlier: repo.UploadDbRow | undefined;
  const form = await readUploadForm(parts, {
    tempDir: deps.config.uploads.tempDir,
    maxBytes: deps.config.uploads.maxBytes,
    onDto: async (dto) => {
      if (dto.clientId !== undefined) {
        earlier = await repo.findUploadByClientId(deps.db, viewer.id, dto.clientId);
        // The key names the photo, which is stored: its project's state no longer matters.
        if (earlier) return;
      }
      await assertProjectOpen(deps, dto.projectId);
    },
    ...(stalled ? { stalled } : {}),
  });
  try {
    if (earlier) return await toUpload(deps, earlier, viewer);
    const id = await storeUpload(deps, {
      filePath: form.file.path,
      bytes: form.file.bytes,
      name: form.dto.name,
      description: form.dto.description,
      projectId: form.dto.projectId,
      creatorId: viewer.id,
      clientId: form.dto.clientId,
      tags: form.dto.tags,
    });
    return await getUpload(deps, id, viewer);
  } finally {
    await removeFile(form.file.path);
  }
}

// ---- tags ------------------------------------------------------------------------------------

/**
 * GET /api/upload/tags: existing tags starting with `q`, most used first then alphabetical (at
 * most `tagLimits.suggestions`), counted in `project` when given (404 when there is no such
 * project).
 */
export async function listTagSuggestions(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  query: { q: string; project?: number | undefined },
  viewer: AuthUser,
): Promise<TagSuggestion[]> {
  const suggestions = await suggestTags(deps.db, query.q, query.project);
  if (suggestions.length === 0 && query.project !== undefined)
    await getProject(deps, query.project, viewer);
  return suggestions;
}

// ---- edit and delete -------------------------------------------------------------------------

const onlyCreator = (action: string) =>
  forbidden(`Only the member who uploaded this photo can ${action} it.`);

/**
 * PATCH /api/upload/update/no-image/{id}: the creator changes name, description, project or tags
 * (the whole new list). Missing fields keep their current value; a blank name is refused. Moving to another project
 * moves one from its count to the other's (both projects' activity dates move too); staying
 * refreshes the project's activity date. An upload of an archived project, or a move into one,
 * is refused with 409.
 */
export async function updateUpload(
  deps: Pick<UploadsDeps, 'db' | 'links'>,
  id: number,
  changes: z.output<typeof updateUploadRequestSchema>['upload'],
  viewer: AuthUser,
): Promise<Upload> {
  if (changes.name === '') throw badRequest('Name cannot be empty.', 'validation_failed');
  await writeTransaction(deps.db, async (trx) => {
    const current = await repo.findUploadForChange(trx, id);
    if (!current) throw uploadNotFound();
    if (current.creator_id !== viewer.id) throw onlyCreator('edit');
    const projectId = changes.projectId ?? current.project_id;
    const moved = projectId !== current.project_id;
    await lockOpenProjects(trx, [current.project_id, projectId], (archived) =>
      archived === current.project_id
        ? undefined
        : 'The project you are moving this photo to is archived; choose an open project.',
    );
    const updated = await repo.updateUploadText(trx, id, current.project_id, {
      name: changes.name ?? current.name,
      description: changes.description ?? current.description,
      projectId,
      now: nowIso(),
    });
    if (!updated) throw conflict('This upload was changed at the same time. Try again.');
    if (changes.tags !== undefined && !sameTags(changes.tags, readTags(current.tags)))
      await writeUploadTags(trx, id, changes.tags);
    await recordUploadChange(
      trx,
      moved
        ? { kind: 'moved', from: current.project_id, to: projectId }
        : { kind: 'edited', projectId },
    );
  });
  return getUpload(deps, id, viewer);
}

/**
 * DELETE /api/upload/delete/{id}: the creator removes the upload (409 while its project is
 * archived). The row goes first (with the counts, in one transaction), then the stored files; a
 * file that cannot be removed now is left to the sweeper, which removes objects no row
 * references.
 */
export async function deleteUpload(
  deps: Pick<UploadsDeps, 'db' | 'storage'>,
  id: number,
  viewer: AuthUser,
): Promise<void> {
  const removed = await writeTransaction(deps.db, async (trx) => {
    const current = await repo.findUploadForChange(trx, id);
    if (!current) throw uploadNotFound();
    if (current.creator_id !== viewer.id) throw onlyCreator('delete');
    await lockOpenProjects(trx, [current.project_id]);
    if (!(await repo.deleteUpload(trx, id, current.project_id)))
      throw (await repo.findUploadForChange(trx, id))
        ? conflict('This photo was just moved to another project; try again.', 'upload_moved')
        : uploadNotFound();
    await recordUploadChange(trx, {
      kind: 'removed',
      projectId: current.project_id,
      creatorId: current.creator_id,
    });
    return current;
  });
  await Promise.all(
    [removed.preview_key, removed.formatted_key, removed.original_key].map((key) =>
      deps.storage.delete(key).catch(() => undefined),
    ),
  );
}

// ---- backup and restore ----------------------------------------------------------------------

/** One upload's stored files, as a backup copies them. */
export interface UploadMedia {
  id: number;
  keys: [preview: string, formatted: string, original: string];
}

/** Every upload's stored keys in id order, a page at a time (read from a database snapshot). */
export async function* listUploadMedia(db: Database, pageSize = 1000): AsyncGenerator<UploadMedia> {
  let afterId = 0;
  for (;;) {
    const rows = await repo.listUploadKeys(db, afterId, pageSize);
    for (const row of rows)
      yield { id: row.id, keys: [row.preview_key, row.formatted_key, row.original_key] };
    if (rows.length < pageSize) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

/** The ids among `ids` that still have a row (a backup tells a deleted upload from lost files). */
export function findExistingUploads(db: Database, ids: number[]): Promise<Set<number>> {
  return repo.findExistingUploadIds(db, ids);
}

/**
 * Removes upload rows whose files are gone, with their counts, as a delete does but leaving
 * storage alone: a restore drops the uploads deleted while its backup ran. Answers how many rows
 * there were.
 */
export async function removeUploadRows(db: Database, ids: number[]): Promise<number> {
  let removed = 0;
  for (const id of ids) {
    const gone = await writeTransaction(db, async (trx) => {
      const current = await repo.findUploadForChange(trx, id);
      if (!current || !(await repo.deleteUpload(trx, id))) return false;
      await recordUploadChange(trx, {
        kind: 'removed',
        projectId: current.project_id,
        creatorId: current.creator_id,
      });
      return true;
    });
    if (gone) removed += 1;
  }
  return removed;
}
