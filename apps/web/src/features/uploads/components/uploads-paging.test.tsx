import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { jsonError, mockApi, type MockRequest } from '@/test/mock-api';
import { member, storeSession } from '@/test/render-app';
import { FEED_PAGE_SIZE } from '../api/feed-pages';
import { makeUpload } from '../test/upload-fixtures';
import { ProjectUploadsSection } from './project-uploads-section';
import { UserUploadsSection } from './user-uploads-section';

function renderSection(element: ReactNode) {
  storeSession(member);
  const router = createMemoryRouter([{ path: '*', element }]);
  render(
    <AppProviders queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

/** Uploads with ids from `newest` down, `count` of them, newest first like the server. */
const uploadsFrom = (newest: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    makeUpload({ id: newest - i, name: `Photo ${newest - i}` }),
  );

const query = (request: MockRequest) => new URL(request.url, 'http://localhost').searchParams;

/** A feed of `total` uploads (ids total..1) answering `limit` and `before` as the server does. */
function feed(total: number) {
  return (request: MockRequest) => {
    const params = query(request);
    const limit = Number(params.get('limit') ?? 100);
    const before = params.get('before');
    const newest = before === null ? total : Number(before) - 1;
    return { body: uploadsFrom(newest, Math.max(0, Math.min(limit, newest))) };
  };
}

const photoLinks = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('link')
    .map((link) => link.getAttribute('href'))
    .filter((href) => href?.includes('photo='));

describe('paged upload feeds', () => {
  it('a project feed shows Load more after a full page and appends the next page', async () => {
    const total = FEED_PAGE_SIZE + 3;
    const route = 'GET /api/upload/project/31/latest';
    const server = mockApi({ [route]: feed(total) });
    renderSection(<ProjectUploadsSection projectId={31} count={total} />);

    const more = await screen.findByRole('button', { name: 'Load more' });
    const grid = screen.getByRole('region', { name: 'Project uploads' });
    expect(photoLinks(grid)).toHaveLength(FEED_PAGE_SIZE);
    expect(within(grid).getAllByRole('link')[0]).toHaveAccessibleName('Add upload');
    const first = server.callsTo(route);
    expect(first).toHaveLength(1);
    expect(query(first[0]!).get('limit')).toBe(String(FEED_PAGE_SIZE));
    expect(query(first[0]!).has('before')).toBe(false);

    await userEvent.click(more);

    expect(await screen.findByRole('link', { name: /^Photo 1(?!\d)/ })).toHaveAttribute(
      'href',
      '/?photo=1',
    );
    const calls = server.callsTo(route);
    expect(calls).toHaveLength(2);
    // The last upload of page one is id total - FEED_PAGE_SIZE + 1.
    expect(query(calls[1]!).get('before')).toBe(String(total - FEED_PAGE_SIZE + 1));
    const all = photoLinks(screen.getByRole('region', { name: 'Project uploads' }));
    expect(all).toEqual(uploadsFrom(total, total).map((u) => `/?photo=${u.id}`));
    // Page two came back short: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('a feed that ends exactly on a full page asks once more, then hides the button', async () => {
    const route = 'GET /api/upload/user/9/latest';
    const server = mockApi({ [route]: feed(FEED_PAGE_SIZE) });
    renderSection(<UserUploadsSection userId={9} />);

    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument(),
    );
    expect(server.callsTo(route)).toHaveLength(2);
    expect(query(server.callsTo(route)[1]!).get('before')).toBe('1');
    expect(photoLinks(screen.getByRole('region', { name: 'Member uploads' }))).toHaveLength(
      FEED_PAGE_SIZE,
    );
  });

  it('a first page shorter than the page size shows no Load more', async () => {
    const server = mockApi({ 'GET /api/upload/user/9/latest': feed(FEED_PAGE_SIZE - 1) });
    renderSection(<UserUploadsSection userId={9} />);
    await screen.findByRole('link', { name: new RegExp(`^Photo ${FEED_PAGE_SIZE - 1}\\b`) });
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/upload/user/9/latest')).toHaveLength(1);
  });

  it('a failed Load more keeps the uploads shown and says why', async () => {
    const route = 'GET /api/upload/project/31/latest';
    const server = mockApi({
      [route]: (request) =>
        query(request).has('before')
          ? jsonError(400, 'unknown_before', 'before: there is no upload 3 to page from.')
          : { body: uploadsFrom(100, FEED_PAGE_SIZE) },
    });
    renderSection(<ProjectUploadsSection projectId={31} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/there is no upload 3 to page from/)).toBeInTheDocument();
    expect(photoLinks(screen.getByRole('region', { name: 'Project uploads' }))).toHaveLength(
      FEED_PAGE_SIZE,
    );
    expect(screen.getByRole('button', { name: 'Load more' })).toBeInTheDocument();
    expect(server.callsTo(route).length).toBeGreaterThanOrEqual(2);
  });
});
