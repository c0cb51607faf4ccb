import {
  nearestPlaceQuerySchema,
  nearestPlaceResponseSchema,
  placesQuerySchema,
  placesResponseSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../http/schemas.js';
import { findNearestPlace, searchPlaces } from './places.service.js';

/** Place suggestions and place names for coordinates, from the built-in offline gazetteer. */
export function placesRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // For the project LOCATION field.
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

  // The place name shown next to a photo's or a site's coordinates.
  r.get(
    '/api/places/nearest',
    {
      schema: {
        querystring: nearestPlaceQuerySchema,
        response: { 200: nearestPlaceResponseSchema, ...errorResponses },
      },
    },
    async (request) => findNearestPlace(request.query.latitude, request.query.longitude),
  );
}
