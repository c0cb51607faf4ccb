import { searchLimits, type Profile, type SearchResponse } from '@sitelog/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeProject } from '@/features/projects/test/make-project';
import { makeReport } from '@/features/search/test/make-report';
import { makeUpload } from '@/features/uploads/test/upload-fixtures';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';
import { SEARCH_MAX, TYPE_AHEAD_MIN } from './search-box';

const person = (overrides: Partial<Profile> = {}): Profile => ({
  id: 5,
  firstname: 'Rebecca',
  lastname: 'Stone',
  isActive: true,
  projectsCount: 2,
  uploadsCount: 9,
  ...overrides,
});

const results: SearchResponse = {
  projects: {
    items: [
      makeProject({ id: 11, name: 'Rebar yard', location: 'Linz, Austria' }),
      makeProject({ id: 12, name: 'Béton plant', location: 'Rebais, France' }),
    ],
    next: null,
  },
  uploads: {
    items: [makeUpload({ id: 21, name: 'Rebar cage, north wall' })],
    next: null,
  },
  people: { items: [person()], next: null },
};

const params = (request: MockRequest) => new URL(request.url, 'http://localhost').searchParams;

/** The app on a page with no data of its own, the search answering `answer`. */
function renderWithSearch(answer: (request: MockRequest) => { status?: number; body?: unknown }) {
  return renderApp('/reports', {
    signedInAs: member,
    api: { 'GET /api/search': answer },
  });
}

const box = () => screen.findByRole('combobox', { name: 'Search' });
const listbox = () => screen.findByRole('listbox', { name: 'Search suggestions' });

