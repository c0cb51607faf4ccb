import { uploadListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiPaths } from '@/lib/api-paths';
import { uploadKeys } from './keys';

/** GET /api/upload/latest/{count}: the team's newest uploads, newest first. */
export const getLatestUploads = (count: number, signal?: AbortSignal) =>
  api.get(apiPaths.latestUploads(count), uploadListSchema, { signal });

export const latestUploadsQueryOptions = (count: number) =>
  queryOptions({
    queryKey: uploadKeys.latest(count),
    queryFn: ({ signal }) => getLatestUploads(count, signal),
  });

export const useLatestUploads = (count: number) => useQuery(latestUploadsQueryOptions(count));
