import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { admin, renderApp } from '@/test/render-app';

const users = { 'GET /api/user/all': { body: [] } };
const label = 'Company or team name (on report covers)';

describe('/admin: the team name on report covers', () => {
  it('shows the stored name and saves a new one with SAVE', async () => {
    const { server, user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...users,
        'GET /api/workspace': { body: { teamName: 'Lee & Sons' } },
        'PATCH /api/workspace': (request) => ({
          body: { teamName: (request.body as { teamName: string }).teamName },
        }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Reports' });
    const field = await within(region).findByRole('textbox', { name: label });
    expect(field).toHaveValue('Lee & Sons');
    const save = within(region).getByRole('button', { name: 'Save' });
    // Nothing changed yet.
    expect(save).toBeDisabled();
    await user.clear(field);
    await user.type(field, '  Lee & Daughters Ltd ');
    await user.click(save);
    expect(await within(region).findByRole('status')).toHaveTextContent(
      'Saved. New reports carry this name.',
    );
    expect(server.callsTo('PATCH /api/workspace')[0]?.body).toEqual({
      teamName: 'Lee & Daughters Ltd',
    });
    expect(field).toHaveValue('Lee & Daughters Ltd');
    expect(save).toBeDisabled();
  });

  it('refuses a name over the limit before asking, and shows the server message', async () => {
    const { server, user } = renderApp('/admin', {
      signedInAs: admin,
      api: {
        ...users,
        'GET /api/workspace': { body: { teamName: '' } },
        'PATCH /api/workspace': jsonError(403, 'forbidden', 'Only admins can change the name.'),
      },
    });
    const field = await screen.findByRole('textbox', { name: label });
    await user.click(field);
    await user.paste('x'.repeat(121));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.getByText('The company or team name must be at most 120 characters.'),
    ).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'Acme');
    await user.click(save);
    expect(await screen.findByText(/Could not save the name\. Only admins/)).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/workspace')).toHaveLength(1);
    expect(field).toHaveValue('Acme');
  });

  it('shows the server message with RETRY when the name cannot be loaded', async () => {
    const { server, user } = renderApp('/admin', {
      signedInAs: admin,
      api: { ...users, 'GET /api/workspace': jsonError(503, 'unavailable', 'The server is busy.') },
    });
    const region = await screen.findByRole('region', { name: 'Reports' });
    expect(await within(region).findByText('Could not load the team name')).toBeInTheDocument();
    server.set('GET /api/workspace', { body: { teamName: 'Acme' } });
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(within(region).getByRole('textbox', { name: label })).toHaveValue('Acme'),
    );
  });
});
