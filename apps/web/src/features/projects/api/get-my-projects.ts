import { projectListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** GET /api/project/user: the projects the signed-in user created. */
export const getMyProjects = (signal?: AbortSignal) =>
  api.get('/api/project/user', projectListSchema, { signal });

export const myProjectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.mine(),
    queryFn: ({ signal }) => getMyProjects(signal),
  });

export const useMyProjects = () => useQuery(myProjectsQueryOptions());
