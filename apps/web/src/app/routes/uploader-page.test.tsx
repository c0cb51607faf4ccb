import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { userPhotos } from '@/features/uploads/queue/queue-db';
import { installFakeXhr } from '@/features/uploads/test/fake-xhr';
import { makeProject, makeUpload } from '@/features/uploads/test/upload-fixtures';

const project = makeProject({ id: 31, name: 'Harbour Bridge' });
const projectRoute = { 'GET /api/project/id/31': { body: project } };

const photo = (name = 'rebar.jpg') =>
  new File([new Uint8Array(2048)], name, { type: 'image/jpeg' });

const dtoOf = (xhr: { parts(): Array<[string, FormDataEntryValue]> }) =>
  JSON.parse(xhr.parts()[1]?.[1] as string) as Record<string, unknown>;

const tiles = () => within(screen.getByRole('list', { name: 'Photos of this visit' }));

describe('/uploader/{id}/create', () => {
  it('keeps each photo on the device, shows it at once, and sends two at a time in the background', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    expect(await screen.findByRole('link', { name: 'Harbour Bridge' })).toHaveAttribute(
      'href',
      '/project/31',
    );
    expect(document.title).toBe('Add photos · Sitelog');
    await user.type(screen.getByLabelText('Name'), 'North wall');
    await user.type(screen.getByLabelText('Description'), 'Rebar before the pour');

    await user.upload(screen.getByLabelText('Choose photos'), [
      photo('a.jpg'),
      photo('b.jpg'),
      photo('c.jpg'),
    ]);

    // Each photo is a tile at once; two are sent, the third waits its turn.
    await waitFor(() => expect(tiles().getAllByRole('listitem')).toHaveLength(3));
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    const stored = await userPhotos(member.id);
    expect(stored.map((p) => [p.fileName, p.projectId, p.name])).toEqual([
      ['a.jpg', 31, 'North wall'],
      ['b.jpg', 31, 'North wall'],
      ['c.jpg', 31, 'North wall'],
    ]);

    const first = xhr.requests[0]!;
    expect(first.url).toBe('/api/upload/autoupload');
    expect(first.headers.get('authorization')).toBe(`Bearer token-of-${member.id}`);
    // The file part first, then the JSON text part (spec §7), with the photo's idempotency key.
    expect(first.parts().map(([name]) => name)).toEqual(['file', 'createUploadDto']);
    expect((first.parts()[0]?.[1] as File).name).toBe('a.jpg');
    expect(dtoOf(first)).toEqual({
      name: 'North wall',
      description: 'Rebar before the pour',
      projectId: 31,
      clientId: stored[0]!.clientId,
    });

    first.progress(1024, 4096);
    expect(await screen.findByText(/Sending 25 %/)).toBeInTheDocument();
    // The camera stays ready while photos are sent.
    expect(screen.getByLabelText('Take photo')).toBeEnabled();

    first.respond(201, makeUpload({ id: 77, name: 'North wall', creator: member }));
    await waitFor(() => expect(xhr.requests).toHaveLength(3));
    expect(await screen.findByText('Sent')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /This visit: 3 photos, 1 sent/ })).toBeVisible();
    // Acknowledged: the file has left the device.
    expect((await userPhotos(member.id))[0]).toMatchObject({ status: 'sent', file: null });
    expect(screen.getByRole('link', { name: 'Name and describe' })).toHaveAttribute(
      'href',
      '/uploader/31/batch',
    );
  });

  it('sends the tags typed for the next photos with each of them', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: { ...projectRoute, 'GET /api/upload/tags': { body: [] } },
    });
    const tags = await screen.findByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'Electrical, Level 3,');
    await user.upload(screen.getByLabelText('Choose photos'), [photo('a.jpg'), photo('b.jpg')]);
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    const stored = await userPhotos(member.id);
    expect(stored.map((p) => p.tags)).toEqual([
      ['electrical', 'level 3'],
      ['electrical', 'level 3'],
    ]);
    expect(dtoOf(xhr.requests[0]!)).toEqual({
      name: '',
      description: '',
      projectId: 31,
      clientId: stored[0]!.clientId,
      tags: ['electrical', 'level 3'],
    });
  });

  it('offers the camera (one tap per shot) and a chooser for several photos, images only', async () => {
    renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    const camera = await screen.findByLabelText('Take photo');
    const chooser = screen.getByLabelText('Choose photos');
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(chooser).not.toHaveAttribute('capture');
    expect(chooser).toHaveAttribute('multiple');
    for (const input of [camera, chooser]) {
      expect(input).toHaveAttribute('type', 'file');
      expect(input).toHaveAttribute('accept', 'image/*,.heic,.heif');
    }
    expect(screen.queryByText('Under construction')).not.toBeInTheDocument();
  });

  it('takes no photo while the name is past its limit, which the field says', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await screen.findByLabelText('Take photo');
    await user.click(screen.getByLabelText('Name'));
    await user.paste('n'.repeat(201));
    expect(screen.getByText('Name must be at most 200 characters.')).toBeInTheDocument();
    expect(screen.getByText('201 / 200')).toBeInTheDocument();
    // Every photo would be refused by the server with this name: the camera waits instead.
    expect(screen.getByLabelText('Take photo')).toBeDisabled();
    expect(screen.getByLabelText('Choose photos')).toBeDisabled();
    fireEvent.drop(screen.getByTestId('drop-zone'), {
      dataTransfer: { files: [photo()], types: ['Files'] },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/Shorten the name or description/);
    expect(await userPhotos(member.id)).toEqual([]);
    expect(xhr.requests).toHaveLength(0);

    await user.keyboard('{Backspace}');
    expect(screen.getByLabelText('Take photo')).toBeEnabled();
  });

  it('stops a refused photo with its reason, keeps it until discarded, and asks first', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await user.upload(await screen.findByLabelText('Take photo'), photo());
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    xhr.last().respond(415, {
      message: 'This file is not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC).',
      code: 'unsupported_media_type',
      requestId: 'r2',
    });
    expect(await screen.findByText(/This file is not a supported image/)).toBeInTheDocument();
    expect(screen.getByText(/Not accepted/)).toBeInTheDocument();
    expect((await userPhotos(member.id))[0]).toMatchObject({ status: 'refused' });

    await user.click(screen.getByRole('button', { name: 'Retry rebar.jpg' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    xhr.last().respond(415, { message: 'Still not an image.', code: 'x', requestId: 'r3' });
    expect(await screen.findByText('Still not an image.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Discard rebar.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this photo?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(await userPhotos(member.id)).toHaveLength(1);
    // The page is usable again once the dialog has closed.
    await user.click(await screen.findByRole('button', { name: 'Discard rebar.jpg' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }),
    );
    await waitFor(async () => expect(await userPhotos(member.id)).toHaveLength(0));
    await waitFor(() => expect(screen.queryByText('rebar.jpg')).not.toBeInTheDocument());
  });

  it('keeps a photo whose send failed, says why, and retries it', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await user.upload(await screen.findByLabelText('Choose photos'), photo());
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    xhr.last().failNetwork();
    expect(await screen.findByText(/Failed, will retry/)).toBeInTheDocument();
    expect(screen.getByText('Could not reach the server.')).toBeInTheDocument();
    expect((await userPhotos(member.id))[0]).toMatchObject({ status: 'waiting', attempts: 1 });
    await user.click(screen.getByRole('button', { name: 'Retry rebar.jpg' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
  });

  it('refuses non-images before keeping or sending them', async () => {
    const xhr = installFakeXhr();
    renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    // The accept attribute can be bypassed (drag and drop, "All files"): still nothing is sent.
    const pdf = new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' });
    fireEvent.change(await screen.findByLabelText('Choose photos'), { target: { files: [pdf] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('plan.pdf: not an image.');
    expect(xhr.requests).toHaveLength(0);
    expect(await userPhotos(member.id)).toHaveLength(0);
  });

  it('takes photos dropped on the page', async () => {
    const xhr = installFakeXhr();
    renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    const zone = await screen.findByTestId('drop-zone');
    fireEvent.drop(zone, { dataTransfer: { files: [photo('dropped.jpg')], types: ['Files'] } });
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    expect((xhr.last().parts()[0]?.[1] as File).name).toBe('dropped.jpg');
  });

  it('says so when the project does not exist', async () => {
    const xhr = installFakeXhr();
    renderApp('/uploader/999/create', {
      signedInAs: member,
      api: {
        'GET /api/project/id/999': jsonError(404, 'not_found', 'The project does not exist.'),
      },
    });
    expect(await screen.findByText('This project does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a project' })).toHaveAttribute(
      'href',
      '/uploader/choose',
    );
    expect(screen.queryByLabelText('Choose photos')).not.toBeInTheDocument();
    expect(xhr.requests).toHaveLength(0);
  });

  it('says an archived project takes no photos, and offers the chooser and the project instead', async () => {
    const xhr = installFakeXhr();
    renderApp('/uploader/31/create', {
      signedInAs: member,
      api: {
        'GET /api/project/id/31': {
          body: {
            ...project,
            archivedAt: '2026-11-21T10:00:00.000Z',
            archivedBy: { id: 1, firstname: 'Ada', lastname: 'Admin' },
          },
        },
      },
    });
    expect(await screen.findByText('This project is archived.')).toBeInTheDocument();
    expect(screen.getByText(/read-only: no photos can be added/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a project' })).toHaveAttribute(
      'href',
      '/uploader/choose',
    );
    expect(screen.getByRole('link', { name: 'Open the project' })).toHaveAttribute(
      'href',
      '/project/31',
    );
    expect(screen.queryByLabelText('Choose photos')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Take photo')).not.toBeInTheDocument();
    expect(xhr.requests).toHaveLength(0);
  });

  it("shows the server's own message when the project cannot be loaded, not a generic one", async () => {
    renderApp('/uploader/31/create', {
      signedInAs: member,
      api: {
        'GET /api/project/id/31': jsonError(503, 'unavailable', 'The database is restarting.'),
      },
    });
    // A server error is retried twice (about 3 s) before the page gives up.
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('Could not load the project');
    expect(alert).toHaveTextContent('The database is restarting.');
    expect(alert).not.toHaveTextContent(/something went wrong|answered with an error/i);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('offers RETRY when the project fails to load', async () => {
    let calls = 0;
    const { user } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: {
        'GET /api/project/id/31': () => {
          calls += 1;
          return calls === 1
            ? jsonError(400, 'bad_request', 'Something is off.')
            : { body: project };
        },
      },
    });
    expect(await screen.findByText('Something is off.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Choose photos')).toBeInTheDocument();
  });
});

describe('/uploader/{id}/batch', () => {
  it('lists every photo of the visit, names them one by one or all at once, and saves on DONE', async () => {
    const xhr = installFakeXhr();
    const patches: unknown[] = [];
    const { user, router } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: {
        ...projectRoute,
        'GET /api/upload/full/77': { body: makeUpload({ id: 77, creator: member }) },
        'PATCH /api/upload/update/no-image/77': ({ body }: { body: unknown }) => {
          patches.push(body);
          return { body: makeUpload({ id: 77, name: 'Gable', creator: member }) };
        },
      },
    });
    await user.upload(await screen.findByLabelText('Choose photos'), [
      photo('a.jpg'),
      photo('b.jpg'),
    ]);
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    xhr.requests[0]!.respond(
      201,
      makeUpload({ id: 77, name: 'Harbour Bridge · 14:32', creator: member }),
    );
    await screen.findByText('Sent');

    await user.click(screen.getByRole('link', { name: 'Name and describe' }));
    expect(await screen.findByRole('heading', { name: 'Name and describe' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name of photo 1')).toHaveValue('Harbour Bridge · 14:32');
    expect(screen.getByLabelText('Name of photo 2')).toHaveValue('');

    await user.type(screen.getByLabelText('Description for all'), 'Level 3');
    await user.click(screen.getByRole('button', { name: 'Apply to all' }));
    expect(screen.getByLabelText('Description of photo 1')).toHaveValue('Level 3');
    expect(screen.getByLabelText('Description of photo 2')).toHaveValue('Level 3');
    await user.clear(screen.getByLabelText('Name of photo 1'));
    await user.type(screen.getByLabelText('Name of photo 1'), 'Gable');

    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/31'));
    // The sent photo's text is saved to its upload (not its tags: unchanged here, they stay as
    // the server has them); the other's goes with it when it is sent.
    await waitFor(() =>
      expect(patches).toEqual([
        { upload: { name: 'Gable', description: 'Level 3', projectId: 31 } },
      ]),
    );
    xhr.requests[1]!.respond(201, makeUpload({ id: 78, creator: member }));
    const [waiting] = (await userPhotos(member.id)).filter((p) => p.fileName === 'b.jpg');
    expect(waiting).toMatchObject({ description: 'Level 3' });
  });

  it('adds tags to one photo or to all, each keeping its own, kept with the photos', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: { ...projectRoute, 'GET /api/upload/tags': { body: [] } },
    });
    await user.upload(await screen.findByLabelText('Choose photos'), [
      photo('a.jpg'),
      photo('b.jpg'),
    ]);
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    await user.click(screen.getByRole('link', { name: 'Name and describe' }));

    // Pasted and entered: typing key by key into several fields is slow in the test's DOM.
    const addTag = async (label: string, text: string) => {
      await user.click(await screen.findByRole('combobox', { name: label }));
      await user.paste(text);
      await user.keyboard('{Enter}');
    };
    await addTag('Tags of photo 2', 'roof');
    await addTag('Tags for all', 'Level 3');
    await user.click(screen.getByRole('button', { name: 'Apply to all' }));
    const chipsOf = (label: string) =>
      [
        ...(screen
          .getByRole('combobox', { name: label })
          .closest('.MuiAutocomplete-root')
          ?.querySelectorAll('.MuiAutocomplete-tag') ?? []),
      ].map((chip) => chip.textContent);
    expect(chipsOf('Tags of photo 1')).toEqual(['level 3']);
    expect(chipsOf('Tags of photo 2')).toEqual(['roof', 'level 3']);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Kept on the device with each photo: sent with it, or saved to it once it is there.
    await waitFor(async () =>
      expect((await userPhotos(member.id)).map((p) => [p.fileName, p.tags])).toEqual([
        ['a.jpg', ['level 3']],
        ['b.jpg', ['roof', 'level 3']],
      ]),
    );
  });

  it('keeps the visit open while a tag field holds a refused tag, and says which photo', async () => {
    const xhr = installFakeXhr();
    const { user, router } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: { ...projectRoute, 'GET /api/upload/tags': { body: [] } },
    });
    await user.upload(await screen.findByLabelText('Choose photos'), [
      photo('a.jpg'),
      photo('b.jpg'),
    ]);
    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    await user.click(screen.getByRole('link', { name: 'Name and describe' }));
    await user.click(await screen.findByRole('combobox', { name: 'Tags of photo 2' }));
    await user.paste(`roof, ${'y'.repeat(41)}`);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Photo 2: “${'y'.repeat(41)}” in the tag field is not a tag yet: fix it or clear it before saving.`,
    );
    expect(router.state.location.pathname).toBe('/uploader/31/batch');
    expect((await userPhotos(member.id)).map((p) => p.tags)).toEqual([[], []]);
  });
});
