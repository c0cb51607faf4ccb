import type { Project, ProjectInput, ProjectRow } from '@sitelog/shared';
import { projectInputSchema } from '@sitelog/shared';
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
  rows: repo.ProjectDbRow[],
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

/** The all-projects table as positional rows: id, name, location, updatedAt, uploads, creator. */
export async function listProjectRows(deps: Pick<ProjectsDeps, 'db'>): Promise<ProjectRow[]> {
  const rows = await repo.listProjectRows(deps.db);
  return rows.map((r) => [
    r.id,
    r.name,
    r.location,
    r.updated_at,
    r.uploads_count,
    `${r.firstname} ${r.lastname}`,
  ]);
}

function values(input: ProjectInput) {
  const parsed = projectInputSchema.parse(input);
  return {
    name: parsed.name,
    location: parsed.location,
    description: parsed.description,
    latitude: parsed.latitude ?? null,
    longitude: parsed.longitude ?? null,
  };
}

export async function createProject(
  deps: ProjectsDeps,
  input: ProjectInput,
  viewer: AuthUser,
): Promise<Project> {
  const id = await writeTransaction(deps.db, (trx) =>
    repo.insertProject(trx, { ...values(input), creatorId: viewer.id, now: nowIso() }),
  );
  return getProject(deps, id, viewer);
}

/** Only the project's creator may edit it. */
export async function updateProject(
  deps: ProjectsDeps,
  id: number,
  input: ProjectInput,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner || owner.archived_at !== null) throw notFound('Project');
  if (owner.creator_id !== viewer.id)
    throw forbidden('Only the creator of this project can edit it.');
  await repo.updateProject(deps.db, id, { ...values(input), now: nowIso() });
  return getProject(deps, id, viewer);
}

type Mark = 'favor' | 'unfavor' | 'follow' | 'unfollow';

/** Bookmark/follow toggles: per user, idempotent, answering the updated project. */
export async function setMark(
  deps: ProjectsDeps,
  id: number,
  mark: Mark,
  viewer: AuthUser,
): Promise<Project> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner || owner.archived_at !== null) throw notFound('Project');
  const table = mark === 'favor' || mark === 'unfavor' ? 'project_bookmarks' : 'project_follows';
  if (mark === 'favor' || mark === 'follow')
    await repo.addMark(deps.db, table, viewer.id, id, nowIso());
  else await repo.removeMark(deps.db, table, viewer.id, id);
  return getProject(deps, id, viewer);
}

/**
 * For the uploads module: the project an upload may be added to (exists, not archived), or 404.
 */
export async function assertProjectOpen(deps: Pick<ProjectsDeps, 'db'>, id: number): Promise<void> {
  const owner = await repo.findProjectOwner(deps.db, id);
  if (!owner) throw notFound('Project');
  if (owner.archived_at !== null) throw forbidden('This project is archived; uploads are closed.');
}

/**
 * For the uploads module, inside its write transaction: keeps the project's stored upload count
 * and activity date in step (delta +1 on upload, -1 on delete, 0 on edit).
 */
export async function recordUploadChange(
  trx: Database,
  projectId: number,
  countDelta: number,
): Promise<void> {
  await repo.applyUploadChange(trx, projectId, countDelta, nowIso());
}
