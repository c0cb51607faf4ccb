import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  cameraName,
  closeImageWorkers,
  createImageProcessor,
  exifDateToIso,
  iccDescription,
  processImage,
  sniffImageType,
  type ProcessedImage,
} from './images.js';
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
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeImageWorkers();
});

function writeTemp(bytes: Buffer | string, name = 'upload'): string {
  fileSeq += 1;
  const file = path.join(dir, `${fileSeq}-${name}`);
  writeFileSync(file, bytes);
  return file;
}

const processBytes = (bytes: Buffer | string, maxPixels = MAX_PIXELS) =>
  processImage(writeTemp(bytes), { maxPixels });

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
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

describe('sniffImageType', () => {
  it('recognises each accepted type from its first bytes', async () => {
    const tiny = quadrantImage(8, 8);
    expect(sniffImageType(await tiny.clone().jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await tiny.clone().png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await tiny.clone().webp().toBuffer())).toBe('image/webp');
    expect(sniffImageType(await tiny.clone().gif().toBuffer())).toBe('image/gif');
    expect(sniffImageType(await tiny.clone().tiff().toBuffer())).toBe('image/tiff');
    expect(sniffImageType(await tiny.clone().avif().toBuffer())).toBe('image/avif');
    const ftyp = (major: string, ...compatible: string[]) => {
      const box = Buffer.alloc(16 + compatible.length * 4);
      box.writeUInt32BE(box.length, 0);
      box.write(`ftyp${major}`, 4, 'latin1');
      compatible.forEach((b, i) => box.write(b, 16 + i * 4, 'latin1'));
      return box;
    };
    expect(sniffImageType(ftyp('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(ftyp('mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(ftyp('mif1', 'miaf'))).toBe('image/heif');
    expect(sniffImageType(ftyp('mif1', 'avif'))).toBe('image/avif');
    expect(sniffImageType(ftyp('isom', 'mp41'))).toBeNull(); // an MP4 video
  });
});

describe('processImage: orientation', () => {
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

describe('processImage: sizes', () => {
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

describe('processImage: formats', () => {
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

describe('colour profiles', () => {
  it('reads the description of v2 and v4 ICC profiles, and gives null for garbage', async () => {
    const profileOf = async (icc: string) => {
      const tagged = await quadrantImage(8, 8).withIccProfile(icc).jpeg().toBuffer();
      return (await sharp(tagged).metadata()).icc!;
    };
    expect(iccDescription(await profileOf('srgb'))).toBe('sRGB');
    expect(iccDescription(await profileOf('p3'))).toBe('sP3C');
    expect(iccDescription(Buffer.alloc(10))).toBeNull();
    const lying = Buffer.alloc(200);
    lying.writeUInt32BE(1, 128);
    lying.write('desc', 132, 'latin1');
    lying.writeUInt32BE(10_000, 136);
    expect(iccDescription(lying)).toBeNull();
  });

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

describe('processImage: metadata', () => {
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
      latitude: null,
      longitude: null,
      camera: null,
    });
  });

  it('keeps the wall-clock capture time, with no zone, when the photo recorded no offset', async () => {
    const result = await processBytes(await jpegWithExif(null));
    expect(result.meta.capturedAt).toBe('2024-05-06T07:08:09');
  });

  it('turns EXIF dates into UTC instants with a recorded offset, local date-times without', () => {
    expect(exifDateToIso('2021:04:11 15:47:53', '-05:00')).toBe('2021-04-11T20:47:53.000Z');
    expect(exifDateToIso('2021:04:11 15:47:53', '+05:30')).toBe('2021-04-11T10:17:53.000Z');
    expect(exifDateToIso('2021:04:11 15:47:53', '+00:00')).toBe('2021-04-11T15:47:53.000Z');
    expect(exifDateToIso('2021:12:31 23:30:00', '-02:00')).toBe('2022-01-01T01:30:00.000Z');
    // No offset, or one no clock can have: the zone is unknown, so none is claimed.
    expect(exifDateToIso('2021:04:11 15:47:53', undefined)).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('2021:04:11 15:47:53', '')).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('2021:04:11 15:47:53', '   :  ')).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('2021:04:11 15:47:53', '+25:00')).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('2021:04:11 15:47:53', '+05:75')).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('2021:04:11 15:47:53', 300)).toBe('2021-04-11T15:47:53');
    expect(exifDateToIso('0000:00:00 00:00:00', undefined)).toBeNull();
    expect(exifDateToIso('2021:02:30 10:00:00', undefined)).toBeNull();
    expect(exifDateToIso('yesterday', undefined)).toBeNull();
    expect(exifDateToIso(1234, undefined)).toBeNull();
  });

  it('names the camera without repeating the make', () => {
    expect(cameraName('Canon', 'Canon EOS 40D')).toBe('Canon EOS 40D');
    expect(cameraName('NIKON CORPORATION', 'NIKON D70')).toBe('NIKON D70');
    expect(cameraName('Apple', 'iPhone 11 Pro Max')).toBe('Apple iPhone 11 Pro Max');
    expect(cameraName('  Jolla\0', 'Jolla')).toBe('Jolla');
    expect(cameraName(undefined, undefined)).toBeNull();
  });
});

describe('processImage: refusals', () => {
  it('refuses a truncated JPEG with a clear 422', async () => {
    const jpeg = await photoJpeg(800, 600);
    const err = await refusal(processBytes(jpeg.subarray(0, Math.floor(jpeg.length / 2))));
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe(
      'The file could not be read as an image. It may be damaged or incomplete.',
    );
  });

  it('refuses a JPEG header on garbage with 422', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0x5a)]);
    const err = await refusal(processBytes(bytes));
    expect(err.statusCode).toBe(422);
  });

  it('refuses a small PNG declaring 30000×30000 pixels before decoding it', async () => {
    const started = Date.now();
    const err = await refusal(processBytes(await pngBomb(30_000, 30_000)));
    expect(err.statusCode).toBe(413);
    expect(err.message).toBe('The image is too large (900 megapixels; limit 120).');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('applies the configured pixel limit', async () => {
    const err = await refusal(
      processBytes(await quadrantImage(2000, 1500).jpeg().toBuffer(), 2_000_000),
    );
    expect(err.statusCode).toBe(413);
    expect(err.message).toBe('The image is too large (3 megapixels; limit 2).');
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
  ])('refuses %s with 415', async (_label, bytes) => {
    const err = await refusal(processBytes(bytes));
    expect(err.statusCode).toBe(415);
    expect(err.code).toBe('unsupported_media_type');
    expect(err.message).toMatch(
      /^This type of file is not supported\. Upload a JPEG, PNG, .* image\.$/,
    );
  });

  it('refuses an empty file with 415', async () => {
    const err = await refusal(processBytes(Buffer.alloc(0)));
    expect(err.statusCode).toBe(415);
    expect(err.message).toMatch(/^The file is empty\./);
  });
});

describe('createImageProcessor', () => {
  it('runs at most `concurrency` decodes and answers 503 when the queue is full', async () => {
    const file = writeTemp(await photoJpeg(1600, 1200));
    const processor = createImageProcessor({ maxPixels: MAX_PIXELS, concurrency: 1, maxQueue: 1 });
    const first = processor.process(file);
    const second = processor.process(file);
    expect(processor.active).toBe(1);
    expect(processor.queued).toBe(1);
    const err = await refusal(processor.process(file));
    expect(err.statusCode).toBe(503);
    expect(err.headers['retry-after']).toBe('5');
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.formatted.width)).toEqual([1600, 1600]);
    expect(processor.active).toBe(0);
  });
});