describe('top bar search: type-ahead', () => {
  it('opens from the contract’s shortest query and takes at most its longest', async () => {
    expect(TYPE_AHEAD_MIN).toBe(searchLimits.queryMin);
    expect(SEARCH_MAX).toBe(searchLimits.queryMax);
    renderWithSearch(() => ({ body: results }));
    expect(await box()).toHaveAttribute('maxlength', String(searchLimits.queryMax));
  });

  it('waits for a pause before the first request of every search, not only the first one', async () => {
    const { user, server } = renderWithSearch(() => ({ body: results }));
    const input = await box();
    await user.type(input, 'reba');
    await listbox();
    expect(server.callsTo('GET /api/search')).toHaveLength(1);
    // The box is cleared (Escape, then select all and delete), and a new search is typed: the
    // dropdown mounts again at two characters and must not ask for them alone.
    await user.clear(input);
    fireEvent.change(input, { target: { value: 'cr' } });
    fireEvent.change(input, { target: { value: 'cra' } });
    fireEvent.change(input, { target: { value: 'crack' } });
    await waitFor(() => expect(server.callsTo('GET /api/search')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const calls = server.callsTo('GET /api/search');
    expect(calls.map((call) => params(call).get('q'))).toEqual(['reba', 'crack']);
  });

  it('asks once typing pauses, from two characters, with type=all and a small limit', async () => {
    const { user, server } = renderWithSearch(() => ({ body: results }));
    const input = await box();
    await user.type(input, 'r');
    // One character: no dropdown and no request.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.callsTo('GET /api/search')).toHaveLength(0);
    expect(input).toHaveAttribute('aria-expanded', 'false');

    // The box says expanded in the same change of the page that shows the list, never after it.
    const collapsedWithList: string[] = [];
    const observer = new MutationObserver(() => {
      const shown = document.querySelector('[role="listbox"]');
      if (shown && input.getAttribute('aria-expanded') !== 'true')
        collapsedWithList.push(String(input.getAttribute('aria-expanded')));
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    onTestFinished(() => observer.disconnect());

    // Three more keys within the pause: one request, for the whole word.
    fireEvent.change(input, { target: { value: 're' } });
    fireEvent.change(input, { target: { value: 'reb' } });
    fireEvent.change(input, { target: { value: 'reba' } });
    const list = await listbox();
    const calls = server.callsTo('GET /api/search');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(params(calls[0]!))).toEqual({
      q: 'reba',
      type: 'all',
      limit: String(searchLimits.typeAhead),
    });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', list.id);
    expect(collapsedWithList).toEqual([]);

    // Sections in order, each with its matches, the words marked; then "See all results".
    const groups = within(list).getAllByRole('group');
    expect(groups.map((group) => group.getAttribute('aria-labelledby'))).toHaveLength(3);
    expect(within(list).getByRole('group', { name: 'Projects' })).toBeInTheDocument();
    expect(within(list).getByRole('group', { name: 'Photos' })).toBeInTheDocument();
    expect(within(list).getByRole('group', { name: 'People' })).toBeInTheDocument();
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringContaining('Rebar yard'),
      expect.stringContaining('Béton plant'),
      expect.stringContaining('Rebar cage, north wall'),
      expect.stringContaining('Rebecca Stone'),
      'See all results for “reba”',
    ]);
    const marks = [...list.querySelectorAll('mark')].map((mark) => mark.textContent);
    // "Reba" of Rebar (twice: project, photo) and of Rebais; "Rebe" is not a match.
    expect(marks).toEqual(['Reba', 'Reba', 'Reba']);
  });

  it('walks the options with the arrow keys and Enter opens the one highlighted', async () => {
    const { user, router } = renderWithSearch(() => ({ body: results }));
    const input = await box();
    await user.type(input, 'reba');
    const list = await listbox();
    const options = within(list).getAllByRole('option');
    expect(input).not.toHaveAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[2]!.id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', options[1]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'false');
    expect(input).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/project/12');
    expect(input).toHaveValue('');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('ArrowUp from the box reaches "See all results", which opens the search page', async () => {
    const { user, router } = renderWithSearch(() => ({ body: results }));
    await user.type(await box(), 'reba');
    await listbox();
    await user.keyboard('{ArrowUp}{Enter}');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/search?q=reba',
    );
  });

  it('a photo opens full screen over the current page; a person opens their profile', async () => {
    const { user, router } = renderWithSearch(() => ({ body: results }));
    await user.type(await box(), 'reba');
    const list = await listbox();
    await user.click(within(list).getByRole('option', { name: /Rebar cage/ }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/reports?photo=21',
    );

    // The viewer is modal (the top bar is inert under it): close it before the next search.
    await act(() => router.navigate('/reports'));
    await user.type(await box(), 'reba');
    await user.click(within(await listbox()).getByRole('option', { name: /Rebecca Stone/ }));
    expect(router.state.location.pathname).toBe('/profile/5');
  });

  it('lists up to four reports after the photos; one opens the report’s page', async () => {
    const reports = [
      makeReport({ id: 31, title: 'Rebar delivery, level 2', type: 'safety' }),
      makeReport({ id: 32, title: 'Pour C4', thumb: null }),
      makeReport({ id: 33, title: 'Pour C5' }),
      makeReport({ id: 34, title: 'Pour C6' }),
    ];
    const { user, router } = renderWithSearch(() => ({
      body: { ...results, reports: { items: reports, next: 'more' } },
    }));
    const input = await box();
    await user.type(input, 'reba');
    const list = await listbox();
    expect(
      within(list)
        .getAllByRole('group')
        .map((group) => group.textContent?.match(/^(Projects|Photos|Reports|People)/)?.[0]),
    ).toEqual(['Projects', 'Photos', 'Reports', 'People']);
    const group = within(list).getByRole('group', { name: 'Reports' });
    const options = within(group).getAllByRole('option');
    expect(options).toHaveLength(4);
    expect(options[0]).toHaveTextContent('Rebar delivery, level 2');
    expect(options[0]).toHaveTextContent('Safety walk · Rebar yard · Rebecca Stone');
    expect([...options[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'Reba',
      'Reba',
    ]);
    // Arrow keys reach the reports among the other options; Enter opens the one highlighted.
    const all = within(list).getAllByRole('option');
    const at = all.indexOf(options[1]!);
    await user.keyboard('{ArrowDown}'.repeat(at + 1));
    expect(input).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/report/32');
    expect(input).toHaveValue('');
  });

  it('Enter with nothing highlighted opens the full page; Escape closes the dropdown only', async () => {
    const { user, router } = renderWithSearch(() => ({ body: results }));
    const input = await box();
    await user.type(input, 'reba');
    await listbox();
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(input).toHaveValue('reba');
    // ArrowDown opens it again.
    await user.keyboard('{ArrowDown}');
    await listbox();
    await user.keyboard('{Escape}{Enter}');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/search?q=reba',
    );
  });

  it('says "No matches" when nothing matches, with no list to walk', async () => {
    const { user } = renderWithSearch(() => ({
      body: {
        projects: { items: [], next: null },
        uploads: { items: [], next: null },
        reports: { items: [], next: null },
      },
    }));
    const input = await box();
    await user.type(input, 'zzz');
    expect(await screen.findByText('No matches for “zzz”.')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows a loading state, then the server’s message when the search fails', async () => {
    const pending: (() => void)[] = [];
    const { user, server } = renderWithSearch(
      () =>
        new Promise((resolve) => {
          pending.push(() =>
            resolve(jsonError(500, 'internal', 'The search index is rebuilding.')),
          );
        }) as never,
    );
    await user.type(await box(), 'crane');
    expect(await screen.findByText('Searching…')).toBeInTheDocument();
    await waitFor(() =>
      expect(params(server.callsTo('GET /api/search').at(-1)!).get('q')).toBe('crane'),
    );
    for (const fail of pending) fail();
    expect(
      await screen.findByText('Search failed: The search index is rebuilding.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('shows names with markup as text', async () => {
    const hostile = '<img src=x onerror=alert(1)> rebar';
    const { user } = renderWithSearch(() => ({
      body: {
        projects: { items: [makeProject({ id: 3, name: hostile })], next: null },
      },
    }));
    await user.type(await box(), 'img');
    const option = within(await listbox()).getAllByRole('option')[0]!;
    expect(option).toHaveTextContent(hostile);
    expect(option.querySelector('img[src="x"]')).toBeNull();
    await waitFor(() => expect(option.querySelector('mark')).toHaveTextContent('img'));
  });
});
