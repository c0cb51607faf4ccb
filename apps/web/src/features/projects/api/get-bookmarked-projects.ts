import { projectListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiPaths } from '@/lib/api-paths';
import { projectKeys } from './keys';

/** GET /api/project/bookmark: the projects the signed-in user bookmarked. */
export const getBookmarkedProjects = (signal?: AbortSignal) =>
  api.get(apiPaths.bookmarkedProjects, projectListSchema, { signal });

export const bookmarkedProjectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.bookmarked(),
    queryFn: ({ signal }) => getBookmarkedProjects(signal),
  });

export const useBookmarkedProjects = () => useQuery(bookmarkedProjectsQueryOptions());
