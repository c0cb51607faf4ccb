// Second pass of the pipeline tests over real camera and phone files (architecture §9), read
// from PHOTO_CORPUS_DIR; skipped, saying so, when it is unset.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createImageProcessor,
  FORMATTED_MAX_EDGE,
  ImageError,
  PREVIEW_MAX_EDGE,
  type ImageRefusalReason,
  type ProcessedImage,
} from './image-processor.js';

const corpusDir = process.env.PHOTO_CORPUS_DIR;
const MAX_PIXELS = 120_000_000;

interface Expectation {
  type?: string;
  /** Formatted width × height. */
  formatted?: [number, number];
  refused?: ImageRefusalReason;
  camera?: string;
  capturedAt?: string;
  position?: [number, number];
}

/** What we know about the files of ../shared/fixtures/photos; other files get the generic checks. */
const KNOWN: Record<string, Expectation> = {
  'iphone-IMG_5195.heic': {
    type: 'image/heic',
    formatted: [1586, 2048],
    camera: 'Apple iPhone 11 Pro Max',
    capturedAt: '2021-04-11T20:47:53.000Z',
    position: [39.0513, -94.2888],
  },
  'sample.heif': { type: 'image/heic', formatted: [640, 426] },
  'orientation-portrait_6.jpg': { formatted: [450, 600] },
  'orientation-landscape_3.jpg': { formatted: [600, 450] },
  'orientation-landscape_8.jpg': { formatted: [600, 450] },
  'Canon_40D.jpg': {
    formatted: [100, 68],
    camera: 'Canon EOS 40D',
    // No UTC offset in its EXIF: the camera's wall-clock time, with no zone.
    capturedAt: '2008-05-30T15:56:01',
  },
  'Nikon_D70.jpg': { formatted: [100, 66], camera: 'NIKON D70' },
  'gps-DSCN0010.jpg': {
    formatted: [640, 480],
    position: [43.4674, 11.8851],
    camera: 'NIKON COOLPIX P6000',
  },
  'gps-DSCN0021.jpg': { formatted: [640, 480], position: [43.4671, 11.8845] },
  'phone-jolla.jpg': { formatted: [2048, 1536], camera: 'Jolla' },
  'corrupted-truncated.jpg': { refused: 'corrupt' },
  'invalid-image01088.jpg': { formatted: [425, 120] },
};

const files = corpusDir
  ? readdirSync(corpusDir)
      .filter((f) => !f.startsWith('.') && !/\.(md|txt)$/i.test(f))
      .sort()
  : [];

/** Width × height as the viewer should see the photo (EXIF orientation applied). */
async function uprightSize(file: string): Promise<[number, number] | null> {
  try {
    const meta = await sharp(file).metadata();
    return meta.autoOrient
      ? [meta.autoOrient.width, meta.autoOrient.height]
      : [meta.width, meta.height];
  } catch {
    return null;
  }
}

