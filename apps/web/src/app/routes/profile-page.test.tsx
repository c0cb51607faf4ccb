import type { Project } from '@sitelog/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';

const depot: Project = {
  id: 41,
  name: 'Tram depot',
  location: 'Zurich, Switzerland',
  latitude: null,
  longitude: null,
  description: '',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-03T10:00:00.000Z',
  creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
  uploadsCount: 0,
  lastUploads: [],
  isFavorited: false,
  isFollowed: false,
};

describe('/profile', () => {
  it('shows the card with LOGOUT, then my projects and my latest uploads', async () => {
    const { server } = renderApp('/profile', {
      signedInAs: member,
      api: {
        [`GET /api/project/profile/${member.id}`]: { body: [depot] },
        [`GET /api/upload/user/${member.id}/latest`]: { body: [] },
      },
    });
    expect(await screen.findByText(member.email)).toBeVisible();
    expect(screen.getByRole('button', { name: /logout/i })).toBeVisible();
    const projects = screen.getByRole('region', { name: 'My projects' });
    expect(await within(projects).findByRole('link', { name: /Tram depot/ })).toHaveAttribute(
      'href',
      '/project/41',
    );
    expect(screen.getByRole('region', { name: 'Latest uploads' })).toBeVisible();
    expect(server.callsTo(`GET /api/upload/user/${member.id}/latest`)).toHaveLength(1);
  });
});
