/** A place the LOCATION field offers, from whichever provider answered. */
export interface PlaceSuggestion {
  id: string;
  /** What is stored as the project's location, e.g. "Munich, Germany". */
  label: string;
  primary: string;
  secondary: string;
  latitude: number | null;
  longitude: number | null;
  /** Providers that send coordinates only on request (Google) fetch them when the place is picked. */
  resolveCoordinates?: () => Promise<{ latitude: number; longitude: number } | null>;
}
