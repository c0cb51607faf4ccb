import type { Upload } from '@sitelog/shared';
import { formatExactTime } from '@/lib/format-photo-time';

/** A photo's name as the creator shows it. */
export const photoName = (photo: Pick<Upload, 'name'>) =>
  photo.name.trim() === '' ? 'Untitled photo' : photo.name;

export const authorName = (photo: Pick<Upload, 'creator'>) =>
  `${photo.creator.firstname} ${photo.creator.lastname}`;

/** "Taken Mon, 23 Nov 2026, 14:05", or "Uploaded …" when the camera did not say. */
export const photoTime = (photo: Pick<Upload, 'capturedAt' | 'createdAt'>) =>
  photo.capturedAt
    ? `Taken ${formatExactTime(photo.capturedAt)}`
    : `Uploaded ${formatExactTime(photo.createdAt)}`;
