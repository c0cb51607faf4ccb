import { projectListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** GET /api/project/favnfol: the projects the signed-in user bookmarked or follows. */
export const getBookmarkedOrFollowedProjects = (signal?: AbortSignal) =>
  api.get('/api/project/favnfol', projectListSchema, { signal });

export const bookmarkedOrFollowedProjectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.bookmarkedOrFollowed(),
    queryFn: ({ signal }) => getBookmarkedOrFollowedProjects(signal),
  });

export const useBookmarkedOrFollowedProjects = () =>
  useQuery(bookmarkedOrFollowedProjectsQueryOptions());
