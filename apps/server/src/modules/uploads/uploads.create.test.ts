// Uploading: the pipeline from the multipart form to stored files, row and counts, and every refusal.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorResponse as ErrorBody, Profile, Project, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { archiveProject, buildProject, setProjectActivity } from '../../../test/factories.js';
import { jpegWithExif, photoJpeg, pngBomb, quadrantImage } from '../../../test/images.js';
import {
  dtoPart,
  filePart,
  multipartBody,
  postUpload,
  storedKeys,
  tempFiles,
  uploadPhoto,
  uploadRowCount,
  type FormPart,
} from '../../../test/uploads.js';
import { storeUpload } from './uploads.service.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;
let project: { id: number; name: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Archer' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Builder' });
  project = await buildProject(ctx, { creatorId: alice.id, name: 'Riverside Block C' });
});
afterAll(async () => ctx?.close());

const getProject = async (id: number, token = alice.token) =>
  (await api(ctx, { method: 'GET', url: `/api/project/id/${id}`, token })).json<Project>();

/** "YYYY-MM-DD HH:MM" of an ISO instant, in UTC (a default name without a capture time). */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** A time before anything this file writes: a change made now is dated after it, always. */
const LONG_AGO = '2001-01-01T00:00:00.000Z';

const profileUploads = async (id: number) =>
  (
    await api(ctx, { method: 'GET', url: `/api/user/profile/${id}`, token: alice.token })
  ).json<Profile>().uploadsCount;

