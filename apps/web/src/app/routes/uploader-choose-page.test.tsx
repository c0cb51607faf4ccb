import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';
import { makeProject, makeRow } from '@/features/projects/test/make-project';
import { rememberProject } from '@/features/uploads/queue/queue-db';

describe('/uploader/choose', () => {
  it('offers bookmarked and followed projects first, then the others (searchable), each opening the uploader', async () => {
    const followed = makeProject({ id: 2, name: 'Canopy Renewal', isFollowed: true });
    const { user } = renderApp('/uploader/choose', {
      signedInAs: member,
      api: {
        'GET /api/project/favnfol': { body: [followed] },
        'GET /api/project/all/list': {
          body: [
            makeRow(
              3,
              'Riverside Apartments',
              'Hamburg, Germany',
              '2026-11-21T10:00:00.000Z',
              1,
              'Marco Rossi',
            ),
            makeRow(
              2,
              'Canopy Renewal',
              'Munich, Germany',
              '2026-11-20T10:00:00.000Z',
              1,
              'Aisha Okafor',
            ),
            makeRow(
              1,
              'Bridge Deck',
              'Zürich, Switzerland',
              '2026-11-19T10:00:00.000Z',
              1,
              'Lena Fischer',
            ),
          ],
        },
      },
    });
    expect(document.title).toBe('Choose a project · Sitelog');
    const marked = await screen.findByRole('list', { name: 'Bookmarked and followed projects' });
    expect(within(marked).getByRole('link', { name: /Canopy Renewal/ })).toHaveAttribute(
      'href',
      '/uploader/2/create',
    );

    const others = await screen.findByRole('list', { name: 'Other projects' });
    expect(
      within(others)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/uploader/3/create', '/uploader/1/create']);

    await user.type(screen.getByLabelText('Search projects'), 'zurich');
    expect(
      within(screen.getByRole('list', { name: 'Other projects' }))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([expect.stringContaining('Bridge Deck')]);
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'New project' }),
    ).toHaveAttribute('href', '/projects/new');
  });

  it('leaves out of Recent on this device a project the server no longer lists (archived)', async () => {
    await rememberProject({
      userId: member.id,
      projectId: 3,
      name: 'Riverside Apartments',
      location: 'Hamburg, Germany',
    });
    await rememberProject({
      userId: member.id,
      projectId: 9,
      name: 'Old Mill (archived)',
      location: 'Bremen, Germany',
    });
    renderApp('/uploader/choose', {
      signedInAs: member,
      api: {
        'GET /api/project/favnfol': { body: [] },
        'GET /api/project/all/list': {
          body: [
            makeRow(
              3,
              'Riverside Apartments',
              'Hamburg, Germany',
              '2026-11-21T10:00:00.000Z',
              1,
              'Marco Rossi',
            ),
          ],
        },
      },
    });
    const recent = await screen.findByRole('list', { name: 'Recent projects on this device' });
    expect(
      within(recent)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/uploader/3/create']);
    expect(screen.queryByText('Old Mill (archived)')).not.toBeInTheDocument();
  });
});
