// An ICC profile added to a TIFF file that has none: libheif's heif-dec writes the decoded
// pixels as an uncompressed TIFF without the photo's profile, which sharp needs to convert a
// wide-gamut photo to sRGB. Nothing already in the file moves: the profile and a copy of the
// first IFD with an ICC entry (tag 34675) are appended, and the header points at the copy.
import { open } from 'node:fs/promises';

const ICC_PROFILE_TAG = 34675;
const TYPE_UNDEFINED = 7;
const ENTRY_BYTES = 12;

/**
 * Gives the TIFF at `file` `icc` as its first image's ICC profile, unless it has one already.
 * Throws when the file is not a classic TIFF (byte order, magic 42, its first IFD in the file)
 * or `icc` is too short to be a profile.
 */
export async function attachIccProfile(file: string, icc: Uint8Array): Promise<void> {
  // A profile is at least its 128-byte header; four bytes or fewer would sit in the entry itself.
  if (icc.length < 128) throw new Error('not an ICC profile');
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    const read = async (at: number, length: number) => {
      if (at + length > size) throw new Error('TIFF structure out of range');
      const bytes = Buffer.alloc(length);
      await handle.read(bytes, 0, length, at);
      return bytes;
    };
    const header = await read(0, 8);
    const order = header.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') throw new Error('not a TIFF');
    const le = order === 'II';
    const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
    const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
    const w16 = (b: Buffer, value: number, at: number) =>
      le ? b.writeUInt16LE(value, at) : b.writeUInt16BE(value, at);
    const w32 = (b: Buffer, value: number, at: number) =>
      le ? b.writeUInt32LE(value, at) : b.writeUInt32BE(value, at);
    if (u16(header, 2) !== 42) throw new Error('not a classic TIFF');

    const ifdAt = u32(header, 4);
    const count = u16(await read(ifdAt, 2), 0);
    const ifd = await read(ifdAt + 2, count * ENTRY_BYTES + 4);
    const entries: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const entry = ifd.subarray(i * ENTRY_BYTES, (i + 1) * ENTRY_BYTES);
      if (u16(entry, 0) === ICC_PROFILE_TAG) return;
      entries.push(entry);
    }
    const next = u32(ifd, count * ENTRY_BYTES);

    // Offsets on word boundaries, as TIFF requires.
    const iccAt = size + (size % 2);
    const newIfdAt = iccAt + icc.length + (icc.length % 2);
    const iccEntry = Buffer.alloc(ENTRY_BYTES);
    w16(iccEntry, ICC_PROFILE_TAG, 0);
    w16(iccEntry, TYPE_UNDEFINED, 2);
    w32(iccEntry, icc.length, 4);
    w32(iccEntry, iccAt, 8);
    // Entries stay sorted by tag.
    const after = entries.findIndex((entry) => u16(entry, 0) > ICC_PROFILE_TAG);
    entries.splice(after < 0 ? entries.length : after, 0, iccEntry);

    const tail = Buffer.alloc(newIfdAt - size + 2 + entries.length * ENTRY_BYTES + 4);
    tail.set(icc, iccAt - size);
    const table = newIfdAt - size;
    w16(tail, entries.length, table);
    entries.forEach((entry, i) => entry.copy(tail, table + 2 + i * ENTRY_BYTES));
    w32(tail, next, table + 2 + entries.length * ENTRY_BYTES);
    await handle.write(tail, 0, tail.length, size);
    const pointer = Buffer.alloc(4);
    w32(pointer, newIfdAt, 0);
    await handle.write(pointer, 0, 4, 4);
  } finally {
    await handle.close();
  }
}
