// Changing uploads: edit (name, description, project) and delete, with the counts they move.
import type { ErrorResponse as ErrorBody, Profile, Project, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { buildProject, setProjectActivity, setUploadUpdatedAt } from '../../../test/factories.js';
import { storedKeys, uploadPhoto } from '../../../test/uploads.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;
let project: { id: number; name: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Archer' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Builder' });
  project = await buildProject(ctx, { creatorId: alice.id, name: 'Riverside Block C' });
});
afterAll(async () => ctx?.close());

const getProject = async (id: number, token = alice.token) =>
  (await api(ctx, { method: 'GET', url: `/api/project/id/${id}`, token })).json<Project>();

/** A time before anything this file writes: a change made now is dated after it, always. */
const LONG_AGO = '2001-01-01T00:00:00.000Z';

const getUpload = async (id: number, token = alice.token) =>
  (await api(ctx, { method: 'GET', url: `/api/upload/full/${id}`, token })).json<Upload>();

const profileUploads = async (id: number) =>
  (
    await api(ctx, { method: 'GET', url: `/api/user/profile/${id}`, token: alice.token })
  ).json<Profile>().uploadsCount;

describe('PATCH /api/upload/update/no-image/{id}', () => {
  const patch = (id: number, token: string, upload: Record<string, unknown>) =>
    api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${id}`,
      token,
      payload: { upload },
    });

  it('lets the creator change name and description, and dates the project', async () => {
    const uploaded = await uploadPhoto(ctx, alice.token, project.id, {
      name: 'Before',
      description: 'Old',
    });
    await setUploadUpdatedAt(ctx, uploaded.id, LONG_AGO);
    await setProjectActivity(ctx, project.id, LONG_AGO);
    const upload = await getUpload(uploaded.id);
    const projectBefore = await getProject(project.id);
    const res = await patch(upload.id, alice.token, {
      name: ' After ',
      description: 'New text',
      projectId: project.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json<Upload>();
    expect(updated).toMatchObject({ id: upload.id, name: 'After', description: 'New text' });
    expect(updated.updatedAt > upload.updatedAt).toBe(true);
    expect(updated.createdAt).toBe(upload.createdAt);
    const projectAfter = await getProject(project.id);
    expect(projectAfter.updatedAt > projectBefore.updatedAt).toBe(true);
    expect(projectAfter.uploadsCount).toBe(projectBefore.uploadsCount);
  });

  it('keeps current values for missing fields', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, {
      name: 'Keep',
      description: 'Me',
    });
    const res = await patch(upload.id, alice.token, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Keep',
      description: 'Me',
      project: { id: project.id },
    });
    const onlyDescription = await patch(upload.id, alice.token, { description: '' });
    expect(onlyDescription.json()).toMatchObject({ name: 'Keep', description: '' });
  });

  it('moves an upload to another project and keeps both counts right', async () => {
    const from = await buildProject(ctx, { creatorId: alice.id });
    const to = await buildProject(ctx, { creatorId: bob.id });
    const upload = await uploadPhoto(ctx, alice.token, from.id);
    await setProjectActivity(ctx, to.id, LONG_AGO);
    const fromBefore = await getProject(from.id);
    const toBefore = await getProject(to.id);
    const res = await patch(upload.id, alice.token, { projectId: to.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ project: { id: to.id, name: to.name } });
    const fromAfter = await getProject(from.id);
    const toAfter = await getProject(to.id);
    expect(fromAfter.uploadsCount).toBe(fromBefore.uploadsCount - 1);
    expect(fromAfter.lastUploads).toEqual([]);
    expect(toAfter.uploadsCount).toBe(toBefore.uploadsCount + 1);
    expect(toAfter.lastUploads.map((u) => u.id)).toEqual([upload.id]);
    expect(toAfter.updatedAt > toBefore.updatedAt).toBe(true);
  });

  it('refuses a move to an unknown project and changes nothing', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { name: 'Stay' });
    const before = await getProject(project.id);
    const res = await patch(upload.id, alice.token, { name: 'Moved', projectId: 999_999 });
    expect(res.statusCode).toBe(404);
    const after = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: alice.token,
    });
    expect(after.json()).toMatchObject({ name: 'Stay', project: { id: project.id } });
    expect((await getProject(project.id)).uploadsCount).toBe(before.uploadsCount);
  });

  it("refuses another member's edit (403) and unknown uploads (404)", async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { name: 'Mine' });
    const res = await patch(upload.id, bob.token, { name: 'Hijacked' });
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().message).toMatch(
      /Only the member who uploaded this photo can edit it/,
    );
    const unchanged = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: bob.token,
    });
    expect(unchanged.json<Upload>().name).toBe('Mine');
    expect((await patch(999_999, alice.token, { name: 'x' })).statusCode).toBe(404);
  });

  it.each([
    ['a blank name', { name: '   ' }, /Name cannot be empty/],
    ['a name over the limit', { name: 'x'.repeat(201) }, /at most 200/],
    ['a projectId that is not a number', { projectId: 'abc' }, /id must be a number/],
  ])('refuses %s (400)', async (_label, upload, message) => {
    const own = await uploadPhoto(ctx, alice.token, project.id);
    const res = await patch(own.id, alice.token, upload);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toMatch(message);
  });

  it('refuses a body without the upload wrapper (400)', async () => {
    const own = await uploadPhoto(ctx, alice.token, project.id);
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${own.id}`,
      token: alice.token,
      payload: { name: 'flat' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('DELETE /api/upload/delete/{id}', () => {
  it('lets the creator delete: the row, the files and the counts go', async () => {
    const own = await buildProject(ctx, { creatorId: bob.id });
    const keep = await uploadPhoto(ctx, bob.token, own.id, { name: 'keep' });
    const gone = await uploadPhoto(ctx, bob.token, own.id, { name: 'gone' });
    const keysBefore = await storedKeys(ctx);
    await setProjectActivity(ctx, own.id, LONG_AGO);
    const projectBefore = await getProject(own.id, bob.token);
    const bobBefore = await profileUploads(bob.id);

    const res = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${gone.id}`,
      token: bob.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    const keysAfter = await storedKeys(ctx);
    expect(keysBefore.length - keysAfter.length).toBe(3);
    expect(keysAfter.some((k) => gone.previewLink.includes(k))).toBe(false);
    const projectAfter = await getProject(own.id, bob.token);
    expect(projectAfter.uploadsCount).toBe(projectBefore.uploadsCount - 1);
    expect(projectAfter.lastUploads.map((u) => u.id)).toEqual([keep.id]);
    expect(projectAfter.updatedAt > projectBefore.updatedAt).toBe(true);
    expect(await profileUploads(bob.id)).toBe(bobBefore - 1);

    const full = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${gone.id}`,
      token: bob.token,
    });
    expect(full.statusCode).toBe(404);
    const again = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${gone.id}`,
      token: bob.token,
    });
    expect(again.statusCode).toBe(404);
    // Its media links now lead nowhere.
    expect((await api(ctx, { method: 'GET', url: gone.previewLink })).statusCode).toBe(404);
  });

  it("refuses another member's delete (403) and keeps everything", async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id);
    const keys = await storedKeys(ctx);
    const res = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${upload.id}`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().message).toMatch(/can delete it/);
    expect(await storedKeys(ctx)).toEqual(keys);
    const still = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: bob.token,
    });
    expect(still.statusCode).toBe(200);
  });

  it('answers 404 for an unknown upload and 400 for a bad id', async () => {
    expect(
      (await api(ctx, { method: 'DELETE', url: '/api/upload/delete/999999', token: bob.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await api(ctx, { method: 'DELETE', url: '/api/upload/delete/x', token: bob.token }))
        .statusCode,
    ).toBe(400);
  });
});
