import { sql, type ExpressionBuilder } from 'kysely';
import { compiledQuery } from '../../db/compiled-query.js';
import { isSqlite, type Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/** How many thumbnails a project carries in `lastUploads`. */
const LAST_UPLOADS_PER_PROJECT = 4;

export type ProjectFilter =
  | { kind: 'id'; id: number }
  | { kind: 'creator'; userId: number }
  | { kind: 'bookmarked'; userId: number }
  | { kind: 'bookmarkedOrFollowed'; userId: number }
  | { kind: 'relevant'; userId: number; limit: number }
  | { kind: 'archived' }
  | { kind: 'ids'; ids: number[] };

function marked(table: 'project_bookmarks' | 'project_follows', viewerId: number) {
  return (eb: ExpressionBuilder<DB, 'projects'>) =>
    eb.exists(
      eb
        .selectFrom(table)
        .select(sql.lit(1).as('one'))
        .whereRef(`${table}.project_id`, '=', 'projects.id')
        .where(`${table}.user_id`, '=', viewerId),
    );
}

/**
 * Projects, open or archived, with their creator, who archived them, and the viewer's
 * bookmark/follow flags, in one query.
 */
function projectsForViewer(db: Database, viewerId: number) {
  return db
    .selectFrom('projects')
    .innerJoin('users as creator', 'creator.id', 'projects.creator_id')
    .leftJoin('users as archiver', 'archiver.id', 'projects.archived_by')
    .select((eb) => [
      'projects.id',
      'projects.name',
      'projects.location',
      'projects.latitude',
      'projects.longitude',
      'projects.description',
      'projects.created_at',
      'projects.updated_at',
      'projects.uploads_count',
      'projects.creator_id',
      'creator.firstname as creator_firstname',
      'creator.lastname as creator_lastname',
      marked('project_bookmarks', viewerId)(eb).as('is_favorited'),
      marked('project_follows', viewerId)(eb).as('is_followed'),
      'projects.archived_at',
      'projects.archived_by',
      'archiver.firstname as archiver_firstname',
      'archiver.lastname as archiver_lastname',
    ]);
}

/** The open projects (every list but the archived one), newest activity first. */
const openProjectsForViewer = (db: Database, viewerId: number) =>
  projectsForViewer(db, viewerId)
    .where('projects.archived_at', 'is', null)
    .orderBy('projects.updated_at', 'desc')
    .orderBy('projects.id', 'desc');

// One project, open or archived, the most frequent of these calls (the project page): compiled
// once.
const projectById = compiledQuery(
  (db: Database, viewerId: number, id: number) =>
    projectsForViewer(db, viewerId).where('projects.id', '=', id),
  2,
);

export function findProjects(db: Database, filter: ProjectFilter, viewerId: number) {
  if (filter.kind === 'id') return projectById(db, viewerId, filter.id);
  if (filter.kind === 'ids')
    // Open or archived, in any order (search hands the ids over in its own order).
    return filter.ids.length === 0
      ? Promise.resolve([])
      : projectsForViewer(db, viewerId).where('projects.id', 'in', filter.ids).execute();
  if (filter.kind === 'archived')
    // Most recently archived first (`projects_archived_idx`, partial on the archived rows).
    return projectsForViewer(db, viewerId)
      .where('projects.archived_at', 'is not', null)
      .orderBy('projects.archived_at', 'desc')
      .orderBy('projects.id', 'desc')
      .execute();
  let query = openProjectsForViewer(db, viewerId);

  switch (filter.kind) {
    case 'creator':
      query = query.where('projects.creator_id', '=', filter.userId);
      break;
    case 'bookmarked':
      query = query.where((eb) => marked('project_bookmarks', filter.userId)(eb));
      break;
    case 'bookmarkedOrFollowed':
      query = query.where((eb) =>
        eb.or([
          marked('project_bookmarks', filter.userId)(eb),
          marked('project_follows', filter.userId)(eb),
        ]),
      );
      break;
    case 'relevant':
      query = query
        .where((eb) =>
          eb.or([
            eb('projects.creator_id', '=', filter.userId),
            marked('project_bookmarks', filter.userId)(eb),
            marked('project_follows', filter.userId)(eb),
            eb.exists(
              eb
                .selectFrom('uploads')
                .select(sql.lit(1).as('one'))
                .whereRef('uploads.project_id', '=', 'projects.id')
                .where('uploads.creator_id', '=', filter.userId),
            ),
          ]),
        )
        .limit(filter.limit);
      break;
  }
  return query.execute();
}

export type ProjectForViewerRow = Awaited<ReturnType<typeof findProjects>>[number];

// One project's (the project page): an index seek, compiled once.
const lastUploadsOfProject = compiledQuery(
  (db: Database, projectId: number, limit: number) =>
    db
      .selectFrom('uploads')
      .select(['uploads.id', 'uploads.project_id', 'uploads.preview_key'])
      .where('uploads.project_id', '=', projectId)
      .orderBy('uploads.created_at', 'desc')
      .orderBy('uploads.id', 'desc')
      .limit(limit),
  2,
);

/**
 * The newest uploads of each given project (at most `perProject` each), in one query: for each
 * project an index seek on (project_id, created_at, id) takes its top rows, so the cost does not
 * grow with the number of photos a project holds.
 */
export async function findLastUploads(
  db: Database,
  projectIds: number[],
  perProject = LAST_UPLOADS_PER_PROJECT,
) {
  if (projectIds.length === 0) return [];
  const [only] = projectIds;
  if (projectIds.length === 1 && only !== undefined)
    return lastUploadsOfProject(db, only, perProject);
  // PostgreSQL plans the `in (subquery … limit)` below as a nested loop over every upload (11 s
  // for 20 projects at 100,000 uploads, bench/search.ts); a lateral join is one index seek per
  // project there (1.5 ms). SQLite has no LATERAL and plans the subquery as seeks already.
  if (!isSqlite(db))
    return db
      .selectFrom('projects')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('uploads as latest')
            .select(['latest.id', 'latest.project_id', 'latest.preview_key', 'latest.created_at'])
            .whereRef('latest.project_id', '=', 'projects.id')
            .orderBy('latest.created_at', 'desc')
            .orderBy('latest.id', 'desc')
            .limit(perProject)
            .as('uploads'),
        (join) => join.onTrue(),
      )
      .select(['uploads.id', 'uploads.project_id', 'uploads.preview_key'])
      .where('projects.id', 'in', projectIds)
      .orderBy('uploads.project_id')
      .orderBy('uploads.created_at', 'desc')
      .orderBy('uploads.id', 'desc')
      .execute();
  return db
    .selectFrom('projects')
    .innerJoin('uploads', (join) =>
      join.on((eb) =>
        eb(
          'uploads.id',
          'in',
          eb
            .selectFrom('uploads as latest')
            .select('latest.id')
            .whereRef('latest.project_id', '=', 'projects.id')
            .orderBy('latest.created_at', 'desc')
            .orderBy('latest.id', 'desc')
            .limit(perProject),
        ),
      ),
    )
    .select(['uploads.id', 'uploads.project_id', 'uploads.preview_key'])
    .where('projects.id', 'in', projectIds)
    .orderBy('uploads.project_id')
    .orderBy('uploads.created_at', 'desc')
    .orderBy('uploads.id', 'desc')
    .execute();
}

