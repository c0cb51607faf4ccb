import { workspaceSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/** GET /api/workspace: the company or team name the reports' covers carry. */
export const getWorkspace = (signal?: AbortSignal) =>
  api.get('/api/workspace', workspaceSchema, { signal });

export const workspaceQueryOptions = () =>
  queryOptions({
    queryKey: reportKeys.workspace(),
    queryFn: ({ signal }) => getWorkspace(signal),
    // The name changes rarely (an admin's setting): no refetch every time a creator opens.
    staleTime: 5 * 60_000,
  });

export const useWorkspace = () => useQuery(workspaceQueryOptions());
