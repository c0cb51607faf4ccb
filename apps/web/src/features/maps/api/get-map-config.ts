import { mapConfigSchema, type MapConfig } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /api/config, read for the maps: the tile URL, the tiles' credit and the far-from-site distance. */
export const getMapConfig = (signal?: AbortSignal): Promise<MapConfig> =>
  api.get('/api/config', mapConfigSchema, { signal });

export const mapConfigQueryOptions = () =>
  queryOptions({
    queryKey: mapKeys.config(),
    queryFn: ({ signal }) => getMapConfig(signal),
    // Read once at the server's start: it changes only with a restart.
    staleTime: Infinity,
  });

export const useMapConfig = () => useQuery(mapConfigQueryOptions());
