/** A point on the Earth in decimal degrees (WGS 84, as GPS and the API give them). */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** The Earth's mean radius (IUGG), in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * The great-circle distance between two points in kilometres (haversine on a sphere: within
 * 0.5 % of the ellipsoid's distance, plenty to tell a photo taken away from its site).
 */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  // min(1, …): rounding can push h a hair above 1 for antipodal points, and asin would be NaN.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const wholeKm = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const tenthKm = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** A distance as people say it: "350 m", "1.4 km", "14 km", "2,380 km". */
export function formatDistanceKm(km: number): string {
  if (km < 1) return `${Math.round((km * 1000) / 10) * 10} m`;
  if (km < 10) return `${tenthKm.format(km)} km`;
  return `${wholeKm.format(km)} km`;
}
