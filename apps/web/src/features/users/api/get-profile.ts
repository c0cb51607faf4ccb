import { profileSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/** GET /api/user/profile/{id}: a member's name, state and stored counts. */
export const getProfile = (id: number, signal?: AbortSignal) =>
  api.get(`/api/user/profile/${id}`, profileSchema, { signal });

export const profileQueryOptions = (id: number) =>
  queryOptions({
    queryKey: userKeys.profile(id),
    queryFn: ({ signal }) => getProfile(id, signal),
  });

/** The profile of member `id`; nothing is asked while the id is null (not a valid id). */
export const useProfile = (id: number | null) =>
  useQuery({ ...profileQueryOptions(id ?? 0), enabled: id !== null });
