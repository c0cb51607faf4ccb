import { uploadListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';

/** GET /api/upload/user/{id}/latest: a member's uploads, newest first. */
export const getUserUploads = (userId: number, signal?: AbortSignal) =>
  api.get(`/api/upload/user/${userId}/latest`, uploadListSchema, { signal });

export const userUploadsQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: uploadKeys.user(userId),
    queryFn: ({ signal }) => getUserUploads(userId, signal),
  });

export const useUserUploads = (userId: number) => useQuery(userUploadsQueryOptions(userId));
