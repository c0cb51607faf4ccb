import type { Profile, SearchResponse } from '@sitelog/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeProject, makeRow } from '@/features/projects/test/make-project';
import { makeReport } from '@/features/search/test/make-report';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';
import { jsonError, type MockRequest, type MockResponse } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';

const person = (overrides: Partial<Profile> = {}): Profile => ({
  id: 5,
  firstname: 'Rebecca',
  lastname: 'Stone',
  isActive: true,
  projectsCount: 2,
  uploadsCount: 9,
  ...overrides,
});

const params = (request: MockRequest) => new URL(request.url, 'http://localhost').searchParams;
const searchParamsOf = (request: MockRequest) => Object.fromEntries(params(request));

type Sections = Required<SearchResponse>;
const empty: Sections = {
  projects: { items: [], next: null },
  uploads: { items: [], next: null },
  people: { items: [], next: null },
  reports: { items: [], next: null },
};

/** The search answering each section from `sections` (by `type`), or by `answer` when given. */
function searchApi(
  sections: Partial<Sections>,
  answer?: (request: MockRequest) => MockResponse | undefined,
) {
  return (request: MockRequest): MockResponse => {
    const custom = answer?.(request);
    if (custom) return custom;
    const type = params(request).get('type') as keyof Sections;
    return { body: { [type]: sections[type] ?? empty[type] } };
  };
}

const found: Partial<Sections> = {
  projects: {
    items: [
      makeProject({
        id: 11,
        name: 'Rebar yard',
        location: 'Linz, Austria',
        description: 'Steel for the rebar cages.',
      }),
      makeProject({
        id: 12,
        name: 'Old rebar store',
        archivedAt: '2026-11-01T10:00:00.000Z',
        archivedBy: { id: 1, firstname: 'Ada', lastname: 'Admin' },
      }),
    ],
    next: null,
  },
  uploads: { items: [makeUpload({ id: 21, name: 'Rebar cage, north wall' })], next: null },
  people: { items: [person()], next: null },
  reports: { items: [makeReport({ id: 31, title: 'Rebar delivery, level 2' })], next: null },
};

function renderSearch(path: string, sections: Partial<Sections> = found, extra = {}) {
  return renderApp(path, {
    signedInAs: member,
    api: { 'GET /api/search': searchApi(sections), ...extra },
  });
}

