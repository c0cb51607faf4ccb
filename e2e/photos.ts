import type { APIRequestContext } from '@playwright/test';
import type { Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { bearer, expect, type Account } from './fixtures';

/** EXIF's "2026:11:23 14:05:00": the camera's wall clock, no zone. */
const exifTime = (d: Date) =>
  `${d.getFullYear()}:${String(d.getMonth() + 1).padStart(2, '0')}:${String(d.getDate()).padStart(2, '0')} ` +
  `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:00`;

interface PhotoOptions {
  /** When the camera says it was taken (its local wall clock). */
  takenAt?: Date;
  camera?: { make: string; model: string };
  /** A colour, so neighbouring photos differ on screen. */
  rgb?: [number, number, number];
  width?: number;
  height?: number;
}

/** A real JPEG with the EXIF a phone writes: capture time and camera, when asked. */
export async function makePhoto(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 1600, height = 1200, rgb = [200, 120, 40] } = options;
  let image = sharp({
    create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } },
  });
  if (options.takenAt || options.camera) {
    image = image.withExif({
      IFD0: options.camera ? { Make: options.camera.make, Model: options.camera.model } : {},
      IFD2: options.takenAt ? { DateTimeOriginal: exifTime(options.takenAt) } : {},
    });
  }
  return image.jpeg({ quality: 85 }).toBuffer();
}

/** A JPEG whose EXIF says it was taken at (latitude, longitude). */
export function gpsJpeg(latitude: number, longitude: number): Promise<Buffer> {
  const dms = (value: number) => {
    const abs = Math.abs(value);
    const degrees = Math.floor(abs);
    const minutes = Math.floor((abs - degrees) * 60);
    const centiSeconds = Math.round(((abs - degrees) * 60 - minutes) * 6000);
    return `${degrees}/1 ${minutes}/1 ${centiSeconds}/100`;
  };
  return sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 90, g: 110, b: 130 } },
  })
    .jpeg({ quality: 80 })
    .withExif({
      IFD3: {
        GPSLatitudeRef: latitude < 0 ? 'S' : 'N',
        GPSLatitude: dms(latitude),
        GPSLongitudeRef: longitude < 0 ? 'W' : 'E',
        GPSLongitude: dms(longitude),
      },
    })
    .toBuffer();
}

/** Uploads `file` to a project through the API, as the uploader does. */
export async function uploadPhoto(
  request: APIRequestContext,
  account: Account,
  projectId: number,
  name: string,
  file: Buffer,
  description = '',
): Promise<Upload> {
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(account),
    multipart: {
      file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: file },
      createUploadDto: JSON.stringify({ name, description, projectId }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload;
}
