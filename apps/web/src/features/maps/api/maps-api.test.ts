import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { ApiError } from '@/lib/api-client';
import { storeSession } from '@/test/fixtures';
import { jsonError, mockApi } from '@/test/mock-api';
import { member } from '@/test/render-app';
import { getMapConfig, mapConfigQueryOptions, useMapConfig } from './get-map-config';
import {
  getProjectLocations,
  projectLocationsQueryOptions,
  useProjectLocations,
} from './get-project-locations';
import {
  getProjectPhotoLocations,
  projectPhotoLocationsQueryOptions,
  useProjectPhotoLocations,
} from './get-project-photo-locations';
import { mapKeys } from './keys';

const config = {
  placesProvider: 'google',
  googleMapsKey: 'key',
  mapTileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
  mapAttribution: '© Example',
  mapAttributionUrl: 'https://tiles.example.org/terms',
  farFromSiteKm: 0.5,
};
const photoPins = [
  { id: 31, name: 'North wall', latitude: 48.21, longitude: 16.37, capturedAt: null },
  {
    id: 30,
    name: 'Gate',
    latitude: -33.85,
    longitude: 151.21,
    capturedAt: '2024-05-05T21:08:09.000Z',
  },
];
const projectPins = [
  {
    id: 3,
    name: 'Riverside',
    location: 'Hamburg, Germany',
    latitude: 53.55,
    longitude: 9.99,
    uploadsCount: 12,
  },
];

function wrapper({ children }: { children: ReactNode }) {
  return createElement(QueryClientProvider, { client: createQueryClient() }, children);
}

describe('the maps calls', () => {
  it('GET /api/config: only the map settings, as the server sends them', async () => {
    mockApi({ 'GET /api/config': { body: config } });
    expect(await getMapConfig()).toEqual({
      mapTileUrl: config.mapTileUrl,
      mapAttribution: '© Example',
      mapAttributionUrl: 'https://tiles.example.org/terms',
      farFromSiteKm: 0.5,
    });
    expect(mapConfigQueryOptions().queryKey).toEqual(mapKeys.config());
    expect(mapConfigQueryOptions().staleTime).toBe(Infinity);
  });

  it('refuses a config without the map settings (an older server) as unreadable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/config': { body: { placesProvider: 'offline', googleMapsKey: null } } });
    await expect(getMapConfig()).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it("GET /api/upload/project/{id}/locations: the project's pins, with the session's token", async () => {
    storeSession(member, 'token-abc');
    const server = mockApi({ 'GET /api/upload/project/7/locations': { body: photoPins } });
    expect(await getProjectPhotoLocations(7)).toEqual(photoPins);
    const [call] = server.callsTo('GET /api/upload/project/7/locations');
    expect(call?.headers.get('authorization')).toBe('Bearer token-abc');
    expect(projectPhotoLocationsQueryOptions(7).queryKey).toEqual(['maps', 'project-photos', 7]);
  });

  it('passes on a 404 for an unknown project as an ApiError', async () => {
    mockApi({
      'GET /api/upload/project/9/locations': jsonError(404, 'not_found', 'Project was not found.'),
    });
    const failure = getProjectPhotoLocations(9);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: 'Project was not found.' });
  });

  it('GET /api/project/locations: the projects with coordinates; a pin without them is refused', async () => {
    const server = mockApi({ 'GET /api/project/locations': { body: projectPins } });
    expect(await getProjectLocations()).toEqual(projectPins);
    expect(projectLocationsQueryOptions().queryKey).toEqual(mapKeys.projects());
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.set('GET /api/project/locations', {
      body: [{ ...projectPins[0], latitude: null }],
    });
    await expect(getProjectLocations()).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('every key sits under one root, so a change can refresh every map', () => {
    for (const key of [mapKeys.config(), mapKeys.projects(), mapKeys.projectPhotos(1)])
      expect(key.slice(0, 1)).toEqual(mapKeys.all);
  });

  it('the hooks read the calls', async () => {
    storeSession(member);
    mockApi({
      'GET /api/config': { body: config },
      'GET /api/upload/project/7/locations': { body: photoPins },
      'GET /api/project/locations': { body: projectPins },
    });
    const photos = renderHook(() => useProjectPhotoLocations(7), { wrapper });
    const projects = renderHook(() => useProjectLocations(), { wrapper });
    const settings = renderHook(() => useMapConfig(), { wrapper });
    await waitFor(() => expect(photos.result.current.data).toEqual(photoPins));
    await waitFor(() => expect(projects.result.current.data).toEqual(projectPins));
    await waitFor(() => expect(settings.result.current.data?.farFromSiteKm).toBe(0.5));
  });
});
