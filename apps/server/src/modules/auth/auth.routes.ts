import {
  changePasswordRequestSchema,
  loginHintsSchema,
  loginRequestSchema,
  loginResponseSchema,
  okResponseSchema,
  sessionUserSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { login, logout, type AuthDeps } from './auth.service.js';
import { changePassword } from './password.service.js';
import { loginHints } from './sample-account.js';

export function authRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses },
      },
    },
    async (request) => login(deps, { ...request.body.login, ip: request.ip }),
  );

  r.post(
    '/api/auth/logout',
    { schema: { response: { 200: okResponseSchema, ...errorResponses } } },
    async (request) => {
      await logout(deps, currentUser(request));
      return { ok: true as const };
    },
  );

  r.get(
    '/api/auth/me',
    { schema: { response: { 200: sessionUserSchema, ...errorResponses } } },
    async (request) => {
      const { sessionId: _sessionId, ...user } = currentUser(request);
      return user;
    },
  );

  r.post(
    '/api/auth/password',
    {
      schema: {
        body: changePasswordRequestSchema,
        response: { 200: okResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await changePassword(deps, currentUser(request), {
        ...request.body.password,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );

  r.get(
    '/api/auth/hints',
    { config: { access: 'public' }, schema: { response: { 200: loginHintsSchema } } },
    async (request) =>
      loginHints(deps, { remoteAddress: request.socket.remoteAddress, headers: request.headers }),
  );
}
