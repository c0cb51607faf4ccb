import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { makeProject } from '@/features/projects/test/make-project';

const munich = {
  label: 'Munich, Germany',
  name: 'Munich',
  country: 'Germany',
  latitude: 48.13743,
  longitude: 11.57549,
};
const munster = {
  label: 'Münster, Germany',
  name: 'Münster',
  country: 'Germany',
  latitude: 51.96236,
  longitude: 7.62571,
};

describe('/projects/new', () => {
  it('keeps CREATE disabled until both name and location are filled', async () => {
    const { user } = renderApp('/projects/new', {
      signedInAs: member,
      api: { 'GET /api/places': { body: [] } },
    });
    const create = await screen.findByRole('button', { name: 'Create' });
    expect(document.title).toBe('New project · Sitelog');
    expect(create).toBeDisabled();

    await user.click(screen.getByLabelText('Name'));
    await user.paste('Harbour Bridge');
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Location'), 'Pier 4');
    expect(create).toBeEnabled();

    // Whitespace is not a name.
    await user.clear(screen.getByLabelText('Name'));
    await user.paste('   ');
    expect(create).toBeDisabled();
  });

  it('refuses a name, location or description past its limit, saying so at the field', async () => {
    const { user, server } = renderApp('/projects/new', {
      signedInAs: member,
      api: { 'GET /api/places': { body: [] } },
    });
    const create = await screen.findByRole('button', { name: 'Create' });
    await user.click(screen.getByLabelText('Name'));
    await user.paste('N'.repeat(121));
    await user.click(screen.getByLabelText('Location'));
    await user.paste('Pier 4');
    // Pasted whole (no silent cut), marked invalid with the server's own message and a count.
    expect(screen.getByLabelText('Name')).toHaveValue('N'.repeat(121));
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Name must be at most 120 characters.')).toBeInTheDocument();
    expect(screen.getByText('121 / 120')).toBeInTheDocument();
    expect(create).toBeDisabled();

    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{End}{Backspace}');
    expect(screen.getByText('120 / 120')).toBeInTheDocument();
    expect(create).toBeEnabled();

    await user.click(screen.getByLabelText('Description'));
    await user.paste('d'.repeat(5001));
    expect(screen.getByText('Description must be at most 5,000 characters.')).toBeInTheDocument();
    expect(create).toBeDisabled();
    // Enter in a field submits the form: still nothing is sent.
    fireEvent.submit(screen.getByRole('form', { name: 'New project' }));
    expect(server.callsTo('POST /api/project/create')).toHaveLength(0);
  });

  it("lists the server's error below the form and keeps what was typed", async () => {
    const { user, server } = renderApp('/projects/new', {
      signedInAs: member,
      api: {
        'GET /api/places': { body: [] },
        'POST /api/project/create': {
          status: 400,
          body: {
            message: 'The request is not valid.',
            code: 'validation_failed',
            requestId: 'r1',
            details: [
              { path: 'project.location', message: 'Location must be at most 200 characters.' },
            ],
          },
        },
      },
    });
    await user.click(await screen.findByLabelText('Name'));
    await user.paste('Depot');
    await user.click(screen.getByLabelText('Location'));
    await user.paste('Somewhere');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The request is not valid.');
    expect(within(alert).getByRole('listitem')).toHaveTextContent(
      'Location must be at most 200 characters.',
    );
    // Below the form's fields and button.
    expect(
      screen.getByRole('button', { name: 'Create' }).compareDocumentPosition(alert) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.getByLabelText('Name')).toHaveValue('Depot');
    expect(server.callsTo('POST /api/project/create')[0]?.body).toEqual({
      project: {
        name: 'Depot',
        location: 'Somewhere',
        description: '',
        latitude: null,
        longitude: null,
      },
    });
  });

  it('suggests places as the user types, and picking one fills the location with its coordinates', async () => {
    const created = makeProject({
      id: 42,
      name: 'Tram Depot',
      location: munich.label,
      creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
    });
    const { user, server, router } = renderApp('/projects/new', {
      signedInAs: member,
      api: {
        'GET /api/places': (request) => {
          const query = new URL(request.url, 'http://localhost').searchParams.get('query');
          return { body: query === 'munc' ? [munich] : query?.startsWith('mün') ? [munster] : [] };
        },
        'POST /api/project/create': { body: created },
        'GET /api/project/id/42': { body: created },
      },
    });
    await user.click(await screen.findByLabelText('Name'));
    await user.paste('Tram Depot');
    await user.type(screen.getByLabelText('Location'), 'munc');

    const option = await screen.findByRole('option', { name: /Munich/ });
    expect(option).toHaveTextContent('Germany');
    // Debounced: one search for the whole word, none per keystroke before it.
    expect(
      server
        .callsTo('GET /api/places')
        .map((call) => new URL(call.url, 'http://localhost').searchParams.get('query')),
    ).toEqual(['munc']);

    await user.click(option);
    expect(screen.getByLabelText('Location')).toHaveValue('Munich, Germany');
    expect(screen.getByText(/Picked place at 48\.1374, 11\.5755/)).toBeInTheDocument();

    await user.click(screen.getByLabelText('Description'));
    await user.paste('New tram depot, phase 1.');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/42'));
    expect(server.callsTo('POST /api/project/create')[0]?.body).toEqual({
      project: {
        name: 'Tram Depot',
        location: 'Munich, Germany',
        description: 'New tram depot, phase 1.',
        latitude: munich.latitude,
        longitude: munich.longitude,
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Tram Depot' }),
    ).toBeInTheDocument();
  });

  it('forgets the coordinates when the picked location is edited by hand', async () => {
    const { user, server } = renderApp('/projects/new', {
      signedInAs: member,
      api: {
        'GET /api/places': { body: [munich] },
        'POST /api/project/create': jsonError(500, 'internal', 'Something failed.'),
      },
    });
    await user.click(await screen.findByLabelText('Name'));
    await user.paste('Depot');
    await user.type(screen.getByLabelText('Location'), 'munc');
    await user.click(await screen.findByRole('option', { name: /Munich/ }));
    await user.paste(', Gate 2');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByRole('alert');
    expect(server.callsTo('POST /api/project/create')[0]?.body).toEqual({
      project: {
        name: 'Depot',
        location: 'Munich, Germany, Gate 2',
        description: '',
        latitude: null,
        longitude: null,
      },
    });
  });

  it('falls back to the built-in place search, logging why, when the Google Maps script fails to load', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const scripts: string[] = [];
    vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
      for (const node of nodes) {
        if (node instanceof HTMLScriptElement) {
          scripts.push(node.src);
          queueMicrotask(() => node.onerror?.(new Event('error')));
        }
      }
    });
    const { user } = renderApp('/projects/new', {
      signedInAs: member,
      api: {
        'GET /api/config': { body: { placesProvider: 'google', googleMapsKey: 'test-key' } },
        'GET /api/places': { body: [munich] },
      },
    });
    await waitFor(() => expect(scripts).toHaveLength(1));
    expect(scripts[0]).toMatch(
      /^https:\/\/maps\.googleapis\.com\/maps\/api\/js\?key=test-key&libraries=places/,
    );
    await waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining('Google Maps could not be loaded'),
        expect.any(Error),
      ),
    );
    await user.type(screen.getByLabelText('Location'), 'munc');
    expect(await screen.findByRole('option', { name: /Munich/ })).toBeInTheDocument();
  });
});
