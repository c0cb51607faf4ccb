// The one place that touches sharp/libvips and the HEIC decoder (via heic-worker.mjs).
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import exifr from 'exifr';
import sharp from 'sharp';
import { AppError } from '../errors.js';
import { createLimiter } from './limiter.js';
import { ACCEPTED_IMAGE_LABELS, type ImageMime } from './media-types.js';

// Every upload is a different file; libvips' operation cache would only hold memory and open
// descriptors of deleted temp files.
sharp.cache(false);

/** Long edge of the preview (tiles, lists). */
export const PREVIEW_MAX_EDGE = 480;
/** Long edge of the formatted display image; smaller photos keep their size. */
export const FORMATTED_MAX_EDGE = 2048;
const FORMATTED_JPEG_QUALITY = 82;
const PREVIEW_WEBP_QUALITY = 75;
const DECODE_TIMEOUT_SECONDS = 60;
const HEIC_WORKER_TIMEOUT_MS = 60_000;
const HEIC_WORKER_IDLE_MS = 30_000;
const SNIFF_BYTES = 64;

/** One derivative written by the pipeline; metadata-free, upright, sRGB. */
export interface ImageRendition {
  buffer: Buffer;
  width: number;
  height: number;
  contentType: 'image/jpeg' | 'image/webp';
}

/** What the photo says about itself (EXIF); every field is null when absent or implausible. */
export interface PhotoMeta {
  /**
   * ISO 8601. When the camera recorded its UTC offset: the exact instant in UTC, ending in `Z`
   * ("2024-05-05T21:08:09.000Z"). Otherwise: the camera's wall-clock time as a local date-time
   * without a zone designator ("2024-05-06T07:08:09"), since its zone is unknown.
   */
  capturedAt: string | null;
  latitude: number | null;
  longitude: number | null;
  /** "Make Model", without the make repeated ("Canon EOS 40D", "Apple iPhone 11 Pro Max"). */
  camera: string | null;
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

export const unsupportedImageType = () =>
  new AppError(
    415,
    'unsupported_media_type',
    `This type of file is not supported. Upload a ${ACCEPTED_IMAGE_LABELS} image.`,
  );

const emptyFile = () =>
  new AppError(
    415,
    'unsupported_media_type',
    `The file is empty. Upload a ${ACCEPTED_IMAGE_LABELS} image.`,
  );

const unreadableImage = (cause?: unknown) => {
  const error = new AppError(
    422,
    'unreadable_image',
    'The file could not be read as an image. It may be damaged or incomplete.',
  );
  if (cause !== undefined) error.cause = cause;
  return error;
};

const megapixels = (pixels: number) => {
  const mp = pixels / 1_000_000;
  return mp >= 10 ? String(Math.round(mp)) : String(Math.round(mp * 10) / 10);
};

const tooManyPixels = (pixels: number, maxPixels: number) =>
  new AppError(
    413,
    'image_too_large',
    `The image is too large (${megapixels(pixels)} megapixels; limit ${megapixels(maxPixels)}).`,
  );

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2', 'miaf']);

/** AVIF/HEIC/HEIF from an ISO-BMFF `ftyp` box (major and compatible brands). */
function sniffIsoBmff(bytes: Uint8Array): ImageMime | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const major = ascii(bytes, 8, 12);
  const brands = [major];
  for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length); at += 4)
    brands.push(ascii(bytes, at, at + 4));
  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (brands.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
  if (brands.some((b) => HEIF_BRANDS.has(b))) return 'image/heif';
  return null;
}

/**
 * Identifies an image type from a file's first bytes (64 are plenty); null for anything else.
 * Never looks at names or client-declared types.
 */
export function sniffImageType(head: Uint8Array): ImageMime | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a'))
    return 'image/gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP')
    return 'image/webp';
  // Classic TIFF (42) and BigTIFF (43), both byte orders.
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff';
  if (startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2b]))
    return 'image/tiff';
  return sniffIsoBmff(head);
}

/**
 * Sniffs a file on disk. Throws AppError 415 when it is empty or not one of the accepted types.
 */
export async function sniffImageFile(filePath: string): Promise<ImageMime> {
  const handle = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    if (bytesRead === 0) throw emptyFile();
    const type = sniffImageType(head.subarray(0, bytesRead));
    if (!type) throw unsupportedImageType();
    return type;
  } finally {
    await handle.close();
  }
}

// ---- EXIF ------------------------------------------------------------------------------------

const EXIF_TAGS = [
  'Make',
  'Model',
  'DateTimeOriginal',
  'CreateDate',
  'OffsetTimeOriginal',
  'OffsetTimeDigitized',
  'GPSLatitude',
  'GPSLatitudeRef',
  'GPSLongitude',
  'GPSLongitudeRef',
];