describe.skipIf(!corpusDir)(
  'the image processor over the real-photo corpus (skipped unless PHOTO_CORPUS_DIR is set)',
  () => {
    const results = new Map<string, ProcessedImage>();
    const processor = createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: 2,
      maxQueue: files.length,
    });
    afterAll(() => processor.close());

    it.each(files)(
      '%s is stored upright at the right size, or refused with a clear message',
      async (name) => {
        const file = path.join(corpusDir ?? '', name);
        const known = KNOWN[name] ?? {};
        const outcome = await processor.process(file).then(
          (r) => r,
          (e: unknown) => e,
        );

        if (!(outcome && typeof outcome === 'object' && 'formatted' in outcome)) {
          // A refusal the client is told about (a 4xx); `busy` would be the server's fault.
          if (!(outcome instanceof ImageError)) throw outcome;
          expect(['empty', 'unsupported', 'too_large', 'corrupt']).toContain(outcome.reason);
          expect(outcome.message.length).toBeGreaterThan(10);
          if (known.refused) expect(outcome.reason).toBe(known.refused);
          else expect.fail(`${name} was refused: ${outcome.message}`);
          return;
        }
        const result = outcome as ProcessedImage;
        results.set(name, result);
        expect(known.refused, `${name} should have been refused`).toBeUndefined();
        if (known.type) expect(result.type).toBe(known.type);

        const { formatted, preview } = result;
        expect(Math.max(formatted.width, formatted.height)).toBeLessThanOrEqual(FORMATTED_MAX_EDGE);
        expect(Math.max(preview.width, preview.height)).toBeLessThanOrEqual(PREVIEW_MAX_EDGE);
        if (known.formatted) expect([formatted.width, formatted.height]).toEqual(known.formatted);
        const upright = await uprightSize(file);
        if (upright && !name.match(/\.hei[cf]$/i)) {
          // Same shape as the upright original, never bigger.
          expect(formatted.width).toBeLessThanOrEqual(upright[0]);
          expect(formatted.height).toBeLessThanOrEqual(upright[1]);
          expect(formatted.width / formatted.height).toBeCloseTo(upright[0] / upright[1], 1);
        }
        for (const rendition of [formatted, preview]) {
          const meta = await sharp(rendition.buffer).metadata();
          expect([meta.width, meta.height]).toEqual([rendition.width, rendition.height]);
          expect(meta.exif).toBeUndefined();
          expect(meta.orientation).toBeUndefined();
        }

        if (known.camera) expect(result.meta.camera).toBe(known.camera);
        if (known.capturedAt) expect(result.meta.capturedAt).toBe(known.capturedAt);
        if (known.position) {
          expect(result.meta.latitude).toBeCloseTo(known.position[0], 3);
          expect(result.meta.longitude).toBeCloseTo(known.position[1], 3);
        }
      },
    );

    it('turns orientation 3 (180°) and 8 (90°) photos of the same scene into the same picture', async (ctx) => {
      const a = results.get('orientation-landscape_3.jpg');
      const b = results.get('orientation-landscape_8.jpg');
      if (!a || !b) return ctx.skip('the orientation-landscape_3/8 pair is not in the corpus');
      const raw = (r: ProcessedImage) => sharp(r.formatted.buffer).raw().toBuffer();
      const [pa, pb] = await Promise.all([raw(a), raw(b)]);
      let diff = 0;
      for (let i = 0; i < pa.length; i++) diff += Math.abs((pa[i] ?? 0) - (pb[i] ?? 0));
      // Upside down, the mean difference is ~68 levels; the same picture re-encoded is a few.
      expect(diff / pa.length).toBeLessThan(10);
    });
  },
);

const heicFiles = files.filter((f) => /\.hei[cf]$/i.test(f));

describe.skipIf(!corpusDir || heicFiles.length === 0)(
  'the native and the WASM HEIC decoders agree on the corpus HEICs (skipped without them)',
  () => {
    // `native` fails here when Debian's heif-dec/heif-convert is missing (CI installs it).
    const native = createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: 1,
      heicDecoder: 'native',
    });
    const wasm = createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: 1,
      heicDecoder: 'wasm',
    });
    afterAll(() => Promise.all([native.close(), wasm.close()]));

    it.each(heicFiles)(
      '%s: same size, capture time, place and camera, and nearly the same pixels',
      async (name) => {
        const file = path.join(corpusDir ?? '', name);
        const [a, b] = [await native.process(file), await wasm.process(file)];
        expect([a.formatted.width, a.formatted.height]).toEqual([
          b.formatted.width,
          b.formatted.height,
        ]);
        expect([a.preview.width, a.preview.height]).toEqual([b.preview.width, b.preview.height]);
        expect(a.meta).toEqual(b.meta);
        const raw = (r: ProcessedImage) => sharp(r.formatted.buffer).raw().toBuffer();
        const [pa, pb] = await Promise.all([raw(a), raw(b)]);
        let diff = 0;
        const sums = [0, 0, 0];
        for (let i = 0; i < pa.length; i++) {
          diff += Math.abs((pa[i] ?? 0) - (pb[i] ?? 0));
          sums[i % 3] = (sums[i % 3] ?? 0) + (pa[i] ?? 0) - (pb[i] ?? 0);
        }
        // Measured ~1 level: the q95 JPEG intermediate. Wrong colour handling (a P3 profile
        // applied twice or not at all) moves the channel means by several levels, a turned or
        // shifted picture the mean difference by tens.
        expect(diff / pa.length).toBeLessThan(3);
        const pixels = pa.length / 3;
        for (const sum of sums) expect(Math.abs(sum) / pixels).toBeLessThan(1);
      },
    );
  },
);
