// The main upload flows once more with STORAGE=s3, against a real S3-protocol server (s3rver)
// started here on 127.0.0.1.
import type { ErrorResponse as ErrorBody, Project, Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  buildAppWithDatabase,
  createTestContext,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { createMediaLinks } from '../../media/links.js';
import { createStorage } from '../../media/storage/index.js';
import { buildProject } from '../../../test/factories.js';
import { startS3Server, type TestS3Server } from '../../../test/s3.js';
import { jpegWithExif } from '../../../test/images.js';
import {
  dtoPart,
  filePart,
  postUpload,
  storedKeys,
  tempFiles,
  uploadPhoto,
  uploadRowCount,
} from '../../../test/uploads.js';

let s3: TestS3Server;
let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;
let project: { id: number };
let jpeg: Buffer;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext(s3.env);
  alice = await signedInUser(ctx);
  bob = await signedInUser(ctx);
  project = await buildProject(ctx, { creatorId: alice.id });
  jpeg = await jpegWithExif();
});
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
});

describe('uploads with S3 storage', () => {
  it('stores the three files in the bucket and answers presigned links', async () => {
    expect(ctx.storage.kind).toBe('s3');
    const before = await storedKeys(ctx);
    const upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg, name: 'Deck' });
    const added = (await storedKeys(ctx)).filter((k) => !before.includes(k));
    expect(added).toHaveLength(3);
    for (const link of [upload.previewLink, upload.formatedLink, upload.originalLink]) {
      expect(link.startsWith(`${s3.endpoint}/${s3.bucket}/uploads/`)).toBe(true);
      expect(link).toContain('X-Amz-Signature=');
    }
    expect(tempFiles(ctx)).toEqual([]);
  });

  it('presigned links serve the files with their types; originals as downloads', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg, name: 'Joint' });
    const preview = await fetch(upload.previewLink);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).format).toBe('webp');

    const formatted = await fetch(upload.formatedLink);
    expect(formatted.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await formatted.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([upload.formatedWidth, upload.formatedHeight]);

    const original = await fetch(upload.originalLink);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(original.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Joint\.jpg"/,
    );
    expect(Buffer.compare(Buffer.from(await original.arrayBuffer()), jpeg)).toBe(0);
  });

  // s3rver does not check signatures, so refusing tampered presigned URLs is S3's part and is
  // not tested here; the server's own signed /media URLs are tested in media.test.ts.
  it('keeps presigned links stable across calls, so the browser cache works', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg });
    const again = (
      await api(ctx, { method: 'GET', url: `/api/upload/full/${upload.id}`, token: alice.token })
    ).json<Upload>();
    expect(again.previewLink).toBe(upload.previewLink);
    expect(again.originalLink).toBe(upload.originalLink);
  });

  it('a second instance hands out the same presigned link, which serves the photo', async () => {
    // What another instance of a cluster builds for itself (MEDIA_DELIVERY=bucket, the default):
    // its own bucket client and link maker, on the same settings and database.
    expect(ctx.config.mediaDelivery).toBe('bucket');
    const storage = createStorage(ctx.config);
    const other = await buildAppWithDatabase(ctx, ctx.db, {
      storage,
      links: createMediaLinks({ config: ctx.config, storage }),
    });
    try {
      const upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg });
      const previewOn = async (app: typeof other, token: string) =>
        (
          await api({ app }, { method: 'GET', url: `/api/upload/full/${upload.id}`, token })
        ).json<Upload>().previewLink;
      // Signed for a time window, so any instance gives the same URL and a browser's cached copy
      // stays valid; a window boundary between the first and the last ask: ask again.
      let links: string[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        links = [
          await previewOn(ctx.app, alice.token),
          await previewOn(other, alice.token),
          await previewOn(other, bob.token),
          await previewOn(ctx.app, alice.token),
        ];
        if (links[0] === links[3]) break;
      }
      // Not bound to the session either (the bucket cannot ask us): bob gets the same URL.
      expect(new Set(links).size).toBe(1);
      expect(new URL(links[0]!).origin).toBe(s3.endpoint);
      const image = await fetch(links[0]!);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(image.headers.get('cache-control')).toBe('private, max-age=300, must-revalidate');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      await other.close();
      await storage.close();
    }
  });

  it('lets images from the bucket into the page CSP', async () => {
    const res = await api(ctx, { method: 'GET', url: '/no/such/page' });
    expect(String(res.headers['content-security-policy'])).toMatch(
      new RegExp(`img-src [^;]*${s3.endpoint.replaceAll('.', '\\.')}`),
    );
  });

  it('updates the project and lists uploads with their previews', async () => {
    const own = await buildProject(ctx, { creatorId: bob.id });
    const upload = await uploadPhoto(ctx, bob.token, own.id, { file: jpeg });
    const seen = (
      await api(ctx, { method: 'GET', url: `/api/project/id/${own.id}`, token: bob.token })
    ).json<Project>();
    expect(seen.uploadsCount).toBe(1);
    expect(seen.lastUploads).toEqual([{ id: upload.id, previewLink: upload.previewLink }]);
    const feed = (
      await api(ctx, {
        method: 'GET',
        url: `/api/upload/project/${own.id}/latest`,
        token: bob.token,
      })
    ).json<Upload[]>();
    expect(feed.map((u) => u.id)).toEqual([upload.id]);
  });

  it('deletes the row and the objects', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { file: jpeg });
    const before = await storedKeys(ctx);
    const forbidden = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${upload.id}`,
      token: bob.token,
    });
    expect(forbidden.statusCode).toBe(403);
    const res = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${upload.id}`,
      token: alice.token,
    });
    expect(res.statusCode).toBe(200);
    const after = await storedKeys(ctx);
    expect(before.length - after.length).toBe(3);
    expect((await fetch(upload.previewLink)).status).toBe(404);
  });

  it('leaves nothing in the bucket when an upload is refused', async () => {
    const keys = await storedKeys(ctx);
    const rows = await uploadRowCount(ctx);
    const html = await postUpload(ctx, alice.token, [
      filePart('<html><script>alert(1)</script></html>', 'x.jpg'),
      dtoPart({ projectId: project.id }),
    ]);
    expect(html.statusCode).toBe(415);
    const unknown = await postUpload(ctx, alice.token, [
      filePart(jpeg),
      dtoPart({ projectId: 999_999 }),
    ]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>().message).toBe('Project was not found.');
    expect(await storedKeys(ctx)).toEqual(keys);
    expect(await uploadRowCount(ctx)).toBe(rows);
    expect(tempFiles(ctx)).toEqual([]);
  });
});
