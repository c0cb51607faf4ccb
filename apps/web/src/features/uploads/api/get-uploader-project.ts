import { projectSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';

/**
 * GET /api/project/id/{id}: the project the uploader adds photos to (its name, and whether it
 * exists at all). Called here rather than borrowed from the projects feature: features stay apart.
 */
export const getUploaderProject = (projectId: number, signal?: AbortSignal) =>
  api.get(`/api/project/id/${projectId}`, projectSchema, { signal });

export const uploaderProjectQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: uploadKeys.uploaderProject(projectId),
    queryFn: ({ signal }) => getUploaderProject(projectId, signal),
  });

export const useUploaderProject = (projectId: number) =>
  useQuery(uploaderProjectQueryOptions(projectId));
