import { projectListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** GET /api/project/archived: archived projects, most recently archived first. */
export const getArchivedProjects = (signal?: AbortSignal) =>
  api.get('/api/project/archived', projectListSchema, { signal });

export const archivedProjectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.archived(),
    queryFn: ({ signal }) => getArchivedProjects(signal),
  });

export const useArchivedProjects = () => useQuery(archivedProjectsQueryOptions());
