import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImageProcessor,
  ImageError,
  type ImageProcessor,
  type ProcessedImage,
} from './image-processor.js';
import { sharpAdapter, type ImageAdapter } from './sharp-adapter.js';
import {
  closeTo,
  jpegWithExif,
  orientedJpeg,
  photoJpeg,
  pixelAt,
  pngBomb,
  quadrantImage,
  QUADRANT_COLOURS,
} from '../../test/images.js';

const MAX_PIXELS = 120_000_000;
let dir: string;
let fileSeq = 0;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sitelog-images-'));
});
const processors = new Map<number, ImageProcessor>();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([...processors.values()].map((p) => p.close()));
});

function writeTemp(bytes: Buffer | string, name = 'upload'): string {
  fileSeq += 1;
  const file = path.join(dir, `${fileSeq}-${name}`);
  writeFileSync(file, bytes);
  return file;
}

/** One processor per pixel limit, with room for every test's decode at once. */
function processorFor(maxPixels: number): ImageProcessor {
  let processor = processors.get(maxPixels);
  if (!processor) {
    processor = createImageProcessor({ maxPixels, concurrency: 4, maxQueue: 1000 });
    processors.set(maxPixels, processor);
  }
  return processor;
}

const processBytes = (bytes: Buffer | string, maxPixels = MAX_PIXELS) =>
  processorFor(maxPixels).process(writeTemp(bytes));

async function refusal(promise: Promise<unknown>): Promise<ImageError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ImageError)) throw new Error(`expected an ImageError, got ${String(err)}`);
  return err;
}

/** The real adapter, counting the decodes it is asked for. */
function countingAdapter(): ImageAdapter & { decodes: number } {
  const counting = {
    ...sharpAdapter,
    decodes: 0,
    decodeUpright: (...args: Parameters<ImageAdapter['decodeUpright']>) => {
      counting.decodes += 1;
      return sharpAdapter.decodeUpright(...args);
    },
  };
  return counting;
}

/** Checks that a rendition really is what it claims, and carries no metadata. */
async function expectClean(rendition: ProcessedImage['formatted']) {
  const meta = await sharp(rendition.buffer).metadata();
  expect(meta.format).toBe(rendition.contentType === 'image/jpeg' ? 'jpeg' : 'webp');
  expect([meta.width, meta.height]).toEqual([rendition.width, rendition.height]);
  expect(meta.exif).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
}

async function expectUpright(image: Buffer, width: number, height: number) {
  const inset = 4;
  expect(closeTo(await pixelAt(image, inset, inset), QUADRANT_COLOURS.topLeft)).toBe(true);
  expect(closeTo(await pixelAt(image, width - inset, inset), QUADRANT_COLOURS.topRight)).toBe(true);
  expect(closeTo(await pixelAt(image, inset, height - inset), QUADRANT_COLOURS.bottomLeft)).toBe(
    true,
  );
  expect(
    closeTo(await pixelAt(image, width - inset, height - inset), QUADRANT_COLOURS.bottomRight),
  ).toBe(true);
}

describe('image processor: orientation', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'turns a JPEG with EXIF orientation %i upright',
    async (orientation) => {
      const result = await processBytes(await orientedJpeg(orientation, 120, 80));
      expect([result.formatted.width, result.formatted.height]).toEqual([120, 80]);
      expect([result.preview.width, result.preview.height]).toEqual([120, 80]);
      await expectUpright(result.formatted.buffer, 120, 80);
      await expectUpright(result.preview.buffer, 120, 80);
      await expectClean(result.formatted);
    },
  );
});

