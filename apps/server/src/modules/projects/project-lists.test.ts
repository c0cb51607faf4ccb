// The project lists pinned to exact ids and order: /favnfol, /relevant/{count}, and what
// archiving hides. Activity dates are set explicitly, so the order never depends on the clock.
import type { Project } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, type TestContext, createTestContext } from '../../../test/helpers.js';
import {
  archiveProject,
  buildProject,
  buildUpload,
  buildUser,
  setProjectActivity,
} from '../../../test/factories.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

/** A signed-in member with a fresh account, so lists hold only what a test gives them. */
async function member() {
  const user = await buildUser(ctx);
  return { ...user, token: await login(ctx, user) };
}

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

async function ids(url: string, token: string): Promise<number[]> {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number }[]>().map((p) => p.id);
}

const mark = (id: number, action: 'favor' | 'follow', token: string) =>
  api(ctx, { method: 'GET', url: `/api/project/${id}/${action}/`, token });

describe('GET /api/project/favnfol', () => {
  it('answers exactly the bookmarked or followed projects, newest activity first', async () => {
    const viewer = await member();
    const bookmarked = await buildProject(ctx);
    const followed = await buildProject(ctx);
    const both = await buildProject(ctx);
    const own = await buildProject(ctx, { creatorId: viewer.id });
    await buildProject(ctx);
    await buildUpload(ctx, { creatorId: viewer.id });
    for (const p of [bookmarked, both])
      expect((await mark(p.id, 'favor', viewer.token)).statusCode).toBe(200);
    for (const p of [followed, both])
      expect((await mark(p.id, 'follow', viewer.token)).statusCode).toBe(200);
    await setProjectActivity(ctx, bookmarked.id, day(3));
    await setProjectActivity(ctx, followed.id, day(1));
    await setProjectActivity(ctx, both.id, day(2));
    await setProjectActivity(ctx, own.id, day(9));

    expect(await ids('/api/project/favnfol', viewer.token)).toEqual([
      bookmarked.id,
      both.id,
      followed.id,
    ]);
  });

  it('answers an empty list to a member who marked nothing', async () => {
    const viewer = await member();
    await buildProject(ctx, { creatorId: viewer.id });
    expect(await ids('/api/project/favnfol', viewer.token)).toEqual([]);
  });
});

describe('GET /api/project/relevant/{count}', () => {
  let viewer: Awaited<ReturnType<typeof member>>;
  let expected: number[];
  beforeAll(async () => {
    viewer = await member();
    const created = await buildProject(ctx, { creatorId: viewer.id });
    const uploadedTo = await buildProject(ctx);
    await buildUpload(ctx, { projectId: uploadedTo.id, creatorId: viewer.id });
    const bookmarked = await buildProject(ctx);
    const followed = await buildProject(ctx);
    const unrelated = await buildProject(ctx);
    await buildUpload(ctx, { projectId: unrelated.id });
    expect((await mark(bookmarked.id, 'favor', viewer.token)).statusCode).toBe(200);
    expect((await mark(followed.id, 'follow', viewer.token)).statusCode).toBe(200);
    await setProjectActivity(ctx, uploadedTo.id, day(40));
    await setProjectActivity(ctx, followed.id, day(30));
    await setProjectActivity(ctx, created.id, day(20));
    await setProjectActivity(ctx, bookmarked.id, day(10));
    // Newer than all of them, and still not the viewer's.
    await setProjectActivity(ctx, unrelated.id, day(50));
    expected = [uploadedTo.id, followed.id, created.id, bookmarked.id];
  });

  it('answers the projects the viewer created, uploaded to, bookmarked or follows, newest activity first', async () => {
    expect(await ids('/api/project/relevant/4', viewer.token)).toEqual(expected);
  });

  it.each([1, 2, 3])('answers the newest %i when asked for that many', async (count) => {
    expect(await ids(`/api/project/relevant/${count}`, viewer.token)).toEqual(
      expected.slice(0, count),
    );
  });

  it('answers every relevant project when asked for more than there are', async () => {
    expect(await ids('/api/project/relevant/50', viewer.token)).toEqual(expected);
  });
});

describe('archived projects', () => {
  let owner: Awaited<ReturnType<typeof member>>;
  let archived: number;
  let open: number;
  beforeAll(async () => {
    owner = await member();
    archived = (await buildProject(ctx, { creatorId: owner.id })).id;
    open = (await buildProject(ctx, { creatorId: owner.id })).id;
    for (const id of [archived, open]) {
      expect((await mark(id, 'favor', owner.token)).statusCode).toBe(200);
      expect((await mark(id, 'follow', owner.token)).statusCode).toBe(200);
    }
    await archiveProject(ctx, archived);
  });

  it.each([
    '/api/project/user',
    '/api/project/bookmark',
    '/api/project/favnfol',
    '/api/project/relevant/10',
  ])('leaves them out of %s', async (url) => {
    expect(await ids(url, owner.token)).toEqual([open]);
  });

  it('leaves them out of a member’s projects and the all-projects table', async () => {
    expect(await ids(`/api/project/profile/${owner.id}`, owner.token)).toEqual([open]);
    const res = await api(ctx, { method: 'GET', url: '/api/project/all/list', token: owner.token });
    const rows = res.json<[number, ...unknown[]][]>().map((row) => row[0]);
    expect(rows).toContain(open);
    expect(rows).not.toContain(archived);
  });

  it('still answers the project itself, marked archived', async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/project/id/${archived}`,
      token: owner.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Project>()).toMatchObject({
      id: archived,
      archivedAt: expect.any(String),
      archivedBy: { id: owner.id },
    });
  });

  it.each([
    ['a bookmark', 'GET', () => `/api/project/${archived}/favor/`, undefined],
    ['an unfollow', 'GET', () => `/api/project/${archived}/unfollow/`, undefined],
    [
      'an edit',
      'PATCH',
      () => `/api/project/update/${archived}`,
      { project: { name: 'Renamed', location: 'Ghent, Belgium' } },
    ],
  ] as const)('answers 409 to %s', async (_label, method, url, payload) => {
    const res = await api(ctx, { method, url: url(), token: owner.token, payload });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/This project is archived/);
  });
});
