import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { createMediaLinks } from './links.js';
import {
  mediaUrlBucketSeconds,
  mediaUrlExpiry,
  signMediaUrl,
  verifyMediaUrl,
} from './signed-urls.js';
import { createLocalStorage } from './storage/index.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const KEY = 'uploads/ab/ab12cd34-0000-4000-8000-000000000000/preview.webp';
const TTL = 6 * 3600;
const NOW = Date.UTC(2030, 5, 1, 12, 0, 0);

/** Splits a signed URL into the key and query the media route would see. */
function parse(url: string): { key: string; query: Record<string, string> } {
  const parsed = new URL(url, 'http://localhost');
  expect(parsed.pathname.startsWith('/media/')).toBe(true);
  return {
    key: decodeURIComponent(parsed.pathname.slice('/media/'.length)),
    query: Object.fromEntries(parsed.searchParams),
  };
}

const sign = (overrides: Partial<Parameters<typeof signMediaUrl>[1]> = {}) =>
  signMediaUrl(KEY, { secret: SECRET, ttlSeconds: TTL, sessionId: 42, now: NOW, ...overrides });

describe('signed media URLs', () => {
  it('verifies an untouched URL and returns the session it was issued to', () => {
    const url = sign();
    expect(url).toMatch(
      /^\/media\/uploads\/ab\/[^?]+\/preview\.webp\?exp=\d+&sid=42&sig=[0-9a-f]{64}$/,
    );
    const { key, query } = parse(url);
    expect(verifyMediaUrl(key, query, { secret: SECRET, now: NOW })).toEqual({
      ok: true,
      sessionId: 42,
      expiresAt: Number(query.exp),
      download: null,
    });
  });

  it('rejects a URL whose key, expiry, session, download name or signature was changed', () => {
    const { key, query } = parse(sign());
    const check = (k: string, q: Record<string, string>) =>
      verifyMediaUrl(k, q, { secret: SECRET, now: NOW });
    const otherKey = KEY.replace('preview.webp', 'original.heic');
    expect(check(otherKey, query)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check(key, { ...query, exp: String(Number(query.exp) + 3600) })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(check(key, { ...query, sid: '43' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check(key, { ...query, dl: 'x.jpg' })).toEqual({ ok: false, reason: 'bad_signature' });
    const flipped = (query.sig?.[0] === 'a' ? 'b' : 'a') + (query.sig ?? '').slice(1);
    expect(check(key, { ...query, sig: flipped })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyMediaUrl(key, query, { secret: `${SECRET}-rotated`, now: NOW })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('calls malformed queries malformed', () => {
    const { key, query } = parse(sign());
    const check = (q: Record<string, unknown>, k = key) =>
      verifyMediaUrl(k, q, { secret: SECRET, now: NOW });
    expect(check({ ...query, sig: undefined })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ ...query, sig: 'zz' })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ ...query, sig: query.sig?.toUpperCase() })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(check({ ...query, exp: '-1' })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ ...query, sid: ['42', '43'] })).toEqual({ ok: false, reason: 'malformed' });
    expect(check(query, '../etc/passwd')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts the expiry and session only in their one spelling', () => {
    // The HMAC is over the numbers' canonical text, so `sid=042` used to verify as `sid=42`.
    const { key, query } = parse(sign());
    const check = (q: Record<string, unknown>) =>
      verifyMediaUrl(key, q, { secret: SECRET, now: NOW });
    const spellings = (n: string) => [`0${n}`, `00${n}`, `+${n}`, ` ${n}`, `${n}.0`, `0x${n}`];
    for (const sid of spellings(query.sid ?? '')) {
      expect(check({ ...query, sid }), `sid=${sid}`).toEqual({ ok: false, reason: 'malformed' });
    }
    for (const exp of spellings(query.exp ?? '')) {
      expect(check({ ...query, exp }), `exp=${exp}`).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(check(query).ok).toBe(true);
  });

  it('expires, and is valid for at least the TTL', () => {
    const { key, query } = parse(sign());
    const exp = Number(query.exp);
    expect(exp * 1000).toBeGreaterThanOrEqual(NOW + TTL * 1000);
    expect(verifyMediaUrl(key, query, { secret: SECRET, now: NOW + TTL * 1000 - 1 }).ok).toBe(true);
    expect(verifyMediaUrl(key, query, { secret: SECRET, now: exp * 1000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('hands out the same URL within a time bucket so browsers can cache the image', () => {
    const bucketMs = mediaUrlBucketSeconds(TTL) * 1000;
    expect(bucketMs).toBe(3600_000);
    const bucketStart = Math.floor(NOW / bucketMs) * bucketMs;
    expect(sign({ now: bucketStart + 1_000 })).toBe(sign({ now: bucketStart + bucketMs - 1_000 }));
    expect(sign({ now: bucketStart + bucketMs + 1_000 })).not.toBe(
      sign({ now: bucketStart + 1_000 }),
    );
    expect(sign({ sessionId: 7 })).not.toBe(sign({ sessionId: 8 }));
    for (const ttl of [30, 600, 86_400]) {
      for (const offset of [0, 1, 59_999, 3_599_999]) {
        expect(mediaUrlExpiry(ttl, NOW + offset) * 1000).toBeGreaterThanOrEqual(
          NOW + offset + ttl * 1000,
        );
      }
    }
  });

  it('carries a signed download name for originals', () => {
    const url = signMediaUrl(KEY.replace('preview.webp', 'original.heic'), {
      secret: SECRET,
      ttlSeconds: TTL,
      sessionId: 5,
      download: 'Façade & roof.heic',
      now: NOW,
    });
    const { key, query } = parse(url);
    expect(query.dl).toBe('Façade & roof.heic');
    const check = verifyMediaUrl(key, query, { secret: SECRET, now: NOW });
    expect(check).toMatchObject({ ok: true, download: 'Façade & roof.heic', sessionId: 5 });
  });

  it('refuses to sign something that is not a media key', () => {
    expect(() => signMediaUrl('../x', { secret: SECRET, ttlSeconds: TTL, sessionId: 1 })).toThrow();
  });
});

describe('MediaLinks on local storage', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hands out signed /media URLs bound to the viewer session', async () => {
    const links = createMediaLinks({
      config: { secret: SECRET, mediaUrlTtlSeconds: TTL, mediaDelivery: 'app' },
      storage: createLocalStorage(dir),
      now: () => NOW,
    });
    const url = await links.url(KEY, { sessionId: 9 });
    const { key, query } = parse(url);
    expect(verifyMediaUrl(key, query, { secret: SECRET, now: NOW })).toMatchObject({
      ok: true,
      sessionId: 9,
    });
    const download = await links.url(
      KEY,
      { sessionId: 9 },
      { download: { filename: 'a.jpg', contentType: 'image/jpeg' } },
    );
    expect(verifyMediaUrl(KEY, parse(download).query, { secret: SECRET, now: NOW })).toMatchObject({
      ok: true,
      download: 'a.jpg',
    });
    const originalKey = KEY.replace('preview.webp', 'original.heic');
    const original = parse(await links.url(originalKey, { sessionId: 9 }));
    expect(verifyMediaUrl(originalKey, original.query, { secret: SECRET, now: NOW })).toMatchObject(
      {
        ok: true,
        download: 'original.heic',
      },
    );
  });

  it('reuses a URL only where signing anew would give the same one', async () => {
    let now = NOW;
    const links = createMediaLinks({
      config: { secret: SECRET, mediaUrlTtlSeconds: TTL, mediaDelivery: 'app' },
      storage: createLocalStorage(dir),
      now: () => now,
    });
    const first = await links.url(KEY, { sessionId: 9 });
    // A cache hit is exactly the fresh signature: same session, same bucket.
    expect(await links.url(KEY, { sessionId: 9 })).toBe(first);
    expect(first).toBe(sign({ sessionId: 9 }));
    // Another session, another download name or another key never gets that URL.
    const other = await links.url(KEY, { sessionId: 10 });
    expect(other).not.toBe(first);
    expect(parse(other).query.sid).toBe('10');
    const named = (filename: string) =>
      links.url(KEY, { sessionId: 9 }, { download: { filename, contentType: 'image/webp' } });
    expect(parse(await named('a.webp')).query.dl).toBe('a.webp');
    expect(parse(await named('b.webp')).query.dl).toBe('b.webp');
    // Once the bucket moves on, the URL is signed for the new expiry (and still verifies).
    now += mediaUrlBucketSeconds(TTL) * 1000;
    const later = await links.url(KEY, { sessionId: 9 });
    expect(parse(later).query.exp).toBe(String(mediaUrlExpiry(TTL, now)));
    expect(Number(parse(later).query.exp)).toBeGreaterThan(Number(parse(first).query.exp));
    expect(verifyMediaUrl(KEY, parse(later).query, { secret: SECRET, now })).toMatchObject({
      ok: true,
    });
  });
});
