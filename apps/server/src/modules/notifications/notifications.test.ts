// The notification and timeline calls (issue 15): GET /api/events, GET /api/notifications, the
// bell's unread count with its ETag, marking read, settings and muting, with their refusals.
import type {
  AppEvent,
  AppNotification,
  ErrorResponse,
  EventPage,
  NotificationPage,
  NotificationSettings,
} from '@sitelog/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../db/database.js';
import { archiveProject, buildProject, buildUpload, buildUser } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { markProject } from '../projects/projects.service.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const follow = (userId: number, projectId: number) =>
  markProject(ctx.db, { userId, projectId, mark: 'follow' });

async function get<T>(url: string, token: string): Promise<T> {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}

function expect400(res: LightMyRequestResponse, message: string | RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json<ErrorResponse>().message).toMatch(message);
}

const post = (url: string, token?: string) => api(ctx, { method: 'POST', url, token });

/** Every page of a list, following `next` until it is null. */
async function allPages<T>(
  first: string,
  token: string,
  items: (page: { next: number | null } & Record<string, unknown>) => T[],
): Promise<T[][]> {
  const pages: T[][] = [];
  let url: string | null = first;
  while (url) {
    const page: { next: number | null } & Record<string, unknown> = await get(url, token);
    pages.push(items(page));
    url = page.next === null ? null : `${first}&before=${page.next}`;
    if (pages.length > 100) throw new Error('paging does not end');
  }
  return pages;
}

