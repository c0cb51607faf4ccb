import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  mapLimits,
  type Project,
  type ProjectLocation,
  type projectInputSchema,
} from '@sitelog/shared';
import type { z } from 'zod';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { MediaLinks } from '../../media/links.js';
import type { AuthUser } from '../auth/auth.service.js';
import { recordEvent } from '../events/events.service.js';
import { assertMemberExists } from '../users/users.service.js';
import * as repo from './projects.repository.js';

export interface ProjectsDeps {
  db: Database;
  links: MediaLinks;
}

/** Maps rows to the spec's Project shape, with `lastUploads` fetched in one batched query. */
async function toProjects(
  deps: ProjectsDeps,
  rows: repo.ProjectForViewerRow[],
  viewer: AuthUser,
): Promise<Project[]> {
  const thumbs = await repo.findLastUploads(
    deps.db,
    rows.filter((r) => r.uploads_count > 0).map((r) => r.id),
  );
  const links = await Promise.all(thumbs.map((t) => deps.links.url(t.preview_key, viewer)));
  const byProject = new Map<number, { id: number; previewLink: string }[]>();
  thumbs.forEach((t, i) => {
    const list = byProject.get(t.project_id) ?? [];
    list.push({ id: t.id, previewLink: links[i] ?? '' });
    byProject.set(t.project_id, list);
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    location: r.location,
    latitude: r.latitude,
    longitude: r.longitude,
    description: r.description,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    creator: { id: r.creator_id, firstname: r.creator_firstname, lastname: r.creator_lastname },
    uploadsCount: r.uploads_count,
    lastUploads: byProject.get(r.id) ?? [],
    isFavorited: Boolean(r.is_favorited),
    isFollowed: Boolean(r.is_followed),
    archivedAt: r.archived_at,
    archivedBy:
      r.archived_by === null
        ? null
        : {
            id: r.archived_by,
            firstname: r.archiver_firstname ?? '',
            lastname: r.archiver_lastname ?? '',
          },
  }));
}

/** The refusal of any change to an archived project or its uploads. */
export const projectArchived = (
  message = 'This project is archived; its creator or an admin can restore it to make changes.',
) => conflict(message, 'project_archived');

async function list(deps: ProjectsDeps, filter: repo.ProjectFilter, viewer: AuthUser) {
  return toProjects(deps, await repo.findProjects(deps.db, filter, viewer.id), viewer);
}

/** One project as the viewer sees it, open or archived; 404 when it does not exist. */
export async function getProject(
  deps: ProjectsDeps,
  id: number,
  viewer: AuthUser,
): Promise<Project> {
  const [project] = await list(deps, { kind: 'id', id }, viewer);
  if (!project) throw notFound('Project');
  return project;
}

/** For search: these projects, open or archived, in any order (unknown ids are left out). */
export const getProjects = (deps: ProjectsDeps, ids: number[], viewer: AuthUser) =>
  list(deps, { kind: 'ids', ids }, viewer);

export const listMyProjects = (deps: ProjectsDeps, viewer: AuthUser) =>
  list(deps, { kind: 'creator', userId: viewer.id }, viewer);

/** The projects a member created; 404 when there is no such member. */
export async function listProjectsOfMember(
  deps: ProjectsDeps,
  memberId: number,
  viewer: AuthUser,
): Promise<Project[]> {
  await assertMemberExists(deps, memberId);
  return list(deps, { kind: 'creator', userId: memberId }, viewer);
}

export const listBookmarked = (deps: ProjectsDeps, viewer: AuthUser) =>
  list(deps, { kind: 'bookmarked', userId: viewer.id }, viewer);

export const listBookmarkedOrFollowed = (deps: ProjectsDeps, viewer: AuthUser) =>
  list(deps, { kind: 'bookmarkedOrFollowed', userId: viewer.id }, viewer);

/**
 * The archived projects, most recently archived first, with when and by whom. Every signed-in
 * member sees them (as every member sees All projects); restoring is for the creator or an admin.
 */
export const listArchivedProjects = (deps: ProjectsDeps, viewer: AuthUser) =>
  list(deps, { kind: 'archived' }, viewer);

/**
 * Relevant projects: the most recently active projects the viewer created, uploaded to,
 * bookmarked or follows.
 */
export const listRelevant = (deps: ProjectsDeps, viewer: AuthUser, limit: number) =>
  list(deps, { kind: 'relevant', userId: viewer.id, limit }, viewer);

/**
 * The all-projects table as the JSON text of its positional rows (id, name, location, updatedAt,
 * uploads, creator), written by the database.
 */
export const listProjectRowsJson = (deps: Pick<ProjectsDeps, 'db'>): Promise<string> =>
  repo.listProjectRowsJson(deps.db);

/**
 * The all-projects map: every open project with coordinates, most recently active first, at most
 * `mapLimits.projectPinsMax` (the least active beyond that are left off).
 */
export async function listProjectLocations(
  deps: Pick<ProjectsDeps, 'db'>,
): Promise<ProjectLocation[]> {
  const rows = await repo.listProjectLocations(deps.db, mapLimits.projectPinsMax);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    location: r.location,
    latitude: r.latitude,
    longitude: r.longitude,
    uploadsCount: r.uploads_count,
  }));
}

