import type { User } from '@sitelog/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { admin, renderApp } from '@/test/render-app';

const marco: User = {
  id: 11,
  firstname: 'Marco',
  lastname: 'Rossi',
  email: 'marco@example.com',
  isAdmin: false,
  isActive: true,
};
const lena: User = {
  id: 12,
  firstname: 'Lena',
  lastname: 'Fischer',
  email: 'lena@example.com',
  isAdmin: false,
  isActive: false,
};

const TOKEN = 'q3Jz8xVb2nLk5RtYw7PaS0dFgHj4KmNc6UeXo1iA9sB';
const EXPIRES = '2026-12-03T14:05:00.000Z';
/** Invited, link expired, not accepted yet. */
const aisha: User = {
  id: 15,
  firstname: 'Aisha',
  lastname: 'Khan',
  email: 'aisha@example.com',
  isAdmin: false,
  isActive: true,
  invitePending: true,
  inviteExpiresAt: '2020-01-01T00:00:00.000Z',
};

/** A fake server keeping the user list, so refetches see what the calls changed. */
function usersServer(initial: User[]) {
  let users = [...initial];
  const setActive = (id: number, isActive: boolean) => {
    users = users.map((u) => (u.id === id ? { ...u, isActive } : u));
    return { body: users.find((u) => u.id === id) };
  };
  return {
    'GET /api/user/all': () => ({ body: users }),
    'DELETE /api/user/11': () => setActive(11, false),
    'DELETE /api/user/12': () => setActive(12, false),
    'GET /api/user/11/activate': () => setActive(11, true),
    'GET /api/user/12/activate': () => setActive(12, true),
    'POST /api/user/invite': (request: MockRequest) => {
      const { user } = request.body as { user: Pick<User, 'firstname' | 'lastname' | 'email'> };
      const invited: User = {
        id: 14,
        firstname: user.firstname.trim(),
        lastname: user.lastname.trim(),
        email: user.email.trim().toLowerCase(),
        isAdmin: false,
        isActive: true,
        invitePending: true,
        inviteExpiresAt: EXPIRES,
      };
      users = [...users, invited];
      return { body: { user: invited, path: `/invite/${TOKEN}`, expiresAt: EXPIRES } };
    },
    'POST /api/user/15/invite': () => {
      const renewed = { ...aisha, inviteExpiresAt: EXPIRES };
      users = users.map((u) => (u.id === 15 ? renewed : u));
      return { body: { user: renewed, path: `/invite/${TOKEN}2`, expiresAt: EXPIRES } };
    },
    'POST /api/user/create': (request: MockRequest) => {
      const { user } = request.body as { user: Omit<User, 'id' | 'isAdmin' | 'isActive'> };
      const created: User = {
        id: 13,
        firstname: user.firstname.trim(),
        lastname: user.lastname.trim(),
        email: user.email.trim().toLowerCase(),
        isAdmin: false,
        isActive: true,
      };
      users = [...users, created];
      return { body: created };
    },
  };
}

/** Switches Create to the form where the admin sets the password. */
async function withPassword(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Set a password instead' }));
  await screen.findByRole('button', { name: 'Create' });
}

async function fillForm(user: ReturnType<typeof renderApp>['user']) {
  await withPassword(user);
  await user.type(screen.getByLabelText('First name'), 'Nora');
  await user.type(screen.getByLabelText('Last name'), 'Newton');
  await user.type(screen.getByLabelText('Email'), 'Nora@Example.com');
  await user.type(screen.getByLabelText('Password'), 'gravel trucks at dawn');
}

