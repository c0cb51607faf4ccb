import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authKeys } from '@/features/auth/api/keys';
import { projectKeys } from '@/features/projects/api/keys';
import { makeProject } from '@/features/projects/test/make-project';
import { uploadKeys } from '@/features/uploads/api/keys';
import { installFakeXhr } from '@/features/uploads/test/fake-xhr';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';
import { userKeys } from '@/features/users/api/keys';
import { member, renderApp } from '@/test/render-app';

// How the pages in app/routes share what they read, and refresh only what a change touches.
describe('one cache entry per resource, targeted refreshes', () => {
  it('a rename on the project page shows on the uploader, read from the same cache entry', async () => {
    const project = makeProject({ id: 8, name: 'School Extension', creator: member });
    const renamed = { ...project, name: 'School Extension, Phase 2' };
    const { user, router, server } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        // The server keeps answering the old name: only the shared cache entry can show the new one.
        'GET /api/project/id/8': { body: project },
        'PATCH /api/project/update/8': { body: renamed },
        'GET /api/upload/project/8/latest': { body: [] },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit project' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.paste(renamed.name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const reads = server.callsTo('GET /api/project/id/8').length;

    await act(() => router.navigate('/uploader/8/create'));
    expect(await screen.findByRole('link', { name: renamed.name })).toHaveAttribute(
      'href',
      '/project/8',
    );
    expect(server.callsTo('GET /api/project/id/8')).toHaveLength(reads);

    await act(() => router.navigate('/reports/create?project=8'));
    expect(await screen.findByRole('link', { name: renamed.name })).toBeInTheDocument();
  });

  it('an upload refreshes upload lists, its project and its member, and nothing unrelated', async () => {
    const xhr = installFakeXhr();
    const project = makeProject({ id: 31, name: 'Harbour Bridge' });
    const { user, queryClient, server } = renderApp('/uploader/31/create', {
      signedInAs: member,
      api: { 'GET /api/project/id/31': { body: project } },
    });
    await screen.findByRole('link', { name: 'Harbour Bridge' });
    // Views of other screens, cached from earlier visits.
    const unrelated = [
      userKeys.list(),
      userKeys.profiles(),
      userKeys.profile(99),
      projectKeys.detail(32),
      projectKeys.placesProvider(),
      authKeys.hints(),
      uploadKeys.detail(5),
    ];
    const affected = [
      uploadKeys.latest(10),
      uploadKeys.project(31),
      uploadKeys.user(member.id),
      projectKeys.mine(),
      projectKeys.rows(),
      userKeys.profile(member.id),
      userKeys.memberProjects(project.creator.id),
    ];
    for (const key of [...unrelated, ...affected]) queryClient.setQueryData(key, {});

    await user.upload(
      screen.getByLabelText('Choose photos'),
      new File(['x'], 'a.jpg', { type: 'image/jpeg' }),
    );
    // The photo is kept on the device first, then sent by the queue.
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    xhr
      .last()
      .respond(
        201,
        makeUpload({ id: 77, project: { id: 31, name: project.name }, creator: member }),
      );
    const meCalls = server.callsTo('GET /api/auth/me').length;
    await screen.findByText('Sent', { exact: true });

    const invalidated = (key: readonly unknown[]) =>
      queryClient.getQueryState(key)?.isInvalidated ?? false;
    for (const key of affected) expect(invalidated(key), JSON.stringify(key)).toBe(true);
    // The project was on screen as the upload finished, so it was fetched again (count, cover).
    await waitFor(() => expect(server.callsTo('GET /api/project/id/31')).toHaveLength(2));
    for (const key of unrelated) expect(invalidated(key), JSON.stringify(key)).toBe(false);
    expect(invalidated(authKeys.me())).toBe(false);
    expect(server.callsTo('GET /api/auth/me')).toHaveLength(meCalls);
  });
});
