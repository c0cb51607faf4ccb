import type { Upload } from '@sitelog/shared';

/** Spec §6: only the upload's creator edits or deletes it (the server enforces the same). */
export function canEditUpload(user: { id: number }, upload: Pick<Upload, 'creator'>): boolean {
  return upload.creator.id === user.id;
}
