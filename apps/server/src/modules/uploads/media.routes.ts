import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { MEDIA_CSP } from '../../http/security-headers.js';
import { openSignedMedia, type MediaRefusalReason } from '../../media/media-files.js';
import { MEDIA_PATH_PREFIX } from '../../media/signed-urls.js';
import { isSessionLive } from '../auth/auth.service.js';
import { storageAsHttpError } from './storage-refusals.js';
import type { UploadsDeps } from './uploads.service.js';

const invalidMediaLink = (message: string) => new AppError(403, 'invalid_media_link', message);

const MEDIA_REFUSALS: Record<MediaRefusalReason, () => AppError> = {
  invalid: () => invalidMediaLink('This media link is not valid.'),
  expired: () =>
    invalidMediaLink('This media link has expired. Reload the page to get a fresh one.'),
  session_ended: () =>
    invalidMediaLink('This media link belongs to a session that has ended. Sign in again.'),
  not_found: () => notFound('The file'),
};

/**
 * Serves stored media to `<img>` tags and downloads through signed URLs (no bearer header):
 * public at the HTTP level, but every request must carry a valid, unexpired signature bound to
 * a live session. The same on local disk and on S3 (streamed from the bucket), where the API
 * hands out these links with `MEDIA_DELIVERY=app`; with `bucket` it hands out presigned bucket
 * URLs instead, and this route still serves any signed `/media/…` URL.
 */
export function mediaRoutes(
  app: FastifyInstance,
  deps: Pick<UploadsDeps, 'db' | 'config' | 'storage'>,
): void {
  const media = {
    secret: deps.config.secret,
    storage: deps.storage,
    isSessionLive: (sessionId: number) => isSessionLive(deps, sessionId),
  };
  app.get(`${MEDIA_PATH_PREFIX}*`, { config: { access: 'public' } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const opened = await openSignedMedia(media, key, request.query as Record<string, unknown>, {
      ifNoneMatch: request.headers['if-none-match'],
    }).catch((err: unknown) => {
      throw storageAsHttpError(err, 'read');
    });
    if (!opened.ok) throw MEDIA_REFUSALS[opened.reason]();
    // A revalidation is answered only after the signature and the session were checked, so a
    // signed-out session's cached copy gets a 403, not a 304.
    if ('notModified' in opened) {
      const { cacheControl, etag } = opened.notModified;
      return reply.code(304).header('cache-control', cacheControl).header('etag', etag).send();
    }
    const { contentType, size, disposition, cacheControl, etag, body } = opened.media;
    void reply.header('cache-control', cacheControl);
    if (etag !== null) void reply.header('etag', etag);
    void reply
      .header('content-type', contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP);
    if (size > 0) void reply.header('content-length', size);
    if (disposition) void reply.header('content-disposition', disposition);
    return reply.send(body);
  });
}
