import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testQueryClient } from '@/test/query-client';
import { jsonError, mockApi, type MockRoutes } from '@/test/mock-api';
import { admin, storeSession } from '@/test/render-app';
import { CreateUserForm } from './create-user-form';

// The first check loads the estimator's dictionaries, which takes a few seconds in jsdom.
const LOADED = { timeout: 15_000 };
const ROUTE = 'POST /api/user/create';

async function renderForm(routes: MockRoutes = {}) {
  storeSession(admin);
  const server = mockApi(routes);
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <CreateUserForm />
    </QueryClientProvider>,
  );
  await user.type(screen.getByLabelText('First name'), 'Nora');
  await user.type(screen.getByLabelText('Last name'), 'Newton');
  await user.type(screen.getByLabelText('Email'), 'nora@acme-builders.com');
  return { server, user, password: screen.getByLabelText('Password') };
}

describe('the strength meter on the Create user form', () => {
  it('shows the strength and the reason as the password is typed', async () => {
    const { user, password } = await renderForm();
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.type(password, 'Welcome2024');
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

    await user.clear(password);
    await user.type(password, 'scaffold copper morning drizzle');
    expect(await screen.findByText('Strength: strong')).toBeVisible();
  });

  it("judges against the new user's name and email as typed", async () => {
    const { user, password } = await renderForm();
    await user.type(password, 'gravel newton trucks');
    expect(
      await screen.findByText(
        'Strength: very weak — The password must not contain your name or email.',
        undefined,
        LOADED,
      ),
    ).toBeVisible();
    await user.clear(password);
    await user.type(password, 'acme-builders-2025');
    expect(
      await screen.findByText(/^Strength: fair — There should not be any personal/),
    ).toBeVisible();
  });

  it("still sends a weak password and shows the server's refusal", async () => {
    const message =
      'That password is too common or too easy to guess. This is a commonly used password.';
    const { server, user, password } = await renderForm({
      [ROUTE]: jsonError(400, 'weak_password', message),
    });
    await user.type(password, 'qwerty12');
    expect(await screen.findByText(/^Strength: very weak/, undefined, LOADED)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(server.callsTo(ROUTE)).toHaveLength(1);
  });
});
