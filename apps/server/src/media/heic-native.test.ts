// Which HEVC decoder the native HEIC decoder asks libheif for, with stand-in binaries (shell
// scripts that record their arguments) and with Debian's real heif-dec.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quadrantImage } from '../../test/images.js';
import sharp from 'sharp';
import {
  createNativeHeicDecoder,
  findHeifDecoder,
  listedHevcDecoders,
  probeHeifDecoder,
} from './heic-native.js';
import { ImageError } from './image-error.js';

/** `heif-dec --list-decoders` of libheif 1.19 with libheif-plugin-ffmpegdec (Debian). */
const LISTING_WITH_FFMPEG = `AVC decoders:
AVIF decoders:
- dav1d = dav1d v6.6.0
HEIC decoders:
- libde265 = libde265 HEVC decoder, version 1.0.11
- ffmpeg = FFMPEG HEVC decoder 5.1.9-0+deb12u1
JPEG decoders:
JPEG 2000 decoders:
uncompressed:
`;
const LISTING_WITHOUT_FFMPEG = `HEIC decoders:
- libde265 = libde265 HEVC decoder, version 1.0.11
AVIF decoders:
- dav1d = dav1d v6.6.0
- ffmpeg = not an HEVC decoder, listed under another format
`;

describe('listedHevcDecoders', () => {
  it('reads the ids under "HEIC decoders:" only', () => {
    expect(listedHevcDecoders(LISTING_WITH_FFMPEG)).toEqual(['libde265', 'ffmpeg']);
    expect(listedHevcDecoders(LISTING_WITHOUT_FFMPEG)).toEqual(['libde265']);
  });

  it('finds none in an empty or unrelated output', () => {
    expect(listedHevcDecoders('')).toEqual([]);
    expect(listedHevcDecoders('Usage: heif-convert [options] <input> <output>\n')).toEqual([]);
  });
});

