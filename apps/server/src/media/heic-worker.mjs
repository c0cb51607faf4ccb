// HEVC-coded HEIC/HEIF decoder, run in a worker thread by heic-decoder.ts (plain JS so it loads
// the same way under tsx, vitest and node). sharp's prebuilt libvips has no HEVC decoder, so the
// WASM libheif of `heic-decode` decodes here, off the main thread; the pixels go back as an
// uncompressed TIFF carrying the photo's ICC profile, so sharp colour-converts them to sRGB in
// the same single pass as every other format.
//
// Message in:  { filePath: string, maxPixels: number, icc: Uint8Array | null, keepAlpha: boolean }
// Message out: { ok: true, tiff: Uint8Array, width: number, height: number }
//            | { ok: false, reason: 'too_many_pixels' | 'undecodable', message: string, width?, height? }
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import heicDecode from 'heic-decode';

// libheif-js reports parse failures with console.log; the failure is answered as a message.
console.log = () => {};

const ROWS_PER_STRIP = 64;

/**
 * Baseline little-endian TIFF, uncompressed, 8-bit RGB(A) in strips, with an optional ICC
 * profile (tag 34675). Alpha is dropped while copying when the image has none.
 * @param {Uint8ClampedArray} rgba @param {number} width @param {number} height
 * @param {Uint8Array | null} icc @param {boolean} keepAlpha
 */
function encodeTiff(rgba, width, height, icc, keepAlpha) {
  const spp = keepAlpha ? 4 : 3;
  const rowBytes = width * spp;
  const strips = Math.ceil(height / ROWS_PER_STRIP);
  const entries = [];
  const entry = (tag, type, count, value) => entries.push({ tag, type, count, value });
  const SHORT = 3;
  const LONG = 4;
  const UNDEFINED = 7;

  const entryCount = 10 + (keepAlpha ? 1 : 0) + (icc ? 1 : 0);
  const ifdSize = 2 + entryCount * 12 + 4;
  let cursor = 8 + ifdSize;
  const bitsOffset = cursor;
  cursor += spp * 2;
  const offsetsOffset = cursor;
  cursor += strips * 4;
  const countsOffset = cursor;
  cursor += strips * 4;
  const iccOffset = cursor;
  cursor += icc ? icc.length : 0;
  cursor += cursor % 2;
  const pixelOffset = cursor;
  const total = pixelOffset + rowBytes * height;

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out[0] = 0x49;
  out[1] = 0x49;
  view.setUint16(2, 42, true);
  view.setUint32(4, 8, true);

  entry(256, LONG, 1, width);
  entry(257, LONG, 1, height);
  entry(258, SHORT, spp, bitsOffset);
  entry(259, SHORT, 1, 1); // no compression
  entry(262, SHORT, 1, 2); // RGB
  entry(273, LONG, strips, strips === 1 ? pixelOffset : offsetsOffset);
  entry(277, SHORT, 1, spp);
  entry(278, LONG, 1, ROWS_PER_STRIP);
  entry(279, LONG, strips, strips === 1 ? rowBytes * height : countsOffset);
  entry(284, SHORT, 1, 1); // chunky
  if (keepAlpha) entry(338, SHORT, 1, 2); // unassociated alpha
  if (icc) entry(34675, UNDEFINED, icc.length, iccOffset);

  view.setUint16(8, entries.length, true);
  entries.forEach((e, i) => {
    const at = 10 + i * 12;
    view.setUint16(at, e.tag, true);
    view.setUint16(at + 2, e.type, true);
    view.setUint32(at + 4, e.count, true);
    if (e.type === SHORT && e.count === 1) view.setUint16(at + 8, e.value, true);
    else view.setUint32(at + 8, e.value, true);
  });
  view.setUint32(10 + entries.length * 12, 0, true);

  for (let i = 0; i < spp; i++) view.setUint16(bitsOffset + i * 2, 8, true);
  for (let s = 0; s < strips; s++) {
    const rows = Math.min(ROWS_PER_STRIP, height - s * ROWS_PER_STRIP);
    view.setUint32(offsetsOffset + s * 4, pixelOffset + s * ROWS_PER_STRIP * rowBytes, true);
    view.setUint32(countsOffset + s * 4, rows * rowBytes, true);
  }
  if (icc) out.set(icc, iccOffset);

  if (keepAlpha) {
    out.set(rgba, pixelOffset);
  } else {
    const pixels = width * height;
    for (let p = 0, src = 0, dst = pixelOffset; p < pixels; p++, src += 4, dst += 3) {
      out[dst] = rgba[src];
      out[dst + 1] = rgba[src + 1];
      out[dst + 2] = rgba[src + 2];
    }
  }
  return out;
}

async function decode({ filePath, maxPixels, icc, keepAlpha }) {
  const buffer = await readFile(filePath);
  let images;
  try {
    images = await heicDecode.all({ buffer });
  } catch (err) {
    return { ok: false, reason: 'undecodable', message: String(err?.message ?? err) };
  }
  try {
    const image = images[0];
    if (!image) return { ok: false, reason: 'undecodable', message: 'no image in the file' };
    const { width, height } = image;
    if (width * height > maxPixels) {
      return { ok: false, reason: 'too_many_pixels', message: 'too many pixels', width, height };
    }
    const decoded = await image.decode();
    const tiff = encodeTiff(decoded.data, decoded.width, decoded.height, icc, keepAlpha);
    return { ok: true, tiff, width: decoded.width, height: decoded.height };
  } catch (err) {
    return { ok: false, reason: 'undecodable', message: String(err?.message ?? err) };
  } finally {
    images.dispose();
  }
}

parentPort.on('message', (task) => {
  decode(task).then(
    (result) => parentPort.postMessage(result, result.ok ? [result.tiff.buffer] : []),
    (err) =>
      parentPort.postMessage({
        ok: false,
        reason: 'undecodable',
        message: String(err?.message ?? err),
      }),
  );
});
