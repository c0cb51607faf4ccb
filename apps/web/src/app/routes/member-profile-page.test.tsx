import type { Profile, Project } from '@sitelog/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const aisha: Profile = {
  id: 7,
  firstname: 'Aisha',
  lastname: 'Okafor',
  isActive: true,
  projectsCount: 2,
  uploadsCount: 5,
};

const project = (id: number, name: string): Project => ({
  id,
  name,
  location: 'Lagos, Nigeria',
  latitude: null,
  longitude: null,
  description: '',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-03T10:00:00.000Z',
  creator: { id: 7, firstname: 'Aisha', lastname: 'Okafor' },
  uploadsCount: 0,
  lastUploads: [],
  isFavorited: false,
  isFollowed: false,
});

function profileApi(profile: Profile) {
  return {
    [`GET /api/user/profile/${profile.id}`]: { body: profile },
    [`GET /api/project/profile/${profile.id}`]: {
      body: [project(31, 'Harbour wall'), project(32, 'Clinic roof')],
    },
    [`GET /api/upload/user/${profile.id}/latest`]: { body: [] },
  };
}

describe('/profile/{id}', () => {
  it('shows the member’s name, counted headings and their projects', async () => {
    renderApp('/profile/7', { signedInAs: member, api: profileApi(aisha) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Aisha Okafor' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Projects (2)' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Latest uploads (5)' })).toBeVisible();
    const projects = await screen.findByRole('region', { name: 'Projects (2)' });
    expect(await within(projects).findByRole('link', { name: /Harbour wall/ })).toHaveAttribute(
      'href',
      '/project/31',
    );
    expect(within(projects).getByRole('link', { name: /Clinic roof/ })).toBeVisible();
    expect(screen.queryByText(/deactivated/i)).not.toBeInTheDocument();
  });

  it('says when the member has been deactivated', async () => {
    renderApp('/profile/7', {
      signedInAs: member,
      api: profileApi({ ...aisha, isActive: false }),
    });
    expect(await screen.findByText(/this member has been deactivated/i)).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Aisha Okafor' })).toBeVisible();
  });

  it('answers an unknown member with a not-found message', async () => {
    renderApp('/profile/999', {
      signedInAs: member,
      api: { 'GET /api/user/profile/999': jsonError(404, 'not_found', 'Member was not found.') },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Member not found' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See the team' })).toHaveAttribute('href', '/teams');
  });

  it('answers an id that is not a number with not-found, without asking the server', async () => {
    const { server } = renderApp('/profile/abc', { signedInAs: member });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Member not found' }),
    ).toBeVisible();
    expect(server.calls.filter((c) => c.path.startsWith('/api/user/'))).toHaveLength(0);
  });

  it('shows the error with RETRY when the profile fails for another reason', async () => {
    renderApp('/profile/7', {
      signedInAs: member,
      api: { 'GET /api/user/profile/7': jsonError(429, 'too_many', 'Slow down, please.') },
    });
    expect(await screen.findByText('Slow down, please.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});
