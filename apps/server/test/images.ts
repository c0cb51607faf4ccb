// Test-only: images generated on the fly so a fresh clone tests itself (architecture §9).
// Used by the media tests and available to the uploads tests.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

export type Rgb = [number, number, number];

export const QUADRANT_COLOURS = {
  topLeft: [255, 0, 0] as Rgb,
  topRight: [0, 255, 0] as Rgb,
  bottomLeft: [0, 0, 255] as Rgb,
  bottomRight: [255, 255, 255] as Rgb,
};

/** Raw RGB pixels of an upright picture: red, green / blue, white quadrants. */
function quadrantPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < height / 2;
      const left = x < width / 2;
      const colour = top
        ? left
          ? QUADRANT_COLOURS.topLeft
          : QUADRANT_COLOURS.topRight
        : left
          ? QUADRANT_COLOURS.bottomLeft
          : QUADRANT_COLOURS.bottomRight;
      pixels.set(colour, (y * width + x) * 3);
    }
  }
  return pixels;
}

/** An upright quadrant picture as a sharp pipeline (encode it as you like). */
export function quadrantImage(width: number, height: number): sharp.Sharp {
  return sharp(quadrantPixels(width, height), { raw: { width, height, channels: 3 } });
}

async function step(image: Buffer, fn: (s: sharp.Sharp) => sharp.Sharp): Promise<Buffer> {
  return fn(sharp(image)).png().toBuffer();
}

/**
 * A JPEG whose pixels are stored transformed and whose EXIF Orientation (1–8) says how to turn
 * them back: a viewer that honours the tag shows the upright quadrant picture.
 */
export async function orientedJpeg(orientation: number, width = 120, height = 80): Promise<Buffer> {
  let stored = await quadrantImage(width, height).png().toBuffer();
  // The inverse of what orientation N asks the viewer to do (each step its own pipeline, so
  // sharp's fixed operation order cannot reorder them).
  switch (orientation) {
    case 2:
      stored = await step(stored, (s) => s.flop());
      break;
    case 3:
      stored = await step(stored, (s) => s.rotate(180));
      break;
    case 4:
      stored = await step(stored, (s) => s.flip());
      break;
    case 5: // transpose
      stored = await step(await step(stored, (s) => s.rotate(90)), (s) => s.flop());
      break;
    case 6:
      stored = await step(stored, (s) => s.rotate(270));
      break;
    case 7: // transverse
      stored = await step(await step(stored, (s) => s.rotate(270)), (s) => s.flop());
      break;
    case 8:
      stored = await step(stored, (s) => s.rotate(90));
      break;
  }
  return sharp(stored).jpeg({ quality: 95 }).withMetadata({ orientation }).toBuffer();
}

/**
 * A JPEG with camera, capture time (2024-05-06 07:08:09 on the camera's clock) and GPS EXIF
 * (Sydney Opera House). The UTC offset is recorded as `offset` ("+10:00" unless told), or not at
 * all when `offset` is null.
 */
export async function jpegWithExif(offset: string | null = '+10:00'): Promise<Buffer> {
  return quadrantImage(160, 120)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Sitelog', Model: 'Sitelog Cam 1' },
      IFD2: {
        DateTimeOriginal: '2024:05:06 07:08:09',
        ...(offset === null ? {} : { OffsetTimeOriginal: offset }),
      },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '33/1 51/1 3150/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '151/1 12/1 4000/100',
      },
    })
    .toBuffer();
}

/** A decimal degree as EXIF's degrees/minutes/seconds rationals ("48/1 8/1 1464/100"). */
function exifDms(value: number): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutesFull = (abs - degrees) * 60;
  const minutes = Math.floor(minutesFull);
  const centiSeconds = Math.round((minutesFull - minutes) * 60 * 100);
  return `${degrees}/1 ${minutes}/1 ${centiSeconds}/100`;
}

/** A small JPEG whose EXIF GPS says it was taken at (`latitude`, `longitude`). */
export async function jpegWithGps(latitude: number, longitude: number): Promise<Buffer> {
  return quadrantImage(160, 120)
    .jpeg()
    .withExif({
      IFD3: {
        GPSLatitudeRef: latitude < 0 ? 'S' : 'N',
        GPSLatitude: exifDms(latitude),
        GPSLongitudeRef: longitude < 0 ? 'W' : 'E',
        GPSLongitude: exifDms(longitude),
      },
    })
    .toBuffer();
}

/** A photo-like JPEG (smooth gradients and grain) of the given size. */
export async function photoJpeg(width: number, height: number, quality = 90): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      noise[i] = ((noise[i] ?? 0) + (x * 200) / width) & 255;
      noise[i + 1] = ((noise[i + 1] ?? 0) * 0.5 + (y * 120) / height) | 0;
      noise[i + 2] = ((noise[i + 2] ?? 0) * 0.3 + ((x + y) % 512) / 4) | 0;
    }
  }
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A real PNG whose header claims `width` × `height` (valid CRC), with almost no pixel data. */
export async function pngBomb(width = 30_000, height = 30_000): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
      .png()
      .toBuffer(),
  );
  // IHDR: length(4) type(4) at offset 8; width and height at 16 and 20; CRC over type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

/** The first pixel's RGB at (x, y) of any image sharp can decode. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
}

/** True when every channel is within `tolerance` of the expected colour. */
export const closeTo = (actual: Rgb, expected: Rgb, tolerance = 40) =>
  actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Debian's `heif-enc` (package libheif-examples, x265 inside), or null when it is not on PATH.
 * The HEIC tests encode their photos with it, so no binary fixture is committed.
 */
export const HEIF_ENC: string | null =
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'heif-enc'))
    .find(isExecutable) ?? null;

/** The upright quadrant picture as an HEVC-coded HEIC, encoded by `heif-enc` (see HEIF_ENC). */
export async function quadrantHeic(width: number, height: number): Promise<Buffer> {
  if (!HEIF_ENC) throw new Error('heif-enc is not installed (Debian package libheif-examples)');
  const dir = await mkdtemp(path.join(tmpdir(), 'sitelog-heic-'));
  try {
    const png = path.join(dir, 'quadrants.png');
    const heic = path.join(dir, 'quadrants.heic');
    await quadrantImage(width, height).png().toFile(png);
    await promisify(execFile)(HEIF_ENC, ['-q', '90', png, '-o', heic]);
    return await readFile(heic);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
