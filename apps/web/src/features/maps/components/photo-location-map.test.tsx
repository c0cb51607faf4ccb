import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testQueryClient } from '@/test/query-client';
import { mockApi } from '@/test/mock-api';
import { PhotoLocationMap } from './photo-location-map';

const config = {
  placesProvider: 'offline',
  googleMapsKey: null,
  mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
  mapAttribution: '<b>Example</b> maps',
  mapAttributionUrl: null,
  farFromSiteKm: 2,
};

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(200);
});

function renderMap(ui: React.ReactNode) {
  const server = mockApi({ 'GET /api/config': { body: config } });
  render(<QueryClientProvider client={testQueryClient()}>{ui}</QueryClientProvider>);
  return server;
}

const findMap = (name: string) => screen.findByRole('img', { name }, { timeout: 10_000 });

describe('PhotoLocationMap', () => {
  it('draws where the photo was taken and the project site, as a still map with the credit', async () => {
    renderMap(
      <PhotoLocationMap
        latitude={48.21}
        longitude={16.37}
        site={{ latitude: 48.3, longitude: 16.5 }}
      />,
    );
    const map = await findMap('Map of where the photo was taken and of the project site');
    expect(
      await within(map).findByRole('img', { name: 'Where the photo was taken' }),
    ).toBeVisible();
    expect(within(map).getByRole('img', { name: 'Project site' })).toBeVisible();
    // Still: nothing in it to tab to, and no zoom buttons.
    expect(within(map).queryByRole('button')).not.toBeInTheDocument();
    expect(map.querySelectorAll('[tabindex="0"]')).toHaveLength(0);
    // The configured credit, as text (no link configured), never as HTML.
    expect(screen.getByText('<b>Example</b> maps')).toBeVisible();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    // Tiles come from the configured server.
    const tile = map.querySelector('img.leaflet-tile');
    expect(tile?.getAttribute('src')).toMatch(
      /^https:\/\/tiles\.example\.org\/\d+\/\d+\/\d+\.png$/,
    );
  });

  it('draws the photo alone when there is no site', async () => {
    renderMap(<PhotoLocationMap latitude={-33.86} longitude={151.21} height={150} />);
    const map = await findMap('Map of where the photo was taken');
    expect(
      await within(map).findByRole('img', { name: 'Where the photo was taken' }),
    ).toBeVisible();
    expect(within(map).queryByRole('img', { name: 'Project site' })).not.toBeInTheDocument();
  });
});
