import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { admin, member, renderApp } from '@/test/render-app';
import { makeProject } from '@/features/projects/test/make-project';

const byAdmin = { id: admin.id, firstname: admin.firstname, lastname: admin.lastname };
const byMember = { id: member.id, firstname: member.firstname, lastname: member.lastname };

// Most recently archived first, as the server answers.
const mine = makeProject({
  id: 8,
  name: 'School Extension',
  location: 'Hamburg, Germany',
  creator: byMember,
  uploadsCount: 1,
  archivedAt: '2026-11-22T09:00:00.000Z',
  archivedBy: byMember,
});
const others = makeProject({
  id: 7,
  name: 'Central Station Canopy Renewal',
  location: 'Munich, Germany',
  creator: { id: 3, firstname: 'Aisha', lastname: 'Okafor' },
  uploadsCount: 12,
  archivedAt: '2026-11-21T10:00:00.000Z',
  archivedBy: byAdmin,
});

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

const timeOf = (iso: string) => (_content: string, element: Element | null) =>
  element?.tagName === 'TIME' && element.getAttribute('datetime') === iso;

describe('/projects/archived', () => {
  it('lists archived projects with location, who archived each and when, and the photo count', async () => {
    const { server } = renderApp('/projects/archived', {
      signedInAs: member,
      api: { 'GET /api/project/archived': { body: [mine, others] } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Archived projects' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Archived projects · Sitelog');
    const table = await screen.findByRole('table', { name: 'Archived projects' });
    expect(screen.getByText(/^2 archived projects/)).toBeInTheDocument();
    const [, ...rows] = within(table).getAllByRole('row');
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'School Extension',
      'Central Station Canopy Renewal',
    ]);
    const second = rows[1]!;
    expect(
      within(second).getByRole('link', { name: 'Central Station Canopy Renewal' }),
    ).toHaveAttribute('href', '/project/7');
    expect(second).toHaveTextContent('Munich, Germany');
    expect(within(second).getByRole('link', { name: 'Ada Admin' })).toHaveAttribute(
      'href',
      `/profile/${admin.id}`,
    );
    expect(within(second).getByText(timeOf(others.archivedAt!))).toBeInTheDocument();
    expect(within(second).getAllByRole('cell')[3]).toHaveTextContent('12');
    expect(server.callsTo('GET /api/project/archived')[0]?.headers.get('authorization')).toBe(
      `Bearer token-of-${member.id}`,
    );
  });

  it('offers RESTORE to the creator on their own project only, and to an admin on every one', async () => {
    const first = renderApp('/projects/archived', {
      signedInAs: member,
      api: { 'GET /api/project/archived': { body: [mine, others] } },
    });
    await screen.findByRole('table', { name: 'Archived projects' });
    expect(screen.getByRole('button', { name: 'Restore School Extension' })).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Restore Central Station Canopy Renewal' }),
    ).not.toBeInTheDocument();
    first.unmount();

    renderApp('/projects/archived', {
      signedInAs: admin,
      api: { 'GET /api/project/archived': { body: [mine, others] } },
    });
    await screen.findByRole('table', { name: 'Archived projects' });
    expect(screen.getByRole('button', { name: 'Restore School Extension' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Restore Central Station Canopy Renewal' }),
    ).toBeInTheDocument();
  });

  it('restores after confirmation: the project leaves the list, and a notice links to it', async () => {
    let archived = [mine, others];
    const { user, server } = renderApp('/projects/archived', {
      signedInAs: admin,
      api: {
        'GET /api/project/archived': () => ({ body: archived }),
        'POST /api/project/7/restore': () => {
          archived = [mine];
          return { body: { ...others, archivedAt: null, archivedBy: null } };
        },
      },
    });
    await user.click(
      await screen.findByRole('button', { name: 'Restore Central Station Canopy Renewal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restore this project?' });
    expect(dialog).toHaveTextContent(/Central Station Canopy Renewal/);
    // CANCEL first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST /api/project/7/restore')).toHaveLength(0);

    await user.click(
      screen.getByRole('button', { name: 'Restore Central Station Canopy Renewal' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Restore this project?' })).getByRole(
        'button',
        { name: 'Restore' },
      ),
    );
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(
      '“Central Station Canopy Renewal” is restored and back in the project lists.',
    );
    expect(within(notice).getByRole('link', { name: 'Open project' })).toHaveAttribute(
      'href',
      '/project/7',
    );
    await waitFor(() => expect(notice).toHaveFocus());
    expect(server.callsTo('POST /api/project/7/restore')).toHaveLength(1);
    // The list was asked again and no longer holds it.
    await waitFor(() =>
      expect(
        screen.queryByRole('link', { name: 'Central Station Canopy Renewal' }),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: 'School Extension' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/project/archived').length).toBeGreaterThanOrEqual(2);
  });

  it('shows a refused restore in the dialog and keeps the project listed', async () => {
    const { user } = renderApp('/projects/archived', {
      signedInAs: member,
      api: {
        'GET /api/project/archived': { body: [mine] },
        'POST /api/project/8/restore': jsonError(
          403,
          'forbidden',
          'Only the creator of this project or an admin can restore it.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Restore School Extension' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this project?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only the creator of this project or an admin can restore it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'School Extension' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says so when there are no archived projects', async () => {
    renderApp('/projects/archived', {
      signedInAs: member,
      api: { 'GET /api/project/archived': { body: [] } },
    });
    expect(await screen.findByText('No archived projects')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a loading state, then a failed load with RETRY', async () => {
    let fail = true;
    const { user } = renderApp('/projects/archived', {
      signedInAs: member,
      api: {
        'GET /api/project/archived': () =>
          fail ? jsonError(503, 'unavailable', 'The database is busy.') : { body: [mine] },
      },
    });
    expect(
      await screen.findByRole('status', { name: 'Loading archived projects…' }),
    ).toBeInTheDocument();
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('The archived projects could not be loaded');
    expect(alert).toHaveTextContent('The database is busy.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'School Extension' })).toBeInTheDocument();
  });

  it('on a phone lists the archived projects as cards with the same facts and RESTORE', async () => {
    phoneWidth();
    renderApp('/projects/archived', {
      signedInAs: member,
      api: { 'GET /api/project/archived': { body: [mine, others] } },
    });
    const list = await screen.findByRole('list', { name: 'Archived projects' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'School Extension' })).toHaveAttribute(
      'href',
      '/project/8',
    );
    expect(first).toHaveTextContent('Hamburg, Germany');
    expect(first).toHaveTextContent(/Archived by Mia Mason on .* · 1 photo/);
    expect(
      within(first!).getByRole('button', { name: 'Restore School Extension' }),
    ).toBeInTheDocument();
    expect(second).toHaveTextContent(/Archived by Ada Admin on .* · 12 photos/);
    expect(within(second!).queryByRole('button')).not.toBeInTheDocument();
  });
});
