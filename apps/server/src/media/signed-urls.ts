import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { isValidKey } from './media-types.js';

/** Path under which the server serves local media: `/media/<key>?exp=…&sid=…&sig=…`. */
export const MEDIA_PATH_PREFIX = '/media/';

const SIGNATURE_CONTEXT = 'sitelog-media-url-v1';

/**
 * Signed URLs are reissued unchanged for this long, so the browser's cache keeps working:
 * a quarter of the TTL, between one minute and one hour.
 */
export function mediaUrlBucketSeconds(ttlSeconds: number): number {
  return Math.min(3600, Math.max(60, Math.floor(ttlSeconds / 4)));
}

/**
 * Unix time a URL handed out at `nowMs` expires: at least `ttlSeconds` ahead, rounded up to the
 * bucket, so every URL for the same key and session within one bucket is identical.
 */
export function mediaUrlExpiry(ttlSeconds: number, nowMs: number): number {
  const bucket = mediaUrlBucketSeconds(ttlSeconds);
  return Math.ceil((Math.ceil(nowMs / 1000) + ttlSeconds) / bucket) * bucket;
}

/**
 * The same idea for S3 presigned URLs: sign as of the bucket's start and stay valid for
 * TTL + bucket, so the URL is stable within the bucket and always valid for at least the TTL.
 */
export function presignWindow(
  ttlSeconds: number,
  nowMs: number,
): { signingDate: Date; expiresInSeconds: number } {
  const bucket = mediaUrlBucketSeconds(ttlSeconds);
  const start = Math.floor(nowMs / 1000 / bucket) * bucket;
  return { signingDate: new Date(start * 1000), expiresInSeconds: ttlSeconds + bucket };
}

/**
 * A short, one-way fingerprint of the signing secret (the first 16 hex digits of
 * HMAC-SHA256(secret, 'sitelog secret fingerprint')): instances of one database compare theirs
 * to find one with another secret, whose links the others refuse. It tells nothing about the
 * secret itself.
 */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret)
    .update('sitelog secret fingerprint')
    .digest('hex')
    .slice(0, 16);
}

// The HMAC key object of each secret, made once: importing the key per URL was a tenth of a
// feed's CPU time. A server has one secret; the bound keeps tests with many from growing it.
const hmacKeys = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= 16) hmacKeys.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    hmacKeys.set(secret, key);
  }
  return key;
}

function sign(
  secret: string,
  key: string,
  exp: number,
  sessionId: number,
  download: string | null,
): Buffer {
  return createHmac('sha256', hmacKey(secret))
    .update([SIGNATURE_CONTEXT, key, String(exp), String(sessionId), download ?? ''].join('\n'))
    .digest();
}

export interface SignMediaUrlOptions {
  /** config.secret */
  secret: string;
  /** config.mediaUrlTtlSeconds */
  ttlSeconds: number;
  /** The viewer's session: the URL stops working when it ends (logout, deactivation, expiry). */
  sessionId: number;
  /** Serve as a download under this file name (originals). */
  download?: string;
  now?: number;
}

/**
 * `/media/<key>?exp=<unix>&sid=<session>[&dl=<name>]&sig=<hex HMAC-SHA256>`, signed with the
 * server secret over key, expiry, session and download name.
 */
export function signMediaUrl(key: string, options: SignMediaUrlOptions): string {
  if (!isValidKey(key)) throw new Error(`Not a media key: ${key}`);
  if (!Number.isSafeInteger(options.sessionId) || options.sessionId < 1)
    throw new Error('Invalid session id');
  const exp = mediaUrlExpiry(options.ttlSeconds, options.now ?? Date.now());
  const download = options.download ?? null;
  const sig = sign(options.secret, key, exp, options.sessionId, download).toString('hex');
  const dl = download === null ? '' : `&dl=${encodeURIComponent(download)}`;
  return `${MEDIA_PATH_PREFIX}${key}?exp=${exp}&sid=${options.sessionId}${dl}&sig=${sig}`;
}

export type MediaUrlCheck =
  | { ok: true; sessionId: number; expiresAt: number; download: string | null }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

const single = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Checks a `/media/<key>` request's query (as Fastify parses it): signature first (timing-safe),
 * then expiry. On success returns the session the URL was issued to; the caller must still check
 * that session is live (`isSessionLive`) before serving.
 */
export function verifyMediaUrl(
  key: string,
  query: Record<string, unknown>,
  options: { secret: string; now?: number },
): MediaUrlCheck {
  const exp = single(query.exp);
  const sid = single(query.sid);
  const sig = single(query.sig);
  const dl = query.dl === undefined ? null : single(query.dl);
  // Numbers in their one spelling only: the HMAC covers their canonical text, so `sid=042`
  // would otherwise verify as `sid=42` (one link, many URLs).
  if (
    !isValidKey(key) ||
    !exp ||
    !/^[1-9]\d{0,11}$/.test(exp) ||
    !sid ||
    !/^[1-9]\d{0,14}$/.test(sid) ||
    !sig ||
    !/^[0-9a-f]{64}$/.test(sig) ||
    (query.dl !== undefined && dl === null)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  const expected = sign(options.secret, key, Number(exp), Number(sid), dl);
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex')))
    return { ok: false, reason: 'bad_signature' };
  if (Math.floor((options.now ?? Date.now()) / 1000) >= Number(exp))
    return { ok: false, reason: 'expired' };
  return { ok: true, sessionId: Number(sid), expiresAt: Number(exp), download: dl };
}
