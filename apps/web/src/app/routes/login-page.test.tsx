import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, USER_KEY } from '@/lib/session';
import { jsonError } from '@/test/mock-api';
import { admin, loginResponse, member, renderApp } from '@/test/render-app';

const hintsWithSample = {
  body: {
    sample: { email: 'admin@sitelog.test', password: 'sample-pass' },
    placesProvider: 'offline',
    googleMapsKey: null,
  },
};

describe('/login', () => {
  it('prefills the form with the sample account from the hints', async () => {
    renderApp('/login', { api: { 'GET /api/auth/hints': hintsWithSample } });
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('admin@sitelog.test'));
    expect(screen.getByLabelText('Password')).toHaveValue('sample-pass');
    expect(document.title).toBe('Login · Sitelog');
  });

  it('starts empty when the server offers no sample account', async () => {
    const { server } = renderApp('/login');
    await waitFor(() => expect(server.callsTo('GET /api/auth/hints')).toHaveLength(1));
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('sends whatever is typed, even empty fields: no client-side checks', async () => {
    const { server, user } = renderApp('/login', {
      api: { 'POST /api/auth/login': jsonError(400, 'validation_failed', 'Email is required.') },
    });
    await user.click(screen.getByRole('button', { name: /login/i }));
    await waitFor(() => expect(server.callsTo('POST /api/auth/login')).toHaveLength(1));
    expect(server.callsTo('POST /api/auth/login')[0]?.body).toEqual({
      login: { email: '', password: '' },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is required.');
  });

  it("shows the server's error message below the form once the call is over", async () => {
    let answer: (value: void) => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { user } = renderApp('/login', {
      api: {
        'POST /api/auth/login': async () => {
          await held;
          return jsonError(401, 'unauthorized', 'The email or password is not correct.');
        },
      },
    });
    await user.type(screen.getByLabelText('Email'), 'mia@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: /login/i }));
    // Still loading: no message yet.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    answer();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The email or password is not correct.');
    // The form stays, nothing was stored.
    expect(screen.getByLabelText('Email')).toHaveValue('mia@example.com');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('stores the session and goes Home after a successful login', async () => {
    const { server, user, router } = renderApp('/login', {
      api: {
        'GET /api/auth/hints': hintsWithSample,
        'POST /api/auth/login': { body: loginResponse(admin, 'fresh-token') },
        'GET /api/auth/me': { body: admin },
      },
    });
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('admin@sitelog.test'));
    await user.click(screen.getByRole('button', { name: /login/i }));

    expect(await screen.findByRole('heading', { name: 'Bookmarks' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(server.callsTo('POST /api/auth/login')[0]?.body).toEqual({
      login: { email: 'admin@sitelog.test', password: 'sample-pass' },
    });
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('fresh-token');
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? 'null')).toEqual({
      id: admin.id,
      firstname: admin.firstname,
      lastname: admin.lastname,
      email: admin.email,
      isAdmin: true,
    });
    // Later calls carry the new token.
    await waitFor(() => expect(server.callsTo('GET /api/auth/me')).toHaveLength(1));
    expect(server.callsTo('GET /api/auth/me')[0]?.headers.get('authorization')).toBe(
      'Bearer fresh-token',
    );
  });

  it('returns to the page the user was heading to before signing in', async () => {
    const { user, router } = renderApp('/profile', {
      api: {
        'POST /api/auth/login': { body: loginResponse(member) },
        'GET /api/auth/me': { body: member },
      },
    });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await user.type(screen.getByLabelText('Email'), member.email);
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: /login/i }));
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('sends signed-in users who open /login Home', async () => {
    const { router } = renderApp('/login', { signedInAs: member });
    expect(await screen.findByRole('heading', { name: 'Latest uploads' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('does not send a bearer token with the login call', async () => {
    const { server, user } = renderApp('/login', {
      api: {
        'POST /api/auth/login': jsonError(
          401,
          'unauthorized',
          'The email or password is not correct.',
        ),
      },
    });
    await user.click(screen.getByRole('button', { name: /login/i }));
    await screen.findByRole('alert');
    expect(server.callsTo('POST /api/auth/login')[0]?.headers.get('authorization')).toBeNull();
  });
});
