// Archiving and restoring a project (issue 14): who may, the archived list, and what an archived
// project does to every list and feed, to uploads and to edits; then that restoring undoes it all.
import { randomUUID } from 'node:crypto';
import type { ErrorResponse, Project, ProjectLocation, ProjectRow, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTransaction } from '../../db/database.js';
import { archiveProject, buildProject, setProjectActivity } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import { lockOpenProjects } from './projects.service.js';
import {
  dtoPart,
  filePart,
  postUpload,
  storedKeys,
  uploadPhoto,
  uploadRowCount,
} from '../../../test/uploads.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let admin: Member;
let photo: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, { isAdmin: true, firstname: 'Ada', lastname: 'Admin' });
  photo = await jpegWithExif();
});
afterAll(async () => ctx?.close());

const ARCHIVED = /This project is archived/;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

const post = (url: string, token?: string) => api(ctx, { method: 'POST', url, token });
const archive = (id: number | string, token?: string) => post(`/api/project/${id}/archive`, token);
const restore = (id: number | string, token?: string) => post(`/api/project/${id}/restore`, token);

async function get<T>(url: string, token: string): Promise<T> {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}
const project = (id: number, token: string) => get<Project>(`/api/project/id/${id}`, token);
const ids = async (url: string, token: string) =>
  (await get<{ id: number }[]>(url, token)).map((p) => p.id);

function expectArchivedRefusal(res: { statusCode: number; body: string }, message = ARCHIVED) {
  expect(res.statusCode, res.body).toBe(409);
  const body = JSON.parse(res.body) as ErrorResponse;
  expect(body.code).toBe('project_archived');
  expect(body.message).toMatch(message);
}

describe('POST /api/project/{id}/archive', () => {
  let creator: Member;
  let other: Member;
  beforeAll(async () => {
    creator = await signedInUser(ctx, { firstname: 'Cora', lastname: 'Creator' });
    other = await signedInUser(ctx);
  });

  it('answers 401 signed out and changes nothing', async () => {
    const p = await buildProject(ctx, { creatorId: creator.id });
    expect((await archive(p.id)).statusCode).toBe(401);
    expect((await project(p.id, creator.token)).archivedAt).toBeNull();
  });

  it('refuses another member with 403 and a message, and leaves the project open', async () => {
    const p = await buildProject(ctx, { creatorId: creator.id });
    const res = await archive(p.id, other.token);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<ErrorResponse>().message).toBe(
      'Only the creator of this project or an admin can archive or restore it.',
    );
    expect(await project(p.id, creator.token)).toMatchObject({
      archivedAt: null,
      archivedBy: null,
    });
  });

  it('lets the creator archive it: archivedAt and archivedBy set, activity date kept', async () => {
    const p = await buildProject(ctx, { creatorId: creator.id, createdAt: day(3) });
    const before = Date.now();
    const res = await archive(p.id, creator.token);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<Project>();
    expect(answer).toMatchObject({
      id: p.id,
      name: p.name,
      updatedAt: day(3),
      archivedBy: { id: creator.id, firstname: 'Cora', lastname: 'Creator' },
    });
    const at = Date.parse(answer.archivedAt ?? '');
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    // The project page still answers it, as the archive call did.
    expect(await project(p.id, other.token)).toMatchObject({
      archivedAt: answer.archivedAt,
      archivedBy: answer.archivedBy,
    });
  });

  it("lets an admin archive another member's project", async () => {
    const p = await buildProject(ctx, { creatorId: creator.id });
    const res = await archive(p.id, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Project>().archivedBy).toEqual({
      id: admin.id,
      firstname: 'Ada',
      lastname: 'Admin',
    });
  });

  it('answers an archived project as it is when archived again (the first archive stays)', async () => {
    const p = await buildProject(ctx, { creatorId: creator.id });
    const first = (await archive(p.id, creator.token)).json<Project>();
    const again = await archive(p.id, admin.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Project>()).toMatchObject({
      archivedAt: first.archivedAt,
      archivedBy: { id: creator.id },
    });
    // Permission is still checked on an archived project.
    expect((await archive(p.id, other.token)).statusCode).toBe(403);
  });

  it.each([
    ['a word', 'abc', 400],
    ['a negative id', '-3', 400],
    ['zero', '0', 400],
    ['an unknown id', '999999', 404],
  ])('answers %s with %i and a message', async (_label, id, status) => {
    const res = await archive(id, creator.token);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<ErrorResponse>().message).toMatch(
      status === 404 ? /Project was not found/ : /id/i,
    );
  });
});

