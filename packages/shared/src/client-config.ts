import { z } from 'zod';

/** Which place search the location field uses (also carried by GET /api/auth/hints). */
export const placesConfigSchema = z.object({
  placesProvider: z.enum(['offline', 'google']),
  googleMapsKey: z.string().nullable(),
});
export type PlacesConfig = z.infer<typeof placesConfigSchema>;

/**
 * The maps' settings. The attribution is plain text plus an optional link, never HTML: the web
 * app renders it as text.
 */
export const mapConfigSchema = z.object({
  /** Raster tile URL template (`{z}`, `{x}`, `{y}`, optionally `{s}` and `{r}`). */
  mapTileUrl: z.string(),
  mapAttribution: z.string(),
  /** Where the attribution links to (an http(s) URL), or null for none. */
  mapAttributionUrl: z.string().nullable(),
  /** A photo taken farther than this from its project's site is flagged. */
  farFromSiteKm: z.number(),
});
export type MapConfig = z.infer<typeof mapConfigSchema>;

/**
 * GET /api/config: public settings the web app needs before or without sign-in, such as which
 * place search to use and where map tiles come from. Nothing here is secret: the Google Maps key
 * is a browser key.
 */
export const clientConfigSchema = placesConfigSchema.extend(mapConfigSchema.shape);
export type ClientConfig = z.infer<typeof clientConfigSchema>;
