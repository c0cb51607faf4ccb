import type { Project } from '@sitelog/shared';

/** Issue 14: the project's creator or an admin archives and restores it (the server enforces it). */
export function canArchiveProject(
  user: { id: number; isAdmin: boolean },
  project: Pick<Project, 'creator'>,
): boolean {
  return user.isAdmin || project.creator.id === user.id;
}

/** An archived project is read-only: no uploads, edits, bookmarks or follows. */
export function isArchived(project: Pick<Project, 'archivedAt'>): boolean {
  return project.archivedAt !== null && project.archivedAt !== undefined;
}
