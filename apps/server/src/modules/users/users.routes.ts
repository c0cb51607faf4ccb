import {
  createUserRequestSchema,
  idParamsSchema,
  profileSchema,
  profilesResponseSchema,
  userListSchema,
  userSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { LARGE_RESPONSE } from '../../http/compression.js';
import { errorResponses } from '../../http/schemas.js';
import * as users from './users.service.js';

export function userRoutes(app: FastifyInstance, deps: users.UsersDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };
  const one = { response: { 200: userSchema, ...errorResponses } };

  r.get(
    '/api/user/all',
    {
      config: admin,
      compress: LARGE_RESPONSE,
      schema: { response: { 200: userListSchema, ...errorResponses } },
    },
    async () => users.listUsers(deps),
  );
  r.post(
    '/api/user/create',
    { config: admin, schema: { body: createUserRequestSchema, ...one } },
    async (req) => users.createUser(deps, req.body.user),
  );
  r.delete(
    '/api/user/:id',
    { config: admin, schema: { params: idParamsSchema, ...one } },
    async (req) => users.deactivateUser(deps, req.params.id, currentUser(req)),
  );
  r.get(
    '/api/user/:id/activate',
    { config: admin, schema: { params: idParamsSchema, ...one } },
    async (req) => users.activateUser(deps, req.params.id),
  );
  r.get(
    '/api/user/profile/:id',
    { schema: { params: idParamsSchema, response: { 200: profileSchema, ...errorResponses } } },
    async (req) => users.getProfile(deps, req.params.id),
  );
  r.get(
    '/api/user/all/profile',
    {
      compress: LARGE_RESPONSE,
      schema: { response: { 200: profilesResponseSchema, ...errorResponses } },
    },
    async () => users.listProfiles(deps),
  );
}
