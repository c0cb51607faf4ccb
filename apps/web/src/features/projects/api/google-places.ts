import type { PlaceSuggestion } from './place-suggestion';

/*
 * Google Places (the optional provider, spec §7: "a maps script with places support"). Only the
 * few members of the Maps JavaScript API used here are typed; the script is loaded once, on
 * demand, from the origin the server's CSP allows when a key is configured.
 */

interface LatLng {
  lat(): number;
  lng(): number;
}
interface FormattableText {
  text: string;
}
interface PlacePrediction {
  placeId: string;
  text: FormattableText;
  mainText: FormattableText | null;
  secondaryText: FormattableText | null;
  toPlace(): {
    fetchFields(request: { fields: string[] }): Promise<unknown>;
    location?: LatLng | null;
  };
}
interface AutocompleteSuggestionStatic {
  fetchAutocompleteSuggestions(request: {
    input: string;
    sessionToken?: unknown;
  }): Promise<{ suggestions: { placePrediction: PlacePrediction | null }[] }>;
}
export interface GooglePlacesLibrary {
  AutocompleteSuggestion: AutocompleteSuggestionStatic;
  AutocompleteSessionToken: new () => unknown;
}
interface GoogleMapsGlobal {
  maps?: { importLibrary?: (name: string) => Promise<unknown> };
}

const CALLBACK = '__sitelogGoogleMapsReady';
const LOAD_TIMEOUT_MS = 15_000;

let loading: Promise<GooglePlacesLibrary> | null = null;

function isPlacesLibrary(value: unknown): value is GooglePlacesLibrary {
  if (typeof value !== 'object' || value === null) return false;
  const lib = value as Partial<GooglePlacesLibrary>;
  return (
    typeof lib.AutocompleteSuggestion?.fetchAutocompleteSuggestions === 'function' &&
    typeof lib.AutocompleteSessionToken === 'function'
  );
}

function injectScript(key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(
      () => reject(new Error('The Google Maps script did not load in time.')),
      LOAD_TIMEOUT_MS,
    );
    const globals = window as unknown as Record<string, unknown>;
    globals[CALLBACK] = () => {
      window.clearTimeout(timer);
      resolve();
    };
    // Google calls this when the key is refused (wrong key, referrer, billing).
    globals.gm_authFailure = () =>
      console.error(
        'Google Maps refused the configured key; place search uses the built-in gazetteer.',
      );
    const script = document.createElement('script');
    script.src = `https://maps.googleapis.com/maps/api/js?key=${encodeURIComponent(key)}&libraries=places&loading=async&callback=${CALLBACK}`;
    script.async = true;
    script.onerror = () => {
      window.clearTimeout(timer);
      reject(new Error('The Google Maps script could not be loaded.'));
    };
    document.head.append(script);
  });
}

async function load(key: string): Promise<GooglePlacesLibrary> {
  await injectScript(key);
  const google = (window as unknown as { google?: GoogleMapsGlobal }).google;
  const importLibrary = google?.maps?.importLibrary;
  if (!importLibrary) throw new Error('The Google Maps script loaded without importLibrary.');
  const places = await importLibrary('places');
  if (!isPlacesLibrary(places))
    throw new Error('The Google Maps places library lacks AutocompleteSuggestion.');
  return places;
}

/**
 * Loads the Maps JavaScript API with its places library, once per page. A failure is logged to
 * the console (spec §8) and rethrown, so the caller falls back to the built-in place search.
 */
export function loadGooglePlaces(key: string): Promise<GooglePlacesLibrary> {
  loading ??= load(key).catch((error: unknown) => {
    console.error(
      'Google Maps could not be loaded; place search uses the built-in gazetteer.',
      error,
    );
    throw error;
  });
  return loading;
}

/** Autocomplete suggestions from Google; coordinates are fetched only for the place picked. */
export async function searchGooglePlaces(
  places: GooglePlacesLibrary,
  query: string,
  sessionToken: unknown,
): Promise<PlaceSuggestion[]> {
  const { suggestions } = await places.AutocompleteSuggestion.fetchAutocompleteSuggestions({
    input: query,
    sessionToken,
  });
  return suggestions.flatMap(({ placePrediction: prediction }) => {
    if (!prediction) return [];
    return [
      {
        id: `google:${prediction.placeId}`,
        label: prediction.text.text,
        primary: prediction.mainText?.text ?? prediction.text.text,
        secondary: prediction.secondaryText?.text ?? '',
        latitude: null,
        longitude: null,
        resolveCoordinates: async () => {
          const place = prediction.toPlace();
          await place.fetchFields({ fields: ['location'] });
          return place.location
            ? { latitude: place.location.lat(), longitude: place.location.lng() }
            : null;
        },
      },
    ];
  });
}