describe('POST /api/upload/autoupload', () => {
  it('stores the photo and answers the upload with links, sizes and what the photo tells', async () => {
    const before = await storedKeys(ctx);
    const res = await postUpload(ctx, alice.token, [
      filePart(await jpegWithExif(), 'site.jpg'),
      dtoPart({
        name: '  North wall  ',
        description: 'Cracks near the lintel',
        projectId: project.id,
      }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const upload = res.json<Upload>();
    expect(upload).toMatchObject({
      name: 'North wall',
      description: 'Cracks near the lintel',
      formatedWidth: 160,
      formatedHeight: 120,
      creator: { id: alice.id, firstname: 'Alice', lastname: 'Archer' },
      project: { id: project.id, name: 'Riverside Block C' },
      capturedAt: '2024-05-05T21:08:09.000Z',
      camera: 'Sitelog Cam 1',
    });
    expect(upload.latitude).toBeCloseTo(-33.8587, 3);
    expect(upload.longitude).toBeCloseTo(151.2111, 3);
    expect(upload.createdAt).toBe(upload.updatedAt);
    for (const link of [upload.previewLink, upload.formatedLink, upload.originalLink])
      expect(link).toMatch(
        /^\/media\/uploads\/[0-9a-f]{2}\/[0-9a-f-]{36}\/\w+\.\w+\?exp=\d+&sid=\d+/,
      );
    expect(upload.previewLink).toContain('/preview.webp?');
    expect(upload.formatedLink).toContain('/formatted.jpg?');
    expect(upload.originalLink).toContain('/original.jpg?');
    expect(upload.originalLink).toContain('&dl=North%20wall.jpg&');

    const after = await storedKeys(ctx);
    expect(after.length - before.length).toBe(3);
    expect(tempFiles(ctx)).toEqual([]);
    const row = await ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', upload.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ original_type: 'image/jpeg', project_id: project.id });
    expect(row.original_bytes).toBeGreaterThan(0);
  });

  it('accepts the JSON part before the file', async () => {
    const res = await postUpload(ctx, alice.token, [
      dtoPart({ name: 'Dto first', description: '', projectId: project.id }),
      filePart(await jpegWithExif()),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Dto first', project: { id: project.id } });
  });

  it('makes name and description optional and takes the projectId as a string too', async () => {
    const res = await postUpload(ctx, alice.token, [
      filePart(await quadrantImage(64, 48).png().toBuffer(), 'IMG_0042.PNG', 'image/png'),
      dtoPart({ projectId: String(project.id) }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const upload = res.json<Upload>();
    expect(upload).toMatchObject({
      name: `Riverside Block C · ${utcMinute(upload.createdAt)} UTC`,
      description: '',
      capturedAt: null,
    });
    expect(upload.latitude).toBeNull();
    expect(upload.camera).toBeNull();
    expect(upload.originalLink).toContain('/original.png?');
  });

  it('names a photo sent without a name after its project and capture time, never its file', async () => {
    // Taken at 07:08 on the camera's clock (+10:00), which is 21:08 the day before in UTC.
    const withExif = await uploadPhoto(ctx, alice.token, project.id, { filename: 'IMG_5195.JPG' });
    expect(withExif.capturedAt).toBe('2024-05-05T21:08:09.000Z');
    expect(withExif.name).toBe('Riverside Block C · 07:08');
    // No capture time: the upload time, in UTC with its date.
    const plain = await uploadPhoto(ctx, alice.token, project.id, {
      file: await photoJpeg(40, 30),
      filename: 'IMG_5196.JPG',
    });
    expect(plain.capturedAt).toBeNull();
    expect(plain.name).toBe(`Riverside Block C · ${utcMinute(plain.createdAt)} UTC`);
  });

  it('answers a capture time without a recorded offset as the wall-clock time, with no zone', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, {
      file: await jpegWithExif(null),
      filename: '',
    });
    expect(upload.capturedAt).toBe('2024-05-06T07:08:09');
    // The default name takes the camera's own time, not a shifted one.
    expect(upload.name).toBe('Riverside Block C · 07:08');
    const again = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: bob.token,
    });
    expect(again.json<Upload>().capturedAt).toBe('2024-05-06T07:08:09');
  });

  it('treats path-like file names as names only: keys are the server’s own', async () => {
    const before = await storedKeys(ctx);
    for (const filename of ['../../x.jpg', '..\\..\\windows\\evil.jpg', '/etc/passwd', '..']) {
      const upload = await uploadPhoto(ctx, alice.token, project.id, { filename });
      expect(upload.name).toBe('Riverside Block C · 07:08');
    }
    const added = (await storedKeys(ctx)).filter((k) => !before.includes(k));
    expect(added).toHaveLength(12);
    for (const key of added)
      expect(key).toMatch(
        /^uploads\/[0-9a-f]{2}\/[0-9a-f-]{36}\/(preview|formatted|original)\.\w+$/,
      );
    // Nothing was written next to the temp or media folders under the client's names.
    for (const dir of [ctx.config.uploads.tempDir, ctx.dataDir, path.dirname(ctx.dataDir)])
      expect(existsSync(path.resolve(dir, 'x.jpg'))).toBe(false);
    const known = ['media', 'secret', 'tmp', 'sitelog.db', 'sitelog.db-wal', 'sitelog.db-shm'];
    expect(readdirSync(ctx.dataDir).filter((name) => !known.includes(name))).toEqual([]);
    expect(tempFiles(ctx)).toEqual([]);
  });

  it('keeps text as sent: markup stays text', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const description = 'Line 1\n<script>alert("x")</script> & “quotes” 🚧';
    const upload = await uploadPhoto(ctx, alice.token, project.id, { name, description });
    expect(upload.name).toBe(name);
    expect(upload.description).toBe(description);
    const again = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: bob.token,
    });
    expect(again.json()).toMatchObject({ name, description });
  });

  it('updates the project (count, last uploads, activity date) and the member’s count', async () => {
    const own = await buildProject(ctx, { creatorId: bob.id });
    await setProjectActivity(ctx, own.id, LONG_AGO);
    const projectBefore = await getProject(own.id, bob.token);
    const bobBefore = await profileUploads(bob.id);
    const first = await uploadPhoto(ctx, bob.token, own.id);
    const second = await uploadPhoto(ctx, bob.token, own.id);
    const after = await getProject(own.id, bob.token);
    expect(after.uploadsCount).toBe(projectBefore.uploadsCount + 2);
    expect(after.lastUploads.map((u) => u.id)).toEqual([second.id, first.id]);
    expect(after.lastUploads[0]?.previewLink).toBe(second.previewLink);
    expect(after.updatedAt > projectBefore.updatedAt).toBe(true);
    expect(await profileUploads(bob.id)).toBe(bobBefore + 2);
  });
});

describe('bad uploads', () => {
  /** Sends a bad form and checks the refusal left nothing behind. */
  async function expectRefused(
    parts: FormPart[],
    status: number,
    message: RegExp,
    options: { token?: string | null; close?: boolean; context?: TestContext } = {},
  ) {
    const c = options.context ?? ctx;
    const keysBefore = await storedKeys(c);
    const rowsBefore = await uploadRowCount(c);
    const token = options.token === null ? undefined : (options.token ?? alice.token);
    const res = await postUpload(c, token, parts, { close: options.close });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<ErrorBody>().message).toMatch(message);
    expect(await storedKeys(c)).toEqual(keysBefore);
    expect(await uploadRowCount(c)).toBe(rowsBefore);
    expect(tempFiles(c)).toEqual([]);
    return res;
  }
  const dto = () => dtoPart({ name: 'Bad', description: '', projectId: project.id });
  const garbage = (size: number) =>
    Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919 + 13) % 251));

  it.each([
    ['a PHP script', '<?php system($_GET["c"]); ?>', 'shell.php'],
    ['a PHP script named .jpg', '<?php echo 1; ?>', 'photo.jpg'],
    ['an HTML page', '<!doctype html><html><script>alert(1)</script></html>', 'page.html'],
    [
      'an SVG with script',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'vector.svg',
    ],
    ['a PDF', '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF', 'report.pdf'],
    ['a ZIP archive', Buffer.concat([Buffer.from('PK\x03\x04'), garbage(200)]), 'photos.zip'],
  ])('refuses %s with 415', async (_label, data, filename) => {
    await expectRefused(
      [filePart(data, filename), dto()],
      415,
      /not supported\. Upload a JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC or HEIF image/,
    );
  });

  it('refuses an empty file with 415', async () => {
    await expectRefused([filePart(Buffer.alloc(0)), dto()], 415, /file is empty/i);
  });

  it('refuses a JPEG header on garbage as unreadable', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), garbage(4000)]);
    await expectRefused([filePart(fake), dto()], 422, /could not be read as an image/);
  });

  it('refuses a truncated JPEG without a 500', async () => {
    const jpeg = await photoJpeg(640, 480);
    const res = await expectRefused(
      [filePart(jpeg.subarray(0, Math.floor(jpeg.length / 2))), dto()],
      422,
      /damaged or incomplete/,
    );
    expect(res.json<ErrorBody>().code).toBe('unreadable_image');
  });

  it('refuses a pixel bomb (a small PNG declaring 30000×30000) with 413', async () => {
    await expectRefused(
      [filePart(await pngBomb(), 'bomb.png', 'image/png'), dto()],
      413,
      /too large \(900 megapixels; limit 120\)/,
    );
  });

  it('refuses a form without a file part', async () => {
    await expectRefused([dto()], 400, /no "file" part/);
  });

  it('refuses a form with two file parts', async () => {
    const jpeg = await jpegWithExif();
    await expectRefused(
      [filePart(jpeg), filePart(jpeg, 'second.jpg'), dto()],
      400,
      /one photo per upload/,
    );
    await expectRefused(
      [dto(), filePart(jpeg), filePart(jpeg, 'second.jpg')],
      400,
      /one photo per upload/,
    );
  });

  it('refuses a file sent under another part name', async () => {
    await expectRefused(
      [{ ...filePart(await jpegWithExif()), name: 'photo' }, dto()],
      400,
      /part named "file"/,
    );
  });

  it('refuses a form without createUploadDto', async () => {
    await expectRefused([filePart(await jpegWithExif())], 400, /no "createUploadDto" part/);
  });

  it.each([
    ['malformed JSON', '{"name": "x", projectId: 1', /createUploadDto is not valid JSON/],
    ['JSON that is not an object', '[1,2,3]', /must be a JSON object/],
    ['a missing projectId', { name: 'x' }, /projectId must be the id of the project/],
    ['a projectId that is not a number', { projectId: 'abc' }, /projectId must be the id/],
    ['a name over the limit', { name: 'n'.repeat(201), projectId: 1 }, /at most 200 characters/],
    ['a description that is not text', { description: 42, projectId: 1 }, /must be text/],
  ])('refuses createUploadDto with %s (400)', async (_label, value, message) => {
    await expectRefused([filePart(await jpegWithExif()), dtoPart(value)], 400, message);
  });

  it('refuses createUploadDto sent twice', async () => {
    await expectRefused([dto(), dto(), filePart(await jpegWithExif())], 400, /only once/);
  });

  it('refuses an unknown project (404), whichever part comes first', async () => {
    const jpeg = await jpegWithExif();
    const unknown = dtoPart({ projectId: 999_999 });
    await expectRefused([unknown, filePart(jpeg)], 404, /Project was not found/);
    await expectRefused([filePart(jpeg), unknown], 404, /Project was not found/);
  });

  it('refuses an archived project (409), whichever part comes first', async () => {
    const archived = await buildProject(ctx, { creatorId: alice.id });
    await archiveProject(ctx, archived.id);
    const jpeg = await jpegWithExif();
    const closed = dtoPart({ projectId: archived.id });
    await expectRefused([filePart(jpeg), closed], 409, /This project is archived/);
    await expectRefused([closed, filePart(jpeg)], 409, /This project is archived/);
  });

  it('refuses a signed-out upload before reading it (401)', async () => {
    await expectRefused([filePart(await jpegWithExif()), dto()], 401, /sign in/i, {
      token: null,
    });
  });

  it('refuses a body that is not multipart', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/upload/autoupload',
      token: alice.token,
      payload: { createUploadDto: { projectId: project.id } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'multipart_required' });
    expect(res.json<ErrorBody>().message).toMatch(/multipart\/form-data/);
  });

  it('refuses a cut-off multipart body', async () => {
    const jpeg = await jpegWithExif();
    await expectRefused([dto(), filePart(jpeg)], 400, /incomplete or malformed/, { close: false });
    // The file arrived whole, the form then broke off: the file must not be kept either.
    await expectRefused([filePart(jpeg), dto()], 400, /incomplete or malformed/, { close: false });
  });

  it('refuses a multipart body without a boundary', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/upload/autoupload',
      token: alice.token,
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'nothing here',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toMatch(/incomplete or malformed/);
  });

  describe('with a small byte limit', () => {
    let small: TestContext;
    let carol: Member;
    let smallProject: { id: number };
    const LIMIT = 1024 * 1024;
    /** A real JPEG followed by padding (decoders ignore what follows the image) to `size` bytes. */
    const jpegOfSize = async (size: number) => {
      const jpeg = await photoJpeg(80, 60);
      return Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
    };
    beforeAll(async () => {
      small = await createTestContext({ UPLOAD_MAX_BYTES: String(LIMIT) });
      carol = await signedInUser(small);
      smallProject = await buildProject(small, { creatorId: carol.id });
    });
    afterAll(async () => small?.close());

    it('refuses a file one byte over the limit with 413 and keeps nothing', async () => {
      const big = await jpegOfSize(LIMIT + 1);
      for (const order of ['file first', 'dto first']) {
        const parts = [filePart(big), dtoPart({ projectId: smallProject.id })];
        await expectRefused(
          order === 'file first' ? parts : parts.reverse(),
          413,
          /^The file is too large \(limit 1 MB\)\.$/,
          { token: carol.token, context: small },
        );
      }
    });

    it('accepts a file of exactly the limit', async () => {
      const res = await postUpload(small, carol.token, [
        filePart(await jpegOfSize(LIMIT)),
        dtoPart({ projectId: smallProject.id }),
      ]);
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  it('answers an early refusal to a client still sending its file (real HTTP)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const big = Buffer.alloc(16 * 1024 * 1024, 7);
    const body = multipartBody([dtoPart({ projectId: 999_999 }), filePart(big)]);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          agent: false,
          method: 'POST',
          path: '/api/upload/autoupload',
          headers: {
            ...body.headers,
            authorization: `Bearer ${alice.token}`,
            'content-length': body.payload.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', reject);
      // Sent in pieces, as a phone on a slow network would.
      let offset = 0;
      const sendMore = () => {
        while (offset < body.payload.length) {
          const chunk = body.payload.subarray(offset, offset + 256 * 1024);
          offset += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', sendMore);
        }
        req.end();
      };
      sendMore();
    });
    expect(answer.status).toBe(404);
    expect((JSON.parse(answer.body) as ErrorBody).message).toMatch(/Project was not found/);
    expect(tempFiles(ctx)).toEqual([]);
  });
});

