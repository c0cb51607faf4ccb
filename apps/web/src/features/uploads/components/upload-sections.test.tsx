import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { mockApi } from '@/test/mock-api';
import { member, storeSession } from '@/test/render-app';
import { makeUpload } from '../test/upload-fixtures';
import { ProjectUploadsSection } from './project-uploads-section';
import { UserUploadsSection } from './user-uploads-section';

/** Renders one section the way a page composes it. */
function renderSection(element: ReactNode) {
  storeSession(member);
  const router = createMemoryRouter([{ path: '*', element }]);
  render(
    <AppProviders queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('upload sections for other pages', () => {
  it("a project's Uploads start with a tile that opens the uploader for that project", async () => {
    const server = mockApi({
      'GET /api/upload/project/31/latest': { body: [makeUpload({ id: 5, name: 'Footings' })] },
    });
    renderSection(<ProjectUploadsSection projectId={31} />);
    const grid = await screen.findByRole('region', { name: 'Project uploads' });
    const links = within(grid).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/uploader/31/create',
      '/?photo=5',
    ]);
    expect(links[0]).toHaveAccessibleName('Add upload');
    expect(server.callsTo('GET /api/upload/project/31/latest')).toHaveLength(1);
  });

  it('a project without uploads still offers the add tile', async () => {
    mockApi({ 'GET /api/upload/project/31/latest': { body: [] } });
    renderSection(<ProjectUploadsSection projectId={31} />);
    expect(await screen.findByRole('link', { name: 'Add upload' })).toHaveAttribute(
      'href',
      '/uploader/31/create',
    );
  });

  it("a member's uploads load from their id, under the heading the page gives", async () => {
    const server = mockApi({
      'GET /api/upload/user/9/latest': { body: [makeUpload({ id: 6, name: 'Roof membrane' })] },
    });
    renderSection(<UserUploadsSection userId={9} title="Latest uploads (1)" />);
    expect(await screen.findByRole('heading', { name: 'Latest uploads (1)' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Roof membrane/ })).toHaveAttribute(
      'href',
      '/?photo=6',
    );
    expect(server.callsTo('GET /api/upload/user/9/latest')).toHaveLength(1);
  });

  it('a member without uploads reads "No uploads yet"', async () => {
    mockApi({ 'GET /api/upload/user/9/latest': { body: [] } });
    renderSection(<UserUploadsSection userId={9} />);
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
  });
});
