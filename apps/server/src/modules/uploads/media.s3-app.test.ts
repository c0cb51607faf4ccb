// MEDIA_DELIVERY=app on S3 (a bucket on a private network, which browsers cannot reach): the API
// hands out the same signed, session-bound /media links as on local disk, and the /media route
// streams the files from the bucket (a real S3-protocol server, s3rver, on 127.0.0.1) with the
// headers local disk gives them. The default, presigned bucket links, is uploads.s3.test.ts.
import type { IncomingMessage } from 'node:http';
import type { ErrorResponse as ErrorBody, ReportDetail, Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import { waitForReport } from '../../../test/reports.js';
import { startS3Server, type TestS3Server } from '../../../test/s3.js';
import { storedKeys, uploadPhoto } from '../../../test/uploads.js';
import { MEDIA_CSP } from '../../http/security-headers.js';

let s3: TestS3Server;
/** On the bucket, MEDIA_DELIVERY=app. */
let ctx: TestContext;
/** On local disk: the headers the bucket's files must be served with. */
let disk: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let project: { id: number };
let jpeg: Buffer;
/** The same photo, uploaded to each. */
let upload: Upload;
let onDisk: Upload;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext({ ...s3.env, MEDIA_DELIVERY: 'app' });
  disk = await createTestContext();
  alice = await signedInUser(ctx);
  project = await buildProject(ctx, { creatorId: alice.id });
  jpeg = await jpegWithExif();
  upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg, name: 'Roof, north' });
  const diskUser = await signedInUser(disk);
  const diskProject = await buildProject(disk, { creatorId: diskUser.id });
  onDisk = await uploadPhoto(disk, diskUser.token, diskProject.id, {
    file: jpeg,
    name: 'Roof, north',
  });
});
afterAll(async () => {
  await ctx?.close();
  await disk?.close();
  await s3?.close();
});

/** A media GET as an `<img>` makes it: no bearer header. */
const fetchMedia = (c: TestContext, url: string, headers: Record<string, string> = {}) =>
  api(c, { method: 'GET', url, headers });