describe('an archive racing a change', () => {
  it('waits for a transaction that found the project open, then archives it', async () => {
    const creator = await signedInUser(ctx);
    const p = await buildProject(ctx, { creatorId: creator.id });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let checked = () => {};
    const open = new Promise<void>((resolve) => (checked = resolve));
    // What an upload's transaction does first: check the project open, holding its row.
    const change = writeTransaction(ctx.db, async (trx) => {
      await lockOpenProjects(trx, [p.id]);
      checked();
      await held;
    });
    await open;
    let answered = false;
    const archiving = archive(p.id, creator.token).then((res) => {
      answered = true;
      return res;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
    } finally {
      release();
      await change;
    }
    expect((await archiving).statusCode).toBe(200);
    // And a change that comes after the archive finds it archived.
    await expect(
      writeTransaction(ctx.db, (trx) => lockOpenProjects(trx, [p.id])),
    ).rejects.toMatchObject({ statusCode: 409, code: 'project_archived' });
  });
});

describe('POST /api/project/{id}/restore', () => {
  let creator: Member;
  let other: Member;
  beforeAll(async () => {
    creator = await signedInUser(ctx);
    other = await signedInUser(ctx);
  });

  async function archived() {
    const p = await buildProject(ctx, { creatorId: creator.id });
    await archiveProject(ctx, p.id);
    return p;
  }

  it('answers 401 signed out and keeps the project archived', async () => {
    const p = await archived();
    expect((await restore(p.id)).statusCode).toBe(401);
    expect((await project(p.id, creator.token)).archivedAt).not.toBeNull();
  });

  it('refuses another member with 403 and a message', async () => {
    const p = await archived();
    const res = await restore(p.id, other.token);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<ErrorResponse>().message).toMatch(
      /Only the creator of this project or an admin/,
    );
    expect((await project(p.id, creator.token)).archivedBy).toEqual(
      expect.objectContaining({ id: creator.id }),
    );
  });

  it.each([
    ['the creator', () => creator],
    ['an admin', () => admin],
  ])('lets %s restore it: open again, archivedAt and archivedBy null', async (_label, who) => {
    const p = await archived();
    const res = await restore(p.id, who().token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Project>()).toMatchObject({ id: p.id, archivedAt: null, archivedBy: null });
    expect(await project(p.id, other.token)).toMatchObject({ archivedAt: null, archivedBy: null });
  });

  it('answers an open project as it is', async () => {
    const p = await buildProject(ctx, { creatorId: creator.id });
    const res = await restore(p.id, creator.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Project>()).toMatchObject({ id: p.id, archivedAt: null });
    expect((await restore(p.id, other.token)).statusCode).toBe(403);
  });

  it.each([
    ['a word', 'abc', 400],
    ['a negative id', '-1', 400],
    ['an unknown id', '999999', 404],
  ])('answers %s with %i', async (_label, id, status) => {
    const res = await restore(id, creator.token);
    expect(res.statusCode, res.body).toBe(status);
  });
});