describe('GET /api/notifications', () => {
  let reader: Member;
  let actor: Member;
  let projectId: number;
  beforeAll(async () => {
    reader = await signedInUser(ctx);
    actor = await signedInUser(ctx, { firstname: 'Aisha', lastname: 'Khan' });
    projectId = (await buildProject(ctx, { name: 'Riverside Block C', creatorId: reader.id })).id;
  });

  it('answers 401 signed out and 400 with a message for a bad page', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    const bad = (q: string) =>
      api(ctx, { method: 'GET', url: `/api/notifications?${q}`, token: reader.token });
    expect400(await bad('limit=0'), 'limit must be at least 1.');
    expect400(await bad('limit=101'), 'limit must be at most 100.');
    expect400(await bad('limit=x'), 'limit must be a number.');
    // `before` is the page's `next`: an event id.
    expect400(
      await bad('before=abc'),
      'before must be the next value of a previous page (an event id).',
    );
    expect400(await bad('before=-3'), /before must be/);
  });

  it('lists the grouped uploads as one notification with the newest photo, signed for the viewer', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await buildUpload(ctx, { projectId, creatorId: actor.id, name: `Crack ${i}` }));
    const page = await get<NotificationPage>('/api/notifications', reader.token);
    expect(page.unread).toBe(1);
    expect(page.next).toBeNull();
    expect(page.notifications).toHaveLength(1);
    const [n] = page.notifications as [AppNotification];
    expect(n).toMatchObject({
      kind: 'upload.added',
      reason: 'creator',
      read: false,
      count: 3,
      actor: { id: actor.id, firstname: 'Aisha', lastname: 'Khan', active: true },
      project: { id: projectId, name: 'Riverside Block C' },
      upload: { id: ids[2], name: 'Crack 2' },
      excerpt: null,
      mentioned: null,
    });
    expect(n.upload?.previewLink).toMatch(/^\/media\/.+sig=/);
    const media = await api(ctx, { method: 'GET', url: n.upload?.previewLink ?? '' });
    expect(media.statusCode).toBe(200);
  });

  it('keeps a deleted photo by the name it had, and a deactivated actor marked inactive', async () => {
    const owner = await signedInUser(ctx);
    const uploader = await signedInUser(ctx);
    const p = await buildProject(ctx, { creatorId: owner.id });
    const uploadId = await buildUpload(ctx, {
      projectId: p.id,
      creatorId: uploader.id,
      name: 'North wall',
    });
    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${uploadId}`,
      token: uploader.token,
    });
    expect(del.statusCode, del.body).toBe(200);
    await ctx.db
      .updateTable('users')
      .set({ is_active: 0, deactivated_at: nowIso() })
      .where('id', '=', uploader.id)
      .execute();
    const page = await get<NotificationPage>('/api/notifications', owner.token);
    expect(page.notifications).toMatchObject([
      {
        kind: 'upload.added',
        upload: { id: null, name: 'North wall', previewLink: null },
        actor: { id: uploader.id, active: false },
      },
    ]);
    const timeline = await get<EventPage>(`/api/events?project=${p.id}`, owner.token);
    expect(timeline.events).toMatchObject([
      { upload: { id: null, name: 'North wall', previewLink: null }, actor: { active: false } },
    ]);
  });

  it('pages newest first without repeating or skipping, even when a group grows meanwhile', async () => {
    const me = await signedInUser(ctx);
    const others = [await buildUser(ctx), await buildUser(ctx), await buildUser(ctx)];
    const projects = [] as number[];
    for (let i = 0; i < 7; i++) {
      const p = await buildProject(ctx, { creatorId: me.id });
      projects.push(p.id);
      await buildUpload(ctx, { projectId: p.id, creatorId: others[i % 3]!.id });
    }
    const first = await get<NotificationPage>('/api/notifications?limit=3', me.token);
    expect(first.notifications.map((n) => n.project.id)).toEqual(projects.slice(4).reverse());
    // A photo joins a group on the first page: it moves up, and is not seen again below.
    await buildUpload(ctx, { projectId: projects[5]!, creatorId: others[2]!.id });
    const rest: number[] = [];
    let next = first.next;
    while (next !== null) {
      const page: NotificationPage = await get(
        `/api/notifications?limit=3&before=${next}`,
        me.token,
      );
      rest.push(...page.notifications.map((n) => n.project.id));
      next = page.next;
    }
    expect(rest).toEqual(projects.slice(0, 4).reverse());
    // Read afresh, the grown group leads.
    const fresh = await allPages<number>('/api/notifications?limit=3', me.token, (page) =>
      (page as unknown as NotificationPage).notifications.map((n) => n.project.id),
    );
    expect(fresh.flat()).toEqual([5, 6, 4, 3, 2, 1, 0].map((i) => projects[i]));
    expect(fresh.map((p) => p.length)).toEqual([3, 3, 1]);
  });
});

describe('GET /api/notifications/unread', () => {
  it('answers 401 signed out', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/notifications/unread' })).statusCode).toBe(
      401,
    );
  });

  it('answers the count with an ETag, 304 while it holds, and the new count once it changes', async () => {
    const me = await signedInUser(ctx);
    const actor = await buildUser(ctx);
    const p = await buildProject(ctx, { creatorId: me.id });
    const ask = (etag?: string) =>
      api(ctx, {
        method: 'GET',
        url: '/api/notifications/unread',
        token: me.token,
        ...(etag ? { headers: { 'if-none-match': etag } } : {}),
      });
    const zero = await ask();
    expect(zero.statusCode).toBe(200);
    expect(zero.json()).toEqual({ count: 0 });
    expect(zero.headers['cache-control']).toBe('private, no-cache');
    const etag = String(zero.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);

    const same = await ask(etag);
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    // A weak form of the tag, and a list holding it, match too.
    expect((await ask(`W/${etag}`)).statusCode).toBe(304);
    expect((await ask(`"other", ${etag}`)).statusCode).toBe(304);

    await buildUpload(ctx, { projectId: p.id, creatorId: actor.id });
    const one = await ask(etag);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ count: 1 });
    expect(one.headers.etag).not.toBe(etag);
    expect((await ask(String(one.headers.etag))).statusCode).toBe(304);
    // Another upload folds into the same unread notification: the count, and the tag, hold.
    await buildUpload(ctx, { projectId: p.id, creatorId: actor.id });
    expect((await ask(String(one.headers.etag))).statusCode).toBe(304);
  });
});

describe('marking read', () => {
  let me: Member;
  let other: Member;
  let mine: number[];
  beforeAll(async () => {
    me = await signedInUser(ctx);
    other = await signedInUser(ctx);
    const actor = await buildUser(ctx);
    for (let i = 0; i < 3; i++) {
      const p = await buildProject(ctx, { creatorId: me.id });
      await buildUpload(ctx, { projectId: p.id, creatorId: actor.id });
      await follow(other.id, p.id);
      await buildUpload(ctx, { projectId: p.id, creatorId: actor.id, createdAt: nowIso() });
    }
    const page = await get<NotificationPage>('/api/notifications', me.token);
    mine = page.notifications.map((n) => n.id);
    expect(mine).toHaveLength(3);
  });

  it('refuses signed out (401), a bad id (400), an unknown or another member’s (404)', async () => {
    expect((await post(`/api/notifications/${mine[0]}/read`)).statusCode).toBe(401);
    expect((await post('/api/notifications/read-all')).statusCode).toBe(401);
    expect400(await post('/api/notifications/abc/read', me.token), /must be/);
    const foreign = await post(`/api/notifications/${mine[0]}/read`, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<ErrorResponse>().message).toBe('Notification was not found.');
    expect((await post('/api/notifications/999999/read', me.token)).statusCode).toBe(404);
    const page = await get<NotificationPage>('/api/notifications', me.token);
    expect(page.notifications.every((n) => !n.read)).toBe(true);
  });

  it('marks one read (again: no change) and answers the count left', async () => {
    const res = await post(`/api/notifications/${mine[1]}/read`, me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect((await post(`/api/notifications/${mine[1]}/read`, me.token)).json()).toEqual({
      count: 2,
    });
    const page = await get<NotificationPage>('/api/notifications', me.token);
    expect(page.notifications.map((n) => n.read)).toEqual([false, true, false]);
    expect(page.unread).toBe(2);
  });

  it("marks all read, the member's own only", async () => {
    const otherBefore = await get<{ count: number }>('/api/notifications/unread', other.token);
    expect(otherBefore.count).toBeGreaterThan(0);
    const res = await post('/api/notifications/read-all', me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ count: 0 });
    const page = await get<NotificationPage>('/api/notifications', me.token);
    expect(page.notifications.every((n) => n.read)).toBe(true);
    expect(await get('/api/notifications/unread', other.token)).toEqual(otherBefore);
  });
});

describe('notification settings', () => {
  const patch = (token: string | undefined, payload: object) =>
    api(ctx, { method: 'PATCH', url: '/api/notifications/settings', token, payload });

  it('answers 401 signed out', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/notifications/settings' })).statusCode).toBe(
      401,
    );
    expect((await patch(undefined, { uploads: false })).statusCode).toBe(401);
  });

  it('starts all on, changes only what the patch names, and is each member’s own', async () => {
    const me = await signedInUser(ctx);
    const other = await signedInUser(ctx);
    const defaults = await get<NotificationSettings>('/api/notifications/settings', me.token);
    expect(defaults).toEqual({
      uploads: true,
      comments: true,
      mentions: true,
      projects: true,
      reports: true,
      mutedProjects: [],
    });
    const first = await patch(me.token, { uploads: false });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...defaults, uploads: false });
    const second = await patch(me.token, { projects: false, reports: true });
    expect(second.json()).toEqual({ ...defaults, uploads: false, projects: false });
    expect((await patch(me.token, {})).json()).toEqual(second.json());
    expect(await get('/api/notifications/settings', me.token)).toEqual(second.json());
    expect(await get('/api/notifications/settings', other.token)).toEqual(defaults);

    // Uploads off: a follower hears nothing of a new photo, but does of an edit.
    const creator = await signedInUser(ctx);
    const p = await buildProject(ctx, { creatorId: creator.id });
    await follow(me.id, p.id);
    await buildUpload(ctx, { projectId: p.id, creatorId: creator.id });
    expect(await get('/api/notifications/unread', me.token)).toEqual({ count: 0 });
    await patch(me.token, { uploads: true });
    await buildUpload(ctx, { projectId: p.id, creatorId: creator.id });
    expect(await get('/api/notifications/unread', me.token)).toEqual({ count: 1 });
  });

  it('refuses a bad patch with 400 and a message, and changes nothing', async () => {
    const me = await signedInUser(ctx);
    expect400(await patch(me.token, { uploads: 'no' }), 'uploads must be true or false.');
    expect400(await patch(me.token, { mentions: 1 }), 'mentions must be true or false.');
    expect400(
      await patch(me.token, { sms: true }),
      'Unknown setting: sms. The settings are uploads, comments, mentions, projects and reports.',
    );
    expect400(await patch(me.token, [true]), /object of kinds/);
    const settings = await get<NotificationSettings>('/api/notifications/settings', me.token);
    expect(settings.uploads && settings.mentions).toBe(true);
  });
});

describe('muting a project', () => {
  it('answers 401 signed out, 400 for a bad id, 404 for an unknown project', async () => {
    const me = await signedInUser(ctx);
    const p = await buildProject(ctx);
    expect((await api(ctx, { method: 'GET', url: `/api/project/${p.id}/mute` })).statusCode).toBe(
      401,
    );
    expect((await post(`/api/project/${p.id}/mute`)).statusCode).toBe(401);
    expect((await post(`/api/project/${p.id}/unmute`)).statusCode).toBe(401);
    expect400(await post('/api/project/x1/mute', me.token), /must be/);
    for (const res of [
      await api(ctx, { method: 'GET', url: '/api/project/999999/mute', token: me.token }),
      await post('/api/project/999999/mute', me.token),
      await post('/api/project/999999/unmute', me.token),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json<ErrorResponse>().message).toBe('Project was not found.');
    }
  });

  it('mutes and unmutes (idempotent), lists muted projects newest first, and silences the project', async () => {
    const me = await signedInUser(ctx);
    const actor = await buildUser(ctx);
    const p = await buildProject(ctx, { creatorId: me.id, name: 'Quay Street' });
    const q = await buildProject(ctx, { creatorId: me.id, name: 'Old Mill' });
    expect(await get(`/api/project/${p.id}/mute`, me.token)).toEqual({ muted: false });
    for (let i = 0; i < 2; i++) {
      const res = await post(`/api/project/${p.id}/mute`, me.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ muted: true });
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    await post(`/api/project/${q.id}/mute`, me.token);
    expect(await get(`/api/project/${p.id}/mute`, me.token)).toEqual({ muted: true });
    const settings = await get<NotificationSettings>('/api/notifications/settings', me.token);
    expect(settings.mutedProjects).toEqual([
      { id: q.id, name: 'Old Mill' },
      { id: p.id, name: 'Quay Street' },
    ]);
    await buildUpload(ctx, { projectId: p.id, creatorId: actor.id });
    expect(await get('/api/notifications/unread', me.token)).toEqual({ count: 0 });

    for (let i = 0; i < 2; i++)
      expect((await post(`/api/project/${p.id}/unmute`, me.token)).json()).toEqual({
        muted: false,
      });
    await buildUpload(ctx, { projectId: p.id, creatorId: actor.id });
    expect(await get('/api/notifications/unread', me.token)).toEqual({ count: 1 });
  });

  it('mutes an archived project too', async () => {
    const me = await signedInUser(ctx);
    const p = await buildProject(ctx);
    await archiveProject(ctx, p.id);
    expect((await post(`/api/project/${p.id}/mute`, me.token)).json()).toEqual({ muted: true });
  });
});

describe('GET /api/events', () => {
  let me: Member;
  let aisha: Member;
  let ben: Member;
  let site: number;
  let yard: number;
  beforeAll(async () => {
    me = await signedInUser(ctx);
    aisha = await signedInUser(ctx, { firstname: 'Aisha', lastname: 'Timeline' });
    ben = await signedInUser(ctx, { firstname: 'Ben', lastname: 'Timeline' });
    site = (await buildProject(ctx, { creatorId: me.id, name: 'Site' })).id;
    yard = (await buildProject(ctx, { creatorId: me.id, name: 'Yard' })).id;
    // Aisha: 12 photos to Site; Ben: 1 to Site; Aisha: 2 to Yard; Aisha: 3 more to Site; then
    // Aisha renames Yard and comments with a mention of Ben.
    const upload = (projectId: number, creatorId: number) =>
      buildUpload(ctx, { projectId, creatorId });
    for (let i = 0; i < 12; i++) await upload(site, aisha.id);
    await upload(site, ben.id);
    for (let i = 0; i < 2; i++) await upload(yard, aisha.id);
    for (let i = 0; i < 3; i++) await upload(site, aisha.id);
  });

  const timeline = (q: string, token = me.token) => get<EventPage>(`/api/events?${q}`, token);
  const summary = (events: AppEvent[]) =>
    events.map((e) => [e.kind, e.actor.firstname, e.project.name, e.count]);

  it('answers 401 signed out, 400 with a message for bad filters, 404 for unknown ones', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    const bad = (q: string) =>
      api(ctx, { method: 'GET', url: `/api/events?${q}`, token: me.token });
    expect400(await bad('limit=0'), 'limit must be at least 1.');
    expect400(await bad('project=abc'), 'project must be a project id.');
    expect400(await bad('actor=1.5'), /actor must be/);
    expect400(await bad('before=0'), /before must be/);
    const unknownProject = await bad('project=999999');
    expect(unknownProject.statusCode).toBe(404);
    expect(unknownProject.json<ErrorResponse>().message).toBe('Project was not found.');
    const unknownActor = await bad('actor=999999');
    expect(unknownActor.statusCode).toBe(404);
    expect(unknownActor.json<ErrorResponse>().message).toBe('Member was not found.');
  });

  it('groups adjacent uploads by one member to one project, newest first, for every member', async () => {
    const page = await timeline(`project=${site}`);
    expect(summary(page.events)).toEqual([
      ['upload.added', 'Aisha', 'Site', 3],
      ['upload.added', 'Ben', 'Site', 1],
      ['upload.added', 'Aisha', 'Site', 12],
    ]);
    expect(page.next).toBeNull();
    // Another member (not following, not creator) sees the same timeline.
    const theirs = await timeline(`project=${site}`, ben.token);
    expect(summary(theirs.events)).toEqual(summary(page.events));
    expect(page.events[0]?.upload?.previewLink).toMatch(/^\/media\//);

    const both = await timeline(`actor=${aisha.id}`);
    expect(summary(both.events)).toEqual([
      ['upload.added', 'Aisha', 'Site', 3],
      ['upload.added', 'Aisha', 'Yard', 2],
      ['upload.added', 'Aisha', 'Site', 12],
    ]);
    const narrow = await timeline(`actor=${aisha.id}&project=${yard}`);
    expect(summary(narrow.events)).toEqual([['upload.added', 'Aisha', 'Yard', 2]]);
  });

  it('pages by the oldest event a page covered: nothing repeated, nothing skipped', async () => {
    const allIds = (
      await ctx.db
        .selectFrom('events')
        .select('id')
        .where('project_id', 'in', [site, yard])
        .orderBy('id', 'desc')
        .execute()
    ).map((e) => e.id);
    for (const limit of [1, 2]) {
      const pages = await allPages<AppEvent>(
        `/api/events?actor=${aisha.id}&limit=${limit}`,
        me.token,
        (page) => (page as unknown as EventPage).events,
      );
      const entries = pages.flat();
      expect(summary(entries)).toEqual([
        ['upload.added', 'Aisha', 'Site', 3],
        ['upload.added', 'Aisha', 'Yard', 2],
        ['upload.added', 'Aisha', 'Site', 12],
      ]);
      expect(pages.every((p) => p.length <= limit)).toBe(true);
      // Each entry is shown by its newest event; the counts add up to every event of Aisha's.
      expect(entries.reduce((sum, e) => sum + e.count, 0)).toBe(17);
      expect(entries.map((e) => e.id).every((id) => allIds.includes(id))).toBe(true);
    }
  });

  it('shows a comment and its mention with the excerpt and the mentioned member', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: `/api/upload/${await buildUpload(ctx, { projectId: yard, creatorId: me.id })}/comments`,
      token: aisha.token,
      payload: { body: 'Who fixes this? @Ben Timeline' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const page = await timeline(`project=${yard}&limit=2`);
    expect(page.events).toMatchObject([
      {
        kind: 'mention',
        actor: { id: aisha.id },
        mentioned: { id: ben.id, firstname: 'Ben', lastname: 'Timeline', active: true },
        excerpt: 'Who fixes this? @Ben Timeline',
        count: 1,
      },
      { kind: 'comment.added', excerpt: 'Who fixes this? @Ben Timeline', mentioned: null },
    ]);
    const bens = await get<NotificationPage>('/api/notifications', ben.token);
    expect(bens.notifications[0]).toMatchObject({ kind: 'mention', reason: 'mentioned' });
  });
});
