// The all-projects map: GET /api/project/locations.
import type { ProjectLocation } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveProject,
  buildProject,
  buildUpload,
  setProjectActivity,
} from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { listProjectLocations } from './projects.repository.js';

let ctx: TestContext;
let viewer: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  ctx = await createTestContext();
  viewer = await signedInUser(ctx);
});
afterAll(async () => ctx?.close());

const day = (n: number) => new Date(Date.UTC(2030, 0, 1) + n * 86_400_000).toISOString();

async function locations(): Promise<ProjectLocation[]> {
  const res = await api(ctx, { method: 'GET', url: '/api/project/locations', token: viewer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProjectLocation[]>();
}

describe('GET /api/project/locations', () => {
  it('answers every open project with coordinates, most recently active first', async () => {
    const vienna = await buildProject(ctx, {
      name: 'Vienna depot',
      location: 'Vienna, Austria',
      latitude: 48.2082,
      longitude: 16.3738,
    });
    const quito = await buildProject(ctx, {
      name: 'Quito bridge',
      location: 'Quito, Ecuador',
      latitude: -0.1807,
      longitude: -78.4678,
    });
    const nowhere = await buildProject(ctx, { name: 'No coordinates' });
    const archived = await buildProject(ctx, { latitude: 1, longitude: 2 });
    await archiveProject(ctx, archived.id);
    await buildUpload(ctx, { projectId: vienna.id });
    await buildUpload(ctx, { projectId: vienna.id });
    await setProjectActivity(ctx, vienna.id, day(1));
    await setProjectActivity(ctx, quito.id, day(2));

    const body = await locations();
    const ids = body.map((p) => p.id);
    expect(ids).not.toContain(nowhere.id);
    expect(ids).not.toContain(archived.id);
    expect(body.filter((p) => p.id === vienna.id || p.id === quito.id)).toEqual([
      {
        id: quito.id,
        name: 'Quito bridge',
        location: 'Quito, Ecuador',
        latitude: -0.1807,
        longitude: -78.4678,
        uploadsCount: 0,
      },
      {
        id: vienna.id,
        name: 'Vienna depot',
        location: 'Vienna, Austria',
        latitude: 48.2082,
        longitude: 16.3738,
        uploadsCount: 2,
      },
    ]);
    for (const project of body) {
      expect(project.latitude).toEqual(expect.any(Number));
      expect(project.longitude).toEqual(expect.any(Number));
    }
  });

  it('keeps only the most recently active projects when there are more than the bound', async () => {
    const older = await buildProject(ctx, { latitude: 10, longitude: 10 });
    const newer = await buildProject(ctx, { latitude: 11, longitude: 11 });
    await setProjectActivity(ctx, older.id, day(100));
    await setProjectActivity(ctx, newer.id, day(101));
    const rows = await listProjectLocations(ctx.db, 1);
    expect(rows.map((row) => row.id)).toEqual([newer.id]);
  });

  it('ignores query strings', async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/project/locations?limit=abc',
      token: viewer.token,
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 signed out and to a forged token', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/project/locations' })).statusCode).toBe(401);
    const forged = await api(ctx, {
      method: 'GET',
      url: '/api/project/locations',
      token: 'x'.repeat(43),
    });
    expect(forged.statusCode).toBe(401);
  });
});
