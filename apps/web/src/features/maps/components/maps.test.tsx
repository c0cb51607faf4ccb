import type { PhotoLocation, Project, ProjectLocation, ProjectRow } from '@sitelog/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonError, type MockHandler } from '@/test/mock-api';
import { mapKeys } from '../api/keys';
import { member, renderApp } from '@/test/render-app';

/** A project as the API answers it (the projects feature's own fixture is its own). */
const makeProject = (overrides: Partial<Project> = {}): Project => ({
  id: 7,
  name: 'Central Station Canopy Renewal',
  location: 'Munich, Germany',
  latitude: 48.1374,
  longitude: 11.5755,
  description: '',
  createdAt: '2026-10-01T08:00:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
  creator: { id: 3, firstname: 'Aisha', lastname: 'Okafor' },
  uploadsCount: 0,
  lastUploads: [],
  isFavorited: false,
  isFollowed: false,
  ...overrides,
});

// jsdom lays nothing out: give the map a size, so Leaflet draws the pins in view.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
});

const site = makeProject({
  id: 7,
  location: 'Vienna, Austria',
  latitude: 48.2082,
  longitude: 16.3738,
});
const noSite = makeProject({ id: 8, latitude: null, longitude: null });

const pin = (id: number, name: string, latitude: number, longitude: number): PhotoLocation => ({
  id,
  name,
  latitude,
  longitude,
  capturedAt: null,
});
// Spread over Vienna, far enough apart to stay single pins when the map fits them.
const pins = [
  pin(31, 'North wall', 48.23, 16.37),
  pin(32, 'South gate', 48.18, 16.38),
  pin(33, 'East yard', 48.21, 16.42),
];

const projectApi = (project = site, locations: MockHandler = { body: pins }) => ({
  [`GET /api/project/id/${project.id}`]: { body: project },
  [`GET /api/upload/project/${project.id}/latest`]: { body: [] },
  [`GET /api/upload/project/${project.id}/locations`]: locations,
});

const mapSection = () => screen.findByRole('region', { name: 'Map' });
/** The map, once Leaflet's chunk has loaded (its first transform takes a while in tests). */
const findMap = (name: string, within_: Pick<typeof screen, 'findByRole'> = screen) =>
  within_.findByRole('region', { name }, { timeout: 10_000 });
const PROJECT_MAP = "Map of the project's site and photos";