const NO_META: PhotoMeta = { capturedAt: null, latitude: null, longitude: null, camera: null };

/**
 * An EXIF date-time ("2021:04:11 15:47:53") as ISO 8601, or null when malformed or impossible.
 * With a recorded UTC offset ("-05:00") it is an instant in UTC ("2021-04-11T20:47:53.000Z").
 * Without one, the camera's wall-clock time is all that is known, so it is returned as a local
 * date-time with no zone designator ("2021-04-11T15:47:53"): shown as-is, never shifted.
 */
export function exifDateToIso(value: unknown, offset: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
    return null;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(wallClock).getUTCDate() !== day) return null;
  const offsetMinutes = utcOffsetMinutes(offset);
  if (offsetMinutes === null) return new Date(wallClock).toISOString().slice(0, 19);
  return new Date(wallClock - offsetMinutes * 60_000).toISOString();
}

/** EXIF OffsetTime* ("+10:00", "-05:30") in minutes east of UTC; null when absent or invalid. */
function utcOffsetMinutes(offset: unknown): number | null {
  const o = typeof offset === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim()) : null;
  if (!o) return null;
  const hours = Number(o[2]);
  const minutes = Number(o[3]);
  // Real offsets run from -12:00 to +14:00.
  if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return null;
  return (o[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const cleanText = (value: unknown) =>
  typeof value === 'string' ? value.replace(/\0/g, '').replace(/\s+/g, ' ').trim() : '';

/** Make + model without the make twice ("NIKON CORPORATION" + "NIKON D70" → "NIKON D70"). */
export function cameraName(make: unknown, model: unknown): string | null {
  const mk = cleanText(make);
  const md = cleanText(model);
  const firstWord = mk.split(' ')[0]?.toLowerCase() ?? '';
  const name = !md
    ? mk
    : !mk || (firstWord && md.toLowerCase().startsWith(firstWord))
      ? md
      : `${mk} ${md}`;
  return name ? name.slice(0, 200) : null;
}

function coordinate(value: unknown, limit: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit
    ? value
    : null;
}

/**
 * Capture time, GPS position and camera from EXIF (JPEG, HEIC, TIFF, PNG, AVIF). Metadata is a
 * bonus: broken or missing EXIF gives nulls, never an error.
 */
export async function readPhotoMeta(filePath: string): Promise<PhotoMeta> {
  let tags: unknown;
  try {
    tags = await exifr.parse(filePath, {
      pick: EXIF_TAGS,
      reviveValues: false,
      translateValues: false,
    });
  } catch {
    return NO_META;
  }
  if (typeof tags !== 'object' || tags === null) return NO_META;
  const t = tags as Record<string, unknown>;
  const capturedAt =
    exifDateToIso(t.DateTimeOriginal, t.OffsetTimeOriginal) ??
    exifDateToIso(t.CreateDate, t.OffsetTimeDigitized);
  let latitude = coordinate(t.latitude, 90);
  let longitude = coordinate(t.longitude, 180);
  // 0,0 is what receivers write without a fix; nobody photographs a building site there.
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) {
    latitude = null;
    longitude = null;
  }
  return { capturedAt, latitude, longitude, camera: cameraName(t.Make, t.Model) };
}

// ---- HEIC in a worker ------------------------------------------------------------------------

/**
 * True when the installed libvips decodes HEVC itself (a global libvips built with libde265).
 * sharp's prebuilt binaries only decode AV1 (AVIF): they list `.avif` as the only heif suffix.
 */
export const NATIVE_HEVC = sharp.format.heif.input.fileSuffix?.includes('.heic') ?? false;

interface HeicTask {
  filePath: string;
  maxPixels: number;
  icc: Uint8Array | null;
  keepAlpha: boolean;
}

type HeicResult =
  | { ok: true; tiff: Uint8Array; width: number; height: number }
  | {
      ok: false;
      reason: 'too_many_pixels' | 'undecodable';
      message: string;
      width?: number;
      height?: number;
    };

const WORKER_URL = new URL('./heic-worker.mjs', import.meta.url);
const idleWorkers = new Map<Worker, NodeJS.Timeout>();
const heicLimiter = createLimiter(Math.max(1, availableParallelism()));

function takeWorker(): Worker {
  for (const [worker, timer] of idleWorkers) {
    clearTimeout(timer);
    idleWorkers.delete(worker);
    worker.ref();
    return worker;
  }
  return new Worker(WORKER_URL);
}

/** Keeps a worker warm for the next HEIC (the WASM module takes ~0.1 s to load), then ends it. */
function parkWorker(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => {
    idleWorkers.delete(worker);
    void worker.terminate();
  }, HEIC_WORKER_IDLE_MS);
  timer.unref();
  idleWorkers.set(worker, timer);
}

