import { placesQuerySchema, placesResponseSchema } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../http/schemas.js';
import { searchPlaces } from './places.service.js';

/** Place suggestions for the project LOCATION field, from the built-in offline gazetteer. */
export function placesRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/places',
    {
      schema: {
        querystring: placesQuerySchema,
        response: { 200: placesResponseSchema, ...errorResponses },
      },
    },
    async (request) => searchPlaces(request.query.query),
  );
}
