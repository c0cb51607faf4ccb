// The one place that calls sharp/libvips. Thin on purpose: it runs the operations it is told
// to; what to refuse, which sizes and which colour handling are the image processor's and
// icc.ts's decisions.
import sharp from 'sharp';
import type { ColourPlan } from './icc.js';

// Every upload is a different file; libvips' operation cache would only hold memory and open
// descriptors of deleted temp files.
sharp.cache(false);

/** What an image's header says, read without decoding its pixels. */
export interface ImageHeader {
  width: number | undefined;
  height: number | undefined;
  /** HEIF/AVIF compression ('hevc' or 'av1'), when the container says. */
  compression: string | undefined;
  icc: Buffer | undefined;
  space: string | undefined;
  hasAlpha: boolean;
  /** Top-level images in the file (HEIF can hold several; the header describes the primary). */
  pages: number;
}

/** Decoded 8-bit sRGB pixels, upright, with their shape. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export interface EncodedImage {
  buffer: Buffer;
  width: number;
  height: number;
}

export interface DecodeOptions {
  /** Refuse (throw a pixel-limit error) rather than decode more pixels than this. */
  maxPixels: number;
  /** Shrink to fit a square of this edge; never enlarge. */
  maxEdge: number;
  colour: ColourPlan;
  timeoutSeconds: number;
  /**
   * The source is upright already (a HEIC decoded by libheif, which applied the HEIF rotation):
   * any EXIF orientation it carries is not applied again.
   */
  upright?: boolean;
}

/** The image operations the pipeline needs; `sharpAdapter` is the real one. */
export interface ImageAdapter {
  readHeader(filePath: string): Promise<ImageHeader>;
  /**
   * The single decode: EXIF orientation applied, transparency flattened onto white, shrunk to
   * `maxEdge` (JPEG shrink-on-load makes that the cheap part), converted to sRGB once. Truncated
   * data fails (`failOn: 'truncated'`); harmless decoder warnings are tolerated.
   */
  decodeUpright(source: string | Buffer, options: DecodeOptions): Promise<RawImage>;
  encodeJpeg(image: RawImage, options: { quality: number }): Promise<EncodedImage>;
  encodeWebp(image: RawImage, options: { quality: number; maxEdge: number }): Promise<EncodedImage>;
}

const fitInside = (edge: number) =>
  ({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true }) as const;

const toRaw = async (image: sharp.Sharp): Promise<RawImage> => {
  const { data, info } = await image
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
};

const fromRaw = (image: RawImage) =>
  sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });

const encoded = ({ data, info }: { data: Buffer; info: sharp.OutputInfo }): EncodedImage => ({
  buffer: data,
  width: info.width,
  height: info.height,
});

export const sharpAdapter: ImageAdapter = {
  async readHeader(filePath) {
    const header = await sharp(filePath, { limitInputPixels: false }).metadata();
    return {
      width: header.width,
      height: header.height,
      compression: header.compression,
      icc: header.icc,
      space: header.space,
      hasAlpha: header.hasAlpha === true,
      pages: header.pages ?? 1,
    };
  },

  async decodeUpright(source, options) {
    const inputOptions: sharp.SharpOptions = {
      limitInputPixels: options.maxPixels,
      failOn: 'truncated',
    };
    const { ignoreIcc, convertAfterResize } = options.colour;
    // Converting after the resize: the input's profile is not applied on the way in, and stays
    // on the image, which the output's transform to sRGB reads (`embedded`) once it is shrunk.
    const input = sharp(source, { ...inputOptions, ignoreIcc: ignoreIcc || convertAfterResize });
    const shrunk = (options.upright ? input : input.rotate())
      .flatten({ background: '#ffffff' })
      .resize(fitInside(options.maxEdge))
      .timeout({ seconds: options.timeoutSeconds });
    return toRaw(convertAfterResize ? shrunk.withIccProfile('srgb', { attach: false }) : shrunk);
  },

  async encodeJpeg(image, { quality }) {
    return encoded(await fromRaw(image).jpeg({ quality }).toBuffer({ resolveWithObject: true }));
  },

  async encodeWebp(image, { quality, maxEdge }) {
    return encoded(
      await fromRaw(image)
        .resize(fitInside(maxEdge))
        .webp({ quality })
        .toBuffer({ resolveWithObject: true }),
    );
  },
};

/** libvips refused the decode because of `limitInputPixels`. */
export const isPixelLimitError = (err: unknown) =>
  err instanceof Error && /pixel limit/i.test(err.message);
