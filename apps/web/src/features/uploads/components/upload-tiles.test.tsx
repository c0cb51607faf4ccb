import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeUpload } from '../test/upload-fixtures';
import { EAGER_TILES } from '@/components/tile-image';
import { UploadGrid } from './upload-tiles';

describe('UploadGrid', () => {
  it('loads the first row of previews at once, the first ahead of other images, the rest lazily', () => {
    const uploads = Array.from({ length: EAGER_TILES + 3 }, (_, i) =>
      makeUpload({ id: i + 1, name: `Photo ${i + 1}` }),
    );
    render(
      <MemoryRouter>
        <UploadGrid uploads={uploads} label="Latest uploads" />
      </MemoryRouter>,
    );
    const images = screen.getAllByRole('img');
    expect(images).toHaveLength(uploads.length);
    expect(images.map((img) => img.getAttribute('loading'))).toEqual([
      ...Array<string>(EAGER_TILES).fill('eager'),
      'lazy',
      'lazy',
      'lazy',
    ]);
    expect(images.map((img) => img.getAttribute('fetchpriority'))).toEqual([
      'high',
      ...Array<string>(uploads.length - 1).fill('auto'),
    ]);
  });
});
