import { userListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/** GET /api/user/all (admins only): every non-admin account, active or deactivated. */
export const getUsers = (signal?: AbortSignal) =>
  api.get('/api/user/all', userListSchema, { signal });

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => getUsers(signal),
  });

export const useUsers = () => useQuery(usersQueryOptions());