/** The storage key a /media link names. */
const keyOf = (link: string) => new URL(link, 'http://x').pathname.replace(/^\/media\//, '');

/** The methods of the requests the bucket receives while `fn` runs. */
async function bucketRequests(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const server = s3.httpServer();
  const record = (req: IncomingMessage) => seen.push(req.method ?? '?');
  server.on('request', record);
  try {
    await fn();
  } finally {
    server.off('request', record);
  }
  return seen;
}

/** The same hex string with its last digit changed. */
const flip = (hex: string) => `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;

/** Headers a media answer must carry the same on the bucket as on local disk. */
const SAME = [
  'content-type',
  'content-disposition',
  'cache-control',
  'content-security-policy',
  'x-content-type-options',
  'cross-origin-resource-policy',
  'referrer-policy',
] as const;

describe('MEDIA_DELIVERY=app on S3', () => {
  it('hands out /media links in the feeds and the upload, for files in the bucket', async () => {
    expect(ctx.storage.kind).toBe('s3');
    const home = await api(ctx, {
      method: 'GET',
      url: '/api/upload/latest/20',
      token: alice.token,
    });
    const feed = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${project.id}/latest`,
      token: alice.token,
    });
    const inHome = home.json<Upload[]>().find((u) => u.id === upload.id);
    const inFeed = feed.json<Upload[]>().find((u) => u.id === upload.id);
    const keys = await storedKeys(ctx);
    for (const seen of [upload, inHome, inFeed]) {
      for (const link of [seen!.previewLink, seen!.formatedLink, seen!.originalLink]) {
        expect(link).toMatch(
          /^\/media\/uploads\/[^?]+\?exp=\d+&sid=\d+(&dl=[^&]+)?&sig=[0-9a-f]{64}$/,
        );
        expect(link).not.toContain(s3.endpoint);
        expect(keys).toContain(keyOf(link));
      }
    }
    // The same links each time, so the browser's cache works.
    expect(inFeed!.previewLink).toBe(upload.previewLink);
    expect(inHome!.formatedLink).toBe(upload.formatedLink);
  });

  it('serves them from the bucket with the headers local disk gives', async () => {
    const pairs = [
      [upload.previewLink, onDisk.previewLink],
      [upload.formatedLink, onDisk.formatedLink],
      [upload.originalLink, onDisk.originalLink],
    ] as const;
    for (const [fromBucket, fromDisk] of pairs) {
      const res = await fetchMedia(ctx, fromBucket);
      const local = await fetchMedia(disk, fromDisk);
      expect(res.statusCode, res.body).toBe(200);
      expect(local.statusCode).toBe(200);
      for (const header of SAME)
        expect(res.headers[header], `${header} of ${fromBucket}`).toEqual(local.headers[header]);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeGreaterThan(0);
      expect(res.headers.etag === undefined).toBe(local.headers.etag === undefined);
    }
    const preview = await fetchMedia(ctx, upload.previewLink);
    expect(preview.headers['content-type']).toBe('image/webp');
    expect(preview.headers['content-security-policy']).toBe(MEDIA_CSP);
    expect(preview.headers['cache-control']).toBe('private, max-age=300, must-revalidate');
    expect(preview.headers.etag).toMatch(/^"[\w-]{16,}"$/);
    expect((await sharp(preview.rawPayload).metadata()).format).toBe('webp');
    const formatted = await fetchMedia(ctx, upload.formatedLink);
    const meta = await sharp(formatted.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([upload.formatedWidth, upload.formatedHeight]);
  });

  it('downloads the original byte for byte, named after the upload, never cached', async () => {
    const res = await fetchMedia(ctx, upload.originalLink);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Roof, north.jpg"; filename*=UTF-8''Roof%2C%20north.jpg`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(Buffer.compare(res.rawPayload, jpeg)).toBe(0);
  });

  it('answers a revalidation with 304 from a HEAD to the bucket, not a GET of the bytes', async () => {
    const first = await fetchMedia(ctx, upload.formatedLink);
    const etag = String(first.headers.etag);
    let again = first;
    const methods = await bucketRequests(async () => {
      again = await fetchMedia(ctx, upload.formatedLink, { 'if-none-match': etag });
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(methods).toEqual(['HEAD']);
    // Another tag: the image again, in full.
    const other = await fetchMedia(ctx, upload.formatedLink, { 'if-none-match': '"other"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('refuses tampered links (403) without asking the bucket', async () => {
    const tampers: ((q: URLSearchParams) => void)[] = [
      (q) => q.set('sig', flip(q.get('sig') ?? '')),
      (q) => q.set('exp', String(Number(q.get('exp')) + 3600)),
      (q) => q.set('sid', String(Number(q.get('sid')) + 1)),
      (q) => q.delete('dl'),
    ];
    const methods = await bucketRequests(async () => {
      for (const tamper of tampers) {
        const url = new URL(upload.originalLink, 'http://x');
        tamper(url.searchParams);
        const res = await fetchMedia(ctx, `${url.pathname}?${url.searchParams.toString()}`);
        expect(res.statusCode, url.search).toBe(403);
        expect(res.json<ErrorBody>()).toMatchObject({
          code: 'invalid_media_link',
          message: 'This media link is not valid.',
        });
      }
    });
    expect(methods).toEqual([]);
  });

  it('refuses the links of a signed-out session, revalidations included', async () => {
    const bob = await signedInUser(ctx);
    const seen = (
      await api(ctx, { method: 'GET', url: `/api/upload/full/${upload.id}`, token: bob.token })
    ).json<Upload>();
    const first = await fetchMedia(ctx, seen.previewLink);
    expect(first.statusCode).toBe(200);
    const etag = { 'if-none-match': String(first.headers.etag) };
    expect((await fetchMedia(ctx, seen.previewLink, etag)).statusCode).toBe(304);
    await api(ctx, { method: 'POST', url: '/api/auth/logout', token: bob.token });
    for (const [link, headers] of [
      [seen.previewLink, {}],
      [seen.previewLink, etag],
      [seen.originalLink, {}],
    ] as const) {
      const res = await fetchMedia(ctx, link, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json<ErrorBody>().message).toMatch(/session that has ended/);
    }
    // Alice's session goes on.
    expect((await fetchMedia(ctx, upload.previewLink)).statusCode).toBe(200);
  });

  it("downloads a report's PDF through a /media link from the bucket", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/report',
      token: alice.token,
      payload: {
        projectId: project.id,
        type: 'daily',
        title: 'Private bucket',
        from: today,
        to: today,
        layout: 1,
        photos: [{ uploadId: upload.id }],
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json<ReportDetail>().id;
    const report = await waitForReport(ctx, alice.token, id);
    expect(report.status, report.error ?? '').toBe('ready');
    const link = report.pdf!.link;
    expect(link).toMatch(/^\/media\/reports\//);
    const pdf = await fetchMedia(ctx, link);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(
      `filename="Private bucket (report ${id}).pdf"`,
    );
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBe(report.pdf!.bytes);
  });

  it('keeps the bucket out of the page CSP', async () => {
    const res = await api(ctx, { method: 'GET', url: '/no/such/page' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self'");
    expect(csp).not.toContain(s3.endpoint);
    expect(csp).not.toContain('127.0.0.1');
  });

  it('answers 503 storage_unavailable while the bucket is down, and serves again after', async () => {
    const first = await fetchMedia(ctx, upload.previewLink);
    const etag = { 'if-none-match': String(first.headers.etag) };
    await s3.stop();
    try {
      for (const headers of [{}, etag]) {
        const res = await fetchMedia(ctx, upload.previewLink, headers);
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json<ErrorBody>()).toMatchObject({
          code: 'storage_unavailable',
          message: 'Photo storage cannot be reached right now. Try again in a minute.',
        });
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      }
    } finally {
      await s3.start();
    }
    const back = await fetchMedia(ctx, upload.previewLink);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(first.rawPayload)).toBe(true);
  });
});
