import { photoLocationListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/**
 * GET /api/upload/project/{id}/locations: a pin for each geotagged photo of a project (the
 * newest 5,000), newest first.
 */
export const getProjectPhotoLocations = (projectId: number, signal?: AbortSignal) =>
  api.get(`/api/upload/project/${projectId}/locations`, photoLocationListSchema, { signal });

export const projectPhotoLocationsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: mapKeys.projectPhotos(projectId),
    queryFn: ({ signal }) => getProjectPhotoLocations(projectId, signal),
  });

export const useProjectPhotoLocations = (projectId: number) =>
  useQuery(projectPhotoLocationsQueryOptions(projectId));
