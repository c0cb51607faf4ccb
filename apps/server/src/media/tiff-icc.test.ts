import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quadrantImage } from '../../test/images.js';
import { attachIccProfile } from './tiff-icc.js';

/** A big-endian ('MM') baseline TIFF of 2 × 1 RGB pixels, red then blue, written by hand. */
function bigEndianTiff(): Buffer {
  const entries: Array<[tag: number, type: number, count: number, value: number]> = [
    [256, 3, 1, 2], // ImageWidth
    [257, 3, 1, 1], // ImageLength
    [258, 3, 3, 8 + 6], // BitsPerSample: 8, 8, 8 (after the pixels)
    [259, 3, 1, 1], // Compression: none
    [262, 3, 1, 2], // PhotometricInterpretation: RGB
    [273, 4, 1, 8], // StripOffsets
    [277, 3, 1, 3], // SamplesPerPixel
    [278, 3, 1, 1], // RowsPerStrip
    [279, 4, 1, 6], // StripByteCounts
  ];
  const ifdAt = 8 + 6 + 6;
  const out = Buffer.alloc(ifdAt + 2 + entries.length * 12 + 4);
  out.write('MM', 0, 'latin1');
  out.writeUInt16BE(42, 2);
  out.writeUInt32BE(ifdAt, 4);
  out.set([255, 0, 0, 0, 0, 255], 8);
  for (let i = 0; i < 3; i++) out.writeUInt16BE(8, 14 + i * 2);
  out.writeUInt16BE(entries.length, ifdAt);
  entries.forEach(([tag, type, count, value], i) => {
    const at = ifdAt + 2 + i * 12;
    out.writeUInt16BE(tag, at);
    out.writeUInt16BE(type, at + 2);
    out.writeUInt32BE(count, at + 4);
    // A SHORT value sits in the first two bytes of the field.
    if (type === 3 && count === 1) out.writeUInt16BE(value, at + 8);
    else out.writeUInt32BE(value, at + 8);
  });
  return out;
}

describe('attachIccProfile', () => {
  let dir: string;
  let p3: Buffer;
  let n = 0;
  const file = (bytes: Buffer) => {
    const name = path.join(dir, `${++n}.tif`);
    writeFileSync(name, bytes);
    return name;
  };
  const pixels = (name: string) => sharp(name, { ignoreIcc: true }).raw().toBuffer();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitelog-tiff-icc-'));
    const tagged = await quadrantImage(8, 8).withIccProfile('p3').png().toBuffer();
    p3 = (await sharp(tagged).metadata()).icc ?? Buffer.alloc(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a little-endian TIFF the profile, moving nothing that was there', async () => {
    const original = await quadrantImage(64, 48).tiff({ compression: 'none' }).toBuffer();
    expect((await sharp(original).metadata()).icc).toBeUndefined();
    const name = file(original);
    await attachIccProfile(name, p3);
    const header = await sharp(name).metadata();
    expect([header.format, header.width, header.height]).toEqual(['tiff', 64, 48]);
    expect(header.icc).toEqual(p3);
    expect(await pixels(name)).toEqual(await pixels(file(original)));
    // Only the first IFD's pointer (bytes 4–7) changed; the rest is appended.
    const patched = readFileSync(name);
    expect(patched.subarray(8, original.length)).toEqual(original.subarray(8));
    expect(patched.subarray(0, 4)).toEqual(original.subarray(0, 4));
  });

  it('gives a big-endian TIFF the profile', async () => {
    const name = file(bigEndianTiff());
    expect([...(await pixels(name))]).toEqual([255, 0, 0, 0, 0, 255]);
    await attachIccProfile(name, p3);
    expect((await sharp(name).metadata()).icc).toEqual(p3);
    expect([...(await pixels(name))]).toEqual([255, 0, 0, 0, 0, 255]);
  });

  it('leaves a TIFF that has a profile as it is', async () => {
    const name = file(bigEndianTiff());
    await attachIccProfile(name, p3);
    const once = readFileSync(name);
    await attachIccProfile(name, Buffer.concat([p3, p3]));
    expect(readFileSync(name)).toEqual(once);
  });

  it('refuses what is not a classic TIFF, and a profile too short to be one', async () => {
    await expect(attachIccProfile(file(Buffer.from('not a tiff at all')), p3)).rejects.toThrow(
      'not a TIFF',
    );
    const bigTiff = bigEndianTiff();
    bigTiff.writeUInt16BE(43, 2);
    await expect(attachIccProfile(file(bigTiff), p3)).rejects.toThrow('not a classic TIFF');
    const astray = bigEndianTiff();
    astray.writeUInt32BE(1_000_000, 4);
    await expect(attachIccProfile(file(astray), p3)).rejects.toThrow('out of range');
    await expect(attachIccProfile(file(bigEndianTiff()), p3.subarray(0, 100))).rejects.toThrow(
      'not an ICC profile',
    );
  });
});
