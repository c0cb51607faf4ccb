import { profilesResponseSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/** GET /api/user/all/profile: every member of the team (active and deactivated) with counts. */
export const getProfiles = (signal?: AbortSignal) =>
  api.get('/api/user/all/profile', profilesResponseSchema, { signal });

export const profilesQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.profiles(),
    queryFn: ({ signal }) => getProfiles(signal),
  });

export const useProfiles = () => useQuery(profilesQueryOptions());
