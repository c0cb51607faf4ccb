// GET /api/docs: the OpenAPI description of the API, public, and free of secrets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from './helpers.js';

const SECRET = 'docs-test-secret-0123456789abcdefghijklmnop';
const MAPS_KEY = 'AIza-docs-test-maps-key';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ SECRET, GOOGLE_MAPS_KEY: MAPS_KEY });
});
afterAll(async () => ctx.close());

describe('GET /api/docs', () => {
  it('answers the OpenAPI document of the API, signed out', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json<{ openapi: string; info: { title: string }; paths: object }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Sitelog API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/project/favnfol',
        '/api/project/relevant/{count}',
        '/api/upload/autoupload',
        '/api/user/create',
      ]),
    );
  });

  it('holds no secret of the install', async () => {
    const body = (await api(ctx, { method: 'GET', url: '/api/docs' })).body;
    expect(ctx.config.secret).toBe(SECRET);
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain(MAPS_KEY);
    expect(body).not.toContain(ctx.dataDir);
  });
});
