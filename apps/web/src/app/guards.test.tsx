import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '@/lib/session';
import { admin, loginResponse, member, renderApp } from '@/test/render-app';

describe('route guards', () => {
  it('sends a signed-out user opening / to /login', async () => {
    const { router, server } = renderApp('/');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('heading', { name: 'Bookmarks' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/auth/me')).toHaveLength(0);
  });

  it('sends a signed-out user opening any other page to /login', async () => {
    const { router } = renderApp('/projects/all?sort=name');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a non-admin opening /admin to /login (spec §5)', async () => {
    const { router } = renderApp('/admin', { signedInAs: member });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText(/needs an admin account/i)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Users management' })).not.toBeInTheDocument();
    // The member's own session is untouched until someone else signs in.
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe(`token-of-${member.id}`);
  });

  it('lets an admin signing in from there continue to /admin, closing the member session', async () => {
    const { router, user, server } = renderApp('/admin', {
      signedInAs: member,
      api: {
        'POST /api/auth/login': { body: loginResponse(admin, 'admin-token') },
        'GET /api/auth/me': (request) => ({
          body: request.headers.get('authorization') === 'Bearer admin-token' ? admin : member,
        }),
      },
    });
    await user.type(await screen.findByLabelText('Email'), admin.email);
    await user.type(screen.getByLabelText('Password'), 'admin-password');
    await user.click(screen.getByRole('button', { name: /login/i }));
    expect(await screen.findByRole('heading', { name: 'Users management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    const logouts = server.callsTo('POST /api/auth/logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]?.headers.get('authorization')).toBe(`Bearer token-of-${member.id}`);
  });

  it('shows the admin page to an admin', async () => {
    const { router } = renderApp('/admin', { signedInAs: admin });
    expect(await screen.findByRole('heading', { name: 'Users management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(document.title).toBe('Users management · Sitelog');
  });

  it('shows a not-found page for unknown routes', async () => {
    renderApp('/no/such/page', { signedInAs: member });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /go home/i })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page not found · Sitelog');
  });
});
