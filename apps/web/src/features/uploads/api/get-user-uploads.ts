import { useInfiniteQuery } from '@tanstack/react-query';
import { feedInfiniteOptions } from './feed-pages';
import { uploadKeys } from './keys';

/** GET /api/upload/user/{id}/latest, page by page: a member's uploads, newest first. */
export const userUploadsQueryOptions = (userId: number) =>
  feedInfiniteOptions(uploadKeys.user(userId), `/api/upload/user/${userId}/latest`);

export const useUserUploads = (userId: number) => useInfiniteQuery(userUploadsQueryOptions(userId));
