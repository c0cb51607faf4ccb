// What a photo says about itself (EXIF): capture time, GPS position and camera.
import exifr from 'exifr';

/** What the photo says about itself (EXIF); every field is null when absent or implausible. */
export interface PhotoMeta {
  /**
   * ISO 8601. When the camera recorded its UTC offset: the exact instant in UTC, ending in `Z`
   * ("2024-05-05T21:08:09.000Z"). Otherwise: the camera's wall-clock time as a local date-time
   * without a zone designator ("2024-05-06T07:08:09"), since its zone is unknown.
   */
  capturedAt: string | null;
  /**
   * The same moment on the camera's own clock, as a local date-time without a zone designator
   * ("2024-05-06T07:08:09"), whether or not the camera recorded its offset; null when
   * `capturedAt` is. What a person on site read on their watch (the default upload name uses it).
   */
  capturedLocal: string | null;
  latitude: number | null;
  longitude: number | null;
  /** "Make Model", without the make repeated ("Canon EOS 40D", "Apple iPhone 11 Pro Max"). */
  camera: string | null;
}

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

const NO_META: PhotoMeta = {
  capturedAt: null,
  capturedLocal: null,
  latitude: null,
  longitude: null,
  camera: null,
};

/** A capture time both ways: as `capturedAt` and as `capturedLocal` (see PhotoMeta). */
interface ExifTime {
  iso: string;
  wallClock: string;
}

/**
 * An EXIF date-time ("2021:04:11 15:47:53") as ISO 8601, or null when malformed or impossible.
 * With a recorded UTC offset ("-05:00") it is an instant in UTC ("2021-04-11T20:47:53.000Z").
 * Without one, the camera's wall-clock time is all that is known, so it is returned as a local
 * date-time with no zone designator ("2021-04-11T15:47:53"): shown as-is, never shifted.
 */
export function exifDateToIso(value: unknown, offset: unknown): string | null {
  return exifTime(value, offset)?.iso ?? null;
}

/** An EXIF date-time as in `exifDateToIso`, with the camera's wall-clock time beside it. */
function exifTime(value: unknown, offset: unknown): ExifTime | null {
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
  const local = new Date(wallClock).toISOString().slice(0, 19);
  const offsetMinutes = utcOffsetMinutes(offset);
  if (offsetMinutes === null) return { iso: local, wallClock: local };
  return { iso: new Date(wallClock - offsetMinutes * 60_000).toISOString(), wallClock: local };
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
  const captured =
    exifTime(t.DateTimeOriginal, t.OffsetTimeOriginal) ??
    exifTime(t.CreateDate, t.OffsetTimeDigitized);
  let latitude = coordinate(t.latitude, 90);
  let longitude = coordinate(t.longitude, 180);
  // 0,0 is what receivers write without a fix; nobody photographs a building site there.
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) {
    latitude = null;
    longitude = null;
  }
  return {
    capturedAt: captured?.iso ?? null,
    capturedLocal: captured?.wallClock ?? null,
    latitude,
    longitude,
    camera: cameraName(t.Make, t.Model),
  };
}