describe('image processor: sizes', () => {
  it('downscales a big photo to 2048 px (formatted) and 480 px (preview)', async () => {
    const result = await processBytes(await photoJpeg(3000, 2000));
    expect(result.type).toBe('image/jpeg');
    expect(result.formatted).toMatchObject({
      width: 2048,
      height: 1365,
      contentType: 'image/jpeg',
    });
    expect(result.preview).toMatchObject({ width: 480, height: 320, contentType: 'image/webp' });
    await expectClean(result.formatted);
    await expectClean(result.preview);
  });

  it('never upscales a small photo', async () => {
    const result = await processBytes(await quadrantImage(300, 200).jpeg().toBuffer());
    expect([result.formatted.width, result.formatted.height]).toEqual([300, 200]);
    expect([result.preview.width, result.preview.height]).toEqual([300, 200]);
  });

  it('fits portrait photos by their long edge', async () => {
    const result = await processBytes(await photoJpeg(1000, 3000));
    expect([result.formatted.width, result.formatted.height]).toEqual([683, 2048]);
    expect([result.preview.width, result.preview.height]).toEqual([160, 480]);
  });
});

describe('image processor: formats', () => {
  it.each([
    ['PNG', 'image/png', (s: sharp.Sharp) => s.png()],
    ['WebP', 'image/webp', (s: sharp.Sharp) => s.webp({ lossless: true })],
    ['GIF', 'image/gif', (s: sharp.Sharp) => s.gif()],
    ['TIFF', 'image/tiff', (s: sharp.Sharp) => s.tiff()],
    ['AVIF', 'image/avif', (s: sharp.Sharp) => s.avif({ quality: 90 })],
  ] as const)('accepts %s', async (_label, type, encode) => {
    const bytes = await encode(quadrantImage(200, 100)).toBuffer();
    const result = await processBytes(bytes);
    expect(result.type).toBe(type);
    expect([result.formatted.width, result.formatted.height]).toEqual([200, 100]);
    await expectUpright(result.formatted.buffer, 200, 100);
    await expectClean(result.formatted);
    await expectClean(result.preview);
  });

  it('puts transparent areas on white', async () => {
    const png = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const result = await processBytes(png);
    expect(closeTo(await pixelAt(result.formatted.buffer, 10, 10), [255, 255, 255], 5)).toBe(true);
  });

  it('converts a wide-gamut (Display P3) photo to sRGB using its ICC profile', async () => {
    // Pure sRGB green stored as Display P3 values with the P3 profile attached.
    const p3 = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#00ff00' },
    })
      .withIccProfile('p3')
      .jpeg({ quality: 95 })
      .toBuffer();
    const storedValue = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    expect(storedValue[0]).toBeGreaterThan(60); // really P3 numbers, not sRGB ones
    const result = await processBytes(p3);
    expect(closeTo(await pixelAt(result.formatted.buffer, 32, 32), [0, 255, 0], 12)).toBe(true);
  });
});

describe('image processor: colour profiles', () => {
  it('converts a CMYK JPEG to sRGB', async () => {
    const cmyk = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#ff0000' },
    })
      .toColourspace('cmyk')
      .withIccProfile('cmyk')
      .jpeg({ quality: 95 })
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const result = await processBytes(cmyk);
    expect((await sharp(result.formatted.buffer).metadata()).channels).toBe(3);
    const [r, g, b] = await pixelAt(result.formatted.buffer, 32, 32);
    expect(r).toBeGreaterThan(180);
    expect(Math.max(g, b)).toBeLessThan(90);
  });

  it('converts a big Display P3 photo after shrinking it, to the same colours', async () => {
    const p3 = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: '#00ff00' },
    })
      .withIccProfile('p3')
      .jpeg({ quality: 95 })
      .toBuffer();
    const result = await processBytes(p3);
    expect([result.formatted.width, result.formatted.height]).toEqual([2048, 1365]);
    expect(closeTo(await pixelAt(result.formatted.buffer, 1000, 600), [0, 255, 0], 12)).toBe(true);
    expect(closeTo(await pixelAt(result.preview.buffer, 200, 100), [0, 255, 0], 12)).toBe(true);
  });
});

