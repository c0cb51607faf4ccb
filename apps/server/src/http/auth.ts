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
  app.addHook('onRequest', (request, _reply, done) => {
    const access =
      request.routeOptions.config.access ?? (isApiRequest(request) ? 'user' : 'public');
    const header = request.headers.authorization;
    // Unknown routes answer 404 whoever asks; the not-found handler runs after this hook.
    const guard = () => {
      if (access === 'public' || request.is404) return done();
      if (!request.user)
        return done(
          unauthorized(
            header === undefined
              ? 'Please sign in to continue.'
              : 'Your session has ended. Please sign in again.',
          ),
        );
      if (access === 'admin' && !request.user.isAdmin)
        return done(forbidden('Only admins can do that.'));
      done();
    };
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    // Without a token nothing is looked up, and the guard answers at once (no promise).
    if (!token) return guard();
    authenticate(deps, token)
      .then(
        (user) => {
          request.user = user;
          return null;
        },
        (err: Error) => err,
      )
      .then((err) => (err ? done(err) : guard()))
      // `done` runs the rest of the request; nothing it throws may become an unhandled rejection.
      .catch((err: unknown) => request.log.error({ err }, 'request failed after sign-in check'));
  });
}

/** The signed-in user of a route that requires one (guaranteed by the onRequest guard). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
