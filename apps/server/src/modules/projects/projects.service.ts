import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  mapLimits,
  type Project,
  type ProjectLocation,
  type projectInputSchema,
} from '@sitelog/shared';
import type { z } from 'zod';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { forbidden, notFound } from '../../errors.js';
import type { MediaLinks } from '../../media/links.js';
import type { AuthUser } from '../auth/auth.service.js';
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
  }));
}

async function list(deps: ProjectsDeps, filter: repo.ProjectFilter, viewer: AuthUser) {
  return toProjects(deps, await repo.findProjects(deps.db, filter, viewer.id), viewer);
}

/** One project as the viewer sees it; 404 when it does not exist. */
export async function getProject(
  deps: ProjectsDeps,
  id: number,
  viewer: AuthUser,
): Promise<Project> {
  const [project] = await list(deps, { kind: 'id', id }, viewer);
  if (!project) throw notFound('Project');
  return project;
}

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
  const id = await writeTransaction(deps.db, (trx) => addProject(trx, fields, viewer.id));
  return getProject(deps, id, viewer);
}

/** Only the project's creator may edit it. */
export async function updateProject(
  deps: ProjectsDeps,
  id: number,
  fields: ProjectFields,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner || owner.archived_at !== null) throw notFound('Project');
  if (owner.creator_id !== viewer.id)
    throw forbidden('Only the creator of this project can edit it.');
  await repo.updateProject(deps.db, id, { ...values(fields), now: nowIso() });
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

/** Bookmark/follow toggles: per user, idempotent, answering the updated project. */
export async function setMark(
  deps: ProjectsDeps,
  id: number,
  mark: Mark,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner || owner.archived_at !== null) throw notFound('Project');
  await markProject(deps.db, { userId: viewer.id, projectId: id, mark });
  return getProject(deps, id, viewer);
}

/**
 * For the uploads module: the project an upload may be added to (exists, not archived), or 404;
 * answers its name (a photo sent without a name is named after it).
 */
export async function assertProjectOpen(
  deps: Pick<ProjectsDeps, 'db'>,
  id: number,
): Promise<{ name: string }> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.archived_at !== null) throw forbidden('This project is archived; uploads are closed.');
  return { name: owner.name };
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
