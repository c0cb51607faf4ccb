import { loginHintsSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

/** GET /api/auth/hints: the sample account to prefill the login form with (or null). */
export const getLoginHints = (signal?: AbortSignal) =>
  api.get('/api/auth/hints', loginHintsSchema, { signal });

export const loginHintsQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.hints(),
    queryFn: ({ signal }) => getLoginHints(signal),
    staleTime: 0,
  });

export const useLoginHints = () => useQuery(loginHintsQueryOptions());
