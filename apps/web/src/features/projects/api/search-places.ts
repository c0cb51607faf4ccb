import { placesResponseSchema, type Place } from '@sitelog/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usePlacesProvider } from './get-places-provider';
import { loadGooglePlaces, searchGooglePlaces, type GooglePlacesLibrary } from './google-places';
import { projectKeys } from './keys';
import type { PlaceSuggestion } from './place-suggestion';

/** Suggestions start from this many typed characters. */
export const PLACE_QUERY_MIN = 2;

const fromPlace = (place: Place, index: number): PlaceSuggestion => ({
  id: `offline:${index}:${place.label}`,
  label: place.label,
  primary: place.name,
  secondary: place.label.startsWith(`${place.name}, `)
    ? place.label.slice(place.name.length + 2)
    : place.country,
  latitude: place.latitude,
  longitude: place.longitude,
});

/** GET /api/places?query=…: the built-in gazetteer's suggestions (ranked, at most 10). */
export const searchPlaces = async (
  query: string,
  signal?: AbortSignal,
): Promise<PlaceSuggestion[]> => {
  const places = await api.get(
    `/api/places?${new URLSearchParams({ query }).toString()}`,
    placesResponseSchema,
    { signal },
  );
  return places.map(fromPlace);
};

// Google bills autocomplete per session: one token from the first keystroke until a place is picked.
let googleSession: { places: GooglePlacesLibrary; token: unknown } | null = null;

async function searchWithGoogle(
  places: GooglePlacesLibrary,
  query: string,
  signal?: AbortSignal,
): Promise<PlaceSuggestion[]> {
  if (googleSession?.places !== places)
    googleSession = { places, token: new places.AutocompleteSessionToken() };
  try {
    const suggestions = await searchGooglePlaces(places, query, googleSession.token);
    return suggestions.map((suggestion) => ({
      ...suggestion,
      resolveCoordinates: async () => {
        googleSession = null;
        return (await suggestion.resolveCoordinates?.()) ?? null;
      },
    }));
  } catch (error) {
    console.error('Google place search failed; using the built-in gazetteer.', error);
    return searchPlaces(query, signal);
  }
}

/**
 * The places search of the server's configured provider: Google when a key is configured and its
 * script loads, else (and while it loads, and after it failed) the built-in gazetteer.
 */
function usePlaceSearch(): {
  provider: 'offline' | 'google';
  search: (query: string, signal?: AbortSignal) => Promise<PlaceSuggestion[]>;
} {
  const config = usePlacesProvider();
  const key = config.data?.provider === 'google' ? config.data.googleMapsKey : null;
  const google = useQuery({
    queryKey: [...projectKeys.placesProvider(), 'google-script', key],
    queryFn: () => loadGooglePlaces(key ?? ''),
    enabled: key !== null && key !== '',
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  const places = google.data;
  if (places)
    return {
      provider: 'google',
      search: (query, signal) => searchWithGoogle(places, query, signal),
    };
  return { provider: 'offline', search: searchPlaces };
}

/** Place suggestions for what was typed (already debounced by the caller). */
export function usePlaceSuggestions(query: string) {
  const { provider, search } = usePlaceSearch();
  const trimmed = query.trim();
  return useQuery({
    queryKey: projectKeys.places(provider, trimmed.toLowerCase()),
    queryFn: ({ signal }) => search(trimmed, signal),
    enabled: trimmed.length >= PLACE_QUERY_MIN,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}
