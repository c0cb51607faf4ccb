import { uploadSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';

/** GET /api/upload/full/{id}: one upload with its image links and photo metadata. */
export const getUpload = (id: number, signal?: AbortSignal) =>
  api.get(`/api/upload/full/${id}`, uploadSchema, { signal });

export const uploadQueryOptions = (id: number) =>
  queryOptions({
    queryKey: uploadKeys.detail(id),
    queryFn: ({ signal }) => getUpload(id, signal),
  });

export const useUpload = (id: number) => useQuery(uploadQueryOptions(id));
