import type { FastifyInstance } from 'fastify';
import { MEDIA_CSP } from '../../http/security-headers.js';
import { MEDIA_PATH_PREFIX } from '../../media/signed-urls.js';
import { openSignedMedia, type UploadsDeps } from './uploads.service.js';

/**
 * Serves stored media to `<img>` tags and downloads through signed URLs (no bearer header):
 * public at the HTTP level, but every request must carry a valid, unexpired signature bound to
 * a live session. With S3 storage the API hands out presigned bucket URLs instead; this route
 * still serves any signed `/media/…` URL from the bucket.
 */
export function mediaRoutes(app: FastifyInstance, deps: UploadsDeps): void {
  app.get(`${MEDIA_PATH_PREFIX}*`, { config: { access: 'public' } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const media = await openSignedMedia(deps, key, request.query as Record<string, unknown>);
    void reply
      .header('content-type', media.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP)
      .header('cache-control', `private, max-age=${media.maxAgeSeconds}`);
    if (media.size > 0) void reply.header('content-length', media.size);
    if (media.disposition) void reply.header('content-disposition', media.disposition);
    return reply.send(media.body);
  });
}