/**
 * The rows of the all-projects table as the JSON text the API answers, written by the database:
 * `[[id, name, location, updatedAt, uploadsCount, "Firstname Lastname"], …]`, newest activity
 * first. At 100,000 projects, reading 700,000 values into JavaScript objects, mapping them to
 * arrays and serializing those took ~400 ms and half of it in garbage collection; the database
 * writes the same text in a fraction of that (bench/all-projects.ts).
 */
export async function listProjectRowsJson(db: Database): Promise<string> {
  const columns = sql`projects.id, projects.name, projects.location, projects.updated_at,
    projects.uploads_count, creator.firstname || ' ' || creator.lastname`;
  const order = sql`projects.updated_at desc, projects.id desc`;
  const rows = isSqlite(db)
    ? sql<string>`coalesce(json_group_array(json_array(${columns}) order by ${order}), '[]')`
    : sql<string>`coalesce(json_agg(json_build_array(${columns}) order by ${order}), '[]')::text`;
  const result = await db
    .selectFrom('projects')
    .innerJoin('users as creator', 'creator.id', 'projects.creator_id')
    .select(rows.as('rows'))
    .where('projects.archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return result.rows;
}

/**
 * The open projects that have coordinates, most recently active first, at most `limit` (the
 * all-projects map).
 */
export function listProjectLocations(db: Database, limit: number) {
  return db
    .selectFrom('projects')
    .select(['id', 'name', 'location', 'latitude', 'longitude', 'uploads_count'])
    .where('archived_at', 'is', null)
    .where('latitude', 'is not', null)
    .where('longitude', 'is not', null)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .$narrowType<{ latitude: number; longitude: number }>()
    .execute();
}

export function findProjectOwner(db: Database, id: number) {
  return db
    .selectFrom('projects')
    .select(['id', 'creator_id', 'archived_at', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * As `findProjectOwner`, and on PostgreSQL the row stays locked (FOR UPDATE) until the
 * transaction ends, so an archive cannot commit between a check that the project is open and the
 * write that relies on it (SQLite's write transactions already hold the one write lock).
 */
export function findProjectOwnerForWrite(trx: Database, id: number) {
  const query = trx
    .selectFrom('projects')
    .select(['id', 'creator_id', 'archived_at', 'name'])
    .where('id', '=', id);
  return (isSqlite(trx) ? query : query.forUpdate()).executeTakeFirst();
}

/**
 * Archives an open project: dated `at`, by `userId`. `updated_at` (the activity date every list
 * orders by) is left alone. False when the project was already archived (the first archive's date
 * and person stay).
 */
export async function setProjectArchived(
  db: Database,
  id: number,
  archive: { userId: number; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ archived_at: archive.at, archived_by: archive.userId })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Restores an archived project, its activity date unchanged; false when it was open. */
export async function clearProjectArchived(db: Database, id: number): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ archived_at: null, archived_by: null })
    .where('id', '=', id)
    .where('archived_at', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

interface ProjectValues {
  name: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
}

export async function insertProject(
  db: Database,
  values: ProjectValues & { creatorId: number; now: string },
): Promise<number> {
  const row = await db
    .insertInto('projects')
    .values({
      name: values.name,
      location: values.location,
      latitude: values.latitude,
      longitude: values.longitude,
      description: values.description,
      creator_id: values.creatorId,
      archived_at: null,
      archived_by: null,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('users')
    .set((eb) => ({ projects_count: eb('projects_count', '+', 1) }))
    .where('id', '=', values.creatorId)
    .execute();
  return row.id;
}

/** Edits an open project; false when it is archived (or was archived meanwhile). */
export async function updateProject(
  db: Database,
  id: number,
  values: ProjectValues & { now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({
      name: values.name,
      location: values.location,
      latitude: values.latitude,
      longitude: values.longitude,
      description: values.description,
      updated_at: values.now,
    })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Up to `limit` projects (archived too) created before `createdBefore` with neither
 * coordinate, by id, after `afterId`.
 */
/** The settings key a migration leaves while the projects before it await their coordinates. */
const COORDINATES_BACKFILL_KEY = 'projects.coordinates_backfill_before';

/** Projects created before this still await the one-time backfill; null once it is done. */
export async function findCoordinateBackfillCutoff(db: Database): Promise<string | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', COORDINATES_BACKFILL_KEY)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** The backfill went through every project before the cutoff: never again. */
export async function finishCoordinateBackfill(db: Database): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', COORDINATES_BACKFILL_KEY).execute();
}

export function findProjectsWithoutCoordinates(
  db: Database,
  page: { createdBefore: string; afterId: number; limit: number },
) {
  return db
    .selectFrom('projects')
    .select(['id', 'location'])
    .where('latitude', 'is', null)
    .where('longitude', 'is', null)
    .where('created_at', '<', page.createdBefore)
    .where('id', '>', page.afterId)
    .orderBy('id')
    .limit(page.limit)
    .execute();
}

/**
 * Sets a project's coordinates only while it still has none and its location is still the text
 * they were found for (an edit in between wins); `updated_at` and the counts stay as they are.
 * Answers whether the row changed.
 */
export async function setMissingCoordinates(
  db: Database,
  fill: { id: number; location: string; latitude: number; longitude: number },
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ latitude: fill.latitude, longitude: fill.longitude })
    .where('id', '=', fill.id)
    .where('location', '=', fill.location)
    .where('latitude', 'is', null)
    .where('longitude', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Adds a bookmark or follow; a second call is a no-op (primary key + ON CONFLICT DO NOTHING). */
export async function addMark(
  db: Database,
  table: 'project_bookmarks' | 'project_follows',
  userId: number,
  projectId: number,
  now: string,
) {
  await db
    .insertInto(table)
    .values({ user_id: userId, project_id: projectId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
    .execute();
}

export async function removeMark(
  db: Database,
  table: 'project_bookmarks' | 'project_follows',
  userId: number,
  projectId: number,
) {
  await db
    .deleteFrom(table)
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .execute();
}

/**
 * Moves the stored upload counts by `delta` (the project's and, when given, the uploader's) and
 * dates the project's activity at `activityAt`, never moving it back: the sample workspace adds
 * photos dated in the past, possibly out of order.
 */
export async function applyUploadCounts(
  db: Database,
  change: { projectId: number; creatorId: number | null; delta: number; activityAt: string },
) {
  await db
    .updateTable('projects')
    .set((eb) => ({
      uploads_count: eb('uploads_count', '+', change.delta),
      updated_at: eb
        .case()
        .when('updated_at', '<', change.activityAt)
        .then(change.activityAt)
        .else(eb.ref('updated_at'))
        .end(),
    }))
    .where('id', '=', change.projectId)
    .execute();
  if (change.creatorId !== null && change.delta !== 0)
    await db
      .updateTable('users')
      .set((eb) => ({ uploads_count: eb('uploads_count', '+', change.delta) }))
      .where('id', '=', change.creatorId)
      .execute();
}
