import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, USER_KEY } from '@/lib/session';
import { jsonError } from '@/test/mock-api';
import { loginResponse, member, renderApp, storeSession } from '@/test/render-app';

describe('session', () => {
  it('is restored from localStorage on reload', async () => {
    const { server } = renderApp('/profile', { signedInAs: member });
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
    const card = screen.getByText('First name').closest('dl');
    expect(card).not.toBeNull();
    expect(within(card as HTMLElement).getByText('Mia')).toBeInTheDocument();
    expect(within(card as HTMLElement).getByText('Mason')).toBeInTheDocument();
    expect(within(card as HTMLElement).getByText('mia@example.com')).toBeInTheDocument();
    // Calls carry the stored token.
    await waitFor(() => expect(server.callsTo('GET /api/auth/me')).toHaveLength(1));
    expect(server.callsTo('GET /api/auth/me')[0]?.headers.get('authorization')).toBe(
      `Bearer token-of-${member.id}`,
    );
  });

  it('ignores a damaged user record and asks to sign in', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'some-token');
    window.localStorage.setItem(USER_KEY, '{"id":"not a number"');
    const { router } = renderApp('/');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('picks up a changed name from the server', async () => {
    renderApp('/profile', {
      signedInAs: member,
      api: { 'GET /api/auth/me': { body: { ...member, firstname: 'Miranda' } } },
    });
    expect(await screen.findByText('Miranda')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? '{}')).toMatchObject({
      firstname: 'Miranda',
    });
  });

  it('logout calls the server, clears storage and lands on /login', async () => {
    const { server, user, router } = renderApp('/profile', { signedInAs: member });
    await user.click(await screen.findByRole('button', { name: /logout/i }));

    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
    const logoutCalls = server.callsTo('POST /api/auth/logout');
    expect(logoutCalls).toHaveLength(1);
    expect(logoutCalls[0]?.headers.get('authorization')).toBe(`Bearer token-of-${member.id}`);
  });

  it('logs out locally even when the logout call fails', async () => {
    const { user, router } = renderApp('/profile', {
      signedInAs: member,
      api: {
        'POST /api/auth/logout': jsonError(500, 'internal', 'Something went wrong on our side.'),
      },
    });
    await user.click(await screen.findByRole('button', { name: /logout/i }));
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('after logout, signing in again starts from Home, not the last page', async () => {
    const { user, router } = renderApp('/profile', {
      signedInAs: member,
      api: { 'POST /api/auth/login': { body: loginResponse(member, 'second-token') } },
    });
    await user.click(await screen.findByRole('button', { name: /logout/i }));
    await user.type(await screen.findByLabelText('Email'), member.email);
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: /login/i }));
    expect(await screen.findByRole('heading', { name: 'Bookmarks' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a 401 from any call clears the session and goes to /login', async () => {
    const { router } = renderApp('/profile', {
      signedInAs: member,
      api: {
        'GET /api/auth/me': jsonError(
          401,
          'unauthorized',
          'Your session has expired. Please sign in again.',
        ),
      },
    });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('after a 401, signing in again returns to the page the user was on', async () => {
    let meAnswers = 0;
    const { user, router } = renderApp('/profile', {
      signedInAs: member,
      api: {
        'GET /api/auth/me': () => {
          meAnswers += 1;
          return meAnswers === 1
            ? jsonError(401, 'unauthorized', 'Please sign in to continue.')
            : { body: member };
        },
        'POST /api/auth/login': { body: loginResponse(member, 'new-token') },
      },
    });
    await user.type(await screen.findByLabelText('Email'), member.email);
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: /login/i }));
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('new-token');
  });

  it('follows a logout made in another tab', async () => {
    const { router } = renderApp('/profile', { signedInAs: member });
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(USER_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: TOKEN_KEY }));
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a session stored by another tab signs this one in', async () => {
    const { router } = renderApp('/login', { api: { 'GET /api/auth/me': { body: member } } });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    storeSession(member);
    window.dispatchEvent(new StorageEvent('storage', { key: USER_KEY }));
    expect(await screen.findByRole('heading', { name: 'Bookmarks' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
