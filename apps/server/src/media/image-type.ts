// Identifies an upload's type from its bytes, never from its name or the client's word.
import { open } from 'node:fs/promises';
import { emptyImage, unsupportedImage } from './image-error.js';
import type { ImageMime } from './media-types.js';

const SNIFF_BYTES = 64;

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
 * Sniffs a file on disk. Throws ImageError `empty` for a file without bytes and `unsupported`
 * when it is not one of the accepted types.
 */
export async function sniffImageFile(filePath: string): Promise<ImageMime> {
  const handle = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    if (bytesRead === 0) throw emptyImage();
    const type = sniffImageType(head.subarray(0, bytesRead));
    if (!type) throw unsupportedImage();
    return type;
  } finally {
    await handle.close();
  }
}
