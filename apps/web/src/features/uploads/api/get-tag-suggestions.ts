import { tagSuggestionsSchema } from '@sitelog/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';

/**
 * GET /api/upload/tags?q=&project=: existing tags starting with `q` (normalised by the caller),
 * most used first, at most 20; counted in one project when `projectId` is given.
 */
export const tagSuggestionsQueryOptions = (q: string, projectId: number | null = null) =>
  queryOptions({
    queryKey: uploadKeys.tagSuggestions(q, projectId),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ q });
      if (projectId !== null) query.set('project', String(projectId));
      return api.get(`/api/upload/tags?${query.toString()}`, tagSuggestionsSchema, { signal });
    },
    staleTime: 60_000,
  });

/** Tag suggestions for what was typed (debounced by the caller); the last answer stays meanwhile. */
export const useTagSuggestions = (
  q: string,
  { projectId = null, enabled = true }: { projectId?: number | null; enabled?: boolean } = {},
) =>
  useQuery({
    ...tagSuggestionsQueryOptions(q, projectId),
    enabled,
    placeholderData: keepPreviousData,
  });
