import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import { MEDIA_FRESH_SECONDS, mediaCacheControl } from './media-files.js';
import { contentTypeForKey, isOriginalKey } from './media-types.js';
import { mediaUrlExpiry, presignWindow, signMediaUrl } from './signed-urls.js';
import type { Storage } from './storage/index.js';

/** Signed URLs kept for reuse: a few hundred photos for each of a few hundred sessions. */
const URL_CACHE_ENTRIES = 50_000;

/** Hands out URLs for stored media objects that work in `<img>` without a bearer header. */
export interface MediaLinks {
  /**
   * A URL serving `key` to the viewer's session: a signed `/media/…` URL (bound to the session, so
   * logout and deactivation revoke it), or with `MEDIA_DELIVERY=bucket` on S3 a presigned bucket
   * URL. Stable for a while so browsers can cache the image.
   */
  url(
    key: string,
    viewer: { sessionId: number },
    options?: { download?: { filename: string; contentType: string } },
  ): Promise<string>;
}

/**
 * MediaLinks over the configured storage. With `mediaDelivery: 'app'` (always on local disk) they
 * are signed `/media/…` links the instances serve from the storage, whichever it is. With
 * `'bucket'` on S3 they are presigned bucket URLs, not bound to the session (S3 cannot ask us):
 * they expire after the TTL instead. Links to an original (`original.<ext>`) are always
 * downloads, named `original.<ext>` unless `options.download` names them.
 */
export function createMediaLinks(deps: {
  config: Pick<Config, 'secret' | 'mediaUrlTtlSeconds' | 'mediaDelivery'>;
  storage: Storage;
  now?: () => number;
}): MediaLinks {
  const ttlSeconds = deps.config.mediaUrlTtlSeconds;
  // A URL is the same for every request within its time bucket (same key, session or signing
  // window, download name), so a feed asked for again reuses the URLs signed the first time.
  // The cache key holds everything the URL is made of, so a hit is exactly what signing anew
  // would give: still bound to the session, still expiring, still signed.
  const cache = new LRUCache<string, string>({ max: URL_CACHE_ENTRIES });
  // The bucket serves the browser only when asked to and there is one; otherwise we do.
  const viaApp = deps.config.mediaDelivery === 'app' || deps.storage.kind === 'local';
  return {
    async url(key, viewer, options) {
      const now = deps.now?.() ?? Date.now();
      // Originals are evidence, never rendered inline: always a download.
      const download =
        options?.download ??
        (isOriginalKey(key)
          ? { filename: key.slice(key.lastIndexOf('/') + 1), contentType: contentTypeForKey(key) }
          : undefined);
      const contentType = download?.contentType ?? contentTypeForKey(key);
      const window = viaApp ? null : presignWindow(ttlSeconds, now);
      const cacheKey = viaApp
        ? `${viewer.sessionId}\n${mediaUrlExpiry(ttlSeconds, now)}\n${download?.filename ?? ''}\n${key}`
        : `${window!.signingDate.getTime()}\n${contentType}\n${download?.filename ?? ''}\n${key}`;
      const cached = cache.get(cacheKey);
      if (cached !== undefined) return cached;

      let url: string | null = null;
      if (window) {
        url = await deps.storage.presignedGetUrl(key, {
          contentType,
          // The bucket cannot ask whether the session lives; the same short cache as /media keeps
          // a signed-out user's photos from lingering in a shared browser.
          cacheControl: mediaCacheControl(key, MEDIA_FRESH_SECONDS),
          ...(download ? { downloadName: download.filename } : {}),
          ...window,
        });
      }
      url ??= signMediaUrl(key, {
        secret: deps.config.secret,
        ttlSeconds,
        sessionId: viewer.sessionId,
        ...(download ? { download: download.filename } : {}),
        now,
      });
      cache.set(cacheKey, url);
      return url;
    },
  };
}
