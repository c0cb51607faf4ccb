import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';
import { makeProject } from '@/features/projects/test/make-project';

describe('/projects', () => {
  it("lists the user's projects as tiles", async () => {
    const mine = makeProject({
      id: 11,
      name: 'Tram Depot',
      creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
    });
    const { server } = renderApp('/projects', {
      signedInAs: member,
      api: { 'GET /api/project/user': { body: [mine] } },
    });
    const list = await screen.findByRole('list', { name: 'My projects' });
    expect(within(list).getByRole('link')).toHaveAttribute('href', '/project/11');
    expect(within(list).getByRole('link')).toHaveTextContent('Tram Depot');
    expect(screen.getByText('1 project you created')).toBeInTheDocument();
    expect(document.title).toBe('My projects · Sitelog');
    expect(server.callsTo('GET /api/project/user')).toHaveLength(1);
  });

  it('offers New project when the user has none', async () => {
    renderApp('/projects', { signedInAs: member, api: { 'GET /api/project/user': { body: [] } } });
    expect(await screen.findByText('You have not created any projects yet')).toBeInTheDocument();
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'New project' }),
    ).toHaveAttribute('href', '/projects/new');
  });
});
