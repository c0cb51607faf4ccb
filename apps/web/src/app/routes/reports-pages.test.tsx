import type { Project } from '@sitelog/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const project: Project = {
  id: 12,
  name: 'Riverside Depot',
  location: 'Hamburg, Germany',
  latitude: null,
  longitude: null,
  description: '',
  createdAt: '2026-10-01T08:00:00.000Z',
  updatedAt: '2026-10-02T08:00:00.000Z',
  creator: { id: 3, firstname: 'Aisha', lastname: 'Okafor' },
  uploadsCount: 0,
  lastUploads: [],
  isFavorited: false,
  isFollowed: false,
};

describe('/reports', () => {
  it('is an Under construction placeholder for the latest reports', async () => {
    renderApp('/reports', { signedInAs: member });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(screen.getByText('Under construction')).toBeInTheDocument();
    expect(screen.getByText(/latest reports/i)).toBeInTheDocument();
    expect(document.title).toBe('Reports · Sitelog');
  });
});

describe('/reports/create (report-creator)', () => {
  it('names the project it came from and links back to it', async () => {
    const { server } = renderApp('/reports/create?project=12', {
      signedInAs: member,
      api: { 'GET /api/project/id/12': { body: project } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create a report' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Riverside Depot' })).toHaveAttribute(
      'href',
      '/project/12',
    );
    expect(screen.getByRole('link', { name: 'Back to project' })).toHaveAttribute(
      'href',
      '/project/12',
    );
    expect(screen.getByText('Under construction')).toBeInTheDocument();
    expect(server.callsTo('GET /api/project/id/12')).toHaveLength(1);
    expect(document.title).toBe('Create a report · Sitelog');
  });

  it('says so when the project does not exist', async () => {
    renderApp('/reports/create?project=404', {
      signedInAs: member,
      api: { 'GET /api/project/id/404': jsonError(404, 'not_found', 'Project not found.') },
    });
    expect(await screen.findByText('Project not found')).toBeInTheDocument();
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'All projects' }),
    ).toHaveAttribute('href', '/projects/all');
  });

  it('shows the server message with a retry when the project cannot be loaded', async () => {
    const { server, user } = renderApp('/reports/create?project=12', {
      signedInAs: member,
      api: {
        'GET /api/project/id/12': jsonError(403, 'forbidden', 'You may not see this project.'),
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You may not see this project.');
    server.set('GET /api/project/id/12', { body: project });
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Riverside Depot' })).toBeInTheDocument();
  });

  it('without a project asks the user to start from one, and calls nothing', async () => {
    const { server } = renderApp('/reports/create', { signedInAs: member });
    expect(await screen.findByText('No project chosen')).toBeInTheDocument();
    expect(screen.getByText('Under construction')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.startsWith('/api/project'))).toEqual([]);
  });

  it('refuses a malformed project id without calling the API', async () => {
    const { server } = renderApp('/reports/create?project=abc', { signedInAs: member });
    expect(await screen.findByText('This link does not name a project.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.startsWith('/api/project'))).toEqual([]);
  });
});
