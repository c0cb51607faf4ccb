import { sql, type Insertable } from 'kysely';
import { compiledQuery } from '../../db/compiled-query.js';
import { isSqlite, type Database } from '../../db/database.js';
import type { UploadsTable } from '../../db/schema.js';

/**
 * Uploads with their creator's names and their project's name, in one query (the shape every
 * upload call answers), with the tags (JSON text) and the comment count kept on the row, so a
 * feed needs no join for them. Lists order newest first on the indexed `(…, created_at, id)`
 * columns.
 */
function selectUploads(db: Database) {
  return db
    .selectFrom('uploads')
    .innerJoin('users as creator', 'creator.id', 'uploads.creator_id')
    .innerJoin('projects as project', 'project.id', 'uploads.project_id')
    .select([
      'uploads.id',
      'uploads.name',
      'uploads.description',
      'uploads.created_at',
      'uploads.updated_at',
      'uploads.preview_key',
      'uploads.formatted_key',
      'uploads.original_key',
      'uploads.original_type',
      'uploads.formatted_width',
      'uploads.formatted_height',
      'uploads.captured_at',
      'uploads.latitude',
      'uploads.longitude',
      'uploads.camera',
      'uploads.tags',
      'uploads.comments_count',
      'uploads.creator_id',
      'creator.firstname as creator_firstname',
      'creator.lastname as creator_lastname',
      'uploads.project_id',
      'project.name as project_name',
      'project.archived_at as project_archived_at',
    ]);
}

export type UploadDbRow = NonNullable<Awaited<ReturnType<typeof findUploadById>>>;

export function findUploadById(db: Database, id: number) {
  return selectUploads(db).where('uploads.id', '=', id).executeTakeFirst();
}

/** These uploads (any order; unknown ids are left out). */
export function findUploadsByIds(db: Database, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectUploads(db).where('uploads.id', 'in', ids).execute();
}

const newestFirst = <Q extends ReturnType<typeof selectUploads>>(query: Q) =>
  query.orderBy('uploads.created_at', 'desc').orderBy('uploads.id', 'desc');

// The feeds are the busiest calls: each shape is compiled once (db/compiled-query.ts).
const latestUploads = compiledQuery(
  (db: Database, limit: number) =>
    newestFirst(selectUploads(db).where('project.archived_at', 'is', null)).limit(limit),
  1,
);

/** Newest uploads across every open project (`uploads_created_idx`). */
export function listLatestUploads(db: Database, options: { limit: number }) {
  return latestUploads(db, options.limit);
}

/** Where a feed page starts: the upload it continues after, in (created_at desc, id desc) order. */
interface FeedCursor {
  id: number;
  created_at: string;
}

export interface FeedPage {
  limit: number;
  /** Only uploads older than this one (keyset paging, never OFFSET). */
  before?: FeedCursor;
  /** Only uploads with this tag (normalised). */
  tag?: string;
}

