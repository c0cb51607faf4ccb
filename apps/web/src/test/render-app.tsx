import type { SessionUser } from '@sitelog/shared';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { routes } from '@/app/router';
import { storeSession } from './fixtures';
import { mockApi, type MockRoutes } from './mock-api';

export { admin, loginResponse, member, storeSession } from './fixtures';

interface RenderAppOptions {
  /** Signed in as this user (stored before the app starts, as after a reload). */
  signedInAs?: SessionUser;
  api?: MockRoutes;
}

/** Starts the whole app (real routes, guards, providers) at `path`, with fetch faked. */
export function renderApp(path: string, { signedInAs, api = {} }: RenderAppOptions = {}) {
  if (signedInAs) storeSession(signedInAs);
  const server = mockApi({
    'GET /api/auth/hints': {
      body: { sample: null, placesProvider: 'offline', googleMapsKey: null },
    },
    'GET /api/config': {
      body: {
        placesProvider: 'offline',
        googleMapsKey: null,
        mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        mapAttribution: '© OpenStreetMap contributors',
        mapAttributionUrl: 'https://www.openstreetmap.org/copyright',
        farFromSiteKm: 2,
      },
    },
    ...(signedInAs ? { 'GET /api/auth/me': { body: signedInAs } } : {}),
    // The top bar's bell polls this on every page.
    'GET /api/notifications/unread': { body: { count: 0 }, headers: { ETag: '"unread-0"' } },
    'POST /api/auth/logout': { body: { ok: true } },
    // The project page's Reports section and the admin page's team name (issue 16) ask these;
    // tests about those screens answer them their own way.
    'GET /api/report/latest': { body: { reports: [], next: null } },
    'GET /api/workspace': { body: { teamName: '' } },
    ...api,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = testQueryClient();
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, server, queryClient, user };
}
