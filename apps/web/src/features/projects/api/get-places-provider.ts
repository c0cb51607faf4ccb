import { placesConfigSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

export interface PlacesProvider {
  provider: 'offline' | 'google';
  googleMapsKey: string | null;
}

/** GET /api/config, read for the place search provider the server is configured with. */
export const getPlacesProvider = async (signal?: AbortSignal): Promise<PlacesProvider> => {
  const config = await api.get('/api/config', placesConfigSchema, { signal });
  return { provider: config.placesProvider, googleMapsKey: config.googleMapsKey };
};

export const placesProviderQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.placesProvider(),
    queryFn: ({ signal }) => getPlacesProvider(signal),
    staleTime: Infinity,
  });

export const usePlacesProvider = () => useQuery(placesProviderQueryOptions());
