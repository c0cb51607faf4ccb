// The real-photo corpus (PHOTO_CORPUS_DIR: cameras, phones, HEIC, EXIF orientation, GPS, corrupt
// files) through the whole HTTP upload: each photo is answered and served at the size it
// reports, or refused with a clear 4xx that leaves nothing behind. Skipped when it is unset.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorResponse as ErrorBody, Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { buildProject } from '../../../test/factories.js';
import {
  dtoPart,
  filePart,
  postUpload,
  storedKeys,
  tempFiles,
  uploadRowCount,
} from '../../../test/uploads.js';

const corpusDir = process.env.PHOTO_CORPUS_DIR;
const files = corpusDir
  ? readdirSync(corpusDir)
      .filter((f) => !f.startsWith('.'))
      .sort()
  : [];

describe.skipIf(!corpusDir)(
  'uploading the real-photo corpus (skipped unless PHOTO_CORPUS_DIR is set)',
  () => {
    let ctx: TestContext;
    let token: string;
    let projectId: number;

    beforeAll(async () => {
      ctx = await createTestContext();
      const user = await signedInUser(ctx);
      token = user.token;
      projectId = (await buildProject(ctx, { creatorId: user.id })).id;
    });
    afterAll(async () => ctx?.close());

    it.each(files)('%s is stored and served, or refused with a clear 4xx', async (name) => {
      const bytes = readFileSync(path.join(corpusDir ?? '', name));
      const keysBefore = await storedKeys(ctx);
      const rowsBefore = await uploadRowCount(ctx);
      const res = await postUpload(ctx, token, [
        filePart(bytes, name, 'application/octet-stream'),
        dtoPart({ projectId }),
      ]);
      expect(tempFiles(ctx)).toEqual([]);

      if (res.statusCode !== 200) {
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(res.json<ErrorBody>().message.length).toBeGreaterThan(10);
        expect(await storedKeys(ctx)).toEqual(keysBefore);
        expect(await uploadRowCount(ctx)).toBe(rowsBefore);
        // Only files that are not photos, or are broken, may be refused.
        expect(name).toMatch(/corrupt|invalid|\.md$/i);
        return;
      }
      const upload = res.json<Upload>();
      expect(Math.max(upload.formatedWidth, upload.formatedHeight)).toBeLessThanOrEqual(2048);
      const formatted = await api(ctx, { method: 'GET', url: upload.formatedLink });
      expect(formatted.statusCode).toBe(200);
      const meta = await sharp(formatted.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([upload.formatedWidth, upload.formatedHeight]);
      expect(meta.orientation).toBeUndefined();
      const original = await api(ctx, { method: 'GET', url: upload.originalLink });
      expect(original.headers['content-disposition']).toMatch(/^attachment;/);
      expect(Buffer.compare(original.rawPayload, bytes)).toBe(0);
    });
  },
);
