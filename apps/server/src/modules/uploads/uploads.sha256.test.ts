// The original's fingerprint (issue 16): every upload stores the SHA-256 of its original, taken
// while the original is written, and it is the hash of the bytes storage holds under the
// original's key (a report prints it; anyone can check it against the archive).
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUpload } from '../../../test/factories.js';
import { createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { HEIF_ENC, jpegWithExif, photoJpeg, quadrantHeic } from '../../../test/images.js';
import { uploadPhoto } from '../../../test/uploads.js';
import { sha256OfFile } from './uploads.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The stored hash, and the hash of the original read back from storage. */
async function fingerprints(uploadId: number) {
  const row = await ctx.db
    .selectFrom('uploads')
    .select(['original_key', 'original_type', 'original_sha256'])
    .where('id', '=', uploadId)
    .executeTakeFirstOrThrow();
  const original = await ctx.storage.get(row.original_key);
  if (!original) throw new Error(`no stored original for upload ${uploadId}`);
  return { stored: row.original_sha256, actual: sha256(original), type: row.original_type };
}

describe('the SHA-256 of the original', () => {
  it('is stored with a photo uploaded over HTTP and is the hash of the stored original', async () => {
    const member = await signedInUser(ctx);
    const project = await buildProject(ctx, { creatorId: member.id });
    const file = await jpegWithExif();
    const upload = await uploadPhoto(ctx, member.token, project.id, { file });
    const { stored, actual } = await fingerprints(upload.id);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).toBe(actual);
    // The original is stored as sent, byte for byte.
    expect(stored).toBe(sha256(file));
  });

  it('is the HEIC original’s hash, not the JPEG made from it', async (t) => {
    if (!HEIF_ENC) t.skip('heif-enc is not installed (libheif-examples)');
    const member = await signedInUser(ctx);
    const project = await buildProject(ctx, { creatorId: member.id });
    const file = await quadrantHeic(320, 240);
    const upload = await uploadPhoto(ctx, member.token, project.id, {
      file,
      filename: 'IMG_0001.HEIC',
    });
    const { stored, actual, type } = await fingerprints(upload.id);
    expect(type).toBe('image/heic');
    expect(stored).toBe(actual);
    expect(stored).toBe(sha256(file));
    const formatted = await ctx.db
      .selectFrom('uploads')
      .select('formatted_key')
      .where('id', '=', upload.id)
      .executeTakeFirstOrThrow();
    expect(sha256((await ctx.storage.get(formatted.formatted_key))!)).not.toBe(stored);
  });

  it('is stored with uploads the factories make (the same pipeline)', async () => {
    const file = await photoJpeg(640, 480);
    const id = await buildUpload(ctx, { file });
    const { stored, actual } = await fingerprints(id);
    expect(stored).toBe(actual);
    expect(stored).toBe(sha256(file));
  });

  it('differs between two different photos', async () => {
    const project = await buildProject(ctx);
    const a = await buildUpload(ctx, { projectId: project.id, file: await photoJpeg(320, 240) });
    const b = await buildUpload(ctx, { projectId: project.id, file: await photoJpeg(321, 240) });
    expect((await fingerprints(a)).stored).not.toBe((await fingerprints(b)).stored);
  });
});

describe('sha256OfFile', () => {
  it('streams a file through the hash: the same digest as hashing its bytes at once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sitelog-sha-'));
    try {
      const empty = path.join(dir, 'empty');
      await writeFile(empty, Buffer.alloc(0));
      expect(await sha256OfFile(empty)).toBe(
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      );
      // Several read chunks (64 KiB each), the last one partial.
      const bytes = Buffer.alloc(3 * 65_536 + 123);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) & 0xff;
      const file = path.join(dir, 'bytes');
      await writeFile(file, bytes);
      expect(await sha256OfFile(file)).toBe(sha256(bytes));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails on a missing file', async () => {
    await expect(sha256OfFile(path.join(tmpdir(), 'sitelog-no-such-file'))).rejects.toThrow(
      /ENOENT/,
    );
  });
});
