import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

/**
 * GET /api/auth/me: the signed-in user as the server sees them now. The shell asks this on
 * start, so the contract (and zod with it) is imported with the call instead of up front: the
 * first render does not wait for the validation library, only the answer does.
 */
export const getMe = async (signal?: AbortSignal) => {
  const { sessionUserSchema } = await import('@sitelog/shared');
  return api.get('/api/auth/me', sessionUserSchema, { signal });
};

export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });

export const useMe = (options: { enabled: boolean }) =>
  useQuery({ ...meQueryOptions(), enabled: options.enabled });