describe('/admin', () => {
  it('keeps CREATE disabled until all four fields are filled', async () => {
    const { user } = renderApp('/admin', { signedInAs: admin, api: usersServer([]) });
    await withPassword(user);
    const create = await screen.findByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('First name'), 'Nora');
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Last name'), 'Newton');
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'nora@example.com');
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(create).toBeEnabled();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), '   ');
    expect(create).toBeDisabled();
  });

  it('creates the user, clears the fields and shows them in the list without a reload', async () => {
    const { user, server } = renderApp('/admin', {
      signedInAs: admin,
      api: usersServer([marco]),
    });
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(within(list).queryByText('Nora Newton')).not.toBeInTheDocument();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.getByLabelText('First name')).toHaveValue(''));
    expect(server.callsTo('POST /api/user/create')[0]?.body).toEqual({
      user: {
        firstname: 'Nora',
        lastname: 'Newton',
        email: 'Nora@Example.com',
        password: 'gravel trucks at dawn',
      },
    });
    for (const label of ['Last name', 'Email', 'Password'])
      expect(screen.getByLabelText(label)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    expect(await within(list).findByText('Nora Newton')).toBeInTheDocument();
    expect(within(list).getByText('nora@example.com')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Nora Newton can now sign in');
  });

  it("shows the server's message next to CREATE and keeps what was typed", async () => {
    const { user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...usersServer([]),
        'POST /api/user/create': jsonError(
          409,
          'email_taken',
          'A user with this email already exists.',
        ),
      },
    });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A user with this email already exists.');
    // Next to CREATE: in the same row as the button.
    expect(alert.parentElement).toContainElement(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Nora');
    expect(screen.getByLabelText('Password')).toHaveValue('gravel trucks at dawn');
  });

  it('deactivates with X after a confirmation and reactivates with ACTIVATE, updating the row in place', async () => {
    const { user, server } = renderApp('/admin', {
      signedInAs: admin,
      api: usersServer([marco, lena]),
    });
    const list = await screen.findByRole('list', { name: 'Users' });
    const rowOf = (name: string) => within(list).getByText(name).closest('li') as HTMLElement;

    expect(rowOf('Lena Fischer')).toHaveTextContent('Deactivated');
    expect(rowOf('Lena Fischer')).toHaveAttribute('data-state', 'deactivated');
    expect(rowOf('Marco Rossi')).not.toHaveTextContent('Deactivated');
    expect(within(list).queryByRole('button', { name: 'Activate Marco Rossi' })).toBeNull();
    expect(within(list).queryByRole('button', { name: 'Deactivate Lena Fischer' })).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Deactivate Marco Rossi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Marco Rossi?' });
    expect(dialog).toHaveAccessibleDescription(
      'They are signed out everywhere and can no longer sign in. Their projects, photos and comments stay.',
    );
    expect(server.callsTo('DELETE /api/user/11')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    const activateMarco = await within(list).findByRole('button', {
      name: 'Activate Marco Rossi',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The focus moves to the row's new action, not to the page's start.
    await waitFor(() => expect(activateMarco).toHaveFocus());
    expect(rowOf('Marco Rossi')).toHaveTextContent('Deactivated');
    expect(rowOf('Marco Rossi')).toHaveAttribute('data-state', 'deactivated');
    expect(server.callsTo('DELETE /api/user/11')).toHaveLength(1);

    await user.click(within(list).getByRole('button', { name: 'Activate Lena Fischer' }));
    expect(
      await within(list).findByRole('button', { name: 'Deactivate Lena Fischer' }),
    ).toBeInTheDocument();
    expect(rowOf('Lena Fischer')).not.toHaveTextContent('Deactivated');
    expect(server.callsTo('GET /api/user/12/activate')).toHaveLength(1);
    // One load only: the rows changed from the answers, not from a reload of the page.
    expect(server.callsTo('GET /api/user/all').length).toBeLessThanOrEqual(1);
  });

  it('shows why a deactivation failed', async () => {
    const { user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...usersServer([marco]),
        'DELETE /api/user/11': jsonError(
          403,
          'admin_protected',
          'Admin accounts cannot be deactivated.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Marco Rossi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Marco Rossi?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    // In the dialog, which stays open to try again or cancel.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Admin accounts cannot be deactivated.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Deactivate Marco Rossi' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('cancels a deactivation with Escape, sending nothing and keeping the focus on the row', async () => {
    const { user, server } = renderApp('/admin', {
      signedInAs: admin,
      api: usersServer([marco]),
    });
    const x = await screen.findByRole('button', { name: 'Deactivate Marco Rossi' });
    x.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Marco Rossi?' });
    // The dialog holds the focus (keyboard users start inside it).
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(x).toHaveFocus());
    expect(server.callsTo('DELETE /api/user/11')).toHaveLength(0);
  });

  it('invites a member by default and shows their link once, with COPY LINK and the expiry', async () => {
    const { user, server } = renderApp('/admin', {
      signedInAs: admin,
      api: usersServer([marco]),
    });
    const form = await screen.findByRole('form', { name: 'Invite member' });
    const invite = within(form).getByRole('button', { name: 'Invite member' });
    // No password field: the member chooses it.
    expect(within(form).queryByLabelText(/password/i)).toBeNull();
    expect(invite).toBeDisabled();
    await user.type(within(form).getByLabelText('First name'), 'Aisha');
    await user.type(within(form).getByLabelText('Last name'), 'Khan');
    expect(invite).toBeDisabled();
    await user.type(within(form).getByLabelText('Email'), 'Aisha@Example.com');
    expect(invite).toBeEnabled();
    await user.click(invite);

    const dialog = await screen.findByRole('dialog', { name: 'Invitation link for Aisha Khan' });
    expect(server.callsTo('POST /api/user/invite')[0]?.body).toEqual({
      user: { firstname: 'Aisha', lastname: 'Khan', email: 'Aisha@Example.com' },
    });
    const url = `${window.location.origin}/invite/${TOKEN}`;
    expect(within(dialog).getByLabelText('Invitation link')).toHaveValue(url);
    expect(dialog).toHaveTextContent('aisha@example.com');
    expect(dialog).toHaveTextContent(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(EXPIRES),
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    // user-event's stand-in for the system clipboard.
    expect(await navigator.clipboard.readText()).toBe(url);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Link copied.');
    // A click beside the dialog does not lose the link.
    await user.click(document.querySelector('.MuiDialog-container')!);
    expect(screen.getByRole('dialog', { name: 'Invitation link for Aisha Khan' })).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The focus is back in the form, for the next invitation.
    expect(within(form).getByLabelText('First name')).toHaveFocus();
    expect(within(form).getByLabelText('First name')).toHaveValue('');
    const list = screen.getByRole('list', { name: 'Users' });
    const row = (await within(list).findByText('Aisha Khan')).closest('li') as HTMLElement;
    expect(row).toHaveTextContent('Invitation pending');
    expect(
      within(row).getByRole('button', { name: 'New invitation link for Aisha Khan' }),
    ).toBeInTheDocument();
  });

  it("shows the server's message next to INVITE MEMBER and keeps what was typed", async () => {
    const { user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...usersServer([]),
        'POST /api/user/invite': jsonError(
          409,
          'email_taken',
          'A user with this email already exists.',
        ),
      },
    });
    const form = await screen.findByRole('form', { name: 'Invite member' });
    await user.type(within(form).getByLabelText('First name'), 'Aisha');
    await user.type(within(form).getByLabelText('Last name'), 'Khan');
    await user.type(within(form).getByLabelText('Email'), 'marco@example.com');
    await user.click(within(form).getByRole('button', { name: 'Invite member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'A user with this email already exists.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(form).getByLabelText('Email')).toHaveValue('marco@example.com');
  });

  it('marks members who have not accepted and makes them a new link', async () => {
    const { user, server } = renderApp('/admin', {
      signedInAs: admin,
      api: usersServer([marco, aisha, { ...aisha, id: 16, firstname: 'Omar', isActive: false }]),
    });
    const list = await screen.findByRole('list', { name: 'Users' });
    const rowOf = (name: string) => within(list).getByText(name).closest('li') as HTMLElement;
    expect(rowOf('Aisha Khan')).toHaveTextContent('Invitation pending');
    expect(rowOf('Aisha Khan')).toHaveTextContent(/Link expired/);
    expect(rowOf('Marco Rossi')).not.toHaveTextContent('Invitation pending');
    expect(
      within(rowOf('Marco Rossi')).queryByRole('button', { name: /new invitation link/i }),
    ).toBeNull();
    // A deactivated member gets no link: the server would refuse it until they are activated.
    expect(
      within(rowOf('Omar Khan')).queryByRole('button', { name: /new invitation link/i }),
    ).toBeNull();

    await user.click(
      within(rowOf('Aisha Khan')).getByRole('button', {
        name: 'New invitation link for Aisha Khan',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Invitation link for Aisha Khan' });
    expect(within(dialog).getByLabelText('Invitation link')).toHaveValue(
      `${window.location.origin}/invite/${TOKEN}2`,
    );
    expect(server.callsTo('POST /api/user/15/invite')).toHaveLength(1);
    expect(rowOf('Aisha Khan')).toHaveTextContent(/Link valid until/);
  });

  it('returns the focus to the row’s NEW LINK when the link’s dialog closes', async () => {
    const routes = usersServer([marco, aisha]);
    let answer: () => void = () => undefined;
    const { user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...routes,
        'POST /api/user/15/invite': () =>
          new Promise((resolve) => {
            answer = () => resolve(routes['POST /api/user/15/invite']());
          }),
      },
    });
    const newLink = await screen.findByRole('button', {
      name: 'New invitation link for Aisha Khan',
    });
    await user.click(newLink);
    await waitFor(() => expect(newLink).toBeDisabled());
    // A browser moves the focus off a button that becomes disabled (jsdom does not).
    act(() => newLink.blur());
    act(() => answer());
    await screen.findByRole('dialog', { name: 'Invitation link for Aisha Khan' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'New invitation link for Aisha Khan' }),
      ).toHaveFocus(),
    );
  });

  it('says that a pending member’s link stops working when deactivating them', async () => {
    const { user } = renderApp('/admin', { signedInAs: admin, api: usersServer([aisha]) });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Aisha Khan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Aisha Khan?' });
    expect(dialog).toHaveTextContent('Their invitation link stops working.');
  });

  it('shows why a new link was refused', async () => {
    const { user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...usersServer([aisha]),
        'POST /api/user/15/invite': jsonError(
          409,
          'invitation_accepted',
          'Aisha Khan already set their password through an invitation link.',
        ),
      },
    });
    await user.click(
      await screen.findByRole('button', { name: 'New invitation link for Aisha Khan' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Aisha Khan already set their password through an invitation link.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says so when there are no users yet', async () => {
    renderApp('/admin', { signedInAs: admin, api: usersServer([]) });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });
});
