import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeProject } from '@/features/projects/test/make-project';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const project = makeProject({ id: 7 });
const projectApi = {
  'GET /api/project/id/7': { body: project },
  'GET /api/upload/project/7/latest': { body: [] },
};

describe('the project page: notifications', () => {
  it('mutes and unmutes next to FOLLOW, from the state the server gives', async () => {
    let muted = false;
    const { user, server } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...projectApi,
        'GET /api/project/7/mute': () => ({ body: { muted } }),
        'POST /api/project/7/mute': () => {
          muted = true;
          return { body: { muted } };
        },
        'POST /api/project/7/unmute': () => {
          muted = false;
          return { body: { muted } };
        },
      },
    });
    expect(
      await screen.findByText('Follow to be notified of new photos and changes.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Mute notifications' }));
    expect(await screen.findByRole('button', { name: 'Unmute notifications' })).toBeInTheDocument();
    expect(screen.getByText('Notifications from this project are muted.')).toBeVisible();
    expect(server.callsTo('POST /api/project/7/mute')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Unmute notifications' }));
    expect(await screen.findByRole('button', { name: 'Mute notifications' })).toBeInTheDocument();
    expect(server.callsTo('POST /api/project/7/unmute')).toHaveLength(1);
  });

  it('says a followed project notifies', async () => {
    renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...projectApi,
        'GET /api/project/id/7': { body: { ...project, isFollowed: true } },
        'GET /api/project/7/mute': { body: { muted: false } },
      },
    });
    expect(
      await screen.findByText('You are notified of new photos and changes in this project.'),
    ).toBeVisible();
  });

  it('shows a refused change with the server message, and keeps the state', async () => {
    const { user } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...projectApi,
        'GET /api/project/7/mute': { body: { muted: false } },
        'POST /api/project/7/mute': jsonError(404, 'not_found', 'Project was not found.'),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Mute notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Project was not found.');
    expect(screen.getByRole('button', { name: 'Mute notifications' })).toBeInTheDocument();
  });

  it('offers a retry when the state cannot be loaded', async () => {
    let fail = true;
    const { user } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...projectApi,
        'GET /api/project/7/mute': () =>
          fail ? jsonError(500, 'internal', 'Broken.') : { body: { muted: true } },
      },
    });
    const retry = await screen.findByRole(
      'button',
      { name: 'Could not load whether this project is muted. Retry' },
      { timeout: 15_000 },
    );
    fail = false;
    await user.click(retry);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Unmute notifications' })).toBeInTheDocument(),
    );
  });

  it('shows no mute button on an archived project', async () => {
    renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...projectApi,
        'GET /api/project/id/7': {
          body: {
            ...project,
            archivedAt: '2026-11-01T10:00:00.000Z',
            archivedBy: { id: 1, firstname: 'Ada', lastname: 'Admin' },
          },
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: project.name })).toBeVisible();
    expect(screen.queryByRole('button', { name: /mute notifications/i })).not.toBeInTheDocument();
    expect(screen.queryByText(/Follow to be notified/)).not.toBeInTheDocument();
  });
});
