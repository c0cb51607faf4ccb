import { clientConfigSchema } from '@sitelog/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('GET /api/config', () => {
  it('answers signed out with the built-in place search and OpenStreetMap by default', async () => {
    ctx = await createTestContext();
    const res = await api(ctx, { method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(clientConfigSchema.strict().parse(res.json())).toEqual({
      placesProvider: 'offline',
      googleMapsKey: null,
      mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      mapAttribution: '© OpenStreetMap contributors',
      mapAttributionUrl: 'https://www.openstreetmap.org/copyright',
      farFromSiteKm: 2,
    });
  });

  it('names Google Places and its browser key when GOOGLE_MAPS_KEY is set', async () => {
    ctx = await createTestContext({ GOOGLE_MAPS_KEY: 'browser-key-123' });
    const res = await api(ctx, { method: 'GET', url: '/api/config' });
    expect(res.json()).toMatchObject({
      placesProvider: 'google',
      googleMapsKey: 'browser-key-123',
    });
  });

  it('answers the configured tiles, attribution (plain text and a link) and distance', async () => {
    ctx = await createTestContext({
      MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      MAP_ATTRIBUTION: '<b>© Example</b> & friends',
      MAP_ATTRIBUTION_URL: 'https://tiles.example.org/terms',
      FAR_FROM_SITE_KM: '0.75',
    });
    const res = await api(ctx, { method: 'GET', url: '/api/config' });
    expect(res.json()).toMatchObject({
      mapTileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      // Plain text as configured: the web app shows it as text, never as HTML.
      mapAttribution: '<b>© Example</b> & friends',
      mapAttributionUrl: 'https://tiles.example.org/terms',
      farFromSiteKm: 0.75,
    });
  });

  it('keeps GET /api/auth/hints answering the same settings for older clients', async () => {
    ctx = await createTestContext({ GOOGLE_MAPS_KEY: 'browser-key-123' });
    const res = await api(ctx, { method: 'GET', url: '/api/auth/hints' });
    expect(res.json()).toEqual({
      sample: null,
      placesProvider: 'google',
      googleMapsKey: 'browser-key-123',
    });
  });
});
