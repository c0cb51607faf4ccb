import { eventPageSchema, eventsQuerySchema } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import * as events from './events.service.js';

export function eventRoutes(app: FastifyInstance, deps: events.EventsDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/events',
    {
      schema: {
        querystring: eventsQuerySchema,
        response: { 200: eventPageSchema, ...errorResponses },
      },
    },
    async (req) => events.listEvents(deps, req.query, currentUser(req)),
  );
}
