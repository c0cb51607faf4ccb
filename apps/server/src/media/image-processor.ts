// The image pipeline's policy: what is refused, the renditions and their sizes, and how many
// images are decoded at once. The sharp calls are in sharp-adapter.ts, HEIC decoding in
// heic-decoder.ts.
import { colourPlan } from './icc.js';
import {
  corruptImage,
  ImageError,
  imageQueueFull,
  imageTooLarge,
  type ImageRefusalReason,
} from './image-error.js';
import { sniffImageFile } from './image-type.js';
import { createHeicDecoder, type ChosenHeicDecoder, type HeicDecoderMode } from './heic-decoder.js';
import { createLimiter } from './limiter.js';
import type { ImageMime } from './media-types.js';
import { readPhotoMeta, type PhotoMeta } from './photo-meta.js';
import {
  isPixelLimitError,
  sharpAdapter,
  type ImageAdapter,
  type ImageHeader,
  type RawImage,
} from './sharp-adapter.js';

export { ImageError, type ImageRefusalReason };

/** Long edge of the preview (tiles, lists). */
export const PREVIEW_MAX_EDGE = 480;
/** Long edge of the formatted display image; smaller photos keep their size. */
export const FORMATTED_MAX_EDGE = 2048;
const FORMATTED_JPEG_QUALITY = 82;
const PREVIEW_WEBP_QUALITY = 75;
const DECODE_TIMEOUT_SECONDS = 60;

/** One derivative written by the pipeline; metadata-free, upright, sRGB. */
export interface ImageRendition {
  buffer: Buffer;
  width: number;
  height: number;
  contentType: 'image/jpeg' | 'image/webp';
}

export interface ProcessedImage {
  /** Type sniffed from the bytes: the original's content type. */
  type: ImageMime;
  /** WebP, at most PREVIEW_MAX_EDGE on the long edge. */
  preview: ImageRendition;
  /** JPEG, at most FORMATTED_MAX_EDGE on the long edge, never upscaled (`formatedWidth/Height`). */
  formatted: ImageRendition;
  meta: PhotoMeta;
}

export interface ImageProcessorOptions {
  /** Largest accepted width × height (config.uploads.maxPixels). */
  maxPixels: number;
  /** Images decoded at once (≈ CPU cores; config.uploads.concurrency). */
  concurrency: number;
  /** Images allowed to wait for a slot; default 16 per slot. */
  maxQueue?: number;
  /** The image library; the sharp one unless a test wraps it to watch what is decoded. */
  adapter?: ImageAdapter;
  /** Who decodes HEVC-coded HEIC (config.uploads.heicDecoder); default `auto`. */
  heicDecoder?: HeicDecoderMode;
  /** Private folder for the native HEIC decoder's intermediate files (config.uploads.tempDir). */
  tempDir?: string;
  /** The native HEIC decoder's binary; heif-dec or heif-convert on PATH when unset. */
  heicBinary?: string;
}

export interface ImageProcessor {
  /**
   * Turns an uploaded file into the preview, the formatted image and the photo's metadata.
   * The type comes from the bytes; the pixel count is checked from the header before anything
   * is decoded; the file is decoded once. Truncated or corrupt images are refused, not stored
   * half grey.
   *
   * Throws ImageError: `empty` or `unsupported` file, `too_large` (more than `maxPixels`),
   * `corrupt` (damaged, truncated, a JPEG header on garbage…), `busy` (the queue is full).
   */
  process(filePath: string): Promise<ProcessedImage>;
  /** Decodes running now. */
  readonly active: number;
  /** Decodes waiting for a slot. */
  readonly queued: number;
  /** Which decoder HEVC-coded HEICs get: `native` (Debian's libheif) or `wasm`. */
  readonly heicDecoder: 'native' | 'wasm';
  /** Ends the HEIC decoder's workers (graceful shutdown, tests). */
  close(): Promise<void>;
}

