import type { Invitation } from '@sitelog/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, USER_KEY } from '@/lib/session';
import { jsonError, type MockResponse } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { admin, loginResponse, renderApp } from '@/test/render-app';

const TOKEN = 'q3Jz8xVb2nLk5RtYw7PaS0dFgHj4KmNc6UeXo1iA9sB';
const PATH = `/invite/${TOKEN}`;
const GET = `GET /api/invitation/${TOKEN}`;
const ACCEPT = `POST /api/invitation/${TOKEN}/accept`;
const EXPIRED = 'This invitation link has expired. Ask your admin for a new one.';

const invitation: Invitation = {
  email: 'aisha@example.com',
  firstname: 'Aisha',
  lastname: 'Khan',
  expiresAt: '2026-12-03T14:05:00.000Z',
};
const aisha = { id: 15, ...invitation, isAdmin: false, isActive: true };

function renderInvite(api: Record<string, MockResponse | (() => MockResponse)> = {}) {
  return renderApp(PATH, {
    api: {
      [GET]: { body: invitation },
      [ACCEPT]: { body: loginResponse(aisha, 'token-of-aisha') },
      'GET /api/auth/me': { body: aisha },
      ...api,
    },
  });
}

async function fillPasswords(
  user: ReturnType<typeof renderApp>['user'],
  password: string,
  confirm = password,
) {
  await user.type(await screen.findByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm password'), confirm);
}

describe('/invite/:token', () => {
  it('says who the link is for and until when, signed out', async () => {
    const { server } = renderInvite();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome, Aisha' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Aisha Khan, you are invited to Sitelog/)).toHaveTextContent(
      'aisha@example.com',
    );
    expect(document.body).toHaveTextContent(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(invitation.expiresAt),
      ),
    );
    expect(screen.getByText(/At least 8 characters/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set password and sign in' })).toBeDisabled();
    expect(document.title).toBe('Invitation · Sitelog');
    // The link is the credential: no bearer token goes with it.
    expect(server.callsTo(GET)[0]?.headers.get('authorization')).toBeNull();
  });

  it('sets the password, stores the session and lands on Home', async () => {
    const { user, server, router } = renderInvite();
    await fillPasswords(user, 'copper lattice over tidewater');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(server.callsTo(ACCEPT)[0]?.body).toEqual({ password: 'copper lattice over tidewater' });
    expect(server.callsTo(ACCEPT)[0]?.headers.get('authorization')).toBeNull();
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-of-aisha');
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? '{}')).toMatchObject({
      id: 15,
      email: 'aisha@example.com',
    });
    // The used link is not read again on the way (it would answer "already used").
    expect(server.callsTo(GET)).toHaveLength(1);
  });

  it("judges the password with the policy's meter, against the invited member's name", async () => {
    const { user } = renderInvite();
    await user.type(await screen.findByLabelText('New password'), 'khan gravel trucks');
    expect(
      await screen.findByText(
        'Strength: very weak — The password must not contain your name or email.',
        undefined,
        // The first check loads the estimator's dictionaries, which takes seconds in jsdom.
        { timeout: 15_000 },
      ),
    ).toHaveAttribute('aria-live', 'polite');
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'scaffold copper morning drizzle');
    expect(await screen.findByText('Strength: strong')).toBeVisible();
  });

  it('asks for the same password twice before sending', async () => {
    const { user, server } = renderInvite();
    await fillPasswords(user, 'copper lattice over tidewater', 'copper lattice over tidewatre');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(server.callsTo(ACCEPT)).toHaveLength(0);
  });

  it("shows the server's refusal of a weak password and keeps the form", async () => {
    const { user } = renderInvite({
      [ACCEPT]: jsonError(
        400,
        'weak_password',
        'The password must not contain your name or email.',
      ),
    });
    await fillPasswords(user, 'aisha khan rules');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The password must not contain your name or email.',
    );
    expect(screen.getByLabelText('New password')).toHaveValue('aisha khan rules');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it.each([
    ['expired', 410, 'invitation_expired', EXPIRED],
    [
      'used',
      410,
      'invitation_used',
      'This invitation link has already been used. Sign in with the password you chose, or ask your admin for a new link.',
    ],
    [
      'unknown',
      404,
      'invitation_not_found',
      'This invitation link is not valid. Check that you opened the whole link, or ask your admin for a new one.',
    ],
    ['cut short', 400, 'validation_failed', 'The invitation link is incomplete.'],
  ])(
    'says why a link that is %s cannot be used, with no form',
    async (_label, status, code, message) => {
      renderInvite({ [GET]: jsonError(status, code, message) });
      expect(
        await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' }),
      ).toBeInTheDocument();
      expect(screen.getByText(message)).toBeInTheDocument();
      expect(screen.queryByLabelText('New password')).toBeNull();
      expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    },
  );

  it('says so when the link was used or ended while the form was open', async () => {
    const { user } = renderInvite({ [ACCEPT]: jsonError(410, 'invitation_expired', EXPIRED) });
    await fillPasswords(user, 'copper lattice over tidewater');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' }),
    ).toBeInTheDocument();
    expect(screen.getByText(EXPIRED)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('offers a retry when the server could not answer', async () => {
    let fail = true;
    const { user } = renderInvite({
      [GET]: () =>
        fail ? jsonError(503, 'unavailable', 'The server is busy.') : { body: invitation },
    });
    expect(await screen.findByText('Could not open the invitation')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome, Aisha' }),
    ).toBeInTheDocument();
  });

  it('says it is offline instead of loading forever', async () => {
    setBrowserOnline(false);
    const { server } = renderInvite();
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(server.callsTo(GET)).toHaveLength(0);
    setBrowserOnline(true);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome, Aisha' }),
    ).toBeInTheDocument();
  });

  it('warns a signed-in admin that accepting signs them in as the invited member', async () => {
    const { user, server } = renderApp(PATH, {
      signedInAs: admin,
      api: {
        [GET]: { body: invitation },
        [ACCEPT]: { body: loginResponse(aisha, 'token-of-aisha') },
      },
    });
    expect(
      await screen.findByText(
        'You are signed in as Ada Admin on this browser. Setting this password signs you in as Aisha Khan instead.',
      ),
    ).toBeInTheDocument();
    await fillPasswords(user, 'copper lattice over tidewater');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await waitFor(() => expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-of-aisha'));
    // The admin's session on this browser is closed, as a sign-in over it does.
    await waitFor(() => expect(server.callsTo('POST /api/auth/logout')).toHaveLength(1));
    expect(server.callsTo('POST /api/auth/logout')[0]?.headers.get('authorization')).toBe(
      'Bearer token-of-1',
    );
  });
});