/** A project's fields as the route's schema hands them over (trimmed, description defaulted). */
type ProjectFields = z.output<typeof projectInputSchema>;

function values(fields: ProjectFields) {
  return {
    name: fields.name,
    location: fields.location,
    description: fields.description,
    latitude: fields.latitude ?? null,
    longitude: fields.longitude ?? null,
  };
}

/**
 * Adds a project (and one to its creator's project count) and answers its id. Call it inside a
 * write transaction; `at` dates it, now unless a caller (the sample workspace) says otherwise.
 */
export async function addProject(
  trx: Database,
  fields: ProjectFields,
  creatorId: number,
  at = nowIso(),
): Promise<number> {
  return repo.insertProject(trx, { ...values(fields), creatorId, now: at });
}

export async function createProject(
  deps: ProjectsDeps,
  fields: ProjectFields,
  viewer: AuthUser,
): Promise<Project> {
  const id = await writeTransaction(deps.db, async (trx) => {
    const created = await addProject(trx, fields, viewer.id);
    await recordEvent(trx, { kind: 'project.created', actorId: viewer.id, projectId: created });
    return created;
  });
  return getProject(deps, id, viewer);
}

/** Only the project's creator may edit it, and only while it is open (409 once archived). */
export async function updateProject(
  deps: ProjectsDeps,
  id: number,
  fields: ProjectFields,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.creator_id !== viewer.id)
    throw forbidden('Only the creator of this project can edit it.');
  if (owner.archived_at !== null) throw projectArchived();
  await writeTransaction(deps.db, async (trx) => {
    // Guarded by `archived_at is null`: an archive that commits after the check above wins.
    if (!(await repo.updateProject(trx, id, { ...values(fields), now: nowIso() })))
      throw projectArchived();
    await recordEvent(trx, { kind: 'project.edited', actorId: viewer.id, projectId: id });
  });
  return getProject(deps, id, viewer);
}

/** The project's creator and admins may archive and restore it. */
async function findProjectToArchive(deps: ProjectsDeps, id: number, viewer: AuthUser) {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.creator_id !== viewer.id && !viewer.isAdmin)
    throw forbidden('Only the creator of this project or an admin can archive or restore it.');
  return owner;
}

/**
 * Archives a project (its creator or an admin): it leaves every list but the archived one, and it
 * and its uploads become read-only until restored. Its activity date (`updatedAt`) is left
 * alone, so a restored project goes back to its place in the lists. Archiving an archived project
 * changes nothing and answers it as it is (the first archive's date and person stay).
 */
export async function archiveProject(
  deps: ProjectsDeps,
  id: number,
  viewer: AuthUser,
): Promise<Project> {
  await findProjectToArchive(deps, id, viewer);
  await writeTransaction(deps.db, async (trx) => {
    // Only a change is an event: archiving an archived project records nothing.
    if (await setProjectArchived(trx, id, viewer.id))
      await recordEvent(trx, { kind: 'project.archived', actorId: viewer.id, projectId: id });
  });
  return getProject(deps, id, viewer);
}

/**
 * Marks a project archived by `userId`, dated `at` (now unless a caller, the sample workspace,
 * says otherwise); no permission check. False when it already was archived.
 */
export const setProjectArchived = (db: Database, id: number, userId: number, at = nowIso()) =>
  repo.setProjectArchived(db, id, { userId, at });

/**
 * Restores an archived project (its creator or an admin): it is back in the lists at its old
 * activity date, with its bookmarks and follows, and open to uploads and edits. Restoring an open
 * project changes nothing and answers it.
 */
export async function restoreProject(
  deps: ProjectsDeps,
  id: number,
  viewer: AuthUser,
): Promise<Project> {
  await findProjectToArchive(deps, id, viewer);
  await writeTransaction(deps.db, async (trx) => {
    if (await repo.clearProjectArchived(trx, id))
      await recordEvent(trx, { kind: 'project.restored', actorId: viewer.id, projectId: id });
  });
  return getProject(deps, id, viewer);
}

/**
 * Gives projects created before `createdBefore` that have no coordinates those of the place
 * their location text names, as `locate` finds it (the places module's backfill at start).
 * Walks the projects by id in batches of `batchSize`, each written in one transaction, yielding
 * to requests between batches and stopping there when `stopped()` says so. A project is filled
 * only while it still has no coordinates and the same location (an edit in between wins), so a
 * second run, or two instances at once, change nothing more. Not an edit: `updatedAt` and the
 * counts stay as they are.
 */
