import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { member, renderApp } from '@/test/render-app';
import { makeProject, makeRow } from '@/features/projects/test/make-project';

const rows = [
  makeRow(
    3,
    'Riverside Apartments',
    'Hamburg, Germany',
    '2026-11-21T10:00:00.000Z',
    12,
    'Marco Rossi',
  ),
  makeRow(
    1,
    'bridge Deck Waterproofing',
    'Zürich, Switzerland',
    '2026-11-19T10:00:00.000Z',
    40,
    'Lena Fischer',
  ),
  makeRow(2, 'Canopy Renewal', 'Munich, Germany', '2026-11-20T10:00:00.000Z', 3, 'Aisha Okafor'),
];

/** A phone-wide window: MUI's breakpoint queries below `sm` (600 px) match. */
function phoneWidth() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: /max-width:\s*599\.95px/.test(query),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/** The name of every project card, top to bottom. */
function cardNames(): string[] {
  const list = screen.getByRole('list', { name: 'All projects' });
  return within(list)
    .getAllByRole('listitem')
    .map((card) => within(card).getAllByRole('link')[0]?.textContent ?? '');
}

/** The Name cell of every body row, top to bottom. */
function names(): string[] {
  const table = screen.getByRole('table', { name: 'All projects' });
  const [, ...bodyRows] = within(table).getAllByRole('row');
  return bodyRows.map((row) => within(row).getAllByRole('cell')[1]?.textContent ?? '');
}

