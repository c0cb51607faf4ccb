import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { admin, member, renderApp } from '@/test/render-app';
import { makeProject } from '@/features/projects/test/make-project';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';

const byOther = makeProject({ id: 7, creator: { id: 3, firstname: 'Aisha', lastname: 'Okafor' } });
// The Uploads section (from the uploads feature) loads the project's photos on its own.
const noUploads = { 'GET /api/upload/project/7/latest': { body: [] } };

const byMember = makeProject({
  id: 8,
  name: 'School Extension',
  creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
});

/** Project 7's bookmark as the server keeps it: BOOKMARK and UNBOOKMARK set it and answer it. */
function bookmarkServer() {
  let favorited = false;
  const project = () => ({ ...byOther, isFavorited: favorited });
  const mark = (value: boolean) => () => {
    favorited = value;
    return { body: project() };
  };
  return {
    project,
    routes: { 'GET /api/project/7/favor/': mark(true), 'GET /api/project/7/unfavor/': mark(false) },
  };
}

describe('/project/{id}', () => {
  it('shows the header: name, location, creator linking to the profile, updated date and description', async () => {
    renderApp('/project/7', {
      signedInAs: member,
      api: { 'GET /api/project/id/7': { body: byOther }, ...noUploads },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: byOther.name }),
    ).toBeInTheDocument();
    expect(document.title).toBe(`${byOther.name} · Sitelog`);
    expect(screen.getByText('Munich, Germany')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aisha Okafor' })).toHaveAttribute(
      'href',
      '/profile/3',
    );
    expect(
      screen.getByText(
        (_content, element) =>
          element?.tagName === 'TIME' && element.getAttribute('datetime') === byOther.updatedAt,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(byOther.description)).toBeInTheDocument();
  });

  it('shows EDIT only to the project creator', async () => {
    const { unmount } = renderApp('/project/7', {
      signedInAs: member,
      api: { 'GET /api/project/id/7': { body: byOther }, ...noUploads },
    });
    await screen.findByRole('heading', { level: 1, name: byOther.name });
    expect(screen.getByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    unmount();

    renderApp('/project/8', {
      signedInAs: member,
      api: { 'GET /api/project/id/8': { body: byMember } },
    });
    await screen.findByRole('heading', { level: 1, name: byMember.name });
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('edits the project as its creator with PATCH and shows the saved values', async () => {
    const saved = { ...byMember, name: 'School Extension, Phase 2', description: 'Second wing.' };
    const { user, server } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': { body: byMember },
        'PATCH /api/project/update/8': { body: saved },
        'GET /api/places': { body: [] },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit project' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue(byMember.name);
    expect(within(dialog).getByLabelText('Location')).toHaveValue(byMember.location);
    await user.clear(name);
    await user.paste('School Extension, Phase 2');
    await user.clear(within(dialog).getByLabelText('Description'));
    await user.paste('Second wing.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('PATCH /api/project/update/8')[0]?.body).toEqual({
      project: {
        name: 'School Extension, Phase 2',
        location: byMember.location,
        description: 'Second wing.',
        latitude: byMember.latitude,
        longitude: byMember.longitude,
      },
    });
    expect(
      screen.getByRole('heading', { level: 1, name: 'School Extension, Phase 2' }),
    ).toBeInTheDocument();
    // Opening the location for editing is not a place search.
    expect(server.callsTo('GET /api/places')).toHaveLength(0);
  });

  it('shows the server message in the edit form when saving fails', async () => {
    const { user } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': { body: byMember },
        'PATCH /api/project/update/8': jsonError(
          403,
          'forbidden',
          'Only the creator of this project can edit it.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit project' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only the creator of this project can edit it.',
    );
  });

  it('bookmarks and unbookmarks through the API and updates the label from the answer', async () => {
    const bookmark = bookmarkServer();
    const { user, server } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...noUploads,
        ...bookmark.routes,
        'GET /api/project/id/7': () => ({ body: bookmark.project() }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Bookmark' }));
    expect(await screen.findByRole('button', { name: 'Unbookmark' })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
    expect(server.callsTo('GET /api/project/7/favor/')).toHaveLength(1);
    // The project is refetched after the toggle (spec §4).
    await waitFor(() => expect(server.callsTo('GET /api/project/id/7')).toHaveLength(2));
    expect(server.callsTo('GET /api/project/7/favor/')[0]?.headers.get('authorization')).toBe(
      `Bearer token-of-${member.id}`,
    );

    await user.click(screen.getByRole('button', { name: 'Unbookmark' }));
    expect(await screen.findByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/project/7/unfavor/')).toHaveLength(1);
    // Following was not touched.
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
  });

  it('takes the next BOOKMARK press as soon as the toggle is answered, while the refetch still runs', async () => {
    const bookmark = bookmarkServer();
    let refetches = 0;
    let releaseRefetch: () => void = () => undefined;
    const refetchHeld = new Promise<void>((resolve) => {
      releaseRefetch = resolve;
    });
    const { user, server } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...noUploads,
        ...bookmark.routes,
        'GET /api/project/id/7': async () => {
          // The first read answers at once; the refetches after a toggle wait (a slow server).
          refetches += 1;
          if (refetches > 1) await refetchHeld;
          return { body: bookmark.project() };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Bookmark' }));
    const unbookmark = await screen.findByRole('button', { name: 'Unbookmark' });
    await waitFor(() => expect(server.callsTo('GET /api/project/id/7')).toHaveLength(2));
    // The refetch is still held, and the button already takes a press.
    expect(unbookmark).toHaveAttribute('aria-disabled', 'false');
    await user.click(unbookmark);
    expect(await screen.findByRole('button', { name: 'Bookmark' })).toHaveFocus();
    expect(server.callsTo('GET /api/project/7/unfavor/')).toHaveLength(1);
    releaseRefetch();
    // The held refetches end on the server's state, not on the first toggle's.
    await waitFor(() => expect(server.callsTo('GET /api/project/id/7')).toHaveLength(3));
    expect(await screen.findByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unbookmark' })).not.toBeInTheDocument();
  });

  it('ignores FOLLOW presses while its call runs, keeps focus, and shows a failure', async () => {
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { user, server } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        'GET /api/project/id/7': { body: byOther },
        ...noUploads,
        'GET /api/project/7/follow/': async () => {
          await held;
          return jsonError(404, 'not_found', 'Project not found.');
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Follow' }));
    const follow = screen.getByRole('button', { name: 'Follow' });
    expect(follow).toHaveAttribute('aria-disabled', 'true');
    // A second press while the call runs is ignored, and focus stays on the button.
    await user.click(follow);
    expect(server.callsTo('GET /api/project/7/follow/')).toHaveLength(1);
    expect(follow).toHaveFocus();
    answer();
    expect(await screen.findByRole('alert')).toHaveTextContent('Project not found.');
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  });

  it('shows the project uploads as tiles, a tile to add one, and the Reports section with NEW REPORT', async () => {
    const withUploads = { ...byOther, uploadsCount: 9 };
    const upload = {
      id: 31,
      name: 'Footings north',
      description: '',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      previewLink: '/media/p31.webp',
      formatedLink: '/media/f31.jpg',
      formatedWidth: 800,
      formatedHeight: 600,
      originalLink: '/media/o31.jpg',
      creator: { id: 2, firstname: 'Bob', lastname: 'Builder' },
      project: { id: 7, name: withUploads.name },
      capturedAt: null,
      latitude: null,
      longitude: null,
      camera: null,
    };
    renderApp('/project/7', {
      signedInAs: member,
      api: {
        'GET /api/project/id/7': { body: withUploads },
        'GET /api/upload/project/7/latest': { body: [upload] },
      },
    });
    const uploads = await screen.findByRole('region', { name: 'Uploads' });
    const add = await within(uploads).findByRole('link', { name: 'Add upload' });
    expect(add).toHaveAttribute('href', '/uploader/7/create');
    const image = await within(uploads).findByRole('img', { name: 'Footings north' });
    expect(image).toHaveAttribute('src', '/media/p31.webp');
    // The first photo of the grid (after the Add tile) loads at once (tile-image.ts).
    expect(image).toHaveAttribute('loading', 'eager');
    expect(image.closest('a')).toHaveAttribute('href', '/project/7?photo=31');
    expect(screen.getByText('9 uploads')).toBeInTheDocument();

    // The section's own behaviour is tested in project-page-reports.test.tsx.
    const reports = screen.getByRole('region', { name: 'Reports' });
    expect(await within(reports).findByText('No reports yet')).toBeInTheDocument();
    expect(within(reports).getByRole('link', { name: 'New report' })).toHaveAttribute(
      'href',
      '/reports/create?project=7',
    );
  });

  it('says the project was not found for an unknown id and for an id that is not a number', async () => {
    const { unmount, server } = renderApp('/project/999', {
      signedInAs: member,
      api: { 'GET /api/project/id/999': jsonError(404, 'not_found', 'Project not found.') },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Project not found' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Project not found · Sitelog');
    expect(server.callsTo('GET /api/project/id/999')).toHaveLength(1);
    unmount();

    const second = renderApp('/project/abc', { signedInAs: member });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Project not found' }),
    ).toBeInTheDocument();
    expect(second.server.calls.filter((call) => call.path.startsWith('/api/project'))).toHaveLength(
      0,
    );
  });

  it('offers Retry when the project cannot be loaded', async () => {
    let fail = true;
    const { user } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        ...noUploads,
        'GET /api/project/id/7': () =>
          fail ? jsonError(503, 'unavailable', 'The database is busy.') : { body: byOther },
      },
    });
    expect(
      await screen.findByText('The database is busy.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: byOther.name }),
    ).toBeInTheDocument();
  });
});

describe('/project/{id}: archive and restore', () => {
  const archivedAt = '2026-11-21T10:00:00.000Z';
  const archivedBy = { id: admin.id, firstname: admin.firstname, lastname: admin.lastname };
  const archivedOf = (project: typeof byOther) => ({ ...project, archivedAt, archivedBy });

  it('offers ARCHIVE PROJECT to the creator and to an admin, never to another member', async () => {
    const first = renderApp('/project/7', {
      signedInAs: member,
      api: { 'GET /api/project/id/7': { body: byOther }, ...noUploads },
    });
    await screen.findByRole('heading', { level: 1, name: byOther.name });
    expect(screen.getByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive project' })).not.toBeInTheDocument();
    first.unmount();

    const second = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': { body: byMember },
        'GET /api/upload/project/8/latest': { body: [] },
      },
    });
    expect(await screen.findByRole('button', { name: 'Archive project' })).toBeInTheDocument();
    second.unmount();

    renderApp('/project/7', {
      signedInAs: admin,
      api: { 'GET /api/project/id/7': { body: byOther }, ...noUploads },
    });
    expect(await screen.findByRole('button', { name: 'Archive project' })).toBeInTheDocument();
    // An admin who did not create it archives it, but does not edit it.
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('asks first, saying what archiving does; CANCEL archives nothing', async () => {
    const { user, server } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': { body: byMember },
        'GET /api/upload/project/8/latest': { body: [] },
        'POST /api/project/8/archive': { body: archivedOf(byMember) },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Archive project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive this project?' });
    expect(dialog).toHaveAccessibleDescription(/School Extension/);
    expect(dialog).toHaveTextContent(/hidden from My projects, All projects/);
    expect(dialog).toHaveTextContent(/read-only/);
    expect(dialog).toHaveTextContent(/restore it/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST /api/project/8/archive')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Archive project' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Archived' })).not.toBeInTheDocument();
  });

  it('archives after confirmation and shows the page read-only: who archived it and when, RESTORE, no BOOKMARK, FOLLOW, EDIT or Add upload', async () => {
    let archived = false;
    const { user, server, router } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': () => ({ body: archived ? archivedOf(byMember) : byMember }),
        'GET /api/upload/project/8/latest': { body: [] },
        'POST /api/project/8/archive': () => {
          archived = true;
          return { body: archivedOf(byMember) };
        },
      },
    });
    const uploads = await screen.findByRole('region', { name: 'Uploads' });
    expect(await within(uploads).findByRole('link', { name: 'Add upload' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Archive project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive this project?' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive project' }));

    const banner = await screen.findByRole('region', { name: 'Archived' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST /api/project/8/archive')).toHaveLength(1);
    expect(server.callsTo('POST /api/project/8/archive')[0]?.headers.get('authorization')).toBe(
      `Bearer token-of-${member.id}`,
    );
    // The user stays on the page, and focus moves to what happened.
    expect(router.state.location.pathname).toBe('/project/8');
    await waitFor(() => expect(banner).toHaveFocus());
    expect(within(banner).getByRole('link', { name: 'Ada Admin' })).toHaveAttribute(
      'href',
      `/profile/${admin.id}`,
    );
    expect(
      within(banner).getByText(
        (_content, element) =>
          element?.tagName === 'TIME' && element.getAttribute('datetime') === archivedAt,
      ),
    ).toBeInTheDocument();
    expect(banner).toHaveTextContent(/read-only/);
    for (const name of ['Bookmark', 'Follow', 'Edit', 'Archive project'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Uploads' })).queryByRole('link', {
        name: 'Add upload',
      }),
    ).not.toBeInTheDocument();
    expect(screen.getByText('No photos were added to this project.')).toBeInTheDocument();
  });

  it('shows the server message in the dialog when archiving is refused, and keeps the project open', async () => {
    const { user } = renderApp('/project/8', {
      signedInAs: member,
      api: {
        'GET /api/project/id/8': { body: byMember },
        'GET /api/upload/project/8/latest': { body: [] },
        'POST /api/project/8/archive': jsonError(
          403,
          'forbidden',
          'Only the creator of this project or an admin can archive it.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Archive project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive this project?' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive project' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only the creator of this project or an admin can archive it.',
    );
    expect(screen.queryByRole('region', { name: 'Archived' })).not.toBeInTheDocument();
  });

  it('shows another member an archived project read-only, with no RESTORE', async () => {
    renderApp('/project/7', {
      signedInAs: member,
      api: { 'GET /api/project/id/7': { body: archivedOf(byOther) }, ...noUploads },
    });
    const banner = await screen.findByRole('region', { name: 'Archived' });
    expect(banner).toHaveTextContent(/Archived by Ada Admin on/);
    for (const name of ['Bookmark', 'Follow', 'Edit', 'Archive project', 'Restore'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('restores after confirmation as an admin; the project is open again', async () => {
    let archived = true;
    const { user, server } = renderApp('/project/7', {
      signedInAs: admin,
      api: {
        'GET /api/project/id/7': () => ({ body: archived ? archivedOf(byOther) : byOther }),
        ...noUploads,
        'POST /api/project/7/restore': () => {
          archived = false;
          return { body: { ...byOther, archivedAt: null, archivedBy: null } };
        },
      },
    });
    await screen.findByRole('region', { name: 'Archived' });
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this project?' });
    expect(dialog).toHaveTextContent(/back in the project lists/);
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    const archive = await screen.findByRole('button', { name: 'Archive project' });
    expect(server.callsTo('POST /api/project/7/restore')).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Archived' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    await waitFor(() => expect(archive).toHaveFocus());
    expect(
      await within(screen.getByRole('region', { name: 'Uploads' })).findByRole('link', {
        name: 'Add upload',
      }),
    ).toBeInTheDocument();
  });
});

describe('/project/{id} uploads by tag', () => {
  const photo = (id: number, name: string) =>
    makeUpload({ id, name, project: { id: 7, name: byOther.name }, tags: ['defect'] });
  const projectTags = {
    'GET /api/upload/tags': (request: { url: string }) => {
      const query = new URL(request.url, 'http://localhost').searchParams;
      return {
        body:
          query.get('project') === '7' && query.get('q') === ''
            ? [
                { tag: 'defect', count: 2 },
                { tag: 'level 3', count: 1 },
              ]
            : [],
      };
    },
  };
  const feedTag = (url: string) => new URL(url, 'http://localhost').searchParams.get('tag');

  it("offers the project's tags as a filter; a tag in the address shows only its photos", async () => {
    const { server, user, router } = renderApp('/project/7', {
      signedInAs: member,
      api: {
        'GET /api/project/id/7': { body: { ...byOther, uploadsCount: 3 } },
        ...projectTags,
        'GET /api/upload/project/7/latest': (request) => ({
          body:
            feedTag(request.url) === 'defect'
              ? [photo(31, 'Crack at left'), photo(32, 'Spalling')]
              : [photo(31, 'Crack at left'), photo(32, 'Spalling'), photo(33, 'Overview')],
        }),
      },
    });
    const filter = await screen.findByRole('navigation', { name: 'Filter uploads by tag' });
    const chips = within(filter).getAllByRole('link');
    expect(chips.map((chip) => [chip.textContent, chip.getAttribute('href')])).toEqual([
      ['All', '/project/7'],
      ['defect', '/project/7?tag=defect'],
      ['level 3', '/project/7?tag=level+3'],
    ]);
    expect(within(filter).getByRole('link', { name: 'All' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    const uploads = screen.getByRole('region', { name: 'Uploads' });
    expect(await within(uploads).findByRole('img', { name: 'Overview' })).toBeInTheDocument();
    expect(screen.getByText('3 uploads')).toBeInTheDocument();

    await user.click(within(filter).getByRole('link', { name: 'defect' }));
    expect(router.state.location.search).toBe('?tag=defect');
    expect(await within(uploads).findByRole('img', { name: 'Spalling' })).toBeInTheDocument();
    await waitFor(() =>
      expect(within(uploads).queryByRole('img', { name: 'Overview' })).not.toBeInTheDocument(),
    );
    expect(within(uploads).queryByRole('link', { name: 'Add upload' })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Filter uploads by tag' })).getByRole('link', {
        name: 'defect',
      }),
    ).toHaveAttribute('aria-current', 'true');
    expect(
      server.callsTo('GET /api/upload/project/7/latest').map((call) => feedTag(call.url)),
    ).toEqual([null, 'defect']);
  });

  it('says when no photo has the tag, and clears the filter', async () => {
    const { user, router } = renderApp('/project/7?tag=Roof%20%20Leak', {
      signedInAs: member,
      api: {
        'GET /api/project/id/7': { body: byOther },
        ...projectTags,
        'GET /api/upload/project/7/latest': (request) => ({
          body: feedTag(request.url) === null ? [photo(33, 'Overview')] : [],
        }),
      },
    });
    // The tag from the address is compared as stored, and shown chosen though little used.
    expect(await screen.findByText('No photos tagged “roof leak”')).toBeInTheDocument();
    const filter = screen.getByRole('navigation', { name: 'Filter uploads by tag' });
    expect(within(filter).getByRole('link', { name: 'roof leak' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await user.click(screen.getByRole('link', { name: 'Clear filter' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('img', { name: 'Overview' })).toBeInTheDocument();
  });

  it('refuses a tag filter that is not a tag, with a way back to all photos', async () => {
    const { server } = renderApp(`/project/7?tag=${'x'.repeat(41)}`, {
      signedInAs: member,
      api: {
        'GET /api/project/id/7': { body: byOther },
        ...projectTags,
        ...noUploads,
      },
    });
    expect(
      await screen.findByText(
        'This link’s tag filter is not a tag: A tag must be at most 40 characters.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clear filter' })).toHaveAttribute(
      'href',
      '/project/7',
    );
    expect(server.callsTo('GET /api/upload/project/7/latest')).toEqual([]);
  });
});
