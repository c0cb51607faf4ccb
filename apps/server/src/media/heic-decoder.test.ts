// HEVC-coded HEIC without the photo corpus: the photos are encoded at test time by Debian's
// heif-enc (libheif-examples), so no binary fixture is committed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTo, HEIF_ENC, pixelAt, QUADRANT_COLOURS, quadrantHeic } from '../../test/images.js';
import { createHeicDecoder, type HeicDecoder } from './heic-decoder.js';
import { ImageError } from './image-error.js';
import { createImageProcessor, type ImageProcessor } from './image-processor.js';

const MAX_PIXELS = 120_000_000;
const MISSING =
  'heif-enc is not installed (apt-get install libheif-examples), so no HEIC can be made';

// In CI a missing encoder must fail the run, not skip HEIC decoding silently.
if (!HEIF_ENC && process.env.CI) {
  it('has heif-enc to make HEIC photos (CI)', () => {
    expect.fail(MISSING);
  });
}

describe.skipIf(!HEIF_ENC)(`HEIC decoding (skipped when ${MISSING})`, () => {
  let dir: string;
  let heicFile: string;
  let processor: ImageProcessor;
  let decoder: HeicDecoder;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitelog-heic-test-'));
    heicFile = path.join(dir, 'quadrants.heic');
    writeFileSync(heicFile, await quadrantHeic(320, 240));
    processor = createImageProcessor({ maxPixels: MAX_PIXELS, concurrency: 1 });
    decoder = createHeicDecoder({ parallelism: 1 });
  });
  afterAll(async () => {
    await processor?.close();
    await decoder?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is really HEVC-coded, the codec sharp’s own libvips lacks', async () => {
    const header = await sharp(heicFile).metadata();
    expect(header.compression).toBe('hevc');
  });

  it('stores an HEIC upright at its size, as JPEG and WebP renditions', async () => {
    const result = await processor.process(heicFile);
    expect(result.type).toBe('image/heic');
    expect([result.formatted.width, result.formatted.height]).toEqual([320, 240]);
    expect([result.preview.width, result.preview.height]).toEqual([320, 240]);
    expect((await sharp(result.formatted.buffer).metadata()).format).toBe('jpeg');
    expect((await sharp(result.preview.buffer).metadata()).format).toBe('webp');
    const inset = 10;
    const corners = [
      [inset, inset, QUADRANT_COLOURS.topLeft],
      [320 - inset, inset, QUADRANT_COLOURS.topRight],
      [inset, 240 - inset, QUADRANT_COLOURS.bottomLeft],
      [320 - inset, 240 - inset, QUADRANT_COLOURS.bottomRight],
    ] as const;
    for (const [x, y, colour] of corners)
      expect(closeTo(await pixelAt(result.formatted.buffer, x, y), colour)).toBe(true);
  });

  it('decodes in a worker into a TIFF of the full picture', async () => {
    const tiff = await decoder.decode({
      filePath: heicFile,
      maxPixels: MAX_PIXELS,
      icc: null,
      keepAlpha: false,
    });
    const meta = await sharp(tiff).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['tiff', 320, 240, 3]);
  });

  it('refuses in the worker an HEIC over the pixel limit as too large', async () => {
    const err: unknown = await decoder
      .decode({ filePath: heicFile, maxPixels: 1000, icc: null, keepAlpha: false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('too_large');
    expect((err as ImageError).pixels).toEqual({ actual: 320 * 240, limit: 1000 });
  });

  it('refuses a truncated HEIC as corrupt', async () => {
    const bytes = await quadrantHeic(320, 240);
    const truncated = path.join(dir, 'truncated.heic');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const err: unknown = await processor.process(truncated).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('corrupt');
  });

  it('still decodes after a refusal, and close() ends its workers', async () => {
    const own = createHeicDecoder({ parallelism: 1 });
    const task = { filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false };
    await own.decode({ ...task, maxPixels: 1000 }).catch(() => undefined);
    expect((await sharp(await own.decode(task)).metadata()).width).toBe(320);
    await own.close();
  });
});
