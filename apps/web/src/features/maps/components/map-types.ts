// The map's props, apart from the map itself so that the screens composing a map do not pull
// Leaflet into their own chunk.

/** A point on the map that clusters with its neighbours: a photo or a project. */
export interface MapPin {
  id: number;
  latitude: number;
  longitude: number;
  /** Its name, shown in the pin's tooltip. */
  label: string;
}

/** The project's site: a marker of its own, never clustered. */
export interface MapSite {
  latitude: number;
  longitude: number;
  /** Its accessible name and tooltip, e.g. "Project site: Vienna, Austria". */
  label: string;
}

/** Where the tiles come from and the credit they ask for (plain text, with a link or not). */
export interface MapTiles {
  url: string;
  attribution: string;
  attributionUrl: string | null;
}

export interface MapCanvasProps {
  tiles: MapTiles;
  pins: readonly MapPin[];
  pinKind: 'photo' | 'project';
  site?: MapSite | null;
  /** A pin was clicked, or pressed with Enter or Space. */
  onPinSelect?: (id: number) => void;
  /** Pans and zooms, with keyboard-reachable markers (default); false draws a still map. */
  interactive?: boolean;
  /**
   * A map within a page that scrolls (default): on phones one finger scrolls the page and two
   * move the map. False for a map that is the page's main content, which one finger pans.
   */
  embedded?: boolean;
  /** The map's accessible name. */
  label: string;
  /** A pin's accessible name, e.g. "Photo: North wall". */
  pinLabel: (pin: MapPin) => string;
  /** A cluster's accessible name, e.g. "12 photos here: zoom in". */
  clusterLabel: (count: number) => string;
  /** CSS height, a number of pixels or a responsive object. */
  height: number | string | Record<string, number | string>;
}
