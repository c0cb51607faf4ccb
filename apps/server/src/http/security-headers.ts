import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { isApiRequest } from './request-path.js';

/** Content-Security-Policy for the SPA: no inline scripts, no framing. */
export function pageCsp(config: Config): string {
  // Map tiles are <img> elements from the tile server (MAP_TILE_URL); nothing else of it is let in.
  const imgSources = ["'self'", 'data:', 'blob:', config.maps.tileSource];
  const scriptSources = ["'self'"];
  const connectSources = ["'self'"];
  if (config.storage.kind === 's3' && config.mediaDelivery === 'bucket') {
    // Presigned URLs are path-style on the endpoint's origin, or virtual-hosted
    // (https://<bucket>.<host>) unless S3_FORCE_PATH_STYLE is on. With MEDIA_DELIVERY=app media
    // comes from our own /media links, and the bucket is let in nowhere.
    const { endpoint, forcePathStyle } = config.storage;
    if (endpoint) {
      const url = new URL(endpoint);
      imgSources.push(url.origin);
      if (!forcePathStyle) imgSources.push(`${url.protocol}//*.${url.host}`);
    } else {
      imgSources.push('https://*.amazonaws.com');
    }
  }
  if (config.googleMapsKey) {
    // Google's documented CSP for the Maps JavaScript API with Places.
    scriptSources.push('https://*.googleapis.com', 'https://*.gstatic.com');
    connectSources.push('https://*.googleapis.com', 'https://*.gstatic.com');
    imgSources.push('https://*.googleapis.com', 'https://*.gstatic.com');
  }
  return [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    // MUI (emotion) injects <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${imgSources.join(' ')}`,
    "font-src 'self' data:",
    `connect-src ${connectSources.join(' ')}`,
    // The service worker (/sw.js) and the web app manifest, both from the app's own origin.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Media gets a CSP that forbids everything active, so a stored file can never run script. */
export const MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * API answers (JSON, never a page) get the strictest policy, a tenth of the page's length: were
 * one opened as a document it could load, run and be framed by nothing. Routes that answer a
 * browser with something else (media, report PDFs, a shared report's page) set their own.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Strict headers on every response: the page's CSP on the web app, `API_CSP` on `/api`, where
 * answers are also never cached unless a route says so.
 *
 * Headers cost every answer by their count (Fastify adds them to the reply one by one, and Node
 * validates each: about 5% of a bare hello's throughput each), so `/api` answers leave out the
 * one that only governs what a page may use (camera, location), which a JSON answer under
 * `API_CSP` cannot. Leaving out the referrer and opener policies too measured no gain on
 * `/api/health` (bench/README.md, "Health, third pass"), so they stay.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  // Built once; a synchronous hook sets them in one call (this runs on every response).
  const api = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
  const page = {
    ...api,
    'permissions-policy': 'camera=(self), geolocation=(self), microphone=()',
  };
  const csp = pageCsp(config);
  app.addHook('onSend', (request, reply, payload, done) => {
    const isApi = isApiRequest(request);
    void reply.headers(isApi ? api : page);
    if (!reply.hasHeader('content-security-policy'))
      void reply.header('content-security-policy', isApi ? API_CSP : csp);
    // A call that revalidates (the bell's count, by ETag) says its own caching.
    if (isApi && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
