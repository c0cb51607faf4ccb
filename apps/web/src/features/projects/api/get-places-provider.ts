import { loginHintsSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

export interface PlacesProvider {
  provider: 'offline' | 'google';
  googleMapsKey: string | null;
}

/** GET /api/auth/hints, read for the place search provider the server is configured with. */
export const getPlacesProvider = async (signal?: AbortSignal): Promise<PlacesProvider> => {
  const hints = await api.get('/api/auth/hints', loginHintsSchema, { signal });
  return { provider: hints.placesProvider, googleMapsKey: hints.googleMapsKey };
};

export const placesProviderQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.placesProvider(),
    queryFn: ({ signal }) => getPlacesProvider(signal),
    staleTime: Infinity,
  });

export const usePlacesProvider = () => useQuery(placesProviderQueryOptions());
