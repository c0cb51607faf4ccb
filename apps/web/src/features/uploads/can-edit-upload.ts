import type { Upload } from '@sitelog/shared';

/**
 * Spec §6: only the upload's creator edits or deletes it (the server enforces the same); and no
 * one while its project is archived (issue 14: the server answers 409).
 */
export function canEditUpload(
  user: { id: number },
  upload: Pick<Upload, 'creator' | 'project'>,
): boolean {
  return upload.creator.id === user.id && !isInArchivedProject(upload);
}

/** The photo's project is archived: the photo is read-only, and marked "Archived". */
export function isInArchivedProject(upload: Pick<Upload, 'project'>): boolean {
  return upload.project.archived === true;
}
