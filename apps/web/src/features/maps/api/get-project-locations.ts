import { projectLocationListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/**
 * GET /api/project/locations: every open project with coordinates (the 10,000 most recently
 * active), for the all-projects map.
 */
export const getProjectLocations = (signal?: AbortSignal) =>
  api.get('/api/project/locations', projectLocationListSchema, { signal });

export const projectLocationsQueryOptions = () =>
  queryOptions({
    queryKey: mapKeys.projects(),
    queryFn: ({ signal }) => getProjectLocations(signal),
  });

export const useProjectLocations = () => useQuery(projectLocationsQueryOptions());
