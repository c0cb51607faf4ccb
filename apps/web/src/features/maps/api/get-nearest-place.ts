import { nearestPlaceResponseSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /api/places/nearest: the gazetteer's nearest place to a point, and how far it is. */
export const getNearestPlace = (latitude: number, longitude: number, signal?: AbortSignal) =>
  api.get(
    `/api/places/nearest?${new URLSearchParams({
      // Fixed decimals: String(5e-7) would be "5e-7", which the server refuses.
      latitude: latitude.toFixed(6),
      longitude: longitude.toFixed(6),
    }).toString()}`,
    nearestPlaceResponseSchema,
    { signal },
  );

export const nearestPlaceQueryOptions = (latitude: number, longitude: number) =>
  queryOptions({
    queryKey: mapKeys.nearestPlace(Number(latitude.toFixed(6)), Number(longitude.toFixed(6))),
    queryFn: ({ signal }) => getNearestPlace(latitude, longitude, signal),
    // Places do not move: a point asked once is answered from the cache.
    staleTime: Infinity,
  });

export const useNearestPlace = (latitude: number, longitude: number) =>
  useQuery(nearestPlaceQueryOptions(latitude, longitude));
