// Ids are written one way only (`^[1-9][0-9]*$`, within int32): `0x1`, `1e0`, `+8`, `08` and
// `" 1"` all coerce to a number, and accepting them makes one row reachable under many URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUpload } from '../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let token: string;
let projectId: number;
let uploadId: number;
let userId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const user = await signedInUser(ctx);
  token = user.token;
  userId = user.id;
  const project = await buildProject(ctx, { creatorId: user.id });
  projectId = project.id;
  uploadId = await buildUpload(ctx, { creatorId: user.id, projectId: project.id });
});
afterAll(() => ctx.close());

const ODD = ['0x1', '1e0', '+1', '01', ' 1', '1.0', '0', '-1', '2147483648'];

describe('id path parameters', () => {
  it('answer the canonical spelling', async () => {
    for (const url of [
      `/api/project/id/${projectId}`,
      `/api/upload/full/${uploadId}`,
      `/api/user/profile/${userId}`,
      `/api/upload/project/${projectId}/latest?before=${uploadId}`,
    ]) {
      expect((await api(ctx, { method: 'GET', url, token })).statusCode, url).toBe(200);
    }
  });

  it.each(ODD)('refuse %j with 400 and a message', async (odd) => {
    const id = encodeURIComponent(odd);
    for (const url of [
      `/api/project/id/${id}`,
      `/api/upload/full/${id}`,
      `/api/user/profile/${id}`,
      `/api/upload/project/${id}/latest`,
      `/api/upload/project/${projectId}/latest?before=${id}`,
    ]) {
      const res = await api(ctx, { method: 'GET', url, token });
      expect(res.statusCode, url).toBe(400);
      expect((res.json() as { message: string }).message, url).toMatch(/id|before/i);
    }
  });

  it('refuse an odd projectId in an upload edit body', async () => {
    for (const projectIdValue of ['0x1', '1e0', '01', ' 1', 1.5]) {
      const res = await api(ctx, {
        method: 'PATCH',
        url: `/api/upload/update/no-image/${uploadId}`,
        token,
        payload: { upload: { projectId: projectIdValue } },
      });
      expect(res.statusCode, String(projectIdValue)).toBe(400);
    }
    const ok = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${uploadId}`,
      token,
      payload: { upload: { projectId } },
    });
    expect(ok.statusCode).toBe(200);
  });
});
