import { sessionUserSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

/** GET /api/auth/me: the signed-in user as the server sees them now. */
export const getMe = (signal?: AbortSignal) =>
  api.get('/api/auth/me', sessionUserSchema, { signal });

export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });

export const useMe = (options: { enabled: boolean }) =>
  useQuery({ ...meQueryOptions(), enabled: options.enabled });
