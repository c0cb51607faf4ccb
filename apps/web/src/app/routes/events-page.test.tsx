import type { AppEvent, EventPage, Profile } from '@sitelog/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_POLL_MS } from '@/features/notifications/api/get-unread-count';
import { aisha, ben, makeEvent } from '@/features/notifications/test/make-activity';
import { makeProject, makeRow } from '@/features/projects/test/make-project';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';

const params = (request: MockRequest) =>
  Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
const page = (events: AppEvent[], next: number | null = null): EventPage => ({ events, next });

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const daysAgo = (days: number) => {
  const at = new Date();
  at.setDate(at.getDate() - days);
  at.setHours(10, 0, 0, 0);
  return at.toISOString();
};

const today = makeEvent({ id: 9, count: 3, createdAt: new Date().toISOString() });
const yesterday = makeEvent({
  id: 8,
  kind: 'comment.added',
  actor: ben,
  excerpt: 'Approved.',
  createdAt: daysAgo(1),
});
const lastWeek = makeEvent({
  id: 7,
  kind: 'project.created',
  upload: null,
  createdAt: daysAgo(9),
});

const profile = (p: Partial<Profile>): Profile => ({
  id: 3,
  firstname: 'Aisha',
  lastname: 'Khan',
  isActive: true,
  projectsCount: 1,
  uploadsCount: 3,
  ...p,
});

