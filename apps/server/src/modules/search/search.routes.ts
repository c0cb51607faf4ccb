import { searchQuerySchema, searchResponseSchema } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { LARGE_RESPONSE } from '../../http/compression.js';
import { errorResponses } from '../../http/schemas.js';
import * as search from './search.service.js';

export function searchRoutes(app: FastifyInstance, deps: search.SearchDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/search',
    {
      compress: LARGE_RESPONSE,
      schema: {
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...errorResponses },
      },
    },
    async (req) => search.search(deps, req.query, currentUser(req)),
  );
}
