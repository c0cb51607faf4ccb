import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { admin, member, renderApp } from '@/test/render-app';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';

const mine = makeUpload({
  id: 7,
  name: 'North wall rebar',
  description: 'Before the pour.',
  creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
  project: { id: 31, name: 'Harbour Bridge' },
});

describe('/upload/{id}/edit', () => {
  it('shows SAVE only after a change and sends unchanged fields with their current value', async () => {
    let stored = mine;
    const { server, user } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': () => ({ body: stored }),
        'PATCH /api/upload/update/no-image/7': (request) => {
          const { upload } = request.body as { upload: { name: string; description: string } };
          stored = { ...stored, name: upload.name, description: upload.description };
          return { body: stored };
        },
      },
    });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('North wall rebar');
    expect(screen.getByLabelText('Description')).toHaveValue('Before the pour.');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'South wall');
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(1),
    );
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: { name: 'South wall', description: 'Before the pour.', projectId: 31 },
    });
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(name).toHaveValue('South wall');
  });

  it('edits the tags: SAVE after a change, the whole new list sent, suggestions offered', async () => {
    let stored = { ...mine, tags: ['rebar', 'north wall'] };
    const { server, user } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': () => ({ body: stored }),
        'GET /api/upload/tags': (request) => ({
          body:
            new URL(request.url, 'http://localhost').searchParams.get('q') === 'in'
              ? [{ tag: 'inspection', count: 9 }]
              : [],
        }),
        'PATCH /api/upload/update/no-image/7': (request) => {
          const { upload } = request.body as { upload: { tags: string[] } };
          stored = { ...stored, tags: upload.tags };
          return { body: stored };
        },
      },
    });
    const field = await screen.findByRole('combobox', { name: 'Tags' });
    expect(screen.getByRole('button', { name: 'rebar' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await user.type(field, 'In');
    await user.click(await screen.findByRole('option', { name: /inspection/ }));
    await user.click(
      within(screen.getByRole('button', { name: 'rebar' })).getByTestId('CancelIcon'),
    );
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(1),
    );
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: {
        name: 'North wall rebar',
        description: 'Before the pour.',
        projectId: 31,
        tags: ['north wall', 'inspection'],
      },
    });
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('does not save while the tag field holds a refused tag, and says so', async () => {
    const { server, user } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'GET /api/upload/tags': { body: [] },
        'PATCH /api/upload/update/no-image/7': { body: mine },
      },
    });
    await user.type(await screen.findByLabelText('Name'), '!');
    await user.click(screen.getByRole('combobox', { name: 'Tags' }));
    await user.paste('y'.repeat(41));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `“${'y'.repeat(41)}” in the tag field is not a tag yet: fix it or clear it before saving.`,
    );
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(0);
  });

  it('hides SAVE again when the text is changed back', async () => {
    const { user } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: mine } },
    });
    const description = await screen.findByLabelText('Description');
    await user.type(description, '!');
    expect(await screen.findByRole('button', { name: 'Save' })).toBeInTheDocument();
    await user.type(description, '{Backspace}');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument(),
    );
  });

  it("shows the server's message when saving fails and keeps what was typed", async () => {
    const { user } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'PATCH /api/upload/update/no-image/7': jsonError(
          400,
          'validation_failed',
          'Name must be at most 200 characters.',
        ),
      },
    });
    const name = await screen.findByLabelText('Name');
    await user.type(name, ' east');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Name must be at most 200 characters.',
    );
    expect(name).toHaveValue('North wall rebar east');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('deletes after confirmation and returns to the project page', async () => {
    const { server, user, router } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'DELETE /api/upload/delete/7': { body: { ok: true } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this photo?' });
    expect(server.callsTo('DELETE /api/upload/delete/7')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/31'));
    expect(server.callsTo('DELETE /api/upload/delete/7')).toHaveLength(1);
    // The deleted upload is not asked for again.
    expect(server.callsTo('GET /api/upload/full/7')).toHaveLength(1);
  });

  it('keeps the upload when the confirmation is cancelled, and shows a failed delete', async () => {
    const { server, user, router } = renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'DELETE /api/upload/delete/7': jsonError(
          403,
          'forbidden',
          'Only the creator can delete it.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('DELETE /api/upload/delete/7')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only the creator can delete it.',
    );
    expect(router.state.location.pathname).toBe('/upload/7/edit');
  });

  it('tells other members that only the creator can edit, without the form or DELETE', async () => {
    renderApp('/upload/7/edit', {
      signedInAs: admin,
      api: { 'GET /api/upload/full/7': { body: mine } },
    });
    expect(
      await screen.findByText(/Only the creator of this photo \(Mia Mason\) can edit it/),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View photo' })).toHaveAttribute('href', '/upload/7');
  });

  it('tells the creator a photo of an archived project is read-only, without the form or DELETE', async () => {
    renderApp('/upload/7/edit', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': {
          body: { ...mine, project: { ...mine.project, archived: true } },
        },
      },
    });
    expect(
      await screen.findByText(/Harbour Bridge is archived, so its photos are read-only/),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View photo' })).toHaveAttribute('href', '/upload/7');
  });

  it('tells another member of an archived project’s photo that only its creator edits it', async () => {
    renderApp('/upload/7/edit', {
      signedInAs: admin,
      api: {
        'GET /api/upload/full/7': {
          body: { ...mine, project: { ...mine.project, archived: true } },
        },
      },
    });
    expect(
      await screen.findByText(/Only the creator of this photo \(Mia Mason\) can edit it/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/is archived, so its photos are read-only/)).not.toBeInTheDocument();
  });
});

