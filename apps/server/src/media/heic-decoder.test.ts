// HEVC-coded HEIC without the photo corpus: the photos are encoded at test time by Debian's
// heif-enc (libheif-examples), so no binary fixture is committed. Both decoders run every test:
// the native one (Debian's heif-dec/heif-convert, installed by .ci/run next to heif-enc; its
// absence fails these tests) and the WASM fallback.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTo,
  HEIF_ENC,
  pixelAt,
  QUADRANT_COLOURS,
  quadrantHeic,
  quadrantImage,
} from '../../test/images.js';
import { createHeicDecoder, type ChosenHeicDecoder } from './heic-decoder.js';
import { findHeifDecoder, probeHeifDecoder } from './heic-native.js';
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

/**
 * The quadrant picture stored upright (no HEIF rotation), with an EXIF Orientation of 6 that must
 * not be applied. heif-enc since libheif 1.17 turns a JPEG's EXIF orientation into a HEIF
 * rotation, so the picture is encoded with Orientation 1 and the tag's value is then set to 6 in
 * the HEIC's EXIF block (little-endian TIFF, as heif-enc writes it): the same bytes whatever the
 * encoder's version.
 */
async function heicWithExifOrientation(file: string): Promise<void> {
  const jpeg = `${file}.jpg`;
  await quadrantImage(320, 240).jpeg({ quality: 95 }).withMetadata({ orientation: 1 }).toFile(jpeg);
  await promisify(execFile)(HEIF_ENC ?? 'heif-enc', ['-q', '90', jpeg, '-o', file]);
  rmSync(jpeg);
  const heic = readFileSync(file);
  // Tag 0x0112 (Orientation), type SHORT, count 1, value 1, then 6.
  const orientation = (value: number) => Buffer.from([0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0]);
  const entry = heic.indexOf(orientation(1));
  if (entry < 0) throw new Error('heif-enc kept no EXIF Orientation to change');
  heic[entry + 8] = 6;
  writeFileSync(file, heic);
  // libvips reports no orientation for HEIF (it never applies EXIF's): read the EXIF itself.
  const header = await sharp(file).metadata();
  if (header.width !== 320 || !header.exif?.includes(orientation(6)))
    throw new Error('not an upright 320 × 240 HEIC with EXIF Orientation 6');
}

/** The four corners of the formatted image are the quadrant colours, upright. */
async function expectUprightQuadrants(image: Buffer, width: number, height: number) {
  const inset = 10;
  const corners = [
    [inset, inset, QUADRANT_COLOURS.topLeft],
    [width - inset, inset, QUADRANT_COLOURS.topRight],
    [inset, height - inset, QUADRANT_COLOURS.bottomLeft],
    [width - inset, height - inset, QUADRANT_COLOURS.bottomRight],
  ] as const;
  for (const [x, y, colour] of corners)
    expect(closeTo(await pixelAt(image, x, y), colour), `pixel at ${x},${y}`).toBe(true);
}

