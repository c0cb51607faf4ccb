import { describe, expect, it } from 'vitest';
import { defaultUploadName } from './uploads.service.js';

describe('defaultUploadName', () => {
  it.each([
    ['IMG_0042.JPG', 'IMG_0042'],
    ['../../x.jpg', 'x'],
    ['C:\\Users\\me\\Desktop\\Roof, north side.heic', 'Roof, north side'],
    ['archive.tar.gz', 'archive.tar'],
    ['.hidden', 'Photo 2026-01-02'],
    ['  spaced \t name .png', 'spaced name'],
    ['evil\u202Egpj.exe', 'evilgpj'],
    ['line\nbreak.jpg', 'line break'],
    ['', 'Photo 2026-01-02'],
    ['..', 'Photo 2026-01-02'],
    ['.jpg', 'Photo 2026-01-02'],
  ])('%j → %j', (filename, expected) => {
    expect(defaultUploadName(filename, '2026-01-02T03:04:05.000Z')).toBe(expected);
  });

  it('cuts long names to the limit without splitting characters', () => {
    const name = defaultUploadName(`${'🚧'.repeat(250)}.jpg`, '2026-01-02T00:00:00Z');
    expect([...name]).toHaveLength(200);
    expect(name).toBe('🚧'.repeat(200));
  });
});
