import { projectSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** GET /api/project/id/{id}: one project as the signed-in user sees it. */
export const getProject = (id: number, signal?: AbortSignal) =>
  api.get(`/api/project/id/${id}`, projectSchema, { signal });

export const projectQueryOptions = (id: number) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: ({ signal }) => getProject(id, signal),
  });

export const useProject = (id: number) => useQuery(projectQueryOptions(id));
