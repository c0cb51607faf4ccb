// Opening stored media for a signed `/media/<key>` URL. The HTTP route turns refusals into
// responses; whether a session is live is the auth module's to say, so it is passed in.
import { attachmentDisposition, isOriginalKey } from './media-types.js';
import { verifyMediaUrl } from './signed-urls.js';
import type { Storage, StoredObjectStream } from './storage/index.js';

export interface MediaResponse extends StoredObjectStream {
  /** Seconds the signed URL stays valid: the browser may cache the bytes that long. */
  maxAgeSeconds: number;
  /** `Content-Disposition` for downloads (originals), null for inline images. */
  disposition: string | null;
}

/**
 * Why a signed media URL was not served: malformed or wrongly signed, expired, issued to a
 * session that has ended, or pointing at no stored object.
 */
export type MediaRefusalReason = 'invalid' | 'expired' | 'session_ended' | 'not_found';

export type OpenedMedia =
  { ok: true; media: MediaResponse } | { ok: false; reason: MediaRefusalReason };

export interface SignedMediaDeps {
  secret: string;
  storage: Pick<Storage, 'stream'>;
  /** True while the session a URL was issued to may still use it. */
  isSessionLive: (sessionId: number) => Promise<boolean>;
}

/**
 * Checks the signature and expiry of `key` + `query`, then that the session the URL was issued
 * to is still live (logout and deactivation revoke media URLs at once), and opens the stored
 * object. Originals are always downloads, never rendered inline.
 */
export async function openSignedMedia(
  deps: SignedMediaDeps,
  key: string,
  query: Record<string, unknown>,
): Promise<OpenedMedia> {
  const now = Date.now();
  const check = verifyMediaUrl(key, query, { secret: deps.secret, now });
  if (!check.ok) return { ok: false, reason: check.reason === 'expired' ? 'expired' : 'invalid' };
  if (!(await deps.isSessionLive(check.sessionId))) return { ok: false, reason: 'session_ended' };
  const object = await deps.storage.stream(key);
  if (!object) return { ok: false, reason: 'not_found' };
  const filename = check.download ?? (isOriginalKey(key) ? (key.split('/').pop() ?? key) : null);
  return {
    ok: true,
    media: {
      ...object,
      maxAgeSeconds: Math.max(0, check.expiresAt - Math.floor(now / 1000)),
      disposition: filename === null ? null : attachmentDisposition(filename),
    },
  };
}
