// Members as the team sees them: profiles with stored counts, the team list, and what
// happens to a deactivated member's uploads.
import type {
  ErrorResponse as ErrorBody,
  Profile,
  ProfilesResponse,
  Upload,
} from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createTestContext,
  login,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { buildUser, buildProject } from '../../../test/factories.js';
import { writeTransaction } from '../../db/database.js';
import { uploadPhoto } from '../../../test/uploads.js';
import { countUsers } from './users.repository.js';
import { recordUploadChange } from '../projects/projects.service.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let admin: Member;
let member: Member;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, { firstname: 'Ada', lastname: 'Admin', isAdmin: true });
  member = await signedInUser(ctx, { firstname: 'Mia', lastname: 'Member' });
});
afterAll(async () => ctx.close());

const get = (url: string, token?: string) => api(ctx, { method: 'GET', url, token });
const deactivate = (id: number | string, token?: string) =>
  api(ctx, { method: 'DELETE', url: `/api/user/${id}`, token });
const activate = (id: number | string, token?: string) => get(`/api/user/${id}/activate`, token);
describe('a deactivated member’s uploads', () => {
  it('stay shown and attributed, their media links die with the sessions, and the count follows uploads and deletes', async () => {
    const photographer = await signedInUser(ctx, { firstname: 'Paz', lastname: 'Photo' });
    const site = await buildProject(ctx, { creatorId: photographer.id, name: 'Quay repairs' });
    const first = await uploadPhoto(ctx, photographer.token, site.id, { name: 'Pier 1' });
    const second = await uploadPhoto(ctx, photographer.token, site.id, { name: 'Pier 2' });
    const profileOf = async () =>
      (await get(`/api/user/profile/${photographer.id}`, member.token)).json<Profile>();
    expect(await profileOf()).toMatchObject({ projectsCount: 1, uploadsCount: 2 });
    // A link handed to the photographer's own session works until they are deactivated.
    expect((await get(first.previewLink)).statusCode).toBe(200);

    expect((await deactivate(photographer.id, admin.token)).statusCode).toBe(200);
    expect((await get(first.previewLink)).statusCode).toBe(403);

    const seen = await get(`/api/upload/full/${second.id}`, member.token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json<Upload>().creator).toEqual({
      id: photographer.id,
      firstname: 'Paz',
      lastname: 'Photo',
    });
    expect((await get(seen.json<Upload>().previewLink)).statusCode).toBe(200);
    const theirs = await get(`/api/upload/user/${photographer.id}/latest`, member.token);
    expect(theirs.json<Upload[]>().map((u) => u.id)).toEqual([second.id, first.id]);
    expect(await profileOf()).toMatchObject({ isActive: false, uploadsCount: 2 });

    expect((await activate(photographer.id, admin.token)).statusCode).toBe(200);
    expect((await get(first.previewLink)).statusCode).toBe(403);
    const token = await login(ctx, photographer);
    const removed = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${first.id}`,
      token,
    });
    expect(removed.statusCode).toBe(200);
    expect(await profileOf()).toMatchObject({ isActive: true, uploadsCount: 1 });
  });
});

describe('GET /api/user/profile/{id}', () => {
  it('answers the profile with stored project and upload counts', async () => {
    const worker = await signedInUser(ctx, { firstname: 'Pia', lastname: 'Plaster' });
    const projectIds: number[] = [];
    for (const name of ['Depot', 'Tower']) {
      const res = await api(ctx, {
        method: 'POST',
        url: '/api/project/create',
        token: worker.token,
        payload: { project: { name, location: 'Ghent, Belgium' } },
      });
      expect(res.statusCode).toBe(200);
      projectIds.push(res.json<{ id: number }>().id);
    }
    const projectId = projectIds[0] ?? 0;
    const counted = { projectId, creatorId: worker.id };
    await writeTransaction(ctx.db, async (trx) => {
      for (let i = 0; i < 3; i += 1)
        await recordUploadChange(trx, { kind: 'added', ...counted, at: new Date().toISOString() });
    });
    await writeTransaction(ctx.db, (trx) =>
      recordUploadChange(trx, { kind: 'removed', ...counted }),
    );
    const res = await get(`/api/user/profile/${worker.id}`, member.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: worker.id,
      firstname: 'Pia',
      lastname: 'Plaster',
      isActive: true,
      projectsCount: 2,
      uploadsCount: 2,
    });
  });

  it('rolls the upload count back with the transaction that failed', async () => {
    const worker = await signedInUser(ctx);
    const project = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: worker.token,
      payload: { project: { name: 'Depot', location: 'Ghent, Belgium' } },
    });
    const projectId = project.json<{ id: number }>().id;
    await expect(
      writeTransaction(ctx.db, async (trx) => {
        await recordUploadChange(trx, {
          kind: 'added',
          projectId,
          creatorId: worker.id,
          at: new Date().toISOString(),
        });
        throw new Error('storage failed');
      }),
    ).rejects.toThrow('storage failed');
    const res = await get(`/api/user/profile/${worker.id}`, member.token);
    expect(res.json<Profile>().uploadsCount).toBe(0);
  });

  it('answers 404 for an unknown member and 400 for a bad id', async () => {
    const unknown = await get('/api/user/profile/999999', member.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>().message).toBe('Member was not found.');
    const bad = await get('/api/user/profile/abc', member.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().message).toMatch(/must be a number/i);
  });

  it('makes /api/project/profile/{id} answer 404 for an unknown member', async () => {
    const res = await get('/api/project/profile/999999', member.token);
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorBody>().message).toBe('Member was not found.');
  });
});

describe('GET /api/user/all/profile', () => {
  it('lists every member, admins and deactivated included, with a matching count', async () => {
    const gone = await buildUser(ctx, { isActive: false });
    const res = await get('/api/user/all/profile', member.token);
    expect(res.statusCode).toBe(200);
    const body = res.json<ProfilesResponse>();
    expect(body.count).toBe(body.profiles.length);
    expect(body.count).toBe(await countUsers(ctx.db));
    const ids = body.profiles.map((p) => p.id);
    expect(ids).toContain(admin.id);
    expect(ids).toContain(member.id);
    expect(body.profiles.find((p) => p.id === gone.id)).toEqual({
      id: gone.id,
      firstname: gone.firstname,
      lastname: gone.lastname,
      isActive: false,
      projectsCount: 0,
      uploadsCount: 0,
    });
    for (const p of body.profiles) {
      expect(Object.keys(p).sort()).toEqual([
        'firstname',
        'id',
        'isActive',
        'lastname',
        'projectsCount',
        'uploadsCount',
      ]);
    }
  });
});
