import { render, screen, within } from '@testing-library/react';
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

  it('shows a photo’s comment count, read as "3 comments", and nothing when there are none', () => {
    render(
      <MemoryRouter>
        <UploadGrid
          uploads={[
            makeUpload({ id: 1, name: 'Talked about', commentsCount: 3 }),
            makeUpload({ id: 2, name: 'One remark', commentsCount: 1 }),
            makeUpload({ id: 3, name: 'Quiet', commentsCount: 0 }),
            makeUpload({ id: 4, name: 'Older server' }),
          ]}
          label="Latest uploads"
        />
      </MemoryRouter>,
    );
    const tile = (name: string) => screen.getByRole('img', { name }).closest('a')!;
    const count = within(tile('Talked about')).getByRole('img', { name: '3 comments' });
    expect(count).toHaveTextContent('3');
    expect(within(tile('One remark')).getByRole('img', { name: '1 comment' })).toBeInTheDocument();
    for (const name of ['Quiet', 'Older server'])
      expect(tile(name).querySelector('[data-tile-comments]')).toBeNull();
  });
});