const choices = {
  'GET /api/project/all/list': {
    body: [
      makeRow(12, 'Riverside Block C', 'Leeds', hoursAgo(1), 3, 'Aisha Khan'),
      makeRow(13, 'Harbour Wall', 'Hull', hoursAgo(5), 1, 'Ben Ray'),
    ],
  },
  'GET /api/project/archived': { body: [makeProject({ id: 14, name: 'Old Depot' })] },
  'GET /api/user/all/profile': {
    body: {
      count: 2,
      profiles: [
        profile({}),
        profile({ id: 4, firstname: 'Ben', lastname: 'Ray', isActive: false }),
      ],
    },
  },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('/events', () => {
  it('is the side menu’s Events: the team’s timeline under a heading per day', async () => {
    const { user, router } = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/events': { body: page([today, yesterday, lastWeek]) } },
    });
    // The docked (desktop) menu.
    const menu = await screen.findByRole('navigation', { name: 'Main menu', hidden: true });
    await user.click(within(menu).getByRole('link', { name: 'Events', hidden: true }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Events' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/events');
    expect(document.title).toBe('Events · Sitelog');

    const days = await screen.findAllByRole('heading', { level: 2 });
    expect(days.map((day) => day.textContent)).toEqual([
      'Today',
      'Yesterday',
      expect.stringMatching(/^\w+day, \w+ \d+(, \d{4})?$/),
    ]);
    const todayList = screen.getByRole('list', { name: 'Today' });
    expect(within(todayList).getByRole('link')).toHaveTextContent(
      'Aisha Khan added 3 photos to Riverside Block C',
    );
    expect(within(todayList).getByRole('link')).toHaveAttribute('href', '/project/12');
    const yesterdayLink = within(screen.getByRole('list', { name: 'Yesterday' })).getByRole('link');
    expect(yesterdayLink).toHaveTextContent('Ben Ray commented on Slab pour: “Approved.”');
    expect(yesterdayLink).toHaveAttribute('href', '/upload/55#comments');
    // Timeline entries are not notifications: nothing is marked unread.
    expect(screen.queryByText('Unread:')).not.toBeInTheDocument();
  });

  it('filters by project and by person, kept in the address', async () => {
    const { user, router, server } = renderApp('/events', {
      signedInAs: member,
      api: {
        ...choices,
        'GET /api/events': (request) => {
          const { project, actor } = params(request);
          if (project === '12' && actor === '4') return { body: page([yesterday]) };
          if (project === '12') return { body: page([today, yesterday]) };
          return { body: page([today, yesterday, lastWeek]) };
        },
      },
    });
    await screen.findByRole('list', { name: 'Today' });
    await user.click(screen.getByRole('combobox', { name: 'Project' }));
    await user.click(await screen.findByRole('option', { name: 'Riverside Block C' }));
    await waitFor(() => expect(router.state.location.search).toBe('?project=12'));
    await user.click(screen.getByRole('combobox', { name: 'Person' }));
    expect(
      await screen.findByRole('option', { name: 'Ben Ray (deactivated)' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Ben Ray (deactivated)' }));
    await waitFor(() => expect(router.state.location.search).toBe('?project=12&actor=4'));
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Today' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('list', { name: 'Yesterday' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/events').map(params).at(-1)).toEqual({
      project: '12',
      actor: '4',
      limit: '30',
    });

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('list', { name: 'Today' })).toBeInTheDocument();
  });

  it('reads the filters from the address, naming them from the events before the lists arrive', async () => {
    const { server } = renderApp('/events?project=12&actor=3&junk=1', {
      signedInAs: member,
      api: {
        'GET /api/events': { body: page([today]) },
        'GET /api/project/all/list': () => new Promise(() => undefined),
        'GET /api/project/archived': () => new Promise(() => undefined),
        'GET /api/user/all/profile': () => new Promise(() => undefined),
      },
    });
    await screen.findByRole('list', { name: 'Today' });
    expect(params(server.callsTo('GET /api/events')[0]!)).toEqual({
      project: '12',
      actor: '3',
      limit: '30',
    });
    expect(screen.getByRole('combobox', { name: 'Project' })).toHaveValue('Riverside Block C');
    expect(screen.getByRole('combobox', { name: 'Person' })).toHaveValue('Aisha Khan');
  });

  it('ignores an unreadable filter in the address', async () => {
    const { server } = renderApp('/events?project=abc&actor=-2', {
      signedInAs: member,
      api: { 'GET /api/events': { body: page([today]) } },
    });
    await screen.findByRole('list', { name: 'Today' });
    expect(params(server.callsTo('GET /api/events')[0]!)).toEqual({ limit: '30' });
  });

  it('loads older events with LOAD MORE, joining a day that goes on', async () => {
    const earlierToday = makeEvent({
      id: 5,
      kind: 'project.edited',
      upload: null,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const { user, server } = renderApp('/events', {
      signedInAs: member,
      api: {
        'GET /api/events': (request) =>
          params(request).before === '9'
            ? { body: page([earlierToday]) }
            : { body: page([today], 9) },
      },
    });
    const todayList = await screen.findByRole('list', { name: 'Today' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(todayList).getAllByRole('link')).toHaveLength(2));
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(1);
    expect(server.callsTo('GET /api/events').map(params)).toEqual([
      { limit: '30' },
      { before: '9', limit: '30' },
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when nothing has happened, and when nothing matches the filters', async () => {
    const { user, router } = renderApp('/events?actor=4', {
      signedInAs: member,
      api: { ...choices, 'GET /api/events': { body: page([]) } },
    });
    expect(await screen.findByText('No events match these filters')).toBeInTheDocument();
    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await user.click(clear.at(-1)!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Nothing has happened yet')).toBeInTheDocument();
  });

  it('shows the server message with RETRY when the timeline fails', async () => {
    let fail = true;
    const { user } = renderApp('/events', {
      signedInAs: member,
      api: {
        'GET /api/events': () =>
          fail
            ? jsonError(400, 'bad_request', 'actor must be a member id.')
            : { body: page([today]) },
      },
    });
    expect(await screen.findByText('Could not load the events')).toBeInTheDocument();
    expect(screen.getByText('actor must be a member id.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Today' })).toBeInTheDocument();
  });

  it('is asked again when the bell’s count moves, and keeps the events with a note when that fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let unread = 1;
    let answer: () => ReturnType<typeof jsonError> | { body: EventPage } = () => ({
      body: page([yesterday]),
    });
    const { user } = renderApp('/events', {
      signedInAs: member,
      api: {
        'GET /api/events': () => answer(),
        'GET /api/notifications/unread': () => ({
          body: { count: unread },
          headers: { ETag: `"unread-${unread}"` },
        }),
      },
    });
    const banner = await screen.findByRole('banner');
    await within(banner).findByRole('link', { name: 'Notifications, 1 unread' });
    expect(await screen.findByRole('list', { name: 'Yesterday' })).toBeInTheDocument();
    const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));

    // Something happened: the timeline shows it without a reload.
    unread = 2;
    answer = () => ({ body: page([today, yesterday]) });
    await nextPoll();
    expect(await screen.findByRole('list', { name: 'Today' })).toBeInTheDocument();

    // The next refresh fails: the events stay, with a note and RETRY instead of the error screen.
    unread = 3;
    answer = () => jsonError(403, 'forbidden', 'Not allowed right now.');
    await nextPoll();
    const note = await screen.findByRole('alert');
    expect(note).toHaveTextContent(
      'Could not refresh the events; showing them as last loaded. Not allowed right now.',
    );
    expect(screen.queryByText('Could not load the events')).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Today' })).toBeInTheDocument();
    answer = () => ({ body: page([today, yesterday]) });
    await user.click(within(note).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('list', { name: 'Yesterday' })).toBeInTheDocument();
  });

  it('says it is offline instead of loading forever', async () => {
    setBrowserOnline(false);
    renderApp('/events', {
      signedInAs: member,
      api: { 'GET /api/events': { body: page([today]) } },
    });
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    setBrowserOnline(true);
    expect(await screen.findByRole('list', { name: 'Today' })).toBeInTheDocument();
  });

  it('says "you" for a mention of the viewer', async () => {
    const mention = makeEvent({
      kind: 'mention',
      actor: ben,
      mentioned: { ...aisha, id: member.id, firstname: 'Mia', lastname: 'Mason' },
      excerpt: '@Mia Mason see this',
    });
    renderApp('/events', {
      signedInAs: member,
      api: { 'GET /api/events': { body: page([mention]) } },
    });
    expect(await screen.findByText('you', { exact: false })).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: /Ben Ray mentioned you: “@Mia Mason see this”/ }),
    ).toBeInTheDocument();
  });
});
