import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type AuthDeps, type AuthUser } from '../modules/auth/auth.service.js';
import { forbidden, unauthorized } from '../errors.js';
import { isApiRequest } from './request-path.js';

/** Who may call a route: anyone, any signed-in user, or admins. Default for `/api`: `user`. */
export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,200})$/;

/**
 * Resolves the bearer token (the only place a token is accepted) and enforces each route's
 * `config.access` before the body is read, so signed-out uploads are refused up front.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const access =
      request.routeOptions.config.access ?? (isApiRequest(request) ? 'user' : 'public');
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = BEARER.exec(header);
      request.user = match?.[1] ? await authenticate(deps, match[1]) : null;
    }
    // Unknown routes answer 404 whoever asks; the not-found handler runs after this hook.
    if (access === 'public' || request.is404) return;
    if (!request.user) {
      throw unauthorized(
        header === undefined
          ? 'Please sign in to continue.'
          : 'Your session has ended. Please sign in again.',
      );
    }
    if (access === 'admin' && !request.user.isAdmin) throw forbidden('Only admins can do that.');
  });
}

/** The signed-in user of a route that requires one (guaranteed by the onRequest guard). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
