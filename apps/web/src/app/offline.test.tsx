import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeProject } from '@/features/projects/test/make-project';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';

const OFFLINE_BANNER = 'You are offline. What you see was loaded earlier and may be out of date.';

const mine = makeProject({
  id: 11,
  name: 'Tram Depot',
  creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
});

describe('offline', () => {
  it('says "You are offline" instead of an endless skeleton, and loads once the connection returns', async () => {
    setBrowserOnline(false);
    const { server } = renderApp('/projects', {
      signedInAs: member,
      api: { 'GET /api/project/user': { body: [mine] } },
    });
    const main = screen.getByRole('main');
    expect(await within(main).findByText('You are offline')).toBeInTheDocument();
    // The banner is a live region above the page, not over it.
    const banner = await within(main).findByText(OFFLINE_BANNER);
    expect(banner.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('status', { name: 'Loading your projects…' })).toBeNull();
    // The query waits for the connection instead of failing.
    expect(server.callsTo('GET /api/project/user')).toHaveLength(0);

    setBrowserOnline(true);
    const list = await screen.findByRole('list', { name: 'My projects' });
    expect(within(list).getByRole('link')).toHaveTextContent('Tram Depot');
    expect(server.callsTo('GET /api/project/user')).toHaveLength(1);
    expect(screen.queryByText(OFFLINE_BANNER)).toBeNull();
    expect(screen.queryByText('You are offline')).toBeNull();
  });

  it('keeps what was loaded on screen when the connection drops, under the banner', async () => {
    renderApp('/projects', {
      signedInAs: member,
      api: { 'GET /api/project/user': { body: [mine] } },
    });
    const list = await screen.findByRole('list', { name: 'My projects' });
    expect(screen.queryByText(OFFLINE_BANNER)).toBeNull();

    setBrowserOnline(false);
    expect(await screen.findByText(OFFLINE_BANNER)).toBeInTheDocument();
    expect(within(list).getByRole('link')).toHaveTextContent('Tram Depot');
    expect(screen.queryByText('You are offline')).toBeNull();
  });

  it('says it once on a page whose placeholder holds others (a project)', async () => {
    setBrowserOnline(false);
    renderApp('/project/7', { signedInAs: member });
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(screen.getAllByText('You are offline')).toHaveLength(1);
    expect(screen.queryByRole('status', { name: 'Loading project…' })).toBeNull();
  });

  it('tells a signed-out visitor that signing in waits for the connection', async () => {
    setBrowserOnline(false);
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'You are offline. Signing in needs a connection: it goes ahead when the connection returns.',
    );
    setBrowserOnline(true);
    expect(screen.queryByText(/You are offline/)).toBeNull();
  });
});
