import type { ErrorResponse as ErrorBody, Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { MEDIA_CSP } from '../../http/security-headers.js';
import { mediaUrlBucketSeconds, signMediaUrl } from '../../media/signed-urls.js';
import { jpegWithExif, quadrantImage } from '../../../test/images.js';
import { mediaQuery, uploadPhoto } from '../../../test/uploads.js';
import { buildProject } from '../../../test/factories.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let project: { id: number };
let jpeg: Buffer;
let upload: Upload;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx);
  project = await buildProject(ctx, { creatorId: alice.id });
  jpeg = await jpegWithExif();
  upload = await uploadPhoto(ctx, alice.token, project.id, {
    file: jpeg,
    name: 'Roof, north side',
  });
});
afterAll(async () => ctx?.close());

/** A media GET as an `<img>` makes it: no bearer header. */
const fetchMedia = (url: string) => api(ctx, { method: 'GET', url });

const fullUpload = async (id: number, token: string) =>
  (await api(ctx, { method: 'GET', url: `/api/upload/full/${id}`, token })).json<Upload>();

/** Seconds a shown image may be reused without asking (privacy on shared devices, README). */
const FRESH_SECONDS = 300;

const maxAge = (cacheControl: unknown) =>
  Number(/^private, max-age=(\d+), must-revalidate$/.exec(String(cacheControl))?.[1] ?? NaN);