describe.skipIf(!HEIF_ENC)(`HEIC decoding (skipped when ${MISSING})`, () => {
  let dir: string;
  let heicFile: string;
  let orientedFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitelog-heic-test-'));
    heicFile = path.join(dir, 'quadrants.heic');
    writeFileSync(heicFile, await quadrantHeic(320, 240));
    orientedFile = path.join(dir, 'exif-orientation-6.heic');
    await heicWithExifOrientation(orientedFile);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds Debian’s native decoder (heif-dec or heif-convert; CI installs libheif-examples)', () => {
    expect(findHeifDecoder()).toMatch(/heif-(dec|convert)$/);
  });

  it('is really HEVC-coded, the codec sharp’s own libvips lacks', async () => {
    const header = await sharp(heicFile).metadata();
    expect(header.compression).toBe('hevc');
  });

  describe.each(['native', 'wasm'] as const)('with the %s decoder', (mode) => {
    let processor: ImageProcessor;
    let decoder: ChosenHeicDecoder;
    let tempDir: string;

    beforeAll(() => {
      tempDir = mkdtempSync(path.join(dir, `${mode}-temp-`));
      // `native` throws when the binary is missing: these tests then fail rather than skip.
      processor = createImageProcessor({
        maxPixels: MAX_PIXELS,
        concurrency: 1,
        heicDecoder: mode,
        tempDir,
      });
      decoder = createHeicDecoder({ mode, parallelism: 1, tempDir });
    });
    afterAll(async () => {
      await processor?.close();
      await decoder?.close();
    });

    it('is the decoder asked for', () => {
      expect(processor.heicDecoder).toBe(mode);
      expect(decoder.kind).toBe(mode);
    });

    it('stores an HEIC upright at its size, as JPEG and WebP renditions', async () => {
      const result = await processor.process(heicFile);
      expect(result.type).toBe('image/heic');
      expect([result.formatted.width, result.formatted.height]).toEqual([320, 240]);
      expect([result.preview.width, result.preview.height]).toEqual([320, 240]);
      expect((await sharp(result.formatted.buffer).metadata()).format).toBe('jpeg');
      expect((await sharp(result.preview.buffer).metadata()).format).toBe('webp');
      await expectUprightQuadrants(result.formatted.buffer, 320, 240);
      // The intermediate file is gone.
      expect(readdirSync(tempDir)).toEqual([]);
    });

    it('decodes into an image of the full picture', async () => {
      const image = await decoder.decode({
        filePath: heicFile,
        maxPixels: MAX_PIXELS,
        icc: null,
        keepAlpha: false,
      });
      const meta = await sharp(image).metadata();
      // libheif 1.17 and later write a TIFF, older ones a JPEG (heic-native.ts).
      const native = await probeHeifDecoder(findHeifDecoder() ?? 'heif-dec', 10_000);
      expect([meta.format, meta.width, meta.height, meta.channels]).toEqual([
        mode === 'native' ? native.intermediate : 'tiff',
        320,
        240,
        3,
      ]);
    });

    it('does not apply an EXIF orientation libheif has already accounted for', async () => {
      // HEIF rotates with its own irot/imir boxes; its EXIF Orientation is not applied on top
      // (heif-convert copies the tag into its JPEG, which must not turn the picture again).
      const result = await processor.process(orientedFile);
      expect([result.formatted.width, result.formatted.height]).toEqual([320, 240]);
      await expectUprightQuadrants(result.formatted.buffer, 320, 240);
    });

    it('refuses an HEIC over the pixel limit as too large, from its header', async () => {
      const small = createImageProcessor({ maxPixels: 1000, concurrency: 1, heicDecoder: mode });
      const err: unknown = await small.process(heicFile).catch((e: unknown) => e);
      await small.close();
      expect(err).toBeInstanceOf(ImageError);
      expect((err as ImageError).reason).toBe('too_large');
      expect((err as ImageError).pixels).toEqual({ actual: 320 * 240, limit: 1000 });
    });

    it('refuses a truncated HEIC as corrupt, and decodes the next one', async () => {
      const bytes = await quadrantHeic(320, 240);
      const truncated = path.join(dir, `truncated-${mode}.heic`);
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const err: unknown = await processor.process(truncated).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImageError);
      expect((err as ImageError).reason).toBe('corrupt');
      expect(readdirSync(tempDir)).toEqual([]);
      expect((await processor.process(heicFile)).formatted.width).toBe(320);
    });
  });

  it('refuses in the WASM worker an HEIC over the pixel limit as too large', async () => {
    const decoder = createHeicDecoder({ mode: 'wasm', parallelism: 1 });
    const err: unknown = await decoder
      .decode({ filePath: heicFile, maxPixels: 1000, icc: null, keepAlpha: false })
      .catch((e: unknown) => e);
    await decoder.close();
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('too_large');
    expect((err as ImageError).pixels).toEqual({ actual: 320 * 240, limit: 1000 });
  });

  it('still decodes after a refusal, and close() ends its workers', async () => {
    const own = createHeicDecoder({ mode: 'wasm', parallelism: 1 });
    const task = { filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false };
    await own.decode({ ...task, maxPixels: 1000 }).catch(() => undefined);
    expect((await sharp(await own.decode(task)).metadata()).width).toBe(320);
    await own.close();
  });

  it('does not apply the EXIF orientation a native decoder copies into its JPEG', async () => {
    // heif-convert before libheif 1.17 copied the HEIC's EXIF, Orientation included, into the
    // upright JPEG it wrote (heif-dec 1.19 resets it to 1): a stand-in writes such a JPEG.
    const jpeg = path.join(dir, 'upright-with-orientation-6.jpg');
    await quadrantImage(320, 240)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toFile(jpeg);
    const binary = path.join(dir, 'copies-orientation.sh');
    writeFileSync(
      binary,
      // It answers neither --list-decoders nor --help, as a decoder before libheif 1.17 might.
      `#!/bin/sh\n{ [ "$1" = --list-decoders ] || [ "$1" = --help ]; } && exit 1\nfor last in "$@"; do :; done\ncp '${jpeg}' "$last"\n`,
    );
    chmodSync(binary, 0o755);
    const processor = createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: 1,
      heicDecoder: 'native',
      heicBinary: binary,
      tempDir: mkdtempSync(path.join(dir, 'orientation-temp-')),
    });
    const result = await processor.process(heicFile);
    await processor.close();
    expect([result.formatted.width, result.formatted.height]).toEqual([320, 240]);
    await expectUprightQuadrants(result.formatted.buffer, 320, 240);
  });

  it('kills a native decoder that hangs, refuses the photo as corrupt and leaves no file', async () => {
    const hung = path.join(dir, 'hung-decoder.sh');
    writeFileSync(hung, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(hung, 0o755);
    const tempDir = mkdtempSync(path.join(dir, 'hung-temp-'));
    const decoder = createHeicDecoder({ mode: 'native', binary: hung, timeoutMs: 300, tempDir });
    const started = Date.now();
    const err: unknown = await decoder
      .decode({ filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false })
      .catch((e: unknown) => e);
    await decoder.close();
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('corrupt');
    expect(String((err as ImageError).cause)).toMatch(/timed out/);
    // Generous: the 30 s sleep was killed, not waited for.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('refuses the photo as corrupt when the native decoder crashes, and leaves no file', async () => {
    const crashing = path.join(dir, 'crashing-decoder.sh');
    writeFileSync(crashing, '#!/bin/sh\nkill -SEGV $$\n');
    chmodSync(crashing, 0o755);
    const tempDir = mkdtempSync(path.join(dir, 'crash-temp-'));
    const decoder = createHeicDecoder({ mode: 'native', binary: crashing, tempDir });
    const err: unknown = await decoder
      .decode({ filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false })
      .catch((e: unknown) => e);
    await decoder.close();
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('corrupt');
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('falls back to WASM when the native binary cannot be started (auto), not when forced', async () => {
    const task = { filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false };
    const binary = path.join(dir, 'no-such-heif-dec');
    const auto = createHeicDecoder({ mode: 'auto', binary, parallelism: 1 });
    expect(auto.kind).toBe('native');
    expect((await sharp(await auto.decode(task)).metadata()).format).toBe('tiff');
    await auto.close();

    const forced = createHeicDecoder({ mode: 'native', binary, parallelism: 1 });
    await expect(forced.decode(task)).rejects.toThrow(/could not run/);
    await forced.close();
  });

  it('falls back to WASM when the native decoder’s temp file cannot be made (auto)', async () => {
    const task = { filePath: heicFile, maxPixels: MAX_PIXELS, icc: null, keepAlpha: false };
    // A temp "dir" under a regular file: mkdir fails as a full or broken disk would.
    const tempDir = path.join(heicFile, 'tmp');
    const auto = createHeicDecoder({ mode: 'auto', tempDir, parallelism: 1 });
    expect(auto.kind).toBe('native');
    expect((await sharp(await auto.decode(task)).metadata()).format).toBe('tiff');
    await auto.close();
  });

  it('sends an HEIC with transparency to WASM, which keeps its alpha for the white flatten', async () => {
    const png = path.join(dir, 'alpha.png');
    const file = path.join(dir, 'alpha.heic');
    // Left half opaque red, right half fully transparent.
    const rgba = Buffer.alloc(320 * 240 * 4);
    for (let p = 0; p < 320 * 240; p++) {
      const opaque = p % 320 < 160;
      rgba.set(opaque ? [220, 30, 30, 255] : [0, 0, 0, 0], p * 4);
    }
    await sharp(rgba, { raw: { width: 320, height: 240, channels: 4 } })
      .png()
      .toFile(png);
    await promisify(execFile)(HEIF_ENC ?? 'heif-enc', ['-q', '90', png, '-o', file]);
    const processor = createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: 1,
      heicDecoder: 'native',
    });
    const result = await processor.process(file);
    await processor.close();
    expect(closeTo(await pixelAt(result.formatted.buffer, 40, 120), [220, 30, 30])).toBe(true);
    expect(closeTo(await pixelAt(result.formatted.buffer, 280, 120), [255, 255, 255])).toBe(true);
  });
});
