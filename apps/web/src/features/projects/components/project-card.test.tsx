import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { EAGER_TILES } from '@/components/tile-image';
import { makeProject } from '../test/make-project';
import { ProjectGrid } from './project-card';

describe('ProjectGrid', () => {
  it('loads the first row of covers at once, the first ahead of other images, the rest lazily', () => {
    const projects = Array.from({ length: EAGER_TILES + 2 }, (_, i) =>
      makeProject({
        id: i + 1,
        name: `Project ${i + 1}`,
        uploadsCount: 1,
        lastUploads: [{ id: 100 + i, previewLink: `/media/p${i}.webp` }],
      }),
    );
    const { container } = render(
      <MemoryRouter>
        <ProjectGrid projects={projects} label="Bookmarks" />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(projects.length);
    // The covers are decorative (alt=""), so not in the accessibility tree.
    const covers = [...container.querySelectorAll('img')];
    expect(covers.map((img) => img.getAttribute('loading'))).toEqual([
      ...Array<string>(EAGER_TILES).fill('eager'),
      'lazy',
      'lazy',
    ]);
    expect(covers.map((img) => img.getAttribute('fetchpriority'))).toEqual([
      'high',
      ...Array<string>(projects.length - 1).fill('auto'),
    ]);
  });
});
