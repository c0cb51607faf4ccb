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
    // Public routes (health checks, sign-in, the web app's files, signed media) never read the
    // user, so a token sent to them is not looked up (nor does it extend its session). Unknown
    // routes answer 404 whoever asks; the not-found handler runs after this hook.
    if (access === 'public' || request.is404) return done();
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (!token) return done(guard(request, access));
    authenticate(deps, token)
      .then(
        (user) => {
          request.user = user;
          return guard(request, access);
        },
        (err: Error) => err,
      )
      .then((err) => done(err))
      // `done` runs the rest of the request; nothing it throws may become an unhandled rejection.
      .catch((err: unknown) => request.log.error({ err }, 'request failed after sign-in check'));
  });
}

/** Why a signed-in route refuses the request (401 or 403), or undefined when it may go on. */
function guard(request: FastifyRequest, access: RouteAccess): Error | undefined {
  if (!request.user)
    return unauthorized(
      request.headers.authorization === undefined
        ? 'Please sign in to continue.'
        : 'Your session has ended. Please sign in again.',
    );
  if (access === 'admin' && !request.user.isAdmin) return forbidden('Only admins can do that.');
  return undefined;
}

/** The signed-in user of a route that requires one (guaranteed by the onRequest guard). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
