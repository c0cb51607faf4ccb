import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { makeProject } from '../test/make-project';

describe('Home: Bookmarks', () => {
  it('shows the bookmarked projects as tiles that open the project', async () => {
    const withCover = makeProject({
      id: 4,
      name: 'Riverside Apartments',
      isFavorited: true,
      uploadsCount: 2,
      lastUploads: [{ id: 9, previewLink: '/media/p9.webp' }],
    });
    const withoutCover = makeProject({ id: 5, name: 'Canopy Renewal', isFavorited: true });
    renderApp('/', {
      signedInAs: member,
      api: { 'GET /api/project/bookmark': { body: [withCover, withoutCover] } },
    });
    const list = await screen.findByRole('list', { name: 'Bookmarked projects' });
    const tiles = within(list).getAllByRole('link');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual(['/project/4', '/project/5']);
    expect(tiles[0]).toHaveTextContent('Riverside Apartments');
    expect(tiles[0]).toHaveTextContent('2 uploads');
    expect(tiles[0]?.querySelector('img')).toHaveAttribute('src', '/media/p9.webp');
    expect(tiles[1]?.querySelector('img')).toBeNull();
  });

  it('offers all projects when nothing is bookmarked', async () => {
    renderApp('/', { signedInAs: member, api: { 'GET /api/project/bookmark': { body: [] } } });
    expect(await screen.findByText('No bookmarked projects yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse all projects' })).toHaveAttribute(
      'href',
      '/projects/all',
    );
  });

  it("shows the server's message with Retry when bookmarks fail to load", async () => {
    renderApp('/', {
      signedInAs: member,
      api: { 'GET /api/project/bookmark': jsonError(403, 'forbidden', 'Not allowed here.') },
    });
    const region = await screen.findByRole('region', { name: 'Bookmarks' });
    expect(await within(region).findByText('Not allowed here.')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
