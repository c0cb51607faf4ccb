import type { Profile } from '@sitelog/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const profile = (
  id: number,
  firstname: string,
  lastname: string,
  isActive: boolean,
  projectsCount: number,
  uploadsCount: number,
): Profile => ({ id, firstname, lastname, isActive, projectsCount, uploadsCount });

const profiles = [
  profile(1, 'Dana', 'Whitfield', true, 1, 4),
  profile(2, 'Marco', 'Rossi', true, 3, 20),
  profile(3, 'Aisha', 'Okafor', false, 2, 7),
  profile(4, 'Tomasz', 'Nowak', true, 0, 0),
];

const teamApi = { 'GET /api/user/all/profile': { body: { count: 4, profiles } } };

/** The table's body rows as arrays of cell texts. */
function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('/teams', () => {
  it('shows the team info counts', async () => {
    renderApp('/teams', { signedInAs: member, api: teamApi });
    const info = await screen.findByRole('region', { name: 'Team info' });
    const fact = (label: string) =>
      within(info).getByText(label).nextElementSibling?.textContent ?? '';
    expect(fact('Active members')).toBe('3');
    expect(fact('Total members')).toBe('4');
    expect(fact('Total projects')).toBe('6');
    expect(fact('Total uploads')).toBe('31');
  });

  it('lists active members and deactivated members apart, with the spec’s columns', async () => {
    renderApp('/teams', { signedInAs: member, api: teamApi });
    const members = await screen.findByRole('table', { name: 'Members' });
    const headers = within(members)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['#', 'Name', 'Lastname', 'Projects', 'Uploads']);
    expect(rowsOf(members)).toEqual([
      ['1', 'Dana', 'Whitfield', '1', '4'],
      ['2', 'Marco', 'Rossi', '3', '20'],
      ['3', 'Tomasz', 'Nowak', '0', '0'],
    ]);
    const deactivated = screen.getByRole('table', { name: 'Deactivated members' });
    expect(rowsOf(deactivated)).toEqual([['1', 'Aisha', 'Okafor', '2', '7']]);
  });

  it('links every row to the member’s profile', async () => {
    const { user, router } = renderApp('/teams', {
      signedInAs: member,
      api: {
        ...teamApi,
        'GET /api/user/profile/3': { body: profiles[2] },
        'GET /api/project/profile/3': { body: [] },
        'GET /api/upload/user/3/latest': { body: [] },
      },
    });
    const link = await screen.findByRole('link', { name: 'Marco Rossi' });
    expect(link).toHaveAttribute('href', '/profile/2');
    const deactivated = screen.getByRole('table', { name: 'Deactivated members' });
    // A click anywhere on the row opens the profile.
    await user.click(within(deactivated).getByText('Okafor'));
    expect(router.state.location.pathname).toBe('/profile/3');
    expect(await screen.findByRole('heading', { level: 1, name: 'Aisha Okafor' })).toBeVisible();
  });

  it('sorts a table by a column', async () => {
    const { user } = renderApp('/teams', { signedInAs: member, api: teamApi });
    const members = await screen.findByRole('table', { name: 'Members' });
    await user.click(within(members).getByRole('button', { name: 'Uploads' }));
    expect(rowsOf(members).map((r) => r[1])).toEqual(['Marco', 'Dana', 'Tomasz']);
    expect(rowsOf(members).map((r) => r[0])).toEqual(['1', '2', '3']);
    await user.click(within(members).getByRole('button', { name: 'Uploads' }));
    expect(rowsOf(members).map((r) => r[1])).toEqual(['Tomasz', 'Dana', 'Marco']);
  });

  it('says when nobody is deactivated', async () => {
    renderApp('/teams', {
      signedInAs: member,
      api: { 'GET /api/user/all/profile': { body: { count: 1, profiles: [profiles[0]] } } },
    });
    expect(await screen.findByText('No deactivated members.')).toBeInTheDocument();
  });

  it('shows the server’s message when the team cannot be loaded', async () => {
    renderApp('/teams', {
      signedInAs: member,
      api: { 'GET /api/user/all/profile': jsonError(403, 'forbidden', 'Not for you.') },
    });
    expect(await screen.findByText('Not for you.')).toBeInTheDocument();
  });
});
