import { limits } from '@sitelog/shared';
import { describe, expect, it } from 'vitest';
import { defaultUploadName } from './uploads.service.js';

const UPLOADED_AT = '2026-01-02T03:04:05.000Z';

describe('defaultUploadName', () => {
  it('names a photo after its project and the capture time on the camera’s clock', () => {
    expect(defaultUploadName('Riverside Block C', '2024-05-06T14:32:09', UPLOADED_AT)).toBe(
      'Riverside Block C · 14:32',
    );
    expect(defaultUploadName('Riverside Block C', '2024-05-06T00:05:00', UPLOADED_AT)).toBe(
      'Riverside Block C · 00:05',
    );
  });

  it('takes the upload time in UTC, with its date, when the photo has no capture time', () => {
    expect(defaultUploadName('Riverside Block C', null, UPLOADED_AT)).toBe(
      'Riverside Block C · 2026-01-02 03:04 UTC',
    );
    expect(defaultUploadName('Riverside Block C', null, '2026-12-31T23:59:59Z')).toBe(
      'Riverside Block C · 2026-12-31 23:59 UTC',
    );
  });

  it('cuts a long project name to the limit, keeping the time, without splitting characters', () => {
    const long = defaultUploadName('🚧'.repeat(150), '2024-05-06T14:32:09', UPLOADED_AT);
    expect(long.length).toBeLessThanOrEqual(limits.uploadNameMax);
    expect(long).toMatch(/^(🚧)+ · 14:32$/u);
    // Each emoji is two UTF-16 units: the whole name fits exactly or leaves one unit unused.
    expect(long.length).toBeGreaterThanOrEqual(limits.uploadNameMax - 1);

    const family = '👨‍👩‍👧';
    const joined = defaultUploadName(family.repeat(40), null, UPLOADED_AT);
    expect(joined.length).toBeLessThanOrEqual(limits.uploadNameMax);
    expect(joined.endsWith(' · 2026-01-02 03:04 UTC')).toBe(true);
    const kept = joined.slice(0, -' · 2026-01-02 03:04 UTC'.length);
    expect(kept).toBe(family.repeat(kept.length / family.length));
  });

  it('never uses anything but the project and the time', () => {
    expect(defaultUploadName('  Site  ', null, UPLOADED_AT)).toBe('Site · 2026-01-02 03:04 UTC');
    expect(defaultUploadName('', '2024-05-06T14:32:09', UPLOADED_AT)).toBe('14:32');
  });
});
