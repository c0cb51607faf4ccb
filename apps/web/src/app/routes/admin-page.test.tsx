import type { User } from '@sitelog/shared';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { admin, renderApp } from '@/test/render-app';

// The whole app renders on a shared, busy machine: give the first paint more than 1 s.
configure({ asyncUtilTimeout: 5000 });

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

async function fillForm(user: ReturnType<typeof renderApp>['user']) {
  await user.type(screen.getByLabelText('First name'), 'Nora');
  await user.type(screen.getByLabelText('Last name'), 'Newton');
  await user.type(screen.getByLabelText('Email'), 'Nora@Example.com');
  await user.type(screen.getByLabelText('Password'), 'gravel trucks at dawn');
}

describe('/admin', () => {
  it('keeps CREATE disabled until all four fields are filled', async () => {
    const { user } = renderApp('/admin', { signedInAs: admin, api: usersServer([]) });
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
    await screen.findByRole('button', { name: 'Create' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A user with this email already exists.');
    // Next to CREATE: in the same row as the button.
    expect(alert.parentElement).toContainElement(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Nora');
    expect(screen.getByLabelText('Password')).toHaveValue('gravel trucks at dawn');
  });

  it('deactivates with X and reactivates with ACTIVATE, updating the row in place', async () => {
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
    expect(
      await within(list).findByRole('button', { name: 'Activate Marco Rossi' }),
    ).toBeInTheDocument();
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
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Admin accounts cannot be deactivated.',
    );
    expect(screen.getByRole('button', { name: 'Deactivate Marco Rossi' })).toBeInTheDocument();
  });

  it('says so when there are no users yet', async () => {
    renderApp('/admin', { signedInAs: admin, api: usersServer([]) });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });
});