describe('/projects/all', () => {
  it('lists every project with the spec columns, newest activity first', async () => {
    renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: rows } },
    });
    const table = await screen.findByRole('table', { name: 'All projects' });
    expect(document.title).toBe('All projects · Sitelog');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['#', 'Name', 'Location', 'Updated at', 'Creator', 'Uploads']);
    expect(names()).toEqual([
      'Riverside Apartments',
      'Canopy Renewal',
      'bridge Deck Waterproofing',
    ]);
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(
      expect.arrayContaining([
        '3',
        'Riverside Apartments',
        'Hamburg, Germany',
        'Marco Rossi',
        '12',
      ]),
    );
  });

  it('sorts by any column, both ways, on click', async () => {
    const { user } = renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: rows } },
    });
    await screen.findByRole('table', { name: 'All projects' });

    await user.click(screen.getByRole('button', { name: 'Name' }));
    // Case-insensitive: "bridge" sorts with the Bs.
    expect(names()).toEqual([
      'bridge Deck Waterproofing',
      'Canopy Renewal',
      'Riverside Apartments',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual([
      'Riverside Apartments',
      'Canopy Renewal',
      'bridge Deck Waterproofing',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    await user.click(screen.getByRole('button', { name: 'Uploads' }));
    expect(names()).toEqual([
      'Canopy Renewal',
      'Riverside Apartments',
      'bridge Deck Waterproofing',
    ]);
    await user.click(screen.getByRole('button', { name: '#' }));
    expect(names()).toEqual([
      'bridge Deck Waterproofing',
      'Canopy Renewal',
      'Riverside Apartments',
    ]);
    await user.click(screen.getByRole('button', { name: 'Creator' }));
    expect(names()).toEqual([
      'Canopy Renewal',
      'bridge Deck Waterproofing',
      'Riverside Apartments',
    ]);
    await user.click(screen.getByRole('button', { name: 'Updated at' }));
    expect(names()).toEqual([
      'bridge Deck Waterproofing',
      'Canopy Renewal',
      'Riverside Apartments',
    ]);
    await user.click(screen.getByRole('button', { name: 'Location' }));
    expect(names()).toEqual([
      'Riverside Apartments',
      'Canopy Renewal',
      'bridge Deck Waterproofing',
    ]);
  });

  it('opens the project when a row is clicked, or on Enter on a focused row', async () => {
    const { user, router } = renderApp('/projects/all', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/id/2': {
          status: 503,
          body: { message: 'Busy.', code: 'x', requestId: 'r' },
        },
      },
    });
    await screen.findByRole('table', { name: 'All projects' });
    await user.click(screen.getByRole('cell', { name: 'Munich, Germany' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/2'));

    await router.navigate(-1);
    const table = await screen.findByRole('table', { name: 'All projects' });
    const firstRow = within(table).getAllByRole('row')[1] as HTMLElement;
    firstRow.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/3'));
  });

  it('filters by name, place or creator, ignoring case and accents', async () => {
    const { user } = renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: rows } },
    });
    await screen.findByRole('table', { name: 'All projects' });
    await user.type(screen.getByLabelText('Filter projects'), 'zurich');
    expect(names()).toEqual(['bridge Deck Waterproofing']);
    await user.clear(screen.getByLabelText('Filter projects'));
    await user.type(screen.getByLabelText('Filter projects'), 'nothing like it');
    expect(screen.getByText('No projects match “nothing like it”.')).toBeInTheDocument();
  });

  it('keeps sort and filter in the address, so Back from a project restores the table', async () => {
    const { user, router } = renderApp('/projects/all', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/id/2': { body: makeProject({ id: 2 }) },
      },
    });
    await screen.findByRole('table', { name: 'All projects' });
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.type(screen.getByLabelText('Filter projects'), 'germany');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&dir=asc&q=germany'));

    await user.click(screen.getByRole('cell', { name: 'Munich, Germany' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/2'));
    await router.navigate(-1);
    await screen.findByRole('table', { name: 'All projects' });
    expect(screen.getByLabelText('Filter projects')).toHaveValue('germany');
    expect(names()).toEqual(['Canopy Renewal', 'Riverside Apartments']);

    // The menu's All projects link starts afresh.
    await router.navigate('/projects/all');
    await waitFor(() => expect(screen.getByLabelText('Filter projects')).toHaveValue(''));
    expect(names()).toHaveLength(3);
  });

  it('opens a project clicked right after typing a filter, and Back shows that filter', async () => {
    const { user, router } = renderApp('/projects/all', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/id/2': { body: makeProject({ id: 2 }) },
      },
    });
    await screen.findByRole('table', { name: 'All projects' });
    const filter = screen.getByLabelText('Filter projects');
    fireEvent.focus(filter);
    fireEvent.change(filter, { target: { value: 'canopy' } });
    expect(router.state.location.search).toBe('');
    // Leaving the box writes the filter at once, not after the typing pause, which would come
    // after the project was opened and replace its address with the list's.
    fireEvent.blur(filter);
    expect(router.state.location.search).toBe('?q=canopy');
    await user.click(screen.getByRole('cell', { name: 'Munich, Germany' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/2'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(router.state.location.pathname).toBe('/project/2');
    await router.navigate(-1);
    await screen.findByRole('table', { name: 'All projects' });
    expect(screen.getByLabelText('Filter projects')).toHaveValue('canopy');
    expect(router.state.location.search).toBe('?q=canopy');
  });

  it('renders one page of rows at a time for large lists', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      makeRow(
        i + 1,
        `Project ${i + 1}`,
        'Vienna, Austria',
        new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        i % 50,
        'Lena Fischer',
      ),
    );
    const { user } = renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: many } },
    });
    const table = await screen.findByRole('table', { name: 'All projects' });
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    expect(screen.getByText('1–25 of 10000')).toBeInTheDocument();
    expect(names()[0]).toBe('Project 10000');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(names()[0]).toBe('Project 9975');
  });

  it('on a phone lists the projects as cards, with the facts, sort and filter of the table', async () => {
    phoneWidth();
    const { user, router } = renderApp('/projects/all', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/id/2': { body: makeProject({ id: 2 }) },
      },
    });
    const list = await screen.findByRole('list', { name: 'All projects' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cardNames()).toEqual([
      'Riverside Apartments',
      'Canopy Renewal',
      'bridge Deck Waterproofing',
    ]);
    const first = within(list).getAllByRole('listitem')[0] as HTMLElement;
    expect(first).toHaveTextContent('Hamburg, Germany');
    expect(first).toHaveTextContent('#3 · 12 uploads · updated');
    expect(first).toHaveTextContent('by Marco Rossi');
    expect(within(first).getByRole('link', { name: 'Riverside Apartments' })).toHaveAttribute(
      'href',
      '/project/3',
    );

    // The same sort as the table's headers, in the address too.
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Name');
    expect(cardNames()).toEqual([
      'bridge Deck Waterproofing',
      'Canopy Renewal',
      'Riverside Apartments',
    ]);
    expect(screen.getByLabelText('Order')).toHaveDisplayValue('A to Z');
    await user.selectOptions(screen.getByLabelText('Order'), 'Z to A');
    expect(cardNames()).toEqual([
      'Riverside Apartments',
      'Canopy Renewal',
      'bridge Deck Waterproofing',
    ]);
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Uploads');
    expect(screen.getByLabelText('Order')).toHaveDisplayValue('Fewest first');
    expect(cardNames()).toEqual([
      'Canopy Renewal',
      'Riverside Apartments',
      'bridge Deck Waterproofing',
    ]);

    // The same filter.
    await user.type(screen.getByLabelText('Filter projects'), 'germany');
    expect(cardNames()).toEqual(['Canopy Renewal', 'Riverside Apartments']);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?sort=uploadsCount&dir=asc&q=germany'),
    );
    await user.type(screen.getByLabelText('Filter projects'), ' nowhere');
    expect(screen.getByText('No projects match “germany nowhere”.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Filter projects'));

    await user.click(await screen.findByRole('link', { name: 'Canopy Renewal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/2'));
  });

  it('keeps a sort chosen while a typed filter waits to be written: both land in the address', async () => {
    phoneWidth();
    const { user, router } = renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: rows } },
    });
    await screen.findByRole('list', { name: 'All projects' });
    // The filter is written to the address after the typing pause; the sort changes before it
    // (a change event, as a browser's select sends it, with no blur of the box).
    await user.type(screen.getByLabelText('Filter projects'), 'germany');
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'name' } });
    await waitFor(() => expect(router.state.location.search).toContain('q=germany'));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('name');
    expect(screen.getByLabelText('Order')).toHaveDisplayValue('A to Z');
    expect(cardNames()).toEqual(['Canopy Renewal', 'Riverside Apartments']);
  });

  it('on a phone renders one page of cards at a time', async () => {
    phoneWidth();
    const many = Array.from({ length: 1_000 }, (_, i) =>
      makeRow(
        i + 1,
        `Project ${i + 1}`,
        'Vienna, Austria',
        new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        i % 50,
        'Lena Fischer',
      ),
    );
    const { user } = renderApp('/projects/all', {
      signedInAs: member,
      api: { 'GET /api/project/all/list': { body: many } },
    });
    await screen.findByRole('list', { name: 'All projects' });
    expect(cardNames()).toHaveLength(25);
    expect(cardNames()[0]).toBe('Project 1000');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(cardNames()[0]).toBe('Project 975');
  });
});
