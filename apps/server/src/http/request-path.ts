import type { FastifyRequest } from 'fastify';

/** The request's path with percent-escapes decoded (as the router matches it), without query. */
export function decodedPath(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Whether a request targets the JSON API. Decided by the matched route's pattern, never the raw
 * URL: the router decodes percent-escapes, so `/%61pi/…` reaches the `/api/…` routes.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const pattern = request.routeOptions.url;
  return (pattern ?? decodedPath(request)).startsWith('/api');
}