describe('the project page map', () => {
  it('shows the site and a labelled pin per geotagged photo, with the tiles credit as a link', async () => {
    renderApp('/project/7', { signedInAs: member, api: projectApi() });
    const section = await mapSection();
    expect(await within(section).findByText('3 photos with a location')).toBeInTheDocument();
    const map = await findMap(PROJECT_MAP, within(section));
    for (const name of ['North wall', 'South gate', 'East yard'])
      expect(
        await within(map).findByRole('button', { name: `Photo: ${name}` }, { timeout: 10_000 }),
      ).toBeVisible();
    expect(
      within(map).getByRole('button', { name: 'Project site: Vienna, Austria' }),
    ).toBeVisible();
    const credit = within(section).getByRole('link', { name: '© OpenStreetMap contributors' });
    expect(credit).toHaveAttribute('href', 'https://www.openstreetmap.org/copyright');
  });

  it('opens a photo by putting photo=<id> in the URL, keeping the other parameters', async () => {
    const { router } = renderApp('/project/7?tab=uploads', {
      signedInAs: member,
      api: projectApi(),
    });
    const map = await findMap(PROJECT_MAP);
    fireEvent.click(
      await within(map).findByRole('button', { name: 'Photo: South gate' }, { timeout: 10_000 }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?tab=uploads&photo=32'));
    expect(router.state.location.pathname).toBe('/project/7');
    // A new history entry: Back closes the photo again.
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('opens a photo from the keyboard: Enter on a focused pin', async () => {
    const { router, user } = renderApp('/project/7', { signedInAs: member, api: projectApi() });
    const map = await findMap(PROJECT_MAP);
    const north = await within(map).findByRole(
      'button',
      { name: 'Photo: North wall' },
      { timeout: 10_000 },
    );
    expect(north).toHaveAttribute('tabindex', '0');
    north.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?photo=31'));
  });

  it('clusters pins that crowd together, and names the cluster by its count', async () => {
    const crowd = [pin(41, 'A', 48.2082, 16.3738), pin(42, 'B', 48.20821, 16.37381)];
    renderApp('/project/7', {
      signedInAs: member,
      api: projectApi(makeProject({ id: 7, latitude: 48.3, longitude: 16.6 }), { body: crowd }),
    });
    const map = await findMap(PROJECT_MAP);
    expect(
      await within(map).findByRole(
        'button',
        { name: '2 photos here. Zoom in' },
        { timeout: 10_000 },
      ),
    ).toHaveTextContent('2');
    expect(within(map).queryByRole('button', { name: 'Photo: A' })).not.toBeInTheDocument();
  });

  it('says so under the site when no photo has a location yet', async () => {
    renderApp('/project/7', { signedInAs: member, api: projectApi(site, { body: [] }) });
    const section = await mapSection();
    expect(
      await within(section).findByText('None of this project’s photos has a location yet.'),
    ).toBeInTheDocument();
    const map = await findMap(PROJECT_MAP, within(section));
    expect(
      await within(map).findByRole(
        'button',
        { name: 'Project site: Vienna, Austria' },
        { timeout: 10_000 },
      ),
    ).toBeVisible();
  });

  it('shows the photos of a project without a site, and says the site is unknown', async () => {
    renderApp('/project/8', { signedInAs: member, api: projectApi(noSite) });
    const section = await mapSection();
    expect(
      within(section).getByText(
        'The project has no site location; the pins show where its photos were taken.',
      ),
    ).toBeInTheDocument();
    expect(
      await within(section).findByRole('button', { name: 'Photo: East yard' }, { timeout: 10_000 }),
    ).toBeVisible();
  });

  it('leaves the section out when the project has neither a site nor geotagged photos', async () => {
    const { queryClient } = renderApp('/project/8', {
      signedInAs: member,
      api: projectApi(noSite, { body: [] }),
    });
    await screen.findByRole('heading', { level: 1, name: noSite.name });
    // Once the (empty) pins have arrived, not only while they load.
    await waitFor(() =>
      expect(queryClient.getQueryState(mapKeys.projectPhotos(8))?.status).toBe('success'),
    );
    expect(screen.getByRole('region', { name: 'Uploads' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Map' })).not.toBeInTheDocument();
  });

  it('offers Retry when the pins cannot be loaded', async () => {
    let fail = true;
    const { user } = renderApp('/project/7', {
      signedInAs: member,
      api: projectApi(site, () =>
        fail ? jsonError(503, 'unavailable', 'The database is busy.') : { body: pins },
      ),
    });
    const section = await mapSection();
    expect(
      await within(section).findByText('The database is busy.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(section).getByText("The photos' locations could not be loaded")).toBeVisible();
    fail = false;
    await user.click(within(section).getByRole('button', { name: 'Retry' }));
    expect(
      await within(section).findByRole(
        'button',
        { name: 'Photo: North wall' },
        { timeout: 10_000 },
      ),
    ).toBeVisible();
  });
});

const projects: ProjectLocation[] = [
  {
    id: 3,
    name: 'Riverside Apartments',
    location: 'Hamburg, Germany',
    latitude: 53.5511,
    longitude: 9.9937,
    uploadsCount: 12,
  },
  {
    id: 2,
    name: 'Canopy Renewal',
    location: 'Munich, Germany',
    latitude: 48.1374,
    longitude: 11.5755,
    uploadsCount: 3,
  },
];
const rows: ProjectRow[] = [
  [3, 'Riverside Apartments', 'Hamburg, Germany', '2026-11-21T10:00:00.000Z', 12, 'Marco Rossi'],
];

describe('the All projects map', () => {
  it('switches to the map with ?view=map and back, and shows a pin per project', async () => {
    const { router, user } = renderApp('/projects/all', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/locations': { body: projects },
      },
    });
    await screen.findByRole('table', { name: 'All projects' });
    await user.click(screen.getByRole('button', { name: 'Map' }));
    expect(router.state.location.search).toBe('?view=map');
    const map = await findMap('Map of projects');
    expect(
      await within(map).findByRole(
        'button',
        {
          name: 'Project: Riverside Apartments, Hamburg, Germany',
        },
        { timeout: 10_000 },
      ),
    ).toBeVisible();
    expect(
      within(map).getByRole('button', { name: 'Project: Canopy Renewal, Munich, Germany' }),
    ).toBeVisible();
    expect(screen.getByText('2 projects with a location.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'List' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('table', { name: 'All projects' })).toBeInTheDocument();
  });

  it('opens the project of a pressed pin', async () => {
    const { router } = renderApp('/projects/all?view=map', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/locations': { body: projects },
        'GET /api/project/id/2': { body: makeProject({ id: 2, name: 'Canopy Renewal' }) },
      },
    });
    expect(screen.getByRole('button', { name: 'Map' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(
      await screen.findByRole(
        'button',
        { name: 'Project: Canopy Renewal, Munich, Germany' },
        { timeout: 10_000 },
      ),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/2'));
  });

  it('says no project has a location yet instead of an empty map', async () => {
    renderApp('/projects/all?view=map', {
      signedInAs: member,
      api: {
        'GET /api/project/all/list': { body: rows },
        'GET /api/project/locations': { body: [] },
      },
    });
    expect(
      await screen.findByText('No project has a location yet', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Map of projects' })).not.toBeInTheDocument();
  });
});
