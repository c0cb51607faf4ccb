// The pins of a project's geotagged photos (GET /api/upload/project/{id}/locations).
import type { ErrorResponse, PhotoLocation } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif, jpegWithGps, photoJpeg } from '../../../test/images.js';
import { listProjectUploadLocations } from './uploads.repository.js';

let ctx: TestContext;
let viewer: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  ctx = await createTestContext();
  viewer = await signedInUser(ctx);
});
afterAll(async () => ctx?.close());

const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();

async function pins(projectId: number | string, token = viewer.token) {
  return api(ctx, { method: 'GET', url: `/api/upload/project/${projectId}/locations`, token });
}

describe('GET /api/upload/project/{id}/locations', () => {
  it('answers a pin for each geotagged photo of the project, newest first, with its coordinates', async () => {
    const project = await buildProject(ctx, { latitude: 48.2082, longitude: 16.3738 });
    const other = await buildProject(ctx);
    const north = await buildUpload(ctx, {
      projectId: project.id,
      name: 'North wall',
      file: await jpegWithGps(48.21, 16.37),
      createdAt: at(1),
    });
    await buildUpload(ctx, {
      projectId: project.id,
      name: 'No GPS',
      file: await photoJpeg(64, 48),
      createdAt: at(2),
    });
    const south = await buildUpload(ctx, {
      projectId: project.id,
      name: 'South gate',
      file: await jpegWithGps(-33.8568, 151.2153),
      createdAt: at(3),
    });
    const sydney = await buildUpload(ctx, {
      projectId: project.id,
      name: 'With capture time',
      file: await jpegWithExif(),
      createdAt: at(4),
    });
    await buildUpload(ctx, { projectId: other.id, file: await jpegWithGps(1, 1) });

    const res = await pins(project.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PhotoLocation[]>();
    expect(body.map((pin) => pin.id)).toEqual([sydney, south, north]);
    const [withTime, southPin, northPin] = body;
    expect(northPin).toEqual({
      id: north,
      name: 'North wall',
      latitude: expect.closeTo(48.21, 5) as number,
      longitude: expect.closeTo(16.37, 5) as number,
      capturedAt: null,
    });
    expect(southPin?.latitude).toBeCloseTo(-33.8568, 5);
    expect(southPin?.longitude).toBeCloseTo(151.2153, 5);
    // jpegWithExif: the Sydney Opera House, taken 2024-05-06 07:08:09 at +10:00.
    expect(withTime).toMatchObject({
      name: 'With capture time',
      capturedAt: '2024-05-05T21:08:09.000Z',
    });
    expect(withTime?.latitude).toBeCloseTo(-33.8588, 3);
  });

  it('answers an empty list for a project without geotagged photos', async () => {
    const empty = await buildProject(ctx);
    expect((await pins(empty.id)).json()).toEqual([]);
    const noGps = await buildProject(ctx);
    await buildUpload(ctx, { projectId: noGps.id, file: await photoJpeg(64, 48) });
    const res = await pins(noGps.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('answers 404 for an unknown project, like its feed', async () => {
    const res = await pins(999_999);
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorResponse>().message).toBe('Project was not found.');
    const feed = await api(ctx, {
      method: 'GET',
      url: '/api/upload/project/999999/latest',
      token: viewer.token,
    });
    expect(feed.statusCode).toBe(404);
  });

  it.each(['abc', '0', '-1', '1.5', '01'])('answers 400 for the id %s', async (id) => {
    const res = await pins(id);
    expect(res.statusCode).toBe(400);
  });

  it('answers 401 signed out', async () => {
    const project = await buildProject(ctx);
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${project.id}/locations`,
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps only the newest geotagged uploads when there are more than the bound', async () => {
    const project = await buildProject(ctx);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await buildUpload(ctx, {
          projectId: project.id,
          file: await jpegWithGps(10 + i, 20),
          createdAt: at(10 + i),
        }),
      );
    const rows = await listProjectUploadLocations(ctx.db, project.id, 2);
    expect(rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
  });
});
