import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif } from '../../test/images.js';
import { cameraName, exifDateToIso, readPhotoMeta } from './photo-meta.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sitelog-exif-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('photo metadata', () => {
  it('reads capture time, GPS position and camera from a file', async () => {
    const file = path.join(dir, 'exif.jpg');
    writeFileSync(file, await jpegWithExif());
    expect(await readPhotoMeta(file)).toEqual({
      capturedAt: '2024-05-05T21:08:09.000Z',
      // The camera's clock said 07:08 (+10:00).
      capturedLocal: '2024-05-06T07:08:09',
      latitude: expect.closeTo(-33.85875, 5) as number,
      longitude: expect.closeTo(151.21111, 4) as number,
      camera: 'Sitelog Cam 1',
    });
  });

  it('gives nulls, not an error, for a file whose EXIF cannot be read', async () => {
    const file = path.join(dir, 'garbage.jpg');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), Buffer.alloc(64)]));
    expect(await readPhotoMeta(file)).toEqual({
      capturedAt: null,
      capturedLocal: null,
      latitude: null,
      longitude: null,
      camera: null,
    });
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
