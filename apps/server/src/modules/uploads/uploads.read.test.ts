// Reading uploads: one upload, the feeds, and what a signed-out caller gets.
import type { ErrorResponse as ErrorBody, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { buildProject } from '../../../test/factories.js';
import { uploadPhoto, uploadRowCount } from '../../../test/uploads.js';

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

describe('GET /api/upload/full/{id}', () => {
  it('answers any signed-in member', async () => {
    const upload = await uploadPhoto(ctx, alice.token, project.id, { name: 'Full view' });
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/full/${upload.id}`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(200);
    const seen = res.json<Upload>();
    expect(seen).toMatchObject({ id: upload.id, name: 'Full view', creator: { id: alice.id } });
    // Links are bound to the viewer's session.
    expect(seen.previewLink).not.toBe(upload.previewLink);
  });

  it('answers 404 for an unknown upload and 400 for a bad id', async () => {
    const missing = await api(ctx, {
      method: 'GET',
      url: '/api/upload/full/999999',
      token: bob.token,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ErrorBody>().message).toBe('Upload was not found.');
    const bad = await api(ctx, { method: 'GET', url: '/api/upload/full/abc', token: bob.token });
    expect(bad.statusCode).toBe(400);
  });
});

describe('feeds', () => {
  let feedProject: { id: number };
  let mine: Upload[];
  let dave: Member;

  beforeAll(async () => {
    dave = await signedInUser(ctx, { firstname: 'Dave' });
    feedProject = await buildProject(ctx, { creatorId: dave.id });
    mine = [];
    for (const name of ['one', 'two', 'three']) {
      mine.push(await uploadPhoto(ctx, dave.token, feedProject.id, { name }));
    }
  });

  it('latest/{count}: newest first, at most count', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/upload/latest/2', token: bob.token });
    expect(res.statusCode).toBe(200);
    expect(res.json<Upload[]>().map((u) => u.name)).toEqual(['three', 'two']);
    const all = (
      await api(ctx, { method: 'GET', url: '/api/upload/latest/100', token: bob.token })
    ).json<Upload[]>();
    const total = await uploadRowCount(ctx);
    expect(all).toHaveLength(Math.min(100, total));
    const order = all.map((u) => `${u.createdAt}#${String(u.id).padStart(9, '0')}`);
    expect(order).toEqual([...order].sort().reverse());
  });

  it.each(['0', '101', 'abc', '-1', '2.5'])('latest/%s is a 400', async (count) => {
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/latest/${count}`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toMatch(/count/);
  });

  it("project/{id}/latest: that project's uploads, newest first", async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${feedProject.id}/latest`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Upload[]>().map((u) => u.id)).toEqual(mine.map((u) => u.id).reverse());
  });

  it('project/{id}/latest: empty for a project without uploads, 404 for an unknown one', async () => {
    const empty = await buildProject(ctx, { creatorId: bob.id });
    const none = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${empty.id}/latest`,
      token: bob.token,
    });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
    const unknown = await api(ctx, {
      method: 'GET',
      url: '/api/upload/project/999999/latest',
      token: bob.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>().message).toBe('Project was not found.');
  });

  it("user/{id}/latest: that member's uploads, newest first", async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/user/${dave.id}/latest`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(200);
    const list = res.json<Upload[]>();
    expect(list.map((u) => u.id)).toEqual(mine.map((u) => u.id).reverse());
    expect(list.every((u) => u.creator.id === dave.id)).toBe(true);
  });

  it('user/{id}/latest: empty for a member without uploads, 404 for an unknown one', async () => {
    const erin = await signedInUser(ctx);
    const none = await api(ctx, {
      method: 'GET',
      url: `/api/upload/user/${erin.id}/latest`,
      token: bob.token,
    });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
    const unknown = await api(ctx, {
      method: 'GET',
      url: '/api/upload/user/999999/latest',
      token: bob.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>().message).toBe('Member was not found.');
  });

  it('caps the project and member feeds at 100', async () => {
    const busy = await buildProject(ctx, { creatorId: dave.id });
    const template = await ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', mine[0]?.id ?? 0)
      .executeTakeFirstOrThrow();
    const { id: _id, ...row } = template;
    const base = Date.parse('2020-01-01T00:00:00Z');
    await ctx.db
      .insertInto('uploads')
      .values(
        Array.from({ length: 105 }, (_, i) => ({
          ...row,
          project_id: busy.id,
          name: `bulk ${i}`,
          created_at: new Date(base + i * 1000).toISOString(),
        })),
      )
      .execute();
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${busy.id}/latest`,
      token: bob.token,
    });
    const list = res.json<Upload[]>();
    expect(list).toHaveLength(100);
    expect(list[0]?.name).toBe('bulk 104');
    const member = await api(ctx, {
      method: 'GET',
      url: `/api/upload/user/${dave.id}/latest`,
      token: bob.token,
    });
    expect(member.json()).toHaveLength(100);
    // These rows were inserted straight into the table, so they go again the same way.
    await ctx.db.deleteFrom('uploads').where('project_id', '=', busy.id).execute();
  });
});

describe('signed out', () => {
  it.each([
    ['GET', '/api/upload/full/1'],
    ['GET', '/api/upload/latest/18'],
    ['GET', '/api/upload/project/1/latest'],
    ['GET', '/api/upload/user/1/latest'],
    ['PATCH', '/api/upload/update/no-image/1'],
    ['DELETE', '/api/upload/delete/1'],
    ['POST', '/api/upload/autoupload'],
  ] as const)('%s %s answers 401', async (method, url) => {
    const res = await api(ctx, {
      method,
      url,
      payload: method === 'PATCH' ? { upload: {} } : undefined,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json<ErrorBody>().message).toMatch(/sign in/i);
  });
});