const main = () => screen.getByRole('main');
const here = (router: ReturnType<typeof renderApp>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('/search', () => {
  it('without a query gives a hint and asks nothing; one character is not searched either', async () => {
    const { server, router } = renderSearch('/search');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    expect(
      within(main()).getByText('Search projects, photos, reports and people'),
    ).toBeInTheDocument();
    expect(document.title).toBe('Search · Sitelog');

    await router.navigate('/search?q=r');
    expect(
      await within(main()).findByText('Type at least 2 characters to search'),
    ).toBeInTheDocument();
    expect(server.callsTo('GET /api/search')).toHaveLength(0);
    // No sections before a search, and no placeholder.
    expect(screen.queryByRole('region', { name: /reports/i })).not.toBeInTheDocument();
    expect(screen.queryByText(/under construction/i)).not.toBeInTheDocument();
  });

  it('shows the projects, photos, reports and people found, the words marked', async () => {
    const { server } = renderSearch('/search?q=reba');
    const projects = await screen.findByRole('region', { name: 'Projects' });
    const list = await within(projects).findByRole('list', { name: 'Projects found' });
    const cards = within(list).getAllByRole('link');
    expect(cards.map((card) => card.getAttribute('href'))).toEqual(['/project/11', '/project/12']);
    // The description is shown (it may be what matched), the words marked.
    expect(cards[0]).toHaveTextContent('Steel for the rebar cages.');
    expect([...cards[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'Reba',
      'reba',
    ]);
    // An archived project says so.
    expect(within(cards[1]!).getByText('Archived')).toBeInTheDocument();
    expect(within(cards[0]!).queryByText('Archived')).not.toBeInTheDocument();

    const photos = screen.getByRole('region', { name: 'Photos' });
    const tile = await within(photos).findByRole('link', { name: /Rebar cage, north wall/ });
    // A tile opens the photo over this page, the search kept.
    expect(tile).toHaveAttribute('href', '/search?q=reba&photo=21');
    expect(tile.querySelector('mark')).toHaveTextContent('Reba');

    const people = screen.getByRole('region', { name: 'People' });
    const profile = await within(people).findByRole('link', { name: 'Rebecca Stone' });
    expect(profile).toHaveAttribute('href', '/profile/5');
    expect(within(people).getByText('2 projects · 9 uploads')).toBeInTheDocument();

    // Reports after the photos, each a link to its page, with its facts and status.
    const reports = screen.getByRole('region', { name: 'Reports' });
    const reportList = await within(reports).findByRole('list', { name: 'Reports found' });
    const report = within(reportList).getByRole('link', { name: 'Rebar delivery, level 2' });
    expect(report).toHaveAttribute('href', '/report/31');
    expect(report.querySelector('mark')).toHaveTextContent('Reba');
    const item = within(reportList).getByRole('listitem');
    expect(item).toHaveTextContent('Daily site report · Rebar yard');
    expect(item).toHaveTextContent('By Rebecca Stone');
    expect(item).toHaveTextContent('12 photos');
    expect(item).toHaveTextContent('PDF ready');
    expect(
      screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
    ).toEqual(['Projects', 'Photos', 'Reports', 'People']);

    // One request per section, each with only what narrows it.
    const calls = server.callsTo('GET /api/search').map(searchParamsOf);
    expect(calls).toEqual(
      expect.arrayContaining([
        { q: 'reba', type: 'projects', limit: '20' },
        { q: 'reba', type: 'uploads', limit: '20' },
        { q: 'reba', type: 'people', limit: '20' },
        { q: 'reba', type: 'reports', limit: '20' },
      ]),
    );
    expect(calls).toHaveLength(4);
    expect(screen.getByText(/Results for/)).toHaveTextContent('Results for “reba”');
    expect(document.title).toBe('Search: reba · Sitelog');
  });

  it('Load more asks for the next page with the section’s cursor and adds it', async () => {
    const page2 = makeProject({ id: 13, name: 'Rebar depot' });
    const { user, server } = renderApp('/search?q=rebar&type=projects', {
      signedInAs: member,
      api: {
        'GET /api/search': searchApi({}, (request) =>
          params(request).get('before') === 'cursor-1'
            ? { body: { projects: { items: [page2], next: null } } }
            : {
                body: {
                  projects: {
                    items: [makeProject({ id: 11, name: 'Rebar yard' })],
                    next: 'cursor-1',
                  },
                },
              },
        ),
      },
    });
    const more = await screen.findByRole('button', { name: 'Load more' });
    await user.click(more);
    const list = screen.getByRole('list', { name: 'Projects found' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((a) => a.getAttribute('href')),
      ).toEqual(['/project/11', '/project/13']),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/search').map(searchParamsOf)).toEqual([
      { q: 'rebar', type: 'projects', limit: '20' },
      { q: 'rebar', type: 'projects', limit: '20', before: 'cursor-1' },
    ]);
    // Only the Projects section on its tab.
    expect(screen.queryByRole('region', { name: 'Photos' })).not.toBeInTheDocument();
  });

  it('Load more pages the reports by their cursor', async () => {
    const { user, server } = renderApp('/search?q=slab&type=reports', {
      signedInAs: member,
      api: {
        'GET /api/search': searchApi({}, (request) =>
          params(request).get('before') === 'r-cursor'
            ? {
                body: {
                  reports: { items: [makeReport({ id: 33, title: 'Slab C3' })], next: null },
                },
              }
            : {
                body: {
                  reports: { items: [makeReport({ id: 32, title: 'Slab C4' })], next: 'r-cursor' },
                },
              },
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    const list = screen.getByRole('list', { name: 'Reports found' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((a) => a.getAttribute('href')),
      ).toEqual(['/report/32', '/report/33']),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/search').map(searchParamsOf)).toEqual([
      { q: 'slab', type: 'reports', limit: '20' },
      { q: 'slab', type: 'reports', limit: '20', before: 'r-cursor' },
    ]);
  });

  it('a section tab sets type in the address, and Back returns to All', async () => {
    const { user, router, server } = renderSearch('/search?q=reba');
    await screen.findByRole('list', { name: 'Projects found' });
    const tabs = screen.getByRole('tablist', { name: 'Sections' });
    expect(within(tabs).getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');

    await user.click(within(tabs).getByRole('tab', { name: 'Photos' }));
    expect(here(router)).toBe('/search?q=reba&type=uploads');
    expect(within(tabs).getByRole('tab', { name: 'Photos' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('region', { name: 'Photos' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Projects' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'People' })).not.toBeInTheDocument();
    // The photos were already loaded for All: nothing is asked again.
    expect(server.callsTo('GET /api/search')).toHaveLength(4);

    await user.click(within(tabs).getByRole('tab', { name: 'Reports' }));
    expect(here(router)).toBe('/search?q=reba&type=reports');
    expect(screen.getByRole('region', { name: 'Reports' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rebar delivery, level 2' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Photos' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/search')).toHaveLength(4);
    // Reports have the project, author and date filters; the photos' date basis is not theirs.
    const filters = screen.getByRole('region', { name: 'Filters' });
    expect(within(filters).getByRole('combobox', { name: 'Project' })).toBeInTheDocument();
    expect(within(filters).getByLabelText('From')).toBeInTheDocument();
    expect(within(filters).queryByRole('button', { name: 'Capture time' })).not.toBeInTheDocument();
    expect(
      within(filters).getByText('A report’s date is the day it was made.'),
    ).toBeInTheDocument();

    await user.click(within(tabs).getByRole('tab', { name: 'People' }));
    expect(here(router)).toBe('/search?q=reba&type=people');
    // People have no filters.
    expect(screen.queryByRole('region', { name: 'Filters' })).not.toBeInTheDocument();

    await router.navigate(-1);
    await router.navigate(-1);
    await router.navigate(-1);
    expect(here(router)).toBe('/search?q=reba');
    expect(await screen.findByRole('region', { name: 'Projects' })).toBeInTheDocument();
  });

  it('reads the filters from the address, sends them with the photos and shows them', async () => {
    const { server } = renderSearch(
      '/search?q=rebar&type=uploads&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true',
      found,
      {
        'GET /api/project/all/list': {
          body: [makeRow(12, 'Harbour Bridge', 'Sydney', '2026-11-01T00:00:00Z', 3, 'Ada Admin')],
        },
        'GET /api/project/archived': { body: [] },
        'GET /api/user/all/profile': { body: { count: 1, profiles: [person()] } },
      },
    );
    await screen.findByRole('link', { name: /Rebar cage, north wall/ });
    expect(server.callsTo('GET /api/search').map(searchParamsOf)).toEqual([
      {
        q: 'rebar',
        type: 'uploads',
        project: '12',
        author: '5',
        from: '2026-03-01',
        to: '2026-03-31',
        by: 'captured',
        archived: 'true',
        limit: '20',
      },
    ]);
    const filters = screen.getByRole('region', { name: 'Filters' });
    expect(await within(filters).findByRole('combobox', { name: 'Project' })).toHaveValue(
      'Harbour Bridge',
    );
    await waitFor(() =>
      expect(within(filters).getByRole('combobox', { name: 'Author' })).toHaveValue(
        'Rebecca Stone',
      ),
    );
    expect(within(filters).getByLabelText('From')).toHaveValue('2026-03-01');
    expect(within(filters).getByLabelText('To')).toHaveValue('2026-03-31');
    expect(within(filters).getByRole('button', { name: 'Capture time' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      within(filters).getByRole('switch', { name: 'Include archived projects' }),
    ).toBeChecked();
  });

  it('sends the reports tab its filters from the address, but not the photos’ date basis', async () => {
    const { server } = renderSearch(
      '/search?q=rebar&type=reports&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true',
      found,
      {
        'GET /api/project/all/list': {
          body: [makeRow(12, 'Harbour Bridge', 'Sydney', '2026-11-01T00:00:00Z', 3, 'Ada Admin')],
        },
        'GET /api/project/archived': { body: [] },
        'GET /api/user/all/profile': { body: { count: 1, profiles: [person()] } },
      },
    );
    await screen.findByRole('link', { name: 'Rebar delivery, level 2' });
    expect(server.callsTo('GET /api/search').map(searchParamsOf)).toEqual([
      {
        q: 'rebar',
        type: 'reports',
        project: '12',
        author: '5',
        from: '2026-03-01',
        to: '2026-03-31',
        archived: 'true',
        limit: '20',
      },
    ]);
    const filters = screen.getByRole('region', { name: 'Filters' });
    expect(await within(filters).findByRole('combobox', { name: 'Project' })).toHaveValue(
      'Harbour Bridge',
    );
    expect(within(filters).getByLabelText('From')).toHaveValue('2026-03-01');
  });

  it('changing a filter writes it to the address and searches again; Clear filters resets them', async () => {
    const { user, router, server } = renderSearch('/search?q=rebar', found, {
      'GET /api/project/all/list': {
        body: [
          makeRow(12, 'Harbour Bridge', 'Sydney', '2026-11-01T00:00:00Z', 3, 'Ada Admin'),
          makeRow(14, 'Tram Depot', 'Graz', '2026-11-02T00:00:00Z', 1, 'Ada Admin'),
        ],
      },
      'GET /api/user/all/profile': { body: { count: 1, profiles: [person()] } },
    });
    await screen.findByRole('link', { name: /Rebar cage, north wall/ });
    const filters = screen.getByRole('region', { name: 'Filters' });

    // The project chooser loads the projects when opened.
    await user.click(within(filters).getByRole('combobox', { name: 'Project' }));
    await user.click(await screen.findByRole('option', { name: 'Tram Depot' }));
    expect(here(router)).toBe('/search?q=rebar&project=14');
    await waitFor(() =>
      expect(server.callsTo('GET /api/search').map(searchParamsOf)).toContainEqual({
        q: 'rebar',
        type: 'uploads',
        project: '14',
        limit: '20',
      }),
    );
    // The reports are narrowed alike.
    expect(server.callsTo('GET /api/search').map(searchParamsOf)).toContainEqual({
      q: 'rebar',
      type: 'reports',
      project: '14',
      limit: '20',
    });
    // With photos and reports shown, the date basis is the photos' and the reports' is said.
    expect(within(filters).getByRole('group', { name: 'Photo dates are' })).toBeInTheDocument();
    expect(
      within(filters).getByText('A report’s date is the day it was made.'),
    ).toBeInTheDocument();

    await user.click(within(filters).getByRole('switch', { name: 'Include archived projects' }));
    expect(here(router)).toBe('/search?q=rebar&project=14&archived=true');
    await waitFor(() =>
      expect(server.callsTo('GET /api/search').map(searchParamsOf)).toContainEqual({
        q: 'rebar',
        type: 'projects',
        archived: 'true',
        limit: '20',
      }),
    );

    // Back undoes the last change.
    await router.navigate(-1);
    expect(here(router)).toBe('/search?q=rebar&project=14');
    await router.navigate(1);

    await user.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    expect(here(router)).toBe('/search?q=rebar');
    expect(within(filters).getByRole('combobox', { name: 'Project' })).toHaveValue('');
  });

  it('the page’s own search field searches on Enter', async () => {
    const { user, router } = renderSearch('/search?q=reba&type=people');
    const field = await screen.findByRole('searchbox', { name: 'Search for' });
    expect(field).toHaveValue('reba');
    await user.clear(field);
    await user.type(field, 'stone{Enter}');
    expect(here(router)).toBe('/search?q=stone&type=people');
    expect(await screen.findByText(/Results for/)).toHaveTextContent('Results for “stone”');
  });

  it('says "No results for …" when no section has any', async () => {
    renderSearch('/search?q=zzz', {});
    expect(await screen.findByText('No results for “zzz”')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Projects' })).not.toBeInTheDocument();
  });

  it('a section that fails shows the server’s message with Retry; the others still show', async () => {
    const { user } = renderApp('/search?q=rebar', {
      signedInAs: member,
      api: {
        'GET /api/search': searchApi(found, (request) =>
          params(request).get('type') === 'people'
            ? jsonError(400, 'validation', 'The search may be at most 1000 characters.')
            : undefined,
        ),
      },
    });
    const people = await screen.findByRole('region', { name: 'People' });
    expect(await within(people).findByText('Could not search people')).toBeInTheDocument();
    expect(
      within(people).getByText('The search may be at most 1000 characters.'),
    ).toBeInTheDocument();
    expect(within(people).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Projects found' })).toBeInTheDocument();
    await user.click(within(people).getByRole('button', { name: 'Retry' }));
  });

  it('a failed reports section says so with Retry, which asks again', async () => {
    let fail = true;
    const { user, server } = renderApp('/search?q=rebar&type=reports', {
      signedInAs: member,
      api: {
        'GET /api/search': searchApi(found, () =>
          fail ? jsonError(400, 'validation', 'from must not be after to.') : undefined,
        ),
      },
    });
    const reports = await screen.findByRole('region', { name: 'Reports' });
    expect(await within(reports).findByText('Could not search reports')).toBeInTheDocument();
    expect(within(reports).getByText('from must not be after to.')).toBeInTheDocument();
    fail = false;
    await user.click(within(reports).getByRole('button', { name: 'Retry' }));
    expect(
      await within(reports).findByRole('link', { name: 'Rebar delivery, level 2' }),
    ).toBeInTheDocument();
    expect(server.callsTo('GET /api/search').length).toBeGreaterThanOrEqual(2);
  });

  it('says none of the reports match while other sections have results', async () => {
    renderSearch('/search?q=rebar', { ...found, reports: { items: [], next: null } });
    const reports = await screen.findByRole('region', { name: 'Reports' });
    expect(await within(reports).findByText('No reports match “rebar”.')).toBeInTheDocument();
  });

  it('says once that it is offline instead of endless placeholders', async () => {
    setBrowserOnline(false);
    const { server } = renderSearch('/search?q=rebar');
    expect(await within(main()).findByText('You are offline')).toBeInTheDocument();
    expect(within(main()).getAllByText('You are offline')).toHaveLength(1);
    expect(server.callsTo('GET /api/search')).toHaveLength(0);
    setBrowserOnline(true);
    expect(await screen.findByRole('list', { name: 'Projects found' })).toBeInTheDocument();
  });

  it('shows hostile names as text', async () => {
    const hostile = '<img src=x onerror=alert(1)> rebar';
    renderSearch('/search?q=img', {
      projects: { items: [makeProject({ id: 3, name: hostile })], next: null },
      people: { items: [person({ firstname: '<b>Img</b>', lastname: 'Smith' })], next: null },
    });
    const list = await screen.findByRole('list', { name: 'Projects found' });
    expect(within(list).getByRole('link')).toHaveTextContent(hostile);
    expect(list.querySelector('img[src="x"]')).toBeNull();
    const people = await screen.findByRole('list', { name: 'People' });
    expect(within(people).getByRole('link')).toHaveTextContent('<b>Img</b> Smith');
    expect(people.querySelector('b')).toBeNull();
  });

  it('shows the query typed in the top bar search box', async () => {
    const { user } = renderSearch('/reports');
    await user.type(await screen.findByRole('combobox', { name: 'Search' }), 'north wing{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    expect(screen.getByText(/Results for/)).toHaveTextContent('Results for “north wing”');
    expect(document.title).toBe('Search: north wing · Sitelog');
  });
});
