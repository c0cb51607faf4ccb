import type { AppNotification, Comment, NotificationPage } from '@sitelog/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_POLL_MS } from '@/features/notifications/api/get-unread-count';
import { aisha, ben, makeNotification } from '@/features/notifications/test/make-activity';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';

const params = (request: MockRequest) => new URL(request.url, 'http://localhost').searchParams;

const page = (
  notifications: AppNotification[],
  unread = notifications.filter((n) => !n.read).length,
  next: number | null = null,
): NotificationPage => ({ notifications, next, unread });

/**
 * Noon today: the times below are counted back from it, and the test that reads them pins the
 * clock there, so "2 hours ago" stays today whenever the suite runs (at 00:30 it was yesterday).
 */
const NOON = (() => {
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  return noon;
})();

const comment = makeNotification({
  id: 31,
  kind: 'comment.added',
  actor: ben,
  reason: 'uploader',
  excerpt: 'Who fixes this?',
  createdAt: new Date(NOON.getTime() - 5 * 60_000).toISOString(),
});
const photos = makeNotification({
  id: 30,
  count: 12,
  createdAt: new Date(NOON.getTime() - 2 * 3_600_000).toISOString(),
});
const archived = makeNotification({
  id: 29,
  kind: 'project.archived',
  upload: null,
  read: true,
  reason: 'creator',
});

/** The bell's count, answered as the server does (the count is the ETag). */
const unreadAnswer = (count: number) => ({
  body: { count },
  headers: { ETag: `"unread-${count}"` },
});

const list = () => screen.findByRole('list', { name: 'Notifications' });
const rows = async () => within(await list()).getAllByRole('link');

/** The bell's next poll, a few seconds on. */
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));

afterEach(() => {
  vi.useRealTimers();
});

