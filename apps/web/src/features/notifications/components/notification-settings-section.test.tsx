import type { NotificationSettings } from '@sitelog/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const profileApi = {
  [`GET /api/project/profile/${member.id}`]: { body: [] },
  [`GET /api/upload/user/${member.id}/latest`]: { body: [] },
};

const allOn: NotificationSettings = {
  uploads: true,
  comments: true,
  mentions: true,
  projects: true,
  reports: true,
  mutedProjects: [
    { id: 12, name: 'Riverside Block C' },
    { id: 13, name: '<b>Harbour</b> Wall' },
  ],
};

const section = () => screen.findByRole('region', { name: 'Notifications' });

describe('/profile: notification settings', () => {
  it('shows a labelled switch per kind, saved at once with PATCH', async () => {
    let settings = allOn;
    const { user, server } = renderApp('/profile', {
      signedInAs: member,
      api: {
        ...profileApi,
        'GET /api/notifications/settings': () => ({ body: settings }),
        'PATCH /api/notifications/settings': (request: MockRequest) => {
          settings = { ...settings, ...(request.body as Partial<NotificationSettings>) };
          return { body: settings };
        },
      },
    });
    const region = await section();
    const switches = await within(region).findAllByRole('switch');
    expect(
      switches.map((s) => s.getAttribute('aria-label') ?? s.closest('label')?.textContent),
    ).toEqual([
      'New photos',
      'Comments on my photos and in projects I follow',
      'Mentions',
      'Project changes',
      'Reports',
    ]);
    const comments = within(region).getByRole('switch', {
      name: 'Comments on my photos and in projects I follow',
    });
    expect(comments).toBeChecked();
    expect(comments).toHaveAccessibleDescription(
      'Someone comments on a photo you took, or in a project you follow or created.',
    );
    await user.click(comments);
    expect(comments).not.toBeChecked();
    await waitFor(() =>
      expect(server.callsTo('PATCH /api/notifications/settings').map((c) => c.body)).toEqual([
        { comments: false },
      ]),
    );
    await user.click(within(region).getByRole('switch', { name: 'Reports' }));
    await waitFor(() => expect(settings.reports).toBe(false));
    expect(within(region).getByRole('switch', { name: 'Reports' })).not.toBeChecked();
    expect(comments).not.toBeChecked();
  });

  it('puts a switch back and says why when saving fails', async () => {
    const { user } = renderApp('/profile', {
      signedInAs: member,
      api: {
        ...profileApi,
        'GET /api/notifications/settings': { body: allOn },
        'PATCH /api/notifications/settings': jsonError(
          400,
          'validation_error',
          'mentions must be true or false.',
        ),
      },
    });
    const region = await section();
    const mentions = await within(region).findByRole('switch', { name: 'Mentions' });
    await user.click(mentions);
    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Your change was not saved, and the switch is back as it was. mentions must be true or false.',
    );
    expect(mentions).toBeChecked();
  });

  it('lists the muted projects as text, each with UNMUTE', async () => {
    let settings = allOn;
    const { user, server } = renderApp('/profile', {
      signedInAs: member,
      api: {
        ...profileApi,
        'GET /api/notifications/settings': () => ({ body: settings }),
        'POST /api/project/12/unmute': () => {
          settings = { ...settings, mutedProjects: settings.mutedProjects.slice(1) };
          return { body: { muted: false } };
        },
      },
    });
    const region = await section();
    const muted = await within(region).findByRole('region', { name: 'Muted projects' });
    expect(await within(muted).findByRole('link', { name: 'Riverside Block C' })).toHaveAttribute(
      'href',
      '/project/12',
    );
    expect(within(muted).getByRole('link', { name: '<b>Harbour</b> Wall' })).toBeInTheDocument();
    await user.click(within(muted).getByRole('button', { name: 'Unmute Riverside Block C' }));
    await waitFor(() =>
      expect(
        within(muted).queryByRole('link', { name: 'Riverside Block C' }),
      ).not.toBeInTheDocument(),
    );
    expect(server.callsTo('POST /api/project/12/unmute')).toHaveLength(1);
  });

  it('says when nothing is muted, and offers a retry when the settings fail to load', async () => {
    let fail = true;
    const { user } = renderApp('/profile', {
      signedInAs: member,
      api: {
        ...profileApi,
        'GET /api/notifications/settings': () =>
          fail
            ? jsonError(503, 'unavailable', 'The server is busy.')
            : { body: { ...allOn, mutedProjects: [] } },
      },
    });
    const region = await section();
    expect(
      await within(region).findByText('The server is busy.', undefined, { timeout: 15_000 }),
    ).toBeInTheDocument();
    fail = false;
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    expect(
      await within(region).findByText('None. Mute a project from its page to get nothing from it.'),
    ).toBeInTheDocument();
  });
});
