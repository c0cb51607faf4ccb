import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { daysAgo, fixTheClock, makeUpload } from '@/features/uploads/test/upload-fixtures';

fixTheClock();

const uploads = [
  makeUpload({ id: 3, name: 'Crane lift', createdAt: daysAgo(0) }),
  makeUpload({ id: 2, name: 'Scaffold check', createdAt: daysAgo(1) }),
  makeUpload({ id: 1, name: '', createdAt: daysAgo(12) }),
];

describe('latest uploads', () => {
  it('/uploads/latest asks for 50 and shows preview tiles linking to each upload', async () => {
    const { server } = renderApp('/uploads/latest', {
      signedInAs: member,
      api: { 'GET /api/upload/latest/50': { body: uploads } },
    });
    const grid = await screen.findByRole('region', { name: 'Latest uploads' });
    expect(server.callsTo('GET /api/upload/latest/50')).toHaveLength(1);
    expect(document.title).toBe('Latest uploads · Sitelog');
    expect(screen.getByRole('heading', { level: 1, name: 'Latest uploads' })).toBeInTheDocument();

    const tiles = within(grid).getAllByRole('link');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual([
      '/uploads/latest?photo=3',
      '/uploads/latest?photo=2',
      '/uploads/latest?photo=1',
    ]);
    // The name, who took it, when it was uploaded and, on a feed across projects, the project.
    expect(tiles[0]).toHaveAccessibleName(/^Crane lift .*today, \d\d:\d\d/);
    expect(tiles[1]).toHaveAccessibleName(/^Scaffold check .*yesterday, \d\d:\d\d/);
    expect(tiles[2]).toHaveAccessibleName(/^Untitled photo .*12 days ago/);

    const image = within(tiles[0] as HTMLElement).getByRole('img', { name: 'Crane lift' });
    // The small preview, not the formatted image; the first row's load at once, the first
    // ahead of other images (tile-image.ts).
    expect(image).toHaveAttribute('src', '/media/preview-3.webp?sig=abc');
    expect(image).toHaveAttribute('loading', 'eager');
    expect(image).toHaveAttribute('fetchpriority', 'high');
  });

  it('offers UPLOAD when there are no uploads yet', async () => {
    renderApp('/uploads/latest', {
      signedInAs: member,
      api: { 'GET /api/upload/latest/50': { body: [] } },
    });
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Upload' })).toHaveAttribute(
      'href',
      '/uploader/choose',
    );
  });

  it('shows a failed load with RETRY, which loads again', async () => {
    let calls = 0;
    const { user } = renderApp('/uploads/latest', {
      signedInAs: member,
      api: {
        'GET /api/upload/latest/50': () => {
          calls += 1;
          return calls === 1
            ? jsonError(429, 'rate_limited', 'Too many requests. Wait a moment.')
            : { body: uploads };
        },
      },
    });
    expect(await screen.findByText('Too many requests. Wait a moment.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('img', { name: 'Crane lift' })).toBeInTheDocument();
  });

  it('Home shows the 18 latest uploads with a link to all of them', async () => {
    const { server } = renderApp('/', {
      signedInAs: member,
      api: { 'GET /api/upload/latest/18': { body: uploads } },
    });
    const section = await screen.findByRole('region', { name: /Latest uploads/ });
    expect(await within(section).findByRole('img', { name: 'Scaffold check' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/upload/latest/18')).toHaveLength(1);
    expect(within(section).getByRole('link', { name: 'See all' })).toHaveAttribute(
      'href',
      '/uploads/latest',
    );
  });

  it('Home offers UPLOAD when nobody has uploaded yet', async () => {
    renderApp('/', {
      signedInAs: member,
      api: { 'GET /api/upload/latest/18': { body: [] } },
    });
    const section = await screen.findByRole('region', { name: /Latest uploads/ });
    expect(await within(section).findByText('No uploads yet')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Upload' })).toHaveAttribute(
      'href',
      '/uploader/choose',
    );
    expect(within(section).queryByRole('link', { name: 'See all' })).not.toBeInTheDocument();
  });
});
