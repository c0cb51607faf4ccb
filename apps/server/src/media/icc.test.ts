import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { quadrantImage } from '../../test/images.js';
import { colourPlan, iccDescription } from './icc.js';

const profileOf = async (icc: string) => {
  const tagged = await quadrantImage(8, 8).withIccProfile(icc).jpeg().toBuffer();
  return (await sharp(tagged).metadata()).icc!;
};

describe('colour profiles', () => {
  it('reads the description of v2 and v4 ICC profiles, and gives null for garbage', async () => {
    expect(iccDescription(await profileOf('srgb'))).toBe('sRGB');
    expect(iccDescription(await profileOf('p3'))).toBe('sP3C');
    expect(iccDescription(Buffer.alloc(10))).toBeNull();
    const lying = Buffer.alloc(200);
    lying.writeUInt32BE(1, 128);
    lying.write('desc', 132, 'latin1');
    lying.writeUInt32BE(10_000, 136);
    expect(iccDescription(lying)).toBeNull();
  });

  it('leaves sRGB photos unconverted and converts wide-gamut RGB ones after shrinking', async () => {
    expect(colourPlan({ icc: await profileOf('srgb'), space: 'srgb' })).toEqual({
      ignoreIcc: true,
      convertAfterResize: false,
    });
    expect(colourPlan({ icc: await profileOf('p3'), space: 'srgb' })).toEqual({
      ignoreIcc: false,
      convertAfterResize: true,
    });
    // CMYK and untagged photos take sharp's usual path.
    expect(colourPlan({ icc: await profileOf('cmyk'), space: 'cmyk' })).toEqual({
      ignoreIcc: false,
      convertAfterResize: false,
    });
    expect(colourPlan({ space: 'srgb' })).toEqual({ ignoreIcc: false, convertAfterResize: false });
  });
});
