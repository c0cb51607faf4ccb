import { clientConfigSchema } from '@sitelog/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('GET /api/config', () => {
  it('answers signed out with the built-in place search when no Google key is set', async () => {
    ctx = await createTestContext();
    const res = await api(ctx, { method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(clientConfigSchema.strict().parse(res.json())).toEqual({
      placesProvider: 'offline',
      googleMapsKey: null,
    });
  });

  it('names Google Places and its browser key when GOOGLE_MAPS_KEY is set', async () => {
    ctx = await createTestContext({ GOOGLE_MAPS_KEY: 'browser-key-123' });
    const res = await api(ctx, { method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ placesProvider: 'google', googleMapsKey: 'browser-key-123' });
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