export async function fillMissingCoordinates(
  deps: Pick<ProjectsDeps, 'db'>,
  locate: (location: string) => Promise<{ latitude: number; longitude: number } | null>,
  options: { createdBefore: string; batchSize?: number; stopped?: () => boolean },
): Promise<{ checked: number; filled: number }> {
  const { createdBefore, batchSize = 200 } = options;
  let checked = 0;
  let filled = 0;
  let afterId = 0;
  while (!options.stopped?.()) {
    const batch = await repo.findProjectsWithoutCoordinates(deps.db, {
      createdBefore,
      afterId,
      limit: batchSize,
    });
    if (batch.length === 0) break;
    afterId = batch.at(-1)?.id ?? afterId;
    checked += batch.length;
    const fills: Parameters<typeof repo.setMissingCoordinates>[1][] = [];
    for (const project of batch) {
      const found = await locate(project.location);
      if (found) fills.push({ ...project, ...found });
    }
    if (fills.length > 0)
      filled += await writeTransaction(deps.db, async (trx) => {
        let changed = 0;
        for (const fill of fills) if (await repo.setMissingCoordinates(trx, fill)) changed++;
        return changed;
      });
    await yieldToEventLoop();
  }
  return { checked, filled };
}

/**
 * The one-time backfill's state: the cutoff a migration recorded (projects created before it
 * await their coordinates), or null once a run has gone through them all.
 */
export const coordinateBackfillCutoff = (deps: Pick<ProjectsDeps, 'db'>) =>
  repo.findCoordinateBackfillCutoff(deps.db);

/** Records that the backfill went through every project before its cutoff. */
export const finishCoordinateBackfill = (deps: Pick<ProjectsDeps, 'db'>) =>
  repo.finishCoordinateBackfill(deps.db);

type Mark = 'favor' | 'unfavor' | 'follow' | 'unfollow';

/**
 * Sets or clears one member's bookmark or follow on a project; setting twice is a no-op. The
 * caller checks the project is open.
 */
export async function markProject(
  db: Database,
  change: { userId: number; projectId: number; mark: Mark; at?: string },
): Promise<void> {
  const { userId, projectId, mark } = change;
  const table = mark === 'favor' || mark === 'unfavor' ? 'project_bookmarks' : 'project_follows';
  if (mark === 'favor' || mark === 'follow')
    await repo.addMark(db, table, userId, projectId, change.at ?? nowIso());
  else await repo.removeMark(db, table, userId, projectId);
}

/**
 * Bookmark/follow toggles: per user, idempotent, answering the updated project; 409 on an
 * archived project (its marks are kept for when it is restored).
 */
export async function setMark(
  deps: ProjectsDeps,
  id: number,
  mark: Mark,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.archived_at !== null) throw projectArchived();
  await markProject(deps.db, { userId: viewer.id, projectId: id, mark });
  return getProject(deps, id, viewer);
}

/**
 * For the uploads module: the project an upload may be added to (exists: else 404; open: else
 * 409), as a first check before a photo is read; answers its name.
 */
export async function assertProjectOpen(
  deps: Pick<ProjectsDeps, 'db'>,
  id: number,
  message?: string,
): Promise<{ name: string }> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.archived_at !== null) throw projectArchived(message);
  return { name: owner.name };
}

/**
 * For the uploads module, inside the write transaction that adds, moves, edits or deletes an
 * upload: each project must exist (404) and be open (409, with `message` when given). On
 * PostgreSQL their rows stay locked, in id order, until the transaction ends, so an archive
 * cannot commit in between and leave a change in an archived project. Answers their names.
 */
export async function lockOpenProjects(
  trx: Database,
  ids: number[],
  message?: (id: number) => string | undefined,
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const owner = await repo.findProjectOwnerForWrite(trx, id);
    if (!owner) throw notFound('Project');
    if (owner.archived_at !== null) throw projectArchived(message?.(id));
    names.set(id, owner.name);
  }
  return names;
}

/** What happened to an upload, as far as the stored counts care. */
type UploadChange =
  | { kind: 'added'; projectId: number; creatorId: number; at: string }
  | { kind: 'removed'; projectId: number; creatorId: number }
  | { kind: 'moved'; from: number; to: number }
  | { kind: 'edited'; projectId: number };

/**
 * The one writer of the stored upload counts (the project's `uploads_count` and the uploader's)
 * and of the activity date an upload gives its project; every upload create, delete, move and
 * edit calls it inside the transaction that changes the upload row, so counts and rows commit
 * or roll back together. An added upload dates the project at the upload's creation time;
 * anything else at now.
 */
export async function recordUploadChange(trx: Database, change: UploadChange): Promise<void> {
  const now = nowIso();
  switch (change.kind) {
    case 'added':
      return repo.applyUploadCounts(trx, { ...change, delta: 1, activityAt: change.at });
    case 'removed':
      return repo.applyUploadCounts(trx, { ...change, delta: -1, activityAt: now });
    case 'moved': {
      // Both projects' rows are locked in id order: two opposite moves (A→B and B→A) locking
      // from-then-to would each wait for the other, and PostgreSQL would abort one as a deadlock.
      const sides = [
        { projectId: change.from, delta: -1 },
        { projectId: change.to, delta: 1 },
      ].sort((a, b) => a.projectId - b.projectId);
      for (const side of sides)
        await repo.applyUploadCounts(trx, { ...side, creatorId: null, activityAt: now });
      return;
    }
    case 'edited':
      return repo.applyUploadCounts(trx, {
        projectId: change.projectId,
        creatorId: null,
        delta: 0,
        activityAt: now,
      });
  }
}