describe('the native decoder with a stand-in binary', () => {
  let dir: string;
  let jpeg: Buffer;
  let tiff: Buffer;
  let p3: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitelog-heif-dec-'));
    jpeg = await quadrantImage(64, 48).jpeg().toBuffer();
    writeFileSync(path.join(dir, 'decoded.jpg'), jpeg);
    // As heif-dec writes it: uncompressed RGB, no ICC profile.
    tiff = await quadrantImage(64, 48).tiff({ compression: 'none' }).toBuffer();
    writeFileSync(path.join(dir, 'decoded.tif'), tiff);
    const tagged = await quadrantImage(8, 8).withIccProfile('p3').png().toBuffer();
    p3 = (await sharp(tagged).metadata()).icc ?? Buffer.alloc(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A heif-dec that records each decode's arguments (one line per call), lists `listing` for
   * --list-decoders, names TIFF among its suffixes in --help when `tiff`, and otherwise copies
   * the prepared JPEG or TIFF (by the output's suffix) to its last argument, or fails when asked
   * for the FFmpeg decoder and `ffmpegFails`, or always when `alwaysFails`.
   */
  function standIn(
    name: string,
    listing: string,
    options: { ffmpegFails?: boolean; alwaysFails?: boolean; tiff?: boolean } = {},
  ) {
    const binary = path.join(dir, name);
    const calls = path.join(dir, `${name}.calls`);
    writeFileSync(path.join(dir, `${name}.listing`), listing);
    writeFileSync(calls, '');
    const suffixes = options.tiff ? 'jpg, jpeg, png, tif, tiff, y4m' : 'jpg, jpeg, png, y4m';
    writeFileSync(
      binary,
      `#!/bin/sh
if [ "$1" = --list-decoders ]; then cat '${path.join(dir, `${name}.listing`)}'; exit 0; fi
if [ "$1" = --help ]; then echo 'These suffixes are recognized: ${suffixes}.' >&2; exit 0; fi
echo "$*" >> '${calls}'
${options.ffmpegFails ? `case " $* " in *" -d ffmpeg "*) echo 'could not decode' >&2; exit 1;; esac` : ''}
${options.alwaysFails ? `echo 'Could not decode image: Invalid input' >&2; exit 1` : ''}
for last in "$@"; do :; done
cp '${dir}/decoded.'"\${last##*.}" "$last"
`,
    );
    chmodSync(binary, 0o755);
    const decoder = createNativeHeicDecoder({
      binary,
      tempDir: path.join(dir, `${name}-temp`),
      parallelism: 1,
    });
    const input = path.join(dir, 'photo.heic');
    writeFileSync(input, 'not read by the stand-in');
    return {
      decoder,
      input,
      calls: () => readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean),
    };
  }

  it('asks for the FFmpeg decoder where the binary lists it, and lists once', async () => {
    const { decoder, input, calls } = standIn('with-ffmpeg', LISTING_WITH_FFMPEG);
    expect(await decoder.decode(input, null)).toEqual(jpeg);
    expect(await decoder.decode(input, null)).toEqual(jpeg);
    expect(await decoder.abilities()).toEqual({ hevcDecoder: 'ffmpeg', intermediate: 'jpeg' });
    const decodes = calls();
    expect(decodes).toHaveLength(2);
    // The decoder's option comes before the input: heif-dec [options] <input> <output>.
    for (const call of decodes) expect(call).toMatch(/^--quiet -q 95 -d ffmpeg \/\S+photo\.heic /);
  });

  it('lets libheif choose where the binary lists no preferred decoder', async () => {
    const { decoder, input, calls } = standIn('without-ffmpeg', LISTING_WITHOUT_FFMPEG);
    expect(await decoder.decode(input, null)).toEqual(jpeg);
    expect((await decoder.abilities()).hevcDecoder).toBeNull();
    expect(calls()[0]).toMatch(/^--quiet -q 95 \/\S+photo\.heic /);
  });

  it('lets libheif choose where the binary cannot list its decoders', async () => {
    const { decoder, input, calls } = standIn('no-listing', '');
    expect(await decoder.decode(input, null)).toEqual(jpeg);
    expect((await decoder.abilities()).hevcDecoder).toBeNull();
    expect(calls()[0]).not.toContain(' -d ');
  });

  it('decodes again with libheif’s default decoder when the FFmpeg decoder fails', async () => {
    const { decoder, input, calls } = standIn('ffmpeg-fails', LISTING_WITH_FFMPEG, {
      ffmpegFails: true,
    });
    expect(await decoder.decode(input, null)).toEqual(jpeg);
    const [first, second] = calls();
    expect(first).toContain('-d ffmpeg');
    expect(second).not.toContain(' -d ');
  });

  it('takes a TIFF where heif-dec writes one, with the photo’s ICC profile added', async () => {
    const { decoder, input, calls } = standIn('writes-tiff', LISTING_WITH_FFMPEG, { tiff: true });
    expect(await decoder.abilities()).toEqual({ hevcDecoder: 'ffmpeg', intermediate: 'tiff' });
    const tagged = await decoder.decode(input, p3);
    const header = await sharp(tagged).metadata();
    expect([header.format, header.width, header.height]).toEqual(['tiff', 64, 48]);
    expect(header.icc).toEqual(p3);
    // The pixels are the decoder's, untouched.
    const pixels = (image: Buffer) => sharp(image, { ignoreIcc: true }).raw().toBuffer();
    expect(await pixels(tagged)).toEqual(await pixels(tiff));
    // A photo without a profile gets the TIFF as written.
    expect(await decoder.decode(input, null)).toEqual(tiff);
    expect(calls()[0]).toMatch(/ \S+\.heic\.tif$/);
  });

  it('refuses the photo as corrupt when every decoder fails, naming the error', async () => {
    const { decoder, input } = standIn('always-fails', LISTING_WITH_FFMPEG, { alwaysFails: true });
    const err: unknown = await decoder.decode(input, null).catch((e: unknown) => e);
    expect(await decoder.abilities()).toEqual({ hevcDecoder: 'ffmpeg', intermediate: 'jpeg' });
    expect(err).toBeInstanceOf(ImageError);
    expect((err as ImageError).reason).toBe('corrupt');
    expect(String((err as ImageError).cause)).toMatch(/always-fails failed: Could not decode/);
  });
});

describe('Debian’s heif-dec', () => {
  const binary = findHeifDecoder();

  // .ci/run installs libheif-examples with libheif-plugin-ffmpegdec (from bookworm-backports on
  // Debian 12): in CI the faster decoder must be the one used, not quietly the default.
  it.runIf(process.env.CI)('lists FFmpeg’s HEVC decoder and writes TIFF (CI)', async () => {
    expect(binary).not.toBeNull();
    expect(await probeHeifDecoder(binary ?? 'heif-dec', 10_000)).toEqual({
      hevcDecoder: 'ffmpeg',
      intermediate: 'tiff',
    });
  });
});