describe('GET /media/*', () => {
  it('serves the preview to an <img> without a bearer header, with strict headers', async () => {
    const res = await fetchMedia(upload.previewLink);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(MEDIA_CSP);
    expect(res.headers['content-disposition']).toBeUndefined();
    // Short-lived in the browser's cache, then revalidated (a cheap 304 while the session lives).
    expect(maxAge(res.headers['cache-control'])).toBe(FRESH_SECONDS);
    expect(res.headers.etag).toMatch(/^"[\w-]{16,}"$/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
  });

  it('serves the formatted image at the size the upload reports, without metadata', async () => {
    const res = await fetchMedia(upload.formatedLink);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([upload.formatedWidth, upload.formatedHeight]);
    expect(meta.exif).toBeUndefined();
  });

  it('serves the original byte for byte, only as a download named after the upload', async () => {
    const res = await fetchMedia(upload.originalLink);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Roof, north side.jpg"; filename*=UTF-8''Roof%2C%20north%20side.jpg`,
    );
    expect(res.headers['content-security-policy']).toBe(MEDIA_CSP);
    expect(Buffer.compare(res.rawPayload, jpeg)).toBe(0);
    // Full-size evidence is downloaded on purpose, never kept in a shared browser's cache.
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('answers a revalidation of an unchanged image with 304 and no body', async () => {
    for (const link of [upload.previewLink, upload.formatedLink]) {
      const first = await fetchMedia(link);
      const etag = String(first.headers.etag);
      const again = await api(ctx, {
        method: 'GET',
        url: link,
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode, link).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(maxAge(again.headers['cache-control'])).toBe(FRESH_SECONDS);
      const other = await api(ctx, {
        method: 'GET',
        url: link,
        headers: { 'if-none-match': '"something-else-entirely"' },
      });
      expect(other.statusCode).toBe(200);
      expect(other.rawPayload.length).toBeGreaterThan(0);
    }
    const preview = await fetchMedia(upload.previewLink);
    const formatted = await fetchMedia(upload.formatedLink);
    expect(preview.headers.etag).not.toBe(formatted.headers.etag);
  });

  it('refuses the revalidation of a signed-out session (403), so its cached photo ends', async () => {
    const dave = await signedInUser(ctx);
    const seen = await fullUpload(upload.id, dave.token);
    const first = await fetchMedia(seen.formatedLink);
    expect(first.statusCode).toBe(200);
    const headers = { 'if-none-match': String(first.headers.etag) };
    expect((await api(ctx, { method: 'GET', url: seen.formatedLink, headers })).statusCode).toBe(
      304,
    );
    await api(ctx, { method: 'POST', url: '/api/auth/logout', token: dave.token });
    const after = await api(ctx, { method: 'GET', url: seen.formatedLink, headers });
    expect(after.statusCode).toBe(403);
    expect(after.json<ErrorBody>().code).toBe('invalid_media_link');
  });

  it('serves a PNG original with its own type', async () => {
    const png = await quadrantImage(40, 30).png().toBuffer();
    const pngUpload = await uploadPhoto(ctx, alice.token, project.id, {
      file: png,
      filename: 'ignored.png',
      name: 'plan',
    });
    const res = await fetchMedia(pngUpload.originalLink);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="plan\.png"/);
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
  });

  it('hands out the same links on repeated calls, so the browser cache works', async () => {
    const first = await fullUpload(upload.id, alice.token);
    const second = await fullUpload(upload.id, alice.token);
    expect(second.previewLink).toBe(first.previewLink);
    expect(second.formatedLink).toBe(first.formatedLink);
    expect(second.originalLink).toBe(first.originalLink);
  });

  it.each([
    ['a changed signature', (q: URLSearchParams) => q.set('sig', flip(q.get('sig') ?? ''))],
    ['a later expiry', (q: URLSearchParams) => q.set('exp', String(Number(q.get('exp')) + 3600))],
    ['another session', (q: URLSearchParams) => q.set('sid', String(Number(q.get('sid')) + 1))],
    ['no signature', (q: URLSearchParams) => q.delete('sig')],
    ['a download name added', (q: URLSearchParams) => q.set('dl', 'x.html')],
    ['a repeated parameter', (q: URLSearchParams) => q.append('exp', q.get('exp') ?? '')],
  ])('refuses a tampered link: %s (403)', async (_label, tamper) => {
    const url = new URL(upload.previewLink, 'http://x');
    tamper(url.searchParams);
    const res = await fetchMedia(`${url.pathname}?${url.searchParams.toString()}`);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>()).toMatchObject({
      code: 'invalid_media_link',
      message: 'This media link is not valid.',
    });
  });

  it("refuses one file's signature on another file (403)", async () => {
    const preview = new URL(upload.previewLink, 'http://x');
    const formatted = new URL(upload.formatedLink, 'http://x');
    const res = await fetchMedia(`${formatted.pathname}${preview.search}`);
    expect(res.statusCode).toBe(403);
  });

  it('refuses an original link stripped of its download name (403)', async () => {
    const url = new URL(upload.originalLink, 'http://x');
    url.searchParams.delete('dl');
    const res = await fetchMedia(`${url.pathname}?${url.searchParams.toString()}`);
    expect(res.statusCode).toBe(403);
  });

  it('refuses an expired link (403) with a message that says so', async () => {
    const key = new URL(upload.previewLink, 'http://x').pathname.replace(/^\/media\//, '');
    const ttl = ctx.config.mediaUrlTtlSeconds;
    const old = signMediaUrl(key, {
      secret: ctx.config.secret,
      ttlSeconds: ttl,
      sessionId: Number(mediaQuery(upload.previewLink).sid),
      now: Date.now() - (ttl + mediaUrlBucketSeconds(ttl) + 60) * 1000,
    });
    const res = await fetchMedia(old);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().message).toMatch(/expired/);
  });

  it('refuses links of a signed-out session at once, not those of other sessions', async () => {
    const bob = await signedInUser(ctx);
    const seenByBob = await fullUpload(upload.id, bob.token);
    expect((await fetchMedia(seenByBob.previewLink)).statusCode).toBe(200);
    const out = await api(ctx, { method: 'POST', url: '/api/auth/logout', token: bob.token });
    expect(out.statusCode).toBe(200);
    const after = await fetchMedia(seenByBob.previewLink);
    expect(after.statusCode).toBe(403);
    expect(after.json<ErrorBody>().message).toMatch(/session that has ended/);
    expect((await fetchMedia(seenByBob.originalLink)).statusCode).toBe(403);
    expect((await fetchMedia(upload.previewLink)).statusCode).toBe(200);
  });

  it('refuses links of a member who was deactivated', async () => {
    const admin = await signedInUser(ctx, { isAdmin: true });
    const carol = await signedInUser(ctx);
    const seenByCarol = await fullUpload(upload.id, carol.token);
    expect((await fetchMedia(seenByCarol.formatedLink)).statusCode).toBe(200);
    const off = await api(ctx, {
      method: 'DELETE',
      url: `/api/user/${carol.id}`,
      token: admin.token,
    });
    expect(off.statusCode).toBe(200);
    expect((await fetchMedia(seenByCarol.formatedLink)).statusCode).toBe(403);
  });

  it('answers 404 for a well-signed link to a file that is not there', async () => {
    const url = signMediaUrl('uploads/00/00000000-0000-0000-0000-000000000000/preview.webp', {
      secret: ctx.config.secret,
      ttlSeconds: ctx.config.mediaUrlTtlSeconds,
      sessionId: Number(mediaQuery(upload.previewLink).sid),
    });
    const res = await fetchMedia(url);
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorBody>().message).toBe('The file was not found.');
  });

  it.each([
    '/media/',
    '/media/uploads/..%2F..%2Fsecret?exp=1&sid=1&sig=00',
    '/media/%2E%2E/secret',
    '/media/secret',
  ])('refuses %s without serving anything', async (url) => {
    const res = await fetchMedia(url);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).not.toContain(ctx.config.secret);
  });
});

/** The same hex string with its last digit changed. */
function flip(hex: string): string {
  const last = hex.at(-1) === '0' ? '1' : '0';
  return `${hex.slice(0, -1)}${last}`;
}