/**
 * The server's image pipeline: caps concurrent decodes at `concurrency` and queues the rest;
 * beyond `maxQueue` waiting images it refuses at once (`busy`) instead of piling up memory.
 */
export function createImageProcessor(options: ImageProcessorOptions): ImageProcessor {
  const adapter = options.adapter ?? sharpAdapter;
  // Inside the processor's own limiter, so at most `concurrency` HEIC decodes run at once.
  const heic = createHeicDecoder({
    mode: options.heicDecoder,
    parallelism: options.concurrency,
    tempDir: options.tempDir,
    binary: options.heicBinary,
  });
  const limiter = createLimiter(options.concurrency, {
    maxQueue: options.maxQueue ?? options.concurrency * 16,
    onFull: imageQueueFull,
  });
  const pipeline = { adapter, heic, maxPixels: options.maxPixels };
  return {
    process: (filePath) => limiter.run(() => processImage(pipeline, filePath)),
    get active() {
      return limiter.active;
    },
    get queued() {
      return limiter.queued;
    },
    heicDecoder: heic.kind,
    close: () => heic.close(),
  };
}

interface Pipeline {
  adapter: ImageAdapter;
  heic: ChosenHeicDecoder;
  maxPixels: number;
}

/** A decoder failure as a refusal: the libvips pixel limit → `too_large`, the rest `corrupt`. */
function refusal(err: unknown, pixels: number, maxPixels: number): ImageError {
  if (err instanceof ImageError) return err;
  if (isPixelLimitError(err)) return imageTooLarge(pixels, maxPixels);
  return corruptImage(err);
}

async function processImage(
  { adapter, heic, maxPixels }: Pipeline,
  filePath: string,
): Promise<ProcessedImage> {
  const type = await sniffImageFile(filePath);

  let header: ImageHeader;
  try {
    header = await adapter.readHeader(filePath);
  } catch (err) {
    throw corruptImage(err);
  }
  const { width, height } = header;
  if (!width || !height) throw corruptImage();
  const pixels = width * height;
  if (pixels > maxPixels) throw imageTooLarge(pixels, maxPixels);

  const metaPromise = readPhotoMeta(filePath);
  const decodeOptions = {
    maxPixels,
    maxEdge: FORMATTED_MAX_EDGE,
    timeoutSeconds: DECODE_TIMEOUT_SECONDS,
  };
  const viaHeicDecoder = async () => {
    const image = await heic.decode({
      filePath,
      maxPixels,
      icc: header.icc ? new Uint8Array(header.icc) : null,
      keepAlpha: header.hasAlpha,
      pages: header.pages,
    });
    // The decoded image carries the original's ICC profile; libheif already applied the HEIF
    // rotation/mirroring, so an EXIF orientation it may still carry is not applied again.
    return adapter.decodeUpright(image, {
      ...decodeOptions,
      colour: colourPlan({ icc: header.icc, space: 'srgb' }),
      upright: true,
    });
  };

  let decoded: RawImage;
  try {
    // sharp's prebuilt libvips has no HEVC decoder; AVIF (AV1) and the rest it decodes itself.
    decoded =
      header.compression === 'hevc'
        ? await viaHeicDecoder()
        : await adapter.decodeUpright(filePath, { ...decodeOptions, colour: colourPlan(header) });
  } catch (err) {
    throw refusal(err, pixels, maxPixels);
  }

  const [formatted, preview] = await Promise.all([
    adapter.encodeJpeg(decoded, { quality: FORMATTED_JPEG_QUALITY }),
    adapter.encodeWebp(decoded, { quality: PREVIEW_WEBP_QUALITY, maxEdge: PREVIEW_MAX_EDGE }),
  ]);
  return {
    type,
    formatted: { ...formatted, contentType: 'image/jpeg' },
    preview: { ...preview, contentType: 'image/webp' },
    meta: await metaPromise,
  };
}
