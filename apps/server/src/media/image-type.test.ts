import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quadrantImage } from '../../test/images.js';
import { ImageError } from './image-error.js';
import { sniffImageFile, sniffImageType } from './image-type.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sitelog-sniff-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

describe('sniffImageFile', () => {
  const sniffBytes = async (bytes: Buffer | string) => {
    const file = path.join(dir, `file-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, bytes);
    return sniffImageFile(file).then(
      (type) => type,
      (err: unknown) => err,
    );
  };

  it('reads the type from the first bytes of a file on disk', async () => {
    expect(await sniffBytes(await quadrantImage(8, 8).png().toBuffer())).toBe('image/png');
  });

  it('refuses an empty file as empty, and other bytes as unsupported', async () => {
    const empty = await sniffBytes(Buffer.alloc(0));
    expect(empty).toBeInstanceOf(ImageError);
    expect((empty as ImageError).reason).toBe('empty');
    const html = await sniffBytes('<!doctype html><html></html>');
    expect(html).toBeInstanceOf(ImageError);
    expect((html as ImageError).reason).toBe('unsupported');
  });
});
