import { uploadListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';

/** GET /api/upload/project/{id}/latest: a project's uploads, newest first. */
export const getProjectUploads = (projectId: number, signal?: AbortSignal) =>
  api.get(`/api/upload/project/${projectId}/latest`, uploadListSchema, { signal });

export const projectUploadsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: uploadKeys.project(projectId),
    queryFn: ({ signal }) => getProjectUploads(projectId, signal),
  });

export const useProjectUploads = (projectId: number) =>
  useQuery(projectUploadsQueryOptions(projectId));