function runOnWorker(worker: Worker, task: HeicTask): Promise<HeicResult> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    const onMessage = (message: HeicResult) => {
      cleanup();
      resolve(message);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`HEIC decoder exited with code ${code}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('HEIC decoding timed out'));
    }, HEIC_WORKER_TIMEOUT_MS);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(task);
  });
}

/** Decodes an HEVC HEIC/HEIF with WASM libheif off the main thread; returns a TIFF for sharp. */
async function decodeHeicInWorker(task: HeicTask): Promise<Buffer> {
  const result = await heicLimiter.run(async () => {
    const worker = takeWorker();
    try {
      const answer = await runOnWorker(worker, task);
      parkWorker(worker);
      return answer;
    } catch (err) {
      void worker.terminate();
      throw unreadableImage(err);
    }
  });
  if (!result.ok) {
    if (result.reason === 'too_many_pixels') {
      throw tooManyPixels((result.width ?? 0) * (result.height ?? 0), task.maxPixels);
    }
    throw unreadableImage(new Error(result.message));
  }
  return Buffer.from(result.tiff.buffer, result.tiff.byteOffset, result.tiff.byteLength);
}

/** Ends idle HEIC workers (graceful shutdown, tests). Busy ones end after their task's idle time. */
export async function closeImageWorkers(): Promise<void> {
  const workers = [...idleWorkers.keys()];
  for (const [worker, timer] of idleWorkers) {
    clearTimeout(timer);
    idleWorkers.delete(worker);
  }
  await Promise.all(workers.map((w) => w.terminate()));
}

// ---- the pipeline ----------------------------------------------------------------------------

const isMissingCodec = (err: unknown) =>
  err instanceof Error &&
  /compression format has not been built in|no decoding plugin|not supported/i.test(err.message);

/** Maps a libvips failure to the user's error: pixel limit → 413, everything else → 422. */
function decodeError(err: unknown, pixels: number, maxPixels: number): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof Error && /pixel limit/i.test(err.message))
    return tooManyPixels(pixels, maxPixels);
  return unreadableImage(err);
}

/**
 * The profile's description ('desc' tag: ICC v2 text or v4 `mluc`), or null when the profile is
 * malformed. Only used to recognise sRGB profiles.
 */
export function iccDescription(icc: Uint8Array): string | null {
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  const fits = (offset: number, length: number) =>
    offset >= 0 && length >= 0 && offset + length <= icc.length;
  if (!fits(128, 4)) return null;
  const tags = view.getUint32(128);
  for (let i = 0; i < tags && fits(132 + i * 12, 12); i++) {
    const at = 132 + i * 12;
    if (ascii(icc, at, at + 4) !== 'desc') continue;
    const offset = view.getUint32(at + 4);
    if (!fits(offset, 12)) return null;
    const type = ascii(icc, offset, offset + 4);
    if (type === 'desc') {
      const length = view.getUint32(offset + 8);
      if (!fits(offset + 12, length)) return null;
      return ascii(icc, offset + 12, offset + 12 + length).replace(/\0+$/, '');
    }
    if (type === 'mluc' && fits(offset, 28)) {
      const length = view.getUint32(offset + 20);
      const start = offset + view.getUint32(offset + 24);
      if (!fits(start, length)) return null;
      let text = '';
      for (let c = 0; c + 1 < length; c += 2)
        text += String.fromCharCode(view.getUint16(start + c));
      return text;
    }
    return null;
  }
  return null;
}

type Decoded = { data: Buffer; info: sharp.OutputInfo };

/**
 * The single decode: EXIF orientation applied, transparency flattened onto white, shrunk to the
 * formatted size (JPEG shrink-on-load makes that the cheap part), converted to sRGB once, handed
 * back as raw 8-bit pixels for both encoders.
 *
 * Colour, measured on a 12 MP JPEG (bench/images.ts): converting through lcms before the resize,
 * as sharp does, costs about 2.5× the whole decode. So an sRGB-tagged photo (most cameras) is
 * not converted at all, it already is sRGB; a wide-gamut one (iPhone Display P3, Adobe RGB) is
 * shrunk in its own colour space with the profile kept, and only the shrunk pixels are
 * converted (one uncompressed TIFF in memory between the two steps).
 */
async function decodeUpright(
  source: string | Buffer,
  colour: { icc?: Buffer | undefined; space?: string | undefined },
  inputOptions: sharp.SharpOptions,
): Promise<Decoded> {
  const description = colour.icc ? iccDescription(colour.icc) : null;
  const srgbTagged = description !== null && /srgb/i.test(description);
  const convertAfterResize = colour.icc !== undefined && !srgbTagged && colour.space === 'srgb';
  const shrunk = sharp(source, { ...inputOptions, ignoreIcc: srgbTagged })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({
      width: FORMATTED_MAX_EDGE,
      height: FORMATTED_MAX_EDGE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .timeout({ seconds: DECODE_TIMEOUT_SECONDS });
  const toRawSrgb = (image: sharp.Sharp) =>
    image.toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (!convertAfterResize) return toRawSrgb(shrunk);
  const tagged = await shrunk.keepIccProfile().tiff({ compression: 'none' }).toBuffer();
  return toRawSrgb(sharp(tagged, { failOn: 'truncated' }));
}

export interface ProcessImageOptions {
  /** Largest accepted width × height (config.uploads.maxPixels). */
  maxPixels: number;
}

/**
 * Turns an uploaded file into the preview, the formatted image and the photo's metadata.
 * The type comes from the bytes; the pixel count is checked from the header before anything is
 * decoded; the file is decoded once. Truncated or corrupt images are refused (libvips
 * `failOn: 'truncated'`), not stored half grey; harmless decoder warnings are tolerated.
 *
 * Throws AppError: 415 unsupported or empty file, 413 more than `maxPixels` pixels, 422 not
 * decodable (damaged, truncated, a JPEG header on garbage…). Runs unthrottled: servers use
 * `createImageProcessor` to cap concurrent decodes.
 */
export async function processImage(
  filePath: string,
  options: ProcessImageOptions,
): Promise<ProcessedImage> {
  const { maxPixels } = options;
  const type = await sniffImageFile(filePath);

  let header: sharp.Metadata;
  try {
    header = await sharp(filePath, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw unreadableImage(err);
  }
  const width = header.width;
  const height = header.height;
  if (!width || !height) throw unreadableImage();
  const pixels = width * height;
  if (pixels > maxPixels) throw tooManyPixels(pixels, maxPixels);

  const metaPromise = readPhotoMeta(filePath);
  const inputOptions: sharp.SharpOptions = { limitInputPixels: maxPixels, failOn: 'truncated' };
  const viaWorker = async () => {
    const tiff = await decodeHeicInWorker({
      filePath,
      maxPixels,
      icc: header.icc ? new Uint8Array(header.icc) : null,
      keepAlpha: header.hasAlpha === true,
    });
    // The worker's TIFF carries the original's ICC profile; libheif already applied the
    // HEIF rotation/mirroring, so there is no EXIF orientation left to apply.
    return decodeUpright(tiff, { icc: header.icc, space: 'srgb' }, inputOptions);
  };

  let decoded: Decoded;
  try {
    if (header.compression === 'hevc' && !NATIVE_HEVC) {
      decoded = await viaWorker();
    } else {
      try {
        decoded = await decodeUpright(filePath, header, inputOptions);
      } catch (err) {
        if (header.compression === 'hevc' && isMissingCodec(err)) decoded = await viaWorker();
        else throw err;
      }
    }
  } catch (err) {
    throw decodeError(err, pixels, maxPixels);
  }

  const { data, info } = decoded;
  const raw = () =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const [formatted, preview] = await Promise.all([
    raw().jpeg({ quality: FORMATTED_JPEG_QUALITY }).toBuffer({ resolveWithObject: true }),
    raw()
      .resize({
        width: PREVIEW_MAX_EDGE,
        height: PREVIEW_MAX_EDGE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: PREVIEW_WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true }),
  ]);

  return {
    type,
    formatted: {
      buffer: formatted.data,
      width: formatted.info.width,
      height: formatted.info.height,
      contentType: 'image/jpeg',
    },
    preview: {
      buffer: preview.data,
      width: preview.info.width,
      height: preview.info.height,
      contentType: 'image/webp',
    },
    meta: await metaPromise,
  };
}

export interface ImageProcessor {
  /** `processImage` with the configured pixel limit, at most `concurrency` at once. */
  process(filePath: string): Promise<ProcessedImage>;
  readonly active: number;
  readonly queued: number;
}

/**
 * The server's image pipeline: caps concurrent decodes at `concurrency` (≈ CPU cores;
 * config.uploads.concurrency) and queues the rest; beyond `maxQueue` waiting uploads it answers
 * 503 at once instead of piling up memory.
 */
export function createImageProcessor(options: {
  maxPixels: number;
  concurrency: number;
  maxQueue?: number;
}): ImageProcessor {
  const limiter = createLimiter(options.concurrency, {
    maxQueue: options.maxQueue ?? options.concurrency * 16,
    onFull: () =>
      new AppError(
        503,
        'busy',
        'The server is busy processing other photos. Try again in a moment.',
        {
          'retry-after': '5',
        },
      ),
  });
  return {
    process: (filePath) =>
      limiter.run(() => processImage(filePath, { maxPixels: options.maxPixels })),
    get active() {
      return limiter.active;
    },
    get queued() {
      return limiter.queued;
    },
  };
}