describe('/notifications', () => {
  it('lists notifications newest first as sentences, unread ones marked, with thumbnails and times', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: NOON });
    renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([comment, photos, archived]) } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Notifications · Sitelog');
    const [first, second, third] = await rows();
    expect(first).toHaveAccessibleName(
      'Unread: Ben Ray commented on Slab pour: “Who fixes this?” 5 minutes ago · In Riverside Block C',
    );
    expect(first).toHaveAttribute('href', '/upload/55#comments');
    expect(second).toHaveAccessibleName(
      'Unread: Aisha Khan added 12 photos to Riverside Block C 2 hours ago',
    );
    expect(second).toHaveAttribute('href', '/project/12');
    expect(third).toHaveTextContent('Aisha Khan archived Riverside Block C');
    expect(third).not.toHaveTextContent('Unread');
    // The photo's preview, as decoration beside the sentence that names it.
    const thumbnail = first!.querySelector('img');
    expect(thumbnail).toHaveAttribute('src', '/media/preview/55.jpg?sig=x');
    expect(thumbnail).toHaveAttribute('alt', '');
    expect(third!.querySelector('img')).toBeNull();
    expect(within(first!).getByText('5 minutes ago').tagName).toBe('TIME');
  });

  it('shows names as text, never as markup', async () => {
    const hostile = makeNotification({
      actor: { ...aisha, firstname: '<img src=x onerror=alert(1)>' },
      project: { id: 12, name: '<script>alert(1)</script>' },
    });
    renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([hostile]) } },
    });
    const [row] = await rows();
    expect(row).toHaveTextContent(
      '<img src=x onerror=alert(1)> Khan added a photo to <script>alert(1)</script>',
    );
    expect(document.querySelector('script')).toBeNull();
    expect(row!.querySelectorAll('img')).toHaveLength(1);
  });

  it('says a deleted photo is gone and opens its project instead', async () => {
    const deleted = makeNotification({
      kind: 'mention',
      actor: ben,
      mentioned: { ...aisha, id: member.id },
      excerpt: '@Mia Mason look',
      upload: { id: null, name: 'Slab pour', previewLink: null },
    });
    renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([deleted]) } },
    });
    const [row] = await rows();
    expect(row).toHaveTextContent('Ben Ray mentioned you: “@Mia Mason look”');
    expect(row).toHaveTextContent(
      'On Slab pour in Riverside Block C · This photo has been deleted',
    );
    expect(row).toHaveAttribute('href', '/project/12');
  });

  it('opening one marks it read, lowers the bell and goes to the photo at its comments', async () => {
    let unread = 2;
    const { user, router, server } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': () => ({ body: page([comment, photos]) }),
        'GET /api/notifications/unread': () => unreadAnswer(unread),
        'POST /api/notifications/31/read': () => {
          unread = 1;
          return { body: { count: 1 } };
        },
      },
    });
    const banner = await screen.findByRole('banner');
    await within(banner).findByRole('link', { name: 'Notifications, 2 unread' });
    const [first] = await rows();
    await user.click(first!);
    expect(router.state.location.pathname).toBe('/upload/55');
    expect(router.state.location.hash).toBe('#comments');
    await waitFor(() => expect(server.callsTo('POST /api/notifications/31/read')).toHaveLength(1));
    await within(banner).findByRole('link', { name: 'Notifications, 1 unread' });
  });

  it('opens the photo with its thread asked again: the comment it names is there', async () => {
    const said = (id: number, body: string): Comment => ({
      id,
      uploadId: 55,
      author: ben,
      body,
      createdAt: new Date(Date.now() - id * 60_000).toISOString(),
      editedAt: null,
      mentions: [],
      canEdit: false,
      canDelete: false,
    });
    let thread = [said(1, 'First look at the slab.')];
    const { user, router } = renderApp('/upload/55', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/55': { body: makeUpload({ id: 55, name: 'Slab pour' }) },
        'GET /api/upload/55/comments': () => ({
          body: { comments: thread, count: thread.length, next: null },
        }),
        'GET /api/notifications': { body: page([comment]) },
        'POST /api/notifications/31/read': { body: { count: 0 } },
      },
    });
    expect(await screen.findByText('First look at the slab.')).toBeInTheDocument();
    // The member goes to their notifications; meanwhile Ben comments.
    await act(() => router.navigate('/notifications'));
    thread = [...thread, said(2, 'Who fixes the crack by the column?')];
    const [row] = await rows();
    await user.click(row!);
    expect(router.state.location.pathname).toBe('/upload/55');
    expect(await screen.findByText('Who fixes the crack by the column?')).toBeInTheDocument();
  });

  it('opening a read one asks nothing', async () => {
    const { user, router, server } = renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([archived]) } },
    });
    const [row] = await rows();
    await user.click(row!);
    expect(router.state.location.pathname).toBe('/project/12');
    expect(server.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('MARK ALL AS READ marks every one read and clears the badge', async () => {
    let unread = 2;
    const { user, server } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': () => ({
          body: page(
            unread ? [comment, photos] : [comment, photos].map((n) => ({ ...n, read: true })),
          ),
        }),
        'GET /api/notifications/unread': () => unreadAnswer(unread),
        'POST /api/notifications/read-all': () => {
          unread = 0;
          return { body: { count: 0 } };
        },
      },
    });
    const banner = await screen.findByRole('banner');
    await within(banner).findByRole('link', { name: 'Notifications, 2 unread' });
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() =>
      expect(within(banner).getByRole('link', { name: 'Notifications' })).toBeInTheDocument(),
    );
    expect(within(banner).queryByTestId('unread-badge')).not.toBeInTheDocument();
    for (const row of await rows()) expect(row).not.toHaveTextContent('Unread');
    expect(server.callsTo('POST /api/notifications/read-all')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled(),
    );
  });

  it('puts them back unread and says why when MARK ALL AS READ fails', async () => {
    const { user } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': { body: page([comment]) },
        'GET /api/notifications/unread': unreadAnswer(1),
        'POST /api/notifications/read-all': jsonError(503, 'unavailable', 'The server is busy.'),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not mark your notifications as read. The server is busy.',
    );
    const [row] = await rows();
    expect(row).toHaveTextContent('Unread');
    await within(screen.getByRole('banner')).findByRole('link', {
      name: 'Notifications, 1 unread',
    });
  });

  it('asks for the list again when the bell’s count rises or falls, without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let unread = 1;
    let shown = [photos];
    const { server } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': () => ({ body: page(shown) }),
        'GET /api/notifications/unread': () => unreadAnswer(unread),
      },
    });
    const banner = await screen.findByRole('banner');
    await within(banner).findByRole('link', { name: 'Notifications, 1 unread' });
    expect(await rows()).toHaveLength(1);
    const fetches = server.callsTo('GET /api/notifications').length;

    // The same count: the list is not asked again.
    await nextPoll();
    await waitFor(() => expect(server.callsTo('GET /api/notifications/unread')).toHaveLength(2));
    expect(server.callsTo('GET /api/notifications')).toHaveLength(fetches);

    // A comment arrives: the bell rises and the list shows it.
    unread = 2;
    shown = [comment, photos];
    await nextPoll();
    await within(banner).findByRole('link', { name: 'Notifications, 2 unread' });
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect((await rows())[0]).toHaveTextContent('Ben Ray commented on Slab pour');

    // Both read in another tab: the bell falls and the rows are no longer marked unread.
    unread = 0;
    shown = [comment, photos].map((n) => ({ ...n, read: true }));
    await nextPoll();
    await within(banner).findByRole('link', { name: 'Notifications' });
    await waitFor(async () => {
      for (const row of await rows()) expect(row).not.toHaveTextContent('Unread');
    });
  });

  it('offers MARK ALL AS READ when the bell counts unread ones the rows shown do not', async () => {
    renderApp('/notifications', {
      signedInAs: member,
      api: {
        // The list as loaded: everything read (a notification arrived since).
        'GET /api/notifications': { body: page([archived]) },
        'GET /api/notifications/unread': unreadAnswer(1),
      },
    });
    await within(await screen.findByRole('banner')).findByRole('link', {
      name: 'Notifications, 1 unread',
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeEnabled(),
    );
  });

  it('keeps the rows with a note and RETRY when a refresh fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let unread = 1;
    let fail = false;
    const { user } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': () =>
          fail
            ? jsonError(403, 'forbidden', 'Not allowed right now.')
            : { body: page(unread === 1 ? [photos] : [comment, photos]) },
        'GET /api/notifications/unread': () => unreadAnswer(unread),
      },
    });
    await within(await screen.findByRole('banner')).findByRole('link', {
      name: 'Notifications, 1 unread',
    });
    expect(await rows()).toHaveLength(1);
    fail = true;
    unread = 2;
    await nextPoll();
    const note = await screen.findByRole('alert');
    expect(note).toHaveTextContent(
      'Could not refresh the notifications; showing them as last loaded. Not allowed right now.',
    );
    expect(screen.queryByText('Could not load your notifications')).not.toBeInTheDocument();
    expect(await rows()).toHaveLength(1);
    fail = false;
    await user.click(within(note).getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('loads older ones with LOAD MORE, by the last page’s cursor', async () => {
    const older = makeNotification({ id: 12, kind: 'project.edited', upload: null, read: true });
    const { user, server } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': (request) =>
          params(request).get('before') === '88'
            ? { body: page([older], 2) }
            : { body: page([comment, photos], 2, 88) },
      },
    });
    expect(await rows()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect((await rows())[2]).toHaveTextContent('Aisha Khan edited Riverside Block C');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const asked = server
      .callsTo('GET /api/notifications')
      .map((call) => Object.fromEntries(params(call)));
    expect(asked).toEqual([{ limit: '30' }, { limit: '30', before: '88' }]);
  });

  it("says you're all caught up when there are none", async () => {
    renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([]) } },
    });
    expect(await screen.findByText("You're all caught up")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('shows the server message with RETRY when the list fails', async () => {
    let fail = true;
    const { user } = renderApp('/notifications', {
      signedInAs: member,
      api: {
        'GET /api/notifications': () =>
          fail
            ? jsonError(400, 'bad', 'before must be a notification id.')
            : { body: page([comment]) },
      },
    });
    expect(await screen.findByText('Could not load your notifications')).toBeInTheDocument();
    expect(screen.getByText('before must be a notification id.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await rows()).toHaveLength(1);
  });

  it('says it is offline instead of loading forever', async () => {
    setBrowserOnline(false);
    renderApp('/notifications', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([comment]) } },
    });
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    setBrowserOnline(true);
    expect(await rows()).toHaveLength(1);
  });

  it('opens from the top bar bell', async () => {
    const { user, router } = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications': { body: page([]) } },
    });
    const banner = await screen.findByRole('banner');
    await user.click(within(banner).getByRole('link', { name: 'Notifications' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notifications');
  });
});
