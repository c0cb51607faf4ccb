import { clientConfigSchema, type ClientConfig } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';

/** The public settings the web app reads at start (which place search to use). */
export function clientConfig(config: Config): ClientConfig {
  return {
    placesProvider: config.googleMapsKey ? 'google' : 'offline',
    googleMapsKey: config.googleMapsKey,
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