describe('image processor: metadata', () => {
  it('reads capture time, GPS position and camera, and strips them from the outputs', async () => {
    const result = await processBytes(await jpegWithExif());
    expect(result.meta.capturedAt).toBe('2024-05-05T21:08:09.000Z');
    expect(result.meta.latitude).toBeCloseTo(-33.85875, 5);
    expect(result.meta.longitude).toBeCloseTo(151.21111, 4);
    expect(result.meta.camera).toBe('Sitelog Cam 1');
    await expectClean(result.formatted);
    await expectClean(result.preview);
  });

  it('gives nulls for a photo without EXIF', async () => {
    const result = await processBytes(await quadrantImage(50, 50).png().toBuffer());
    expect(result.meta).toEqual({
      capturedAt: null,
      capturedLocal: null,
      latitude: null,
      longitude: null,
      camera: null,
    });
  });

  it('keeps the wall-clock capture time, with no zone, when the photo recorded no offset', async () => {
    const result = await processBytes(await jpegWithExif(null));
    expect(result.meta.capturedAt).toBe('2024-05-06T07:08:09');
    expect(result.meta.capturedLocal).toBe('2024-05-06T07:08:09');
  });
});

describe('image processor: refusals', () => {
  it('refuses a truncated JPEG as corrupt', async () => {
    const jpeg = await photoJpeg(800, 600);
    const err = await refusal(processBytes(jpeg.subarray(0, Math.floor(jpeg.length / 2))));
    expect(err.reason).toBe('corrupt');
  });

  it('refuses a JPEG header on garbage as corrupt', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0x5a)]);
    const err = await refusal(processBytes(bytes));
    expect(err.reason).toBe('corrupt');
  });

  it('refuses a small PNG declaring 30000×30000 pixels before decoding it', async () => {
    const adapter = countingAdapter();
    const processor = createImageProcessor({ maxPixels: MAX_PIXELS, concurrency: 1, adapter });
    try {
      const err = await refusal(processor.process(writeTemp(await pngBomb(30_000, 30_000))));
      expect(err.reason).toBe('too_large');
      expect(err.pixels).toEqual({ actual: 900_000_000, limit: MAX_PIXELS });
      // Refused from the header: libvips was never asked to decode a pixel.
      expect(adapter.decodes).toBe(0);
      // The same adapter does decode an image under the limit, so the count can move.
      await processor.process(writeTemp(await quadrantImage(64, 48).png().toBuffer()));
      expect(adapter.decodes).toBe(1);
    } finally {
      await processor.close();
    }
  });

  it('applies the configured pixel limit', async () => {
    const err = await refusal(
      processBytes(await quadrantImage(2000, 1500).jpeg().toBuffer(), 2_000_000),
    );
    expect(err.reason).toBe('too_large');
    expect(err.pixels).toEqual({ actual: 3_000_000, limit: 2_000_000 });
  });

  it.each([
    ['PHP', '<?php system($_GET["c"]); ?>'],
    ['HTML', '<!doctype html><html><body><script>alert(1)</script></body></html>'],
    [
      'SVG',
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    ],
    ['PDF', '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF'],
    ['ZIP', Buffer.from('504b0304140000000000000000000000000000000000000000000000', 'hex')],
  ])('refuses %s as unsupported', async (_label, bytes) => {
    const err = await refusal(processBytes(bytes));
    expect(err.reason).toBe('unsupported');
  });

  it('refuses an empty file as empty', async () => {
    const err = await refusal(processBytes(Buffer.alloc(0)));
    expect(err.reason).toBe('empty');
  });
});

describe('image processor: queue', () => {
  it('runs at most `concurrency` decodes and refuses as busy when the queue is full', async () => {
    const file = writeTemp(await photoJpeg(1600, 1200));
    const processor = createImageProcessor({ maxPixels: MAX_PIXELS, concurrency: 1, maxQueue: 1 });
    const first = processor.process(file);
    const second = processor.process(file);
    expect(processor.active).toBe(1);
    expect(processor.queued).toBe(1);
    const err = await refusal(processor.process(file));
    expect(err.reason).toBe('busy');
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.formatted.width)).toEqual([1600, 1600]);
    expect(processor.active).toBe(0);
    await processor.close();
  });
});
