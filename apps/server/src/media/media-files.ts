// Opening stored media for a signed `/media/<key>` URL. The HTTP route turns refusals into
// responses; whether a session is live is the auth module's to say, so it is passed in.
import { createHash } from 'node:crypto';
import { attachmentDisposition, isOriginalKey } from './media-types.js';
import { verifyMediaUrl } from './signed-urls.js';
import type { Storage, StoredObjectStream } from './storage/index.js';

/**
 * Seconds a browser may show a preview or display image from its cache without asking. Short, so
 * that on a shared device a signed-out user's photos are not reused from the cache for long: after
 * it the browser revalidates (a 304 without the bytes while the session lives, 403 once it ends).
 */
export const MEDIA_FRESH_SECONDS = 300;

/**
 * Privacy over a few cache hits (README, Security): previews and display images are cached for
 * `MEDIA_FRESH_SECONDS` and then revalidated; originals are full-size evidence, fetched on purpose
 * as downloads, and never stored by the browser.
 */
export function mediaCacheControl(key: string, maxAgeSeconds: number): string {
  return isOriginalKey(key)
    ? 'private, no-store'
    : `private, max-age=${maxAgeSeconds}, must-revalidate`;
}

/**
 * Validator of a stored object: its key (server-made, never reused for other content) and size.
 * The same for every signed URL of the object, so revalidations after a new URL still match.
 */
export function mediaEtag(key: string, size: number): string {
  const digest = createHash('sha256').update(`${key}\n${size}`).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

/** True when an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export interface MediaResponse extends StoredObjectStream {
  /**
   * Seconds the browser may reuse the bytes without revalidating: `MEDIA_FRESH_SECONDS`, or less
   * when the signed URL expires sooner.
   */
  maxAgeSeconds: number;
  /** The response's `Cache-Control` (see `mediaCacheControl`). */
  cacheControl: string;
  /** The response's `ETag`, null for originals (never cached, so never revalidated). */
  etag: string | null;
  /** `Content-Disposition` for downloads (originals), null for inline images. */
  disposition: string | null;
}

/**
 * Why a signed media URL was not served: malformed or wrongly signed, expired, issued to a
 * session that has ended, or pointing at no stored object.
 */
export type MediaRefusalReason = 'invalid' | 'expired' | 'session_ended' | 'not_found';

/** A revalidation of an unchanged image: answer 304 with these headers, no body. */
export interface MediaNotModified {
  cacheControl: string;
  etag: string;
}

export type OpenedMedia =
  | { ok: true; media: MediaResponse }
  | { ok: true; notModified: MediaNotModified }
  | { ok: false; reason: MediaRefusalReason };

export interface SignedMediaDeps {
  secret: string;
  storage: Pick<Storage, 'stream' | 'stat'>;
  /** True while the session a URL was issued to may still use it. */
  isSessionLive: (sessionId: number) => Promise<boolean>;
}

/**
 * Checks the signature and expiry of `key` + `query`, then that the session the URL was issued
 * to is still live (logout and deactivation revoke media URLs at once), and opens the stored
 * object. Originals are always downloads, never rendered inline. A revalidation (`ifNoneMatch`)
 * of an unchanged image is answered from the object's size alone, without reading it: on S3 a
 * HEAD instead of a GET whose body would be thrown away.
 */
export async function openSignedMedia(
  deps: SignedMediaDeps,
  key: string,
  query: Record<string, unknown>,
  options: { ifNoneMatch?: string | undefined } = {},
): Promise<OpenedMedia> {
  const now = Date.now();
  const check = verifyMediaUrl(key, query, { secret: deps.secret, now });
  if (!check.ok) return { ok: false, reason: check.reason === 'expired' ? 'expired' : 'invalid' };
  if (!(await deps.isSessionLive(check.sessionId))) return { ok: false, reason: 'session_ended' };
  const maxAgeSeconds = Math.max(
    0,
    Math.min(MEDIA_FRESH_SECONDS, check.expiresAt - Math.floor(now / 1000)),
  );
  const cacheControl = mediaCacheControl(key, maxAgeSeconds);
  // Originals carry no ETag (never cached), so they are never revalidated.
  if (options.ifNoneMatch && !isOriginalKey(key)) {
    const info = await deps.storage.stat(key);
    if (!info) return { ok: false, reason: 'not_found' };
    const etag = mediaEtag(key, info.size);
    if (matchesEtag(options.ifNoneMatch, etag))
      return { ok: true, notModified: { cacheControl, etag } };
  }
  const object = await deps.storage.stream(key);
  if (!object) return { ok: false, reason: 'not_found' };
  const filename = check.download ?? (isOriginalKey(key) ? (key.split('/').pop() ?? key) : null);
  return {
    ok: true,
    media: {
      ...object,
      maxAgeSeconds,
      cacheControl,
      etag: isOriginalKey(key) ? null : mediaEtag(key, object.size),
      disposition: filename === null ? null : attachmentDisposition(filename),
    },
  };
}