describe('storeUpload when a later step fails', () => {
  async function photoFile() {
    const file = path.join(ctx.dataDir, `input-${Date.now()}.jpg`);
    const jpeg = await jpegWithExif();
    writeFileSync(file, jpeg);
    return { filePath: file, bytes: jpeg.length, name: '', description: '' };
  }

  it('removes the stored files when the row cannot be inserted', async () => {
    const archived = await buildProject(ctx, { creatorId: alice.id });
    await archiveProject(ctx, archived.id);
    const keys = await storedKeys(ctx);
    const rows = await uploadRowCount(ctx);
    const aliceBefore = await profileUploads(alice.id);
    await expect(
      storeUpload(ctx, { ...(await photoFile()), projectId: archived.id, creatorId: alice.id }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'project_archived' });
    expect(await storedKeys(ctx)).toEqual(keys);
    expect(await uploadRowCount(ctx)).toBe(rows);
    expect(await profileUploads(alice.id)).toBe(aliceBefore);
  });

  it('removes the files already written when one write fails', async () => {
    const failing = {
      ...ctx.storage,
      put: async (key: string, source: Buffer | { filePath: string }, type: string) => {
        if (key.includes('/formatted.')) throw new Error('disk full');
        await ctx.storage.put(key, source, type);
      },
    };
    const keys = await storedKeys(ctx);
    const rows = await uploadRowCount(ctx);
    await expect(
      storeUpload(
        { ...ctx, storage: failing },
        { ...(await photoFile()), projectId: project.id, creatorId: alice.id },
      ),
    ).rejects.toThrow('disk full');
    expect(await storedKeys(ctx)).toEqual(keys);
    expect(await uploadRowCount(ctx)).toBe(rows);
  });
});
