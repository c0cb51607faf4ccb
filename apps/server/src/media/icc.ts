// ICC colour profiles: recognising sRGB, and deciding when and how a photo is converted to it.

const latin1 = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');

/**
 * The profile's description ('desc' tag: ICC v2 text or v4 `mluc`), or null when the profile is
 * malformed. Only used to recognise sRGB profiles.
 */
export function iccDescription(icc: Uint8Array): string | null {
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  const fits = (offset: number, length: number) =>
    offset >= 0 && length >= 0 && offset + length <= icc.length;
  if (!fits(128, 4)) return null;
  const tags = view.getUint32(128);
  for (let i = 0; i < tags && fits(132 + i * 12, 12); i++) {
    const at = 132 + i * 12;
    if (latin1(icc, at, at + 4) !== 'desc') continue;
    const offset = view.getUint32(at + 4);
    if (!fits(offset, 12)) return null;
    const type = latin1(icc, offset, offset + 4);
    if (type === 'desc') {
      const length = view.getUint32(offset + 8);
      if (!fits(offset + 12, length)) return null;
      return latin1(icc, offset + 12, offset + 12 + length).replace(/\0+$/, '');
    }
    if (type === 'mluc' && fits(offset, 28)) {
      const length = view.getUint32(offset + 20);
      const start = offset + view.getUint32(offset + 24);
      if (!fits(start, length)) return null;
      let text = '';
      for (let c = 0; c + 1 < length; c += 2)
        text += String.fromCharCode(view.getUint16(start + c));
      return text;
    }
    return null;
  }
  return null;
}

/** How a decode handles colour: what the image adapter is told to do with the profile. */
export interface ColourPlan {
  /** The profile says sRGB: the pixels already are sRGB, so the profile is not applied. */
  ignoreIcc: boolean;
  /**
   * A wide-gamut RGB profile (Display P3, Adobe RGB): shrink first in the photo's own colour
   * space, keeping the profile, and convert only the shrunk pixels.
   */
  convertAfterResize: boolean;
}

/**
 * Colour, measured on a 12 MP JPEG (bench/images.ts): converting through lcms before the resize,
 * as sharp does, costs about 2.5× the whole decode. So an sRGB-tagged photo (most cameras) is
 * not converted at all, it already is sRGB; a wide-gamut one (iPhone Display P3, Adobe RGB) is
 * converted after shrinking. Other spaces (CMYK, grey) go through sharp's usual conversion.
 */
export function colourPlan(colour: {
  icc?: Uint8Array | undefined;
  space?: string | undefined;
}): ColourPlan {
  const description = colour.icc ? iccDescription(colour.icc) : null;
  const srgbTagged = description !== null && /srgb/i.test(description);
  return {
    ignoreIcc: srgbTagged,
    convertAfterResize: colour.icc !== undefined && !srgbTagged && colour.space === 'srgb',
  };
}
