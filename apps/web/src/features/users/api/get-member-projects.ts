import { projectListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/** GET /api/project/profile/{id}: the projects a member created, for their profile. */
export const getMemberProjects = (id: number, signal?: AbortSignal) =>
  api.get(`/api/project/profile/${id}`, projectListSchema, { signal });

export const memberProjectsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: userKeys.memberProjects(id),
    queryFn: ({ signal }) => getMemberProjects(id, signal),
  });

export const useMemberProjects = (id: number) => useQuery(memberProjectsQueryOptions(id));
