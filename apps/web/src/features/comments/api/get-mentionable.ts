import { mentionCandidatesSchema } from '@sitelog/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { commentKeys } from './keys';

/** GET /api/user/mentionable?q=: active members (not the viewer) whose name starts with `q`. */
export const getMentionable = (q: string, signal?: AbortSignal) =>
  api.get(`/api/user/mentionable?q=${encodeURIComponent(q)}`, mentionCandidatesSchema, {
    signal,
  });

export const mentionableOptions = (q: string) =>
  queryOptions({
    queryKey: commentKeys.mentionable(q),
    queryFn: ({ signal }) => getMentionable(q, signal),
    // The team changes rarely; a name typed again is answered from the cache.
    staleTime: 60_000,
    // A failed lookup is shown at once; the next key typed asks again anyway.
    retry: false,
  });

/** The members `@q` may name (the caller debounces `q`); the last answer stays while typing. */
export const useMentionable = (q: string, enabled: boolean) =>
  useQuery({ ...mentionableOptions(q), enabled, placeholderData: keepPreviousData });