describe('/upload/{id}/edit/batch', () => {
  it('shows the uploaded photo with DONE, ADD ANOTHER ONE and DELETE for the creator', async () => {
    const { user, router } = renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: mine } },
    });
    expect(await screen.findByRole('heading', { name: 'Photo uploaded' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'North wall rebar' })).toHaveAttribute(
      'src',
      '/media/formatted-7.jpg?sig=abc',
    );
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add another one' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/31'));
  });

  it('ADD ANOTHER ONE saves pending changes first, then opens the uploader of the project', async () => {
    const { server, user, router } = renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'PATCH /api/upload/update/no-image/7': { body: { ...mine, description: 'After' } },
      },
    });
    const description = await screen.findByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'After');
    await user.click(screen.getByRole('button', { name: 'Add another one' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/uploader/31/create'));
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: { name: 'North wall rebar', description: 'After', projectId: 31 },
    });
  });

  it('DONE saves tags added in the batch editor with the rest', async () => {
    const { server, user, router } = renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'GET /api/upload/tags': { body: [] },
        'PATCH /api/upload/update/no-image/7': { body: { ...mine, tags: ['rebar'] } },
      },
    });
    await user.type(await screen.findByRole('combobox', { name: 'Tags' }), 'Rebar{Enter}');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/31'));
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: {
        name: 'North wall rebar',
        description: 'Before the pour.',
        projectId: 31,
        tags: ['rebar'],
      },
    });
  });

  it('stays on DONE while the tag field holds a refused tag, and says so', async () => {
    const { server, user, router } = renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'GET /api/upload/tags': { body: [] },
        'PATCH /api/upload/update/no-image/7': { body: mine },
      },
    });
    await user.click(await screen.findByRole('combobox', { name: 'Tags' }));
    await user.paste('y'.repeat(41));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'in the tag field is not a tag yet: fix it or clear it before saving.',
    );
    expect(router.state.location.pathname).toBe('/upload/7/edit/batch');
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(0);
  });

  it('stays when saving before DONE fails', async () => {
    const { user, router } = renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: mine },
        'PATCH /api/upload/update/no-image/7': jsonError(500, 'internal', 'Something went wrong.'),
      },
    });
    await user.type(await screen.findByLabelText('Name'), '!');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong.');
    expect(router.state.location.pathname).toBe('/upload/7/edit/batch');
  });

  it('shows no controls to members who did not create the upload', async () => {
    renderApp('/upload/7/edit/batch', {
      signedInAs: admin,
      api: { 'GET /api/upload/full/7': { body: mine } },
    });
    expect(await screen.findByText(/Only the creator of this photo/)).toBeInTheDocument();
    for (const name of ['Done', 'Add another one', 'Delete', 'Save'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });

  it('offers no controls on a photo of an archived project, and says why', async () => {
    renderApp('/upload/7/edit/batch', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': {
          body: { ...mine, project: { ...mine.project, archived: true } },
        },
      },
    });
    expect(await screen.findByText(/Harbour Bridge is archived/)).toBeInTheDocument();
    for (const name of ['Done', 'Add another one', 'Delete', 'Save'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });
});