describe('GET /api/project/archived', () => {
  it('answers 401 signed out', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/project/archived' })).statusCode).toBe(401);
  });

  it('lists only archived projects, most recently archived first, with who archived them', async () => {
    const viewer = await signedInUser(ctx);
    const creator = await signedInUser(ctx, { firstname: 'Olga', lastname: 'Owner' });
    const [a, b, c, open] = [
      await buildProject(ctx, { creatorId: creator.id }),
      await buildProject(ctx, { creatorId: creator.id }),
      await buildProject(ctx, { creatorId: creator.id }),
      await buildProject(ctx, { creatorId: creator.id }),
    ];
    // Bookmarked while open: the list answers the viewer's own marks.
    await get(`/api/project/${b.id}/favor`, viewer.token);
    await archiveProject(ctx, a.id, { at: day(1) });
    await archiveProject(ctx, b.id, { at: day(3), byUserId: admin.id });
    await archiveProject(ctx, c.id, { at: day(2) });

    const list = await get<Project[]>('/api/project/archived', viewer.token);
    const mine = list.filter((p) => [a.id, b.id, c.id, open.id].includes(p.id));
    expect(mine.map((p) => p.id)).toEqual([b.id, c.id, a.id]);
    expect(mine[0]).toMatchObject({
      archivedAt: day(3),
      archivedBy: { id: admin.id, firstname: 'Ada', lastname: 'Admin' },
      creator: { id: creator.id, firstname: 'Olga', lastname: 'Owner' },
      isFavorited: true,
    });
    expect(mine[1]).toMatchObject({
      archivedAt: day(2),
      archivedBy: { id: creator.id, firstname: 'Olga', lastname: 'Owner' },
      isFavorited: false,
    });
    // Every entry is archived; the whole list is in archive order.
    for (const p of list) expect(p.archivedAt).not.toBeNull();
    const times = list.map((p) => p.archivedAt ?? '');
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('puts a project archived through the API first and drops it once restored', async () => {
    const creator = await signedInUser(ctx);
    const p = await buildProject(ctx, { creatorId: creator.id });
    expect((await archive(p.id, creator.token)).statusCode).toBe(200);
    expect((await ids('/api/project/archived', admin.token))[0]).toBe(p.id);
    expect((await restore(p.id, admin.token)).statusCode).toBe(200);
    expect(await ids('/api/project/archived', admin.token)).not.toContain(p.id);
  });
});

/**
 * A project with photos, marks and a neighbour, archived by its creator: `archived` holds the
 * owner's upload and a member's; `open` is the owner's other project, marked the same way.
 */
async function archivedWorld() {
  const owner = await signedInUser(ctx);
  const member = await signedInUser(ctx);
  const archived = await buildProject(ctx, {
    creatorId: owner.id,
    latitude: 53.55,
    longitude: 9.99,
  });
  const open = await buildProject(ctx, { creatorId: owner.id, latitude: 48.1, longitude: 11.6 });
  const clientId = randomUUID();
  const ownerUploadRes = await postUpload(ctx, owner.token, [
    filePart(photo),
    dtoPart({ name: 'Slab', description: '', projectId: archived.id, clientId }),
  ]);
  expect(ownerUploadRes.statusCode, ownerUploadRes.body).toBe(200);
  const ownerUpload = ownerUploadRes.json<Upload>();
  const memberUpload = await uploadPhoto(ctx, member.token, archived.id, { name: 'Crane' });
  const openUpload = await uploadPhoto(ctx, owner.token, open.id, { name: 'Roof' });
  const memberOpenUpload = await uploadPhoto(ctx, member.token, open.id, { name: 'Wall' });
  for (const p of [archived, open])
    for (const mark of ['favor', 'follow']) await get(`/api/project/${p.id}/${mark}`, member.token);
  await get(`/api/project/${archived.id}/favor`, owner.token);
  await setProjectActivity(ctx, archived.id, day(20));
  await setProjectActivity(ctx, open.id, day(10));
  return {
    owner,
    member,
    archived,
    open,
    clientId,
    ownerUpload,
    memberUpload,
    openUpload,
    memberOpenUpload,
  };
}
type World = Awaited<ReturnType<typeof archivedWorld>>;

/** Every list a project appears in, as `viewer` of the world sees it. */
function lists(w: World): [label: string, url: string, token: () => string][] {
  return [
    ['my projects', '/api/project/user', () => w.owner.token],
    [
      "the creator's projects (profile)",
      `/api/project/profile/${w.owner.id}`,
      () => w.member.token,
    ],
    ['bookmarks', '/api/project/bookmark', () => w.member.token],
    ["the creator's bookmarks", '/api/project/bookmark', () => w.owner.token],
    ['bookmarks and follows', '/api/project/favnfol', () => w.member.token],
    ['relevant (uploaded to, marked)', '/api/project/relevant/50', () => w.member.token],
    ['relevant (created)', '/api/project/relevant/50', () => w.owner.token],
  ];
}

async function allProjectRows(token: string): Promise<number[]> {
  return (await get<ProjectRow[]>('/api/project/all/list', token)).map((row) => row[0]);
}

async function mapPins(token: string): Promise<number[]> {
  return (await get<ProjectLocation[]>('/api/project/locations', token)).map((p) => p.id);
}

const uploadIds = async (url: string, token: string) =>
  (await get<Upload[]>(url, token)).map((u) => u.id);

describe('an archived project', () => {
  let w: World;
  beforeAll(async () => {
    w = await archivedWorld();
    expect((await archive(w.archived.id, w.owner.token)).statusCode).toBe(200);
  });

  it('leaves every project list; its open neighbour stays', async () => {
    for (const [label, url, token] of lists(w)) {
      const listed = await ids(url, token());
      expect(listed, label).not.toContain(w.archived.id);
      if (label !== "the creator's bookmarks") expect(listed, label).toContain(w.open.id);
    }
    expect(await allProjectRows(w.member.token)).not.toContain(w.archived.id);
    expect(await allProjectRows(w.member.token)).toContain(w.open.id);
    expect(await mapPins(w.member.token)).not.toContain(w.archived.id);
    expect(await mapPins(w.member.token)).toContain(w.open.id);
    expect(await ids('/api/project/archived', w.member.token)).toContain(w.archived.id);
  });

  it('answers null archive fields on the open projects of every list', async () => {
    for (const [label, url, token] of lists(w)) {
      for (const p of await get<Project[]>(url, token()))
        expect(p, label).toMatchObject({ archivedAt: null, archivedBy: null });
    }
  });

  it('keeps its marks and counts on its own page', async () => {
    expect(await project(w.archived.id, w.member.token)).toMatchObject({
      isFavorited: true,
      isFollowed: true,
      uploadsCount: 2,
      archivedBy: { id: w.owner.id },
    });
  });

  it("leaves the workspace's and members' latest uploads; its own feed and links keep them", async () => {
    const latest = await uploadIds('/api/upload/latest/100', w.member.token);
    expect(latest).not.toContain(w.ownerUpload.id);
    expect(latest).not.toContain(w.memberUpload.id);
    expect(latest).toContain(w.openUpload.id);
    const memberFeed = await uploadIds(`/api/upload/user/${w.member.id}/latest`, w.owner.token);
    expect(memberFeed).toEqual([w.memberOpenUpload.id]);
    expect(await uploadIds(`/api/upload/user/${w.owner.id}/latest`, w.member.token)).toEqual([
      w.openUpload.id,
    ]);

    const feed = await get<Upload[]>(`/api/upload/project/${w.archived.id}/latest`, w.member.token);
    expect(feed.map((u) => u.id)).toEqual([w.memberUpload.id, w.ownerUpload.id]);
    for (const u of feed)
      expect(u.project).toEqual({ id: w.archived.id, name: w.archived.name, archived: true });
    const pins = await get<{ id: number }[]>(
      `/api/upload/project/${w.archived.id}/locations`,
      w.member.token,
    );
    expect(pins.map((p) => p.id).sort()).toEqual([w.ownerUpload.id, w.memberUpload.id].sort());

    const one = await get<Upload>(`/api/upload/full/${w.ownerUpload.id}`, w.member.token);
    expect(one.project.archived).toBe(true);
    const image = await api(ctx, { method: 'GET', url: one.previewLink });
    expect(image.statusCode).toBe(200);
    expect(
      (await get<Upload>(`/api/upload/full/${w.openUpload.id}`, w.member.token)).project,
    ).toMatchObject({ archived: false });
  });

  it('refuses a new upload with 409 and a message, storing nothing (either part first)', async () => {
    const keys = await storedKeys(ctx);
    const rows = await uploadRowCount(ctx);
    for (const parts of [
      [filePart(photo), dtoPart({ projectId: w.archived.id })],
      [dtoPart({ projectId: w.archived.id }), filePart(photo)],
    ])
      expectArchivedRefusal(await postUpload(ctx, w.member.token, parts));
    expect(await uploadRowCount(ctx)).toBe(rows);
    expect(await storedKeys(ctx)).toEqual(keys);
  });

  it('answers a repeated clientId with the photo already stored, marked archived', async () => {
    const res = await postUpload(ctx, w.owner.token, [
      filePart(photo),
      dtoPart({ projectId: w.archived.id, clientId: w.clientId }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Upload>()).toMatchObject({
      id: w.ownerUpload.id,
      project: { id: w.archived.id, archived: true },
    });
  });

  it('refuses an edit of the project with 409', async () => {
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${w.archived.id}`,
      token: w.owner.token,
      payload: { project: { name: 'Renamed', location: 'Ghent, Belgium' } },
    });
    expectArchivedRefusal(res);
    expect((await project(w.archived.id, w.owner.token)).name).toBe(w.archived.name);
  });

  it.each(['favor', 'unfavor', 'follow', 'unfollow'])(
    'refuses %s with 409, keeping the marks as they were',
    async (mark) => {
      expectArchivedRefusal(
        await api(ctx, {
          method: 'GET',
          url: `/api/project/${w.archived.id}/${mark}`,
          token: w.member.token,
        }),
      );
      expect(await project(w.archived.id, w.member.token)).toMatchObject({
        isFavorited: true,
        isFollowed: true,
      });
    },
  );

  const patchUpload = (id: number, token: string, upload: Record<string, unknown>) =>
    api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${id}`,
      token,
      payload: { upload },
    });

  it('refuses editing, moving out and deleting its uploads with 409', async () => {
    expectArchivedRefusal(await patchUpload(w.ownerUpload.id, w.owner.token, { name: 'Renamed' }));
    expectArchivedRefusal(
      await patchUpload(w.ownerUpload.id, w.owner.token, { projectId: w.open.id }),
    );
    expectArchivedRefusal(
      await api(ctx, {
        method: 'DELETE',
        url: `/api/upload/delete/${w.ownerUpload.id}`,
        token: w.owner.token,
      }),
    );
    expect(await get<Upload>(`/api/upload/full/${w.ownerUpload.id}`, w.owner.token)).toMatchObject({
      name: 'Slab',
      project: { id: w.archived.id },
    });
    expect((await project(w.archived.id, w.owner.token)).uploadsCount).toBe(2);
    expect((await project(w.open.id, w.owner.token)).uploadsCount).toBe(2);
  });

  it('still answers 403 to a member who did not upload the photo', async () => {
    const res = await patchUpload(w.ownerUpload.id, w.member.token, { name: 'Mine now' });
    expect(res.statusCode, res.body).toBe(403);
  });

  it('refuses moving an upload into it with 409', async () => {
    expectArchivedRefusal(
      await patchUpload(w.openUpload.id, w.owner.token, { projectId: w.archived.id }),
      /The project you are moving this photo to is archived/,
    );
    expect(
      (await get<Upload>(`/api/upload/full/${w.openUpload.id}`, w.owner.token)).project,
    ).toMatchObject({ id: w.open.id, archived: false });
    expect((await project(w.archived.id, w.owner.token)).uploadsCount).toBe(2);
  });
});

describe('restoring an archived project', () => {
  let w: World;
  let before: Map<string, number[]>;
  let updatedAt: string;
  beforeAll(async () => {
    w = await archivedWorld();
    before = new Map();
    for (const [label, url, token] of lists(w)) before.set(label, await ids(url, token()));
    updatedAt = (await project(w.archived.id, w.owner.token)).updatedAt;
    expect((await archive(w.archived.id, w.owner.token)).statusCode).toBe(200);
    const res = await restore(w.archived.id, admin.token);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('puts it back in every list where it was, in the same order, with its marks', async () => {
    for (const [label, url, token] of lists(w)) {
      expect(await ids(url, token()), label).toEqual(before.get(label));
      expect(before.get(label), label).toContain(w.archived.id);
    }
    expect(await allProjectRows(w.member.token)).toContain(w.archived.id);
    expect(await mapPins(w.member.token)).toContain(w.archived.id);
    expect(await ids('/api/project/archived', w.member.token)).not.toContain(w.archived.id);
    expect(await project(w.archived.id, w.member.token)).toMatchObject({
      updatedAt,
      isFavorited: true,
      isFollowed: true,
      archivedAt: null,
      archivedBy: null,
    });
  });

  it('puts its uploads back in the latest feeds, no longer marked archived', async () => {
    expect(await uploadIds('/api/upload/latest/100', w.member.token)).toContain(w.memberUpload.id);
    expect(await uploadIds(`/api/upload/user/${w.member.id}/latest`, w.owner.token)).toContain(
      w.memberUpload.id,
    );
    expect(
      (await get<Upload>(`/api/upload/full/${w.ownerUpload.id}`, w.member.token)).project,
    ).toMatchObject({ archived: false });
  });

  it('takes uploads, edits, moves, deletes and marks again', async () => {
    const added = await uploadPhoto(ctx, w.member.token, w.archived.id, { name: 'After' });
    expect(added.project.archived).toBe(false);
    const rename = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${w.archived.id}`,
      token: w.owner.token,
      payload: { project: { name: 'Reopened', location: 'Hamburg, Germany' } },
    });
    expect(rename.statusCode, rename.body).toBe(200);
    const move = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${w.openUpload.id}`,
      token: w.owner.token,
      payload: { upload: { projectId: w.archived.id } },
    });
    expect(move.statusCode, move.body).toBe(200);
    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${w.ownerUpload.id}`,
      token: w.owner.token,
    });
    expect(del.statusCode, del.body).toBe(200);
    await get(`/api/project/${w.archived.id}/unfollow`, w.member.token);
    expect(await project(w.archived.id, w.member.token)).toMatchObject({
      name: 'Reopened',
      uploadsCount: 3,
      isFavorited: true,
      isFollowed: false,
    });
  });
});
