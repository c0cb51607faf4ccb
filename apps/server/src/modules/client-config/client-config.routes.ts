import { clientConfigSchema, type ClientConfig, type PlacesConfig } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';

/** Which place search the web app uses (GET /api/auth/hints still carries it too). */
export function placesConfig(config: Config): PlacesConfig {
  return {
    placesProvider: config.googleMapsKey ? 'google' : 'offline',
    googleMapsKey: config.googleMapsKey,
  };
}

/** The public settings the web app reads at start: the place search and the maps. */
export function clientConfig(config: Config): ClientConfig {
  return {
    ...placesConfig(config),
    mapTileUrl: config.maps.tileUrl,
    mapAttribution: config.maps.attribution,
    mapAttributionUrl: config.maps.attributionUrl,
    farFromSiteKm: config.maps.farFromSiteKm,
  };
}

export function clientConfigRoutes(app: FastifyInstance, deps: { config: Config }): void {
  const body = clientConfig(deps.config);
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/config',
      { config: { access: 'public' }, schema: { response: { 200: clientConfigSchema } } },
      async () => body,
    );
}
