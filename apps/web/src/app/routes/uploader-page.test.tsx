import '@/features/uploads/test/timing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { installFakeXhr } from '@/features/uploads/test/fake-xhr';
import { makeProject, makeUpload } from '@/features/uploads/test/upload-fixtures';

const project = makeProject({ id: 31, name: 'Harbour Bridge' });
const projectRoute = { 'GET /api/project/id/31': { body: project } };

const photo = () => new File([new Uint8Array(2048)], 'rebar.jpg', { type: 'image/jpeg' });

describe('/uploader/{id}/create', () => {
  it('starts the upload as soon as a file is chosen, shows progress, then opens the batch editor', async () => {
    const xhr = installFakeXhr();
    const { user, router } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: projectRoute,
    });
    expect(await screen.findByRole('link', { name: 'Harbour Bridge' })).toHaveAttribute(
      'href',
      '/project/31',
    );
    expect(document.title).toBe('Upload photo · Sitelog');
    await user.type(screen.getByLabelText('Name'), 'North wall');
    await user.type(screen.getByLabelText('Description'), 'Rebar before the pour');

    await user.upload(screen.getByLabelText('Choose file'), photo());

    const request = xhr.last();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/upload/autoupload');
    expect(request.headers.get('authorization')).toBe(`Bearer token-of-${member.id}`);
    // The file part first, then the JSON text part (spec §7).
    const parts = request.parts();
    expect(parts.map(([name]) => name)).toEqual(['file', 'createUploadDto']);
    expect((parts[0]?.[1] as File).name).toBe('rebar.jpg');
    expect(JSON.parse(parts[1]?.[1] as string)).toEqual({
      name: 'North wall',
      description: 'Rebar before the pour',
      projectId: 31,
    });

    request.progress(1024, 4096);
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '25'));
    expect(screen.getByText(/Uploading rebar\.jpg/)).toHaveTextContent('25%');
    // Nothing can be chosen twice while one upload runs.
    expect(screen.getByLabelText('Choose file')).toBeDisabled();

    request.progress(4096, 4096);
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '100'));
    expect(screen.getByText(/Processing rebar\.jpg/)).toBeInTheDocument();

    request.respond(200, makeUpload({ id: 77, name: 'North wall', creator: member }));
    expect(await screen.findByRole('heading', { name: 'Photo uploaded' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload/77/edit/batch');
    expect(screen.getByLabelText('Name')).toHaveValue('North wall');
  });

  it('offers both the camera and the file chooser, for images only', async () => {
    renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    const camera = await screen.findByLabelText('Take photo');
    const chooser = screen.getByLabelText('Choose file');
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(chooser).not.toHaveAttribute('capture');
    for (const input of [camera, chooser]) {
      expect(input).toHaveAttribute('type', 'file');
      expect(input).toHaveAttribute('accept', 'image/*,.heic,.heif');
    }
    expect(screen.getByRole('heading', { name: 'Tags' })).toBeInTheDocument();
    expect(screen.getByText('Under construction')).toBeInTheDocument();
  });

  it("shows the server's message when the upload fails, and tries the same file again", async () => {
    const xhr = installFakeXhr();
    const { user, router } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: projectRoute,
    });
    await user.upload(await screen.findByLabelText('Take photo'), photo());
    xhr.last().respond(503, {
      message: 'Storage is not available right now.',
      code: 'storage_unavailable',
      requestId: 'r1',
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not upload rebar.jpg');
    expect(alert).toHaveTextContent('Storage is not available right now.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/uploader/31/create');

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(xhr.requests).toHaveLength(2);
    expect((xhr.last().parts()[0]?.[1] as File).name).toBe('rebar.jpg');
    xhr.last().respond(200, makeUpload({ id: 78, creator: member }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload/78/edit/batch'));
  });

  it('shows a refused file type with its message and no retry of the same file', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await user.upload(await screen.findByLabelText('Choose file'), photo());
    xhr.last().respond(415, {
      message: 'This file is not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC).',
      code: 'unsupported_media_type',
      requestId: 'r2',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This file is not a supported image',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    // Another file can be chosen right away.
    expect(screen.getByLabelText('Choose file')).toBeEnabled();
  });

  it('says when the connection drops, and refuses non-images before sending them', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await user.upload(await screen.findByLabelText('Choose file'), photo());
    xhr.last().failNetwork();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the server');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();

    // The accept attribute can be bypassed (drag and drop, "All files"): still nothing is sent.
    const pdf = new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Choose file'), { target: { files: [pdf] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This is not an image.');
    expect(xhr.requests).toHaveLength(1);
  });

  it('cancels an upload in flight', async () => {
    const xhr = installFakeXhr();
    const { user } = renderApp('/uploader/31/create', { signedInAs: member, api: projectRoute });
    await user.upload(await screen.findByLabelText('Choose file'), photo());
    xhr.last().progress(100, 4096);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(xhr.last().aborted).toBe(true);
    expect(await screen.findByText(/was cancelled/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload again' })).toBeInTheDocument();
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
    expect(screen.queryByLabelText('Choose file')).not.toBeInTheDocument();
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
    expect(await screen.findByLabelText('Choose file')).toBeInTheDocument();
  });
});