/** The paging key of one upload (primary key lookup); undefined when there is none. */
export function findFeedCursor(db: Database, id: number): Promise<FeedCursor | undefined> {
  return db
    .selectFrom('uploads')
    .select(['id', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * One page of a feed filtered on `column` (project or creator), newest first. The keyset
 * condition "older than (c, i)" is written `created_at <= c AND (created_at < c OR id < i)`: the
 * first part is a range on the `(column, created_at, id)` index, so a deep page does not scan the
 * newer rows; the second drops the cursor itself and its newer same-time siblings. A member's
 * feed, which crosses projects, leaves out the uploads of archived projects; a project's own feed
 * shows them all.
 */
type FeedColumn = 'uploads.project_id' | 'uploads.creator_id';

const feedUploads = (db: Database, column: FeedColumn, value: number) => {
  const query = selectUploads(db).where(column, '=', value);
  return column === 'uploads.creator_id' ? query.where('project.archived_at', 'is', null) : query;
};

/**
 * A feed's uploads with one tag. The feed's index is walked newest first as without a tag, each
 * upload probing its `(upload_id, tag)` pair on the primary key, so a page costs what the feed
 * rows read until it is full, whatever the tag's use elsewhere. (`id in (the tag's uploads)`
 * made SQLite, which has no statistics, build the list of every upload with the tag for each
 * page: 8 ms for a tag on 50,000 photos.) PostgreSQL turns the EXISTS into a semi-join and picks
 * its side by its statistics.
 */
const taggedFeedUploads = (db: Database, column: FeedColumn, value: number, tag: string) =>
  feedUploads(db, column, value).where((eb) =>
    eb.exists(
      eb
        .selectFrom('upload_tags')
        .select('upload_tags.tag')
        .whereRef('upload_tags.upload_id', '=', 'uploads.id')
        .where('upload_tags.tag', '=', tag),
    ),
  );

type FeedQuery = ReturnType<typeof feedUploads>;

/** Older than the upload (createdAt, id), in (created_at desc, id desc) order. */
const olderThan = (query: FeedQuery, createdAt: string, id: number) =>
  query
    .where('uploads.created_at', '<=', createdAt)
    .where((eb) => eb.or([eb('uploads.created_at', '<', createdAt), eb('uploads.id', '<', id)]));

const feedQueries = (column: FeedColumn) => ({
  first: compiledQuery(
    (db: Database, value: number, limit: number) =>
      newestFirst(feedUploads(db, column, value)).limit(limit),
    2,
  ),
  after: compiledQuery(
    (db: Database, value: number, createdAt: string, id: number, limit: number) =>
      newestFirst(olderThan(feedUploads(db, column, value), createdAt, id)).limit(limit),
    4,
  ),
  taggedFirst: compiledQuery(
    (db: Database, value: number, tag: string, limit: number) =>
      newestFirst(taggedFeedUploads(db, column, value, tag)).limit(limit),
    3,
  ),
  taggedAfter: compiledQuery(
    (db: Database, value: number, tag: string, createdAt: string, id: number, limit: number) =>
      newestFirst(olderThan(taggedFeedUploads(db, column, value, tag), createdAt, id)).limit(limit),
    5,
  ),
});
const feeds = {
  'uploads.project_id': feedQueries('uploads.project_id'),
  'uploads.creator_id': feedQueries('uploads.creator_id'),
};

function listFeed(db: Database, column: FeedColumn, value: number, page: FeedPage) {
  const { before, tag, limit } = page;
  const q = feeds[column];
  if (tag !== undefined)
    return before
      ? q.taggedAfter(db, value, tag, before.created_at, before.id, limit)
      : q.taggedFirst(db, value, tag, limit);
  return before
    ? q.after(db, value, before.created_at, before.id, limit)
    : q.first(db, value, limit);
}

/** A page of one project's uploads (`uploads_project_created_idx`). */
export function listProjectUploads(db: Database, projectId: number, page: FeedPage) {
  return listFeed(db, 'uploads.project_id', projectId, page);
}

/** A page of one member's uploads in open projects (`uploads_creator_created_idx`). */
export function listMemberUploads(db: Database, creatorId: number, page: FeedPage) {
  return listFeed(db, 'uploads.creator_id', creatorId, page);
}

/**
 * The pins of a project's geotagged photos: the newest `limit` uploads with both coordinates,
 * newest first. An index range on `(project_id, created_at, id)`, skipping photos without GPS.
 */
export function listProjectUploadLocations(db: Database, projectId: number, limit: number) {
  return db
    .selectFrom('uploads')
    .select(['id', 'name', 'latitude', 'longitude', 'captured_at'])
    .where('project_id', '=', projectId)
    .where('latitude', 'is not', null)
    .where('longitude', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .$narrowType<{ latitude: number; longitude: number }>()
    .execute();
}

type NewUploadRow = Omit<Insertable<UploadsTable>, 'id'>;

export async function insertUpload(db: Database, row: NewUploadRow): Promise<number> {
  const inserted = await db
    .insertInto('uploads')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * The upload `creatorId` sent with the idempotency key `clientId`, if any, in the shape every
 * upload call answers (the unique `(creator_id, client_id)` index).
 */
export function findUploadByClientId(db: Database, creatorId: number, clientId: string) {
  return selectUploads(db)
    .where('uploads.creator_id', '=', creatorId)
    .where('uploads.client_id', '=', clientId)
    .executeTakeFirst();
}

/** What edit and delete need to authorize and to clean up. */
export function findUploadForChange(db: Database, id: number) {
  return db
    .selectFrom('uploads')
    .select([
      'id',
      'creator_id',
      'project_id',
      'name',
      'description',
      'tags',
      'preview_key',
      'formatted_key',
      'original_key',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Changes an upload's text and project. Guarded by the project it was read with, so a concurrent
 * move cannot make the callers' count bookkeeping wrong: false when the row changed meanwhile.
 */
export async function updateUploadText(
  db: Database,
  id: number,
  expectedProjectId: number,
  values: { name: string; description: string; projectId: number; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({
      name: values.name,
      description: values.description,
      project_id: values.projectId,
      updated_at: values.now,
    })
    .where('id', '=', id)
    .where('project_id', '=', expectedProjectId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes an upload; with `projectId`, only while it is still in that project (the one whose
 * row the caller locked open: a move committed in between must not let a delete reach a photo
 * that now belongs to another, perhaps archived, project).
 */
export async function deleteUpload(db: Database, id: number, projectId?: number): Promise<boolean> {
  let query = db.deleteFrom('uploads').where('id', '=', id);
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The keys among `keys` that some upload row references (one query; the media sweeper asks per
 * batch, on the `*_key` indexes).
 */
export async function findReferencedMediaKeys(db: Database, keys: string[]): Promise<Set<string>> {
  // `in ()` is valid SQLite but a syntax error on PostgreSQL.
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('uploads')
    .select(['preview_key', 'formatted_key', 'original_key'])
    .where((eb) =>
      eb.or([
        eb('preview_key', 'in', keys),
        eb('formatted_key', 'in', keys),
        eb('original_key', 'in', keys),
      ]),
    )
    .execute();
  return new Set(rows.flatMap((r) => [r.preview_key, r.formatted_key, r.original_key]));
}

/** A page of uploads' stored keys in id order, after `afterId` (the backup copies them). */
export function listUploadKeys(db: Database, afterId: number, limit: number) {
  return db
    .selectFrom('uploads')
    .select(['id', 'preview_key', 'formatted_key', 'original_key'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The ids among `ids` that still have a row. */
export async function findExistingUploadIds(db: Database, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('uploads').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

// ---- tags (written only through uploads.tags.ts) ----------------------------------------------

/** Sets an upload's tag list (`uploads.tags`, JSON text). */
export async function setUploadTagsColumn(db: Database, id: number, tags: string): Promise<void> {
  await db.updateTable('uploads').set({ tags }).where('id', '=', id).execute();
}

/** Replaces an upload's `upload_tags` pairs with `tags`. */
export async function replaceUploadTagPairs(
  db: Database,
  uploadId: number,
  tags: readonly string[],
  options: { fresh: boolean },
): Promise<void> {
  if (!options.fresh)
    await db.deleteFrom('upload_tags').where('upload_id', '=', uploadId).execute();
  if (tags.length === 0) return;
  await db
    .insertInto('upload_tags')
    .values(tags.map((tag) => ({ upload_id: uploadId, tag })))
    .execute();
}

/**
 * `text` with its last code point replaced by the next one ("lev" → "lew"): every string that
 * starts with `text` lies in [text, prefixEnd(text)) in binary (UTF-8, code point) order.
 * Undefined when the last code point is the highest there is.
 */
function prefixEnd(text: string): string | undefined {
  const chars = [...text];
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  // No string holds a surrogate code point: after U+D7FF comes U+E000.
  return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

/**
 * The tags starting with `prefix` (normalised; every tag when empty), with how many uploads have
 * each (only `projectId`'s when given), most used first, then alphabetical; at most `limit`.
 *
 * A tag starts with `prefix` exactly when it lies in [prefix, prefixEnd) in code point order, so
 * the match is a range scan of an index in that order: SQLite's text order is binary
 * (`upload_tags_tag_idx`); PostgreSQL compares in the "C" collation (UTF-8 bytes), read from
 * `upload_tags_tag_prefix_idx`, whatever the database's own collation. The exact test
 * `substr(tag, 1, length(prefix)) = prefix` stays as the statement of what is meant.
 */
export function tagSuggestionsQuery(
  db: Database,
  options: { prefix: string; projectId?: number; limit: number },
) {
  const { prefix, projectId, limit } = options;
  let query = db
    .selectFrom('upload_tags')
    .select(['upload_tags.tag', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('upload_tags.tag')
    .orderBy('count', 'desc')
    .orderBy('upload_tags.tag')
    .limit(limit);
  if (prefix !== '') {
    const tag = isSqlite(db)
      ? sql<string>`upload_tags.tag`
      : sql<string>`upload_tags.tag collate "C"`;
    const end = prefixEnd(prefix);
    query = query.where(sql<string>`substr(upload_tags.tag, 1, length(${prefix}))`, '=', prefix);
    query = query.where(tag, '>=', prefix);
    if (end !== undefined) query = query.where(tag, '<', end);
  }
  if (projectId !== undefined)
    query = query.where('upload_tags.upload_id', 'in', (eb) =>
      eb.selectFrom('uploads').select('uploads.id').where('uploads.project_id', '=', projectId),
    );
  return query;
}

/** The suggestions `tagSuggestionsQuery` describes. */
export function listTagSuggestions(
  db: Database,
  options: { prefix: string; projectId?: number; limit: number },
) {
  return tagSuggestionsQuery(db, options).execute();
}
