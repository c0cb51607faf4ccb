import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { testQueryClient } from '@/test/query-client';
import { TOKEN_KEY } from '@/lib/session';
import { jsonError, mockApi, type MockRoutes } from '@/test/mock-api';
import { member, renderApp, storeSession } from '@/test/render-app';
import { ChangePasswordForm, PASSWORDS_DIFFER } from './change-password-form';

const ROUTE = 'POST /api/auth/password';

function renderForm(routes: MockRoutes = {}) {
  storeSession(member);
  const server = mockApi({ [ROUTE]: { body: { ok: true } }, ...routes });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ChangePasswordForm email={member.email} />
    </QueryClientProvider>,
  );
  const fields = {
    current: screen.getByLabelText('Current password'),
    next: screen.getByLabelText('New password'),
    confirm: screen.getByLabelText('Confirm new password'),
  };
  const button = screen.getByRole('button', { name: 'Change password' });
  return { server, user, fields, button };
}

describe('ChangePasswordForm', () => {
  it('keeps CHANGE PASSWORD disabled until all three fields are filled', async () => {
    const { user, fields, button } = renderForm();
    expect(fields.current).toHaveAttribute('type', 'password');
    expect(button).toBeDisabled();
    await user.type(fields.current, 'old pw 1');
    expect(button).toBeDisabled();
    await user.type(fields.next, 'new pw 22');
    expect(button).toBeDisabled();
    await user.type(fields.confirm, 'new pw 22');
    expect(button).toBeEnabled();
    await user.clear(fields.current);
    expect(button).toBeDisabled();
  });

  it('says the new passwords differ and sends nothing until they match', async () => {
    const { server, user, fields, button } = renderForm();
    await user.type(fields.current, 'old pw 1');
    await user.type(fields.next, 'new pw 22');
    await user.type(fields.confirm, 'new pw 23');
    expect(screen.queryByText(PASSWORDS_DIFFER)).toBeNull();
    await user.click(button);
    expect(await screen.findByText(PASSWORDS_DIFFER)).toBeVisible();
    expect(fields.confirm).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo(ROUTE)).toHaveLength(0);

    await user.clear(fields.confirm);
    await user.type(fields.confirm, 'new pw 22');
    expect(screen.queryByText(PASSWORDS_DIFFER)).toBeNull();
    await user.click(button);
    await waitFor(() => expect(server.callsTo(ROUTE)).toHaveLength(1));
    expect(server.callsTo(ROUTE)[0]?.body).toEqual({
      password: { current: 'old pw 1', next: 'new pw 22' },
    });
  });

  it("shows the server's message next to the button and keeps what was typed", async () => {
    const { user, fields, button } = renderForm({
      [ROUTE]: jsonError(403, 'wrong_password', 'The current password is not correct.'),
    });
    await user.type(fields.current, 'not it');
    await user.type(fields.next, 'new pw 22');
    await user.type(fields.confirm, 'new pw 22');
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The current password is not correct.',
    );
    expect(fields.current).toHaveValue('not it');
    expect(screen.queryByRole('status')).toBeNull();
    // A 403 here is an answer, not the end of the session.
    expect(window.localStorage.getItem(TOKEN_KEY)).not.toBeNull();
    // Typing again clears the stale message.
    await user.type(fields.current, '!');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says "Password changed." and clears the fields after a success', async () => {
    const { server, user, fields, button } = renderForm();
    await user.click(screen.getByRole('checkbox', { name: 'Show passwords' }));
    expect(fields.next).toHaveAttribute('type', 'text');
    await user.type(fields.current, 'old pw 1');
    await user.type(fields.next, 'new pw 22');
    await user.type(fields.confirm, 'new pw 22');
    await user.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent('Password changed.');
    expect(server.callsTo(ROUTE)[0]?.headers.get('authorization')).toBe(
      `Bearer token-of-${member.id}`,
    );
    expect(fields.current).toHaveValue('');
    expect(fields.next).toHaveValue('');
    expect(fields.confirm).toHaveValue('');
    expect(fields.next).toHaveAttribute('type', 'password');
    expect(button).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the strength meter under the new password', () => {
  // The first check loads the estimator's dictionaries, which takes a few seconds in jsdom.
  const LOADED = { timeout: 15_000 };

  it('shows the strength and the reason as the new password is typed', async () => {
    const { user, fields } = renderForm();
    await user.type(fields.next, 'Passw0rd!');
    expect(
      await screen.findByText(
        'Strength: weak — This is similar to a commonly used password. ' +
          'Add more words that are less common.',
        undefined,
        LOADED,
      ),
    ).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuetext',
      'weak',
    );

    await user.clear(fields.next);
    await user.type(fields.next, 'gravel trucks before dawn');
    expect(await screen.findByText('Strength: strong')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuetext',
      'strong',
    );
  });

  it("counts the signed-in user's own name as a reason", async () => {
    const { user, fields } = renderForm();
    await user.type(fields.next, `${member.firstname} gravel trucks`);
    expect(
      await screen.findByText(
        'Strength: very weak — The password must not contain your name or email.',
        undefined,
        LOADED,
      ),
    ).toBeVisible();
  });

  it('leaves the decision to the server: a weak password can still be sent', async () => {
    const { server, user, fields, button } = renderForm({
      [ROUTE]: jsonError(
        400,
        'weak_password',
        'That password is too common or too easy to guess. This is a commonly used password.',
      ),
    });
    await user.type(fields.current, 'old pw 1');
    await user.type(fields.next, 'password1');
    await user.type(fields.confirm, 'password1');
    expect(await screen.findByText(/^Strength: very weak/, undefined, LOADED)).toBeVisible();
    expect(button).toBeEnabled();
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(/too common or too easy to guess/);
    expect(server.callsTo(ROUTE)).toHaveLength(1);
  });
});

describe('/profile', () => {
  it('has a Change password section after the existing content', async () => {
    renderApp('/profile', {
      signedInAs: member,
      api: {
        [`GET /api/project/profile/${member.id}`]: { body: [] },
        [`GET /api/upload/user/${member.id}/latest`]: { body: [] },
      },
    });
    expect(await screen.findByText(member.email)).toBeVisible();
    expect(screen.getByRole('button', { name: /logout/i })).toBeVisible();
    expect(screen.getByRole('region', { name: 'My projects' })).toBeVisible();
    const section = screen.getByRole('region', { name: 'Change password' });
    expect(within(section).getByLabelText('Current password')).toBeVisible();
    expect(within(section).getByRole('button', { name: 'Change password' })).toBeDisabled();
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'));
    expect(regions.at(-1)).toBe(section.getAttribute('aria-labelledby'));
  });
});
