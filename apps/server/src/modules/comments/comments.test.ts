// Comments on uploads (issue 15): the thread and its paging, who may comment, edit and delete,
// the messages of bad input, the stored count, mentions and the notifications they send, and
// that nothing is left behind by a refused comment or a deleted photo.
import {
  commentLimits,
  type Comment,
  type CommentPage,
  type ErrorResponse,
  type NotificationPage,
  type UnreadCount,
} from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveProject,
  buildComment,
  buildProject,
  buildUpload,
  buildUser,
} from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let uploader: Member;
let alice: Member;
let bob: Member;
let admin: Member;
let projectId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  uploader = await signedInUser(ctx, { firstname: 'Uma', lastname: 'Uploader' });
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Archer' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Builder' });
  admin = await signedInUser(ctx, { firstname: 'Ada', lastname: 'Admin', isAdmin: true });
  projectId = (await buildProject(ctx, { creatorId: uploader.id })).id;
});
afterAll(async () => ctx?.close());

const photo = () => buildUpload(ctx, { projectId, creatorId: uploader.id });

const post = (uploadId: number | string, body: unknown, token?: string) =>
  api(ctx, {
    method: 'POST',
    url: `/api/upload/${uploadId}/comments`,
    token,
    payload: body === undefined ? undefined : (body as Record<string, unknown>),
  });
const patch = (id: number | string, body: unknown, token?: string) =>
  api(ctx, {
    method: 'PATCH',
    url: `/api/comment/${id}`,
    token,
    payload: body as Record<string, unknown>,
  });
const remove = (id: number | string, token?: string) =>
  api(ctx, { method: 'DELETE', url: `/api/comment/${id}`, token });
const thread = (uploadId: number | string, token?: string, query = '') =>
  api(ctx, { method: 'GET', url: `/api/upload/${uploadId}/comments${query}`, token });

async function comment(uploadId: number, text: string, who: Member): Promise<Comment> {
  const res = await post(uploadId, { body: text }, who.token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Comment>();
}

async function page(uploadId: number, who: Member = alice, query = ''): Promise<CommentPage> {
  const res = await thread(uploadId, who.token, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CommentPage>();
}

const storedCount = async (uploadId: number) =>
  (
    await ctx.db
      .selectFrom('uploads')
      .select('comments_count')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow()
  ).comments_count;

const commentRows = (uploadId: number) =>
  ctx.db.selectFrom('comments').selectAll().where('upload_id', '=', uploadId).execute();

/** The events and notifications a photo's comments made (upload events left out). */
async function commentActivity(uploadId: number) {
  const events = await ctx.db
    .selectFrom('events')
    .select(['kind', 'actor_id', 'comment_id'])
    .where('upload_id', '=', uploadId)
    .where('kind', 'in', ['comment.added', 'mention'])
    .orderBy('id')
    .execute();
  const notifications = await ctx.db
    .selectFrom('notifications')
    .select(['user_id', 'kind', 'reason'])
    .where('upload_id', '=', uploadId)
    .where('kind', 'in', ['comment.added', 'mention'])
    .orderBy('id')
    .execute();
  return { events, notifications };
}

function expectError(
  res: { statusCode: number; json: <T>() => T },
  status: number,
  message: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.json<ErrorResponse>().message).toBe(message);
}

describe('GET /api/upload/{id}/comments', () => {
  it('answers 401 signed out', async () => {
    const id = await photo();
    expectError(await thread(id), 401, 'Please sign in to continue.');
  });

  it('answers 404 for an unknown upload and 400 for a bad id or limit', async () => {
    expectError(await thread(999_999, alice.token), 404, 'Upload was not found.');
    expect((await thread('abc', alice.token)).statusCode).toBe(400);
    expect((await thread('0', alice.token)).json<ErrorResponse>().message).toMatch(/positive/);
    const id = await photo();
    expect((await thread(id, alice.token, '?limit=0')).json<ErrorResponse>().message).toBe(
      'limit must be at least 1.',
    );
    expect((await thread(id, alice.token, '?limit=101')).statusCode).toBe(400);
    expect((await thread(id, alice.token, '?after=x')).json<ErrorResponse>().message).toBe(
      'after must be a comment id.',
    );
  });

  it('answers an empty thread', async () => {
    const id = await photo();
    expect(await page(id)).toEqual({ comments: [], count: 0, next: null });
  });

  it('pages oldest first with a keyset cursor, and counts the whole thread', async () => {
    const id = await photo();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i += 1)
      ids.push(await buildComment(ctx, { uploadId: id, authorId: bob.id, body: `Note ${i}` }));
    const first = await page(id, alice, '?limit=2');
    expect(first.comments.map((c) => c.body)).toEqual(['Note 1', 'Note 2']);
    expect(first).toMatchObject({ count: 5, next: ids[1] });
    const second = await page(id, alice, `?limit=2&after=${first.next}`);
    expect(second.comments.map((c) => c.body)).toEqual(['Note 3', 'Note 4']);
    const last = await page(id, alice, `?limit=2&after=${second.next}`);
    expect(last.comments.map((c) => c.body)).toEqual(['Note 5']);
    expect(last.next).toBeNull();
    // Exactly a page left: no next.
    expect((await page(id, alice, `?limit=3&after=${first.next}`)).next).toBeNull();
    expect((await page(id)).comments).toHaveLength(5);
  });
});

describe('POST /api/upload/{id}/comments', () => {
  it('answers 401 signed out and writes nothing', async () => {
    const id = await photo();
    expect((await post(id, { body: 'Hello' })).statusCode).toBe(401);
    expect(await commentRows(id)).toEqual([]);
  });

  it('answers 401 to a deactivated member’s old session', async () => {
    const gone = await signedInUser(ctx);
    const off = await api(ctx, {
      method: 'DELETE',
      url: `/api/user/${gone.id}`,
      token: admin.token,
    });
    expect(off.statusCode).toBe(200);
    const id = await photo();
    expectError(
      await post(id, { body: 'Still here?' }, gone.token),
      401,
      'Your session has ended. Please sign in again.',
    );
    expect((await thread(id, gone.token)).statusCode).toBe(401);
    expect(await commentRows(id)).toEqual([]);
  });

  it('lets any member comment: 201 with the comment, the text trimmed and the count up', async () => {
    const id = await photo();
    const before = Date.now();
    const res = await post(id, { body: '  Crack at left,\nsee the corner.  ' }, alice.token);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<Comment>();
    expect(created).toMatchObject({
      uploadId: id,
      author: { id: alice.id, firstname: 'Alice', lastname: 'Archer', active: true },
      body: 'Crack at left,\nsee the corner.',
      editedAt: null,
      mentions: [],
      canEdit: true,
      canDelete: true,
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await storedCount(id)).toBe(1);
    expect(await page(id)).toMatchObject({ count: 1, comments: [created] });
    const full = await api(ctx, { method: 'GET', url: `/api/upload/full/${id}`, token: bob.token });
    expect(full.statusCode).toBe(200);
  });

  it('keeps HTML as text, exactly as written', async () => {
    const id = await photo();
    const html = '<script>alert(1)</script> <img src=x onerror=alert(2)> &amp; **bold**';
    expect((await comment(id, html, bob)).body).toBe(html);
    expect((await page(id)).comments[0]?.body).toBe(html);
  });

  it('refuses bad text with 400 and a message, writing nothing', async () => {
    const id = await photo();
    const cases: [unknown, string][] = [
      [{ body: '' }, 'Write something before sending.'],
      [{ body: '   \n\t ' }, 'Write something before sending.'],
      [
        { body: 'x'.repeat(commentLimits.bodyMax + 1) },
        'A comment must be at most 2000 characters.',
      ],
      [{ body: 'bell\u0007' }, 'The comment must not contain control characters.'],
      [{ body: 'x\ud800 @Alice Archer' }, 'The comment must be valid text.'],
      [{ body: 42 }, 'The comment must be text.'],
      [{}, 'The comment text is required.'],
    ];
    for (const [body, message] of cases) {
      const res = await post(id, body, alice.token);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<ErrorResponse>().message).toContain(message);
    }
    expect(
      (await post(id, { body: 'x'.repeat(commentLimits.bodyMax) }, alice.token)).statusCode,
    ).toBe(201);
    expect(await storedCount(id)).toBe(1);
    expect((await commentActivity(id)).events).toHaveLength(1);
  });

  it('answers 404 for an unknown upload and 400 for a bad id', async () => {
    expectError(await post(999_999, { body: 'Hi' }, alice.token), 404, 'Upload was not found.');
    expect((await post('1e0', { body: 'Hi' }, alice.token)).statusCode).toBe(400);
  });

  it('refuses a comment on a photo of an archived project with 409, leaving no trace', async () => {
    const project = await buildProject(ctx, { creatorId: uploader.id });
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: uploader.id });
    await buildComment(ctx, { uploadId: id, authorId: bob.id, body: 'Before the archive' });
    await archiveProject(ctx, project.id);
    const res = await post(id, { body: '@Uma Uploader after the archive' }, alice.token);
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'project_archived',
      message: expect.stringMatching(/archived, so its comments are read-only/),
    });
    expect((await commentRows(id)).map((r) => r.body)).toEqual(['Before the archive']);
    expect(await storedCount(id)).toBe(1);
    const activity = await commentActivity(id);
    expect(activity.events).toHaveLength(1);
    expect(activity.notifications).toEqual([
      { user_id: uploader.id, kind: 'comment.added', reason: 'uploader' },
    ]);
    // Still readable, and nobody may change it.
    const read = await page(id, bob);
    expect(read.comments[0]).toMatchObject({ canEdit: false, canDelete: false });
  });

  it('leaves no event and no notification when the text is refused', async () => {
    const id = await photo();
    const res = await post(id, { body: `@Alice Archer ${'x'.repeat(2000)}` }, bob.token);
    expect(res.statusCode).toBe(400);
    expect(await commentActivity(id)).toEqual({ events: [], notifications: [] });
  });
});

describe('mentions and notifications', () => {
  it('stores the active members a comment names and notifies them and the uploader', async () => {
    const zoe = await buildUser(ctx, { firstname: 'Zoë', lastname: 'Müller' });
    const dora = await buildUser(ctx, { firstname: 'Dora', lastname: 'Gone', isActive: false });
    const id = await photo();
    const created = await comment(
      id,
      '@zoe muller and @Dora Gone and @Nobody Here, mail alice@example.com or @Alice Archer.',
      bob,
    );
    expect(created.mentions).toEqual(
      [
        { id: alice.id, firstname: 'Alice', lastname: 'Archer', active: true },
        { id: zoe.id, firstname: 'Zoë', lastname: 'Müller', active: true },
      ].sort((a, b) => a.id - b.id),
    );
    const stored = await ctx.db
      .selectFrom('comment_mentions')
      .select('user_id')
      .where('comment_id', '=', created.id)
      .orderBy('user_id')
      .execute();
    expect(stored.map((r) => r.user_id)).toEqual([alice.id, zoe.id].sort((a, b) => a - b));
    expect(stored.map((r) => r.user_id)).not.toContain(dora.id);

    const { events, notifications } = await commentActivity(id);
    expect(events.map((e) => [e.kind, e.actor_id, e.comment_id])).toEqual([
      ['comment.added', bob.id, created.id],
      ['mention', bob.id, created.id],
      ['mention', bob.id, created.id],
    ]);
    expect(notifications).toEqual(
      expect.arrayContaining([
        { user_id: uploader.id, kind: 'comment.added', reason: 'uploader' },
        { user_id: zoe.id, kind: 'mention', reason: 'mentioned' },
        { user_id: alice.id, kind: 'mention', reason: 'mentioned' },
      ]),
    );
    expect(notifications).toHaveLength(3);
  });

  it('shows in the mentioned member’s and the uploader’s notifications, unread', async () => {
    const zed = await signedInUser(ctx, { firstname: 'Zed', lastname: 'Zimmer' });
    const id = await photo();
    const unread = async (who: Member) =>
      (
        await api(ctx, { method: 'GET', url: '/api/notifications/unread', token: who.token })
      ).json<UnreadCount>().count;
    const [zedBefore, uploaderBefore] = [await unread(zed), await unread(uploader)];
    const created = await comment(id, 'Please look, @Zed Zimmer: the rebar at left', bob);
    expect(await unread(zed)).toBe(zedBefore + 1);
    expect(await unread(uploader)).toBe(uploaderBefore + 1);

    const list = async (who: Member) => {
      const res = await api(ctx, { method: 'GET', url: '/api/notifications', token: who.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<NotificationPage>().notifications.filter((n) => n.upload?.id === id);
    };
    expect(await list(zed)).toEqual([
      expect.objectContaining({
        kind: 'mention',
        reason: 'mentioned',
        read: false,
        actor: { id: bob.id, firstname: 'Bob', lastname: 'Builder', active: true },
        excerpt: created.body,
      }),
    ]);
    expect(await list(uploader)).toEqual([
      expect.objectContaining({ kind: 'comment.added', reason: 'uploader', read: false }),
    ]);
    // The writer hears nothing of their own comment.
    expect(await list(bob)).toEqual([]);
  });

  it("tells the project's followers and creator of a comment, and a mentioned one only of the mention", async () => {
    const creator = await signedInUser(ctx, { firstname: 'Cora', lastname: 'Creator' });
    const fan = await signedInUser(ctx, { firstname: 'Finn', lastname: 'Follower' });
    const project = await buildProject(ctx, { creatorId: creator.id });
    for (const who of [fan, alice]) {
      const res = await api(ctx, {
        method: 'GET',
        url: `/api/project/${project.id}/follow`,
        token: who.token,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: uploader.id });
    await comment(id, 'Rebar spacing ok? @Alice Archer', bob);
    expect((await commentActivity(id)).notifications).toEqual(
      expect.arrayContaining([
        { user_id: uploader.id, kind: 'comment.added', reason: 'uploader' },
        { user_id: creator.id, kind: 'comment.added', reason: 'creator' },
        { user_id: fan.id, kind: 'comment.added', reason: 'follower' },
        { user_id: alice.id, kind: 'mention', reason: 'mentioned' },
      ]),
    );
    expect((await commentActivity(id)).notifications).toHaveLength(4);
  });

  it('gives a mentioned uploader the mention only, and nobody their own comment', async () => {
    const id = await photo();
    await comment(id, 'Thanks @Uma Uploader', alice);
    expect((await commentActivity(id)).notifications).toEqual([
      { user_id: uploader.id, kind: 'mention', reason: 'mentioned' },
    ]);
    const own = await photo();
    await comment(own, 'Note to self, @Uma Uploader', uploader);
    expect((await commentActivity(own)).notifications).toEqual([]);
  });

  it('shows a mentioned member who was deactivated later as inactive', async () => {
    const later = await buildUser(ctx, { firstname: 'Lena', lastname: 'Later' });
    const id = await photo();
    const created = await comment(id, 'ask @Lena Later', alice);
    expect(created.mentions).toEqual([
      { id: later.id, firstname: 'Lena', lastname: 'Later', active: true },
    ]);
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', later.id).execute();
    expect((await page(id)).comments[0]?.mentions).toEqual([
      { id: later.id, firstname: 'Lena', lastname: 'Later', active: false },
    ]);
  });
});

describe('a full name two active members share', () => {
  let first: Member;
  let second: Member;
  beforeAll(async () => {
    first = await signedInUser(ctx, { firstname: 'Sam', lastname: 'Twofold' });
    second = await signedInUser(ctx, { firstname: 'Sam', lastname: 'Twofold' });
  });
  const ids = (c: Comment) => c.mentions.map((m) => m.id);
  const mentionNotices = async (uploadId: number) =>
    (await commentActivity(uploadId)).notifications.filter((n) => n.kind === 'mention');

  it('mentions nobody without a pick (the uploader still hears of the comment)', async () => {
    const id = await photo();
    const created = await comment(id, '@Sam Twofold can you check?', bob);
    expect(created.mentions).toEqual([]);
    expect(await mentionNotices(id)).toEqual([]);
    expect((await commentActivity(id)).notifications).toEqual([
      { user_id: uploader.id, kind: 'comment.added', reason: 'uploader' },
    ]);
  });

  it('mentions the member picked in the @ list, and only them', async () => {
    for (const picked of [first, second]) {
      const id = await photo();
      const res = await post(
        id,
        { body: '@Sam Twofold can you check?', mentions: [picked.id] },
        bob.token,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(ids(res.json<Comment>())).toEqual([picked.id]);
      expect(await mentionNotices(id)).toEqual([
        { user_id: picked.id, kind: 'mention', reason: 'mentioned' },
      ]);
    }
  });

  it('leaves a name only one member has as it was, and ignores picks the text does not name', async () => {
    const id = await photo();
    const res = await post(
      id,
      { body: 'ask @Alice Archer', mentions: [first.id, second.id, 999_999] },
      bob.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(ids(res.json<Comment>())).toEqual([alice.id]);
    expect((await mentionNotices(id)).map((n) => n.user_id)).toEqual([alice.id]);
  });

  it('keeps the pick through an edit, and takes a new one', async () => {
    const id = await photo();
    const res = await post(id, { body: '@Sam Twofold look', mentions: [second.id] }, bob.token);
    const created = res.json<Comment>();
    expect(ids(created)).toEqual([second.id]);
    // Edited without picks: the member the comment named stays named.
    const kept = await patch(created.id, { body: '@Sam Twofold look, please' }, bob.token);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(ids(kept.json<Comment>())).toEqual([second.id]);
    expect((await mentionNotices(id)).map((n) => n.user_id)).toEqual([second.id]);
    // Picked anew: the other one, told; the first pick is dropped, with its notification.
    const changed = await patch(
      created.id,
      { body: '@Sam Twofold look, please!', mentions: [first.id] },
      bob.token,
    );
    expect(ids(changed.json<Comment>())).toEqual([first.id]);
    expect((await mentionNotices(id)).map((n) => n.user_id)).toEqual([first.id]);
  });

  it('refuses picks that are not a list of member ids, or too many, with 400', async () => {
    const id = await photo();
    const cases: [unknown, string][] = [
      ['x', 'mentions must be a list of member ids.'],
      [['x'], 'mentions must hold member ids.'],
      [[0], 'A picked member must be a positive number.'],
      [
        Array.from({ length: commentLimits.pickedMax + 1 }, (_, i) => i + 1),
        `A comment can pick at most ${commentLimits.pickedMax} members to mention.`,
      ],
    ];
    for (const [mentions, message] of cases)
      expectError(await post(id, { body: 'Hi', mentions }, bob.token), 400, message);
    expect(await storedCount(id)).toBe(0);
  });
});

describe('PATCH /api/comment/{id}', () => {
  it('lets the author change the text: marked edited, mentions recomputed', async () => {
    const carl = await buildUser(ctx, { firstname: 'Carl', lastname: 'Carpenter' });
    const id = await photo();
    const created = await comment(id, 'ask @Alice Archer', bob);
    const before = await commentActivity(id);
    const res = await patch(created.id, { body: ' ask @Carl Carpenter instead ' }, bob.token);
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json<Comment>();
    expect(edited).toMatchObject({
      id: created.id,
      body: 'ask @Carl Carpenter instead',
      createdAt: created.createdAt,
      mentions: [{ id: carl.id, firstname: 'Carl', lastname: 'Carpenter', active: true }],
    });
    expect(edited.editedAt).not.toBeNull();
    expect(Date.parse(edited.editedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(created.createdAt));
    // Carl is told; Alice's mention is dropped, with its event and her notification.
    const after = await commentActivity(id);
    expect(after.notifications).toEqual([
      ...before.notifications.filter((n) => n.user_id !== alice.id),
      { user_id: carl.id, kind: 'mention', reason: 'mentioned' },
    ]);
    expect(before.notifications.map((n) => n.user_id)).toContain(alice.id);
    expect(after.events.map((e) => e.kind)).toEqual(['comment.added', 'mention']);
    const stored = await ctx.db
      .selectFrom('comment_mentions')
      .select('user_id')
      .where('comment_id', '=', created.id)
      .execute();
    expect(stored).toEqual([{ user_id: carl.id }]);
    expect(await storedCount(id)).toBe(1);

    // Keeping a mention notifies nobody again.
    await patch(created.id, { body: 'ask @Carl Carpenter, please' }, bob.token);
    expect((await commentActivity(id)).notifications).toHaveLength(after.notifications.length);
  });

  it('keeps only the new text in its events and notifications', async () => {
    const id = await photo();
    const created = await comment(id, 'the gate code is Quokka-Wombat, @Alice Archer', bob);
    const res = await patch(
      created.id,
      { body: 'ask me for the gate code, @Alice Archer' },
      bob.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const excerpts = await ctx.db
      .selectFrom('events')
      .select(['kind', 'data'])
      .where('comment_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(
      excerpts.map((e) => [e.kind, (JSON.parse(e.data) as { excerpt: string }).excerpt]),
    ).toEqual([
      ['comment.added', 'ask me for the gate code, @Alice Archer'],
      ['mention', 'ask me for the gate code, @Alice Archer'],
    ]);
    for (const who of [alice, uploader]) {
      const list = await api(ctx, { method: 'GET', url: '/api/notifications', token: who.token });
      const mine = list.json<NotificationPage>().notifications.filter((n) => n.upload?.id === id);
      expect(mine.map((n) => n.excerpt)).toEqual(['ask me for the gate code, @Alice Archer']);
    }
    const timeline = await api(ctx, { method: 'GET', url: '/api/events', token: alice.token });
    expect(timeline.body).not.toContain('Quokka');
  });

  it('changes nothing when the text is the same', async () => {
    const id = await photo();
    const created = await comment(id, 'Same', alice);
    const res = await patch(created.id, { body: 'Same ' }, alice.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<Comment>().editedAt).toBeNull();
  });

  it('refuses another member and an admin with 403, and signed out with 401', async () => {
    const id = await photo();
    const created = await comment(id, 'Mine', alice);
    for (const who of [bob, admin, uploader])
      expectError(
        await patch(created.id, { body: 'Theirs' }, who.token),
        403,
        'Only the author of this comment can edit it.',
      );
    expect((await patch(created.id, { body: 'Anon' })).statusCode).toBe(401);
    expect((await page(id)).comments[0]).toMatchObject({ body: 'Mine', editedAt: null });
  });

  it('answers 400 for bad text or id and 404 for an unknown comment', async () => {
    const id = await photo();
    const created = await comment(id, 'Mine', alice);
    expectError(
      await patch(created.id, { body: ' ' }, alice.token),
      400,
      'Write something before sending.',
    );
    expect((await patch('abc', { body: 'x' }, alice.token)).statusCode).toBe(400);
    expectError(await patch(999_999, { body: 'x' }, alice.token), 404, 'Comment was not found.');
  });

  it('answers 409 once the project is archived', async () => {
    const project = await buildProject(ctx, { creatorId: uploader.id });
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: uploader.id });
    const created = await comment(id, 'Before', alice);
    await archiveProject(ctx, project.id);
    expect((await patch(created.id, { body: 'After' }, alice.token)).statusCode).toBe(409);
    expect((await remove(created.id, alice.token)).statusCode).toBe(409);
    expect((await page(id)).comments[0]?.body).toBe('Before');
    expect(await storedCount(id)).toBe(1);
  });
});

describe('DELETE /api/comment/{id}', () => {
  it('lets the author delete: 204, gone from the thread, the count down', async () => {
    const id = await photo();
    const created = await comment(id, 'Oops @Bob Builder', alice);
    await comment(id, 'Stays', bob);
    const res = await remove(created.id, alice.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await page(id)).toMatchObject({ count: 1, comments: [{ body: 'Stays' }] });
    expect(await storedCount(id)).toBe(1);
    const mentions = await ctx.db
      .selectFrom('comment_mentions')
      .select('user_id')
      .where('comment_id', '=', created.id)
      .execute();
    expect(mentions).toEqual([]);
    expectError(await remove(created.id, alice.token), 404, 'Comment was not found.');
  });

  it('takes its events and their notifications with it: its text is kept nowhere', async () => {
    const id = await photo();
    const kept = await comment(id, 'Kept, @Alice Archer', bob);
    const unread = async () =>
      (
        await api(ctx, { method: 'GET', url: '/api/notifications/unread', token: alice.token })
      ).json<UnreadCount>().count;
    const before = await unread();
    const secret = await comment(id, 'the gate code is Quokka-Wombat, @Alice Archer', bob);
    expect(await unread()).toBe(before + 1);
    expect((await remove(secret.id, bob.token)).statusCode).toBe(204);
    expect(await unread()).toBe(before);
    const left = await ctx.db
      .selectFrom('events')
      .select(['comment_id', 'data'])
      .where('upload_id', '=', id)
      .where('kind', 'in', ['comment.added', 'mention'])
      .execute();
    expect(left.map((e) => e.comment_id)).toEqual([kept.id, kept.id]);
    expect(JSON.stringify(left)).not.toContain('Quokka');
    expect((await commentActivity(id)).notifications).toEqual([
      { user_id: uploader.id, kind: 'comment.added', reason: 'uploader' },
      { user_id: alice.id, kind: 'mention', reason: 'mentioned' },
    ]);
    for (const who of [alice, uploader, bob]) {
      for (const url of ['/api/events', '/api/notifications']) {
        const res = await api(ctx, { method: 'GET', url, token: who.token });
        expect(res.statusCode).toBe(200);
        expect(res.body, `${url} for ${who.id}`).not.toContain('Quokka');
      }
    }
  });

  it('lets an admin delete anyone’s comment, and shows them that they can', async () => {
    const id = await photo();
    const created = await comment(id, 'Spam', bob);
    expect((await page(id, admin)).comments[0]).toMatchObject({ canEdit: false, canDelete: true });
    expect((await page(id, alice)).comments[0]).toMatchObject({ canEdit: false, canDelete: false });
    expect((await remove(created.id, admin.token)).statusCode).toBe(204);
    expect(await storedCount(id)).toBe(0);
  });

  it('refuses another member (even the uploader) with 403 and signed out with 401', async () => {
    const id = await photo();
    const created = await comment(id, 'Mine', alice);
    for (const who of [bob, uploader])
      expectError(
        await remove(created.id, who.token),
        403,
        'Only the author of this comment or an admin can delete it.',
      );
    expect((await remove(created.id)).statusCode).toBe(401);
    expect((await remove('-1', alice.token)).statusCode).toBe(400);
    expect(await storedCount(id)).toBe(1);
  });
});

describe('a deleted photo', () => {
  it('takes its comments and their mentions with it', async () => {
    const id = await photo();
    const a = await comment(id, 'First @Alice Archer', bob);
    await comment(id, 'Second', alice);
    const res = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${id}`,
      token: uploader.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await commentRows(id)).toEqual([]);
    const mentions = await ctx.db
      .selectFrom('comment_mentions')
      .selectAll()
      .where('comment_id', '=', a.id)
      .execute();
    expect(mentions).toEqual([]);
    expectError(await thread(id, alice.token), 404, 'Upload was not found.');
    expectError(await patch(a.id, { body: 'x' }, bob.token), 404, 'Comment was not found.');
  });
});

describe('GET /api/user/mentionable', () => {
  let mentionCtx: TestContext;
  let viewer: Member;
  const get = (q: string | undefined, token?: string) =>
    api(mentionCtx, {
      method: 'GET',
      url: `/api/user/mentionable${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`,
      token,
    });
  const names = async (q?: string) => {
    const res = await get(q, viewer.token);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<{ firstname: string; lastname: string }[]>()
      .map((p) => `${p.firstname} ${p.lastname}`);
  };

  beforeAll(async () => {
    mentionCtx = await createTestContext();
    viewer = await signedInUser(mentionCtx, { firstname: 'Zack', lastname: 'Viewer' });
    for (const [firstname, lastname] of [
      ['Zoë', 'Müller'],
      ['zoltan', 'Abel'],
      ['Ann', 'Lee'],
      ['Ann', 'Leeds'],
      ['Émile', 'Zola'],
    ])
      await buildUser(mentionCtx, { firstname, lastname });
    await buildUser(mentionCtx, { firstname: 'Zed', lastname: 'Deactivated', isActive: false });
  });
  afterAll(async () => mentionCtx?.close());

  it('answers 401 signed out and 400 for a long q', async () => {
    expect((await get('a')).statusCode).toBe(401);
    expectError(await get('x'.repeat(81), viewer.token), 400, 'q must be at most 80 characters.');
  });

  it('matches first, last or full name by prefix, accents and case ignored, by name', async () => {
    // Zola by last name; É sorts with E, z with Z.
    expect(await names('zo')).toEqual(['Émile Zola', 'Zoë Müller', 'zoltan Abel']);
    expect(await names('ZOE M')).toEqual(['Zoë Müller']);
    expect(await names('zola')).toEqual(['Émile Zola']);
    expect(await names('emi')).toEqual(['Émile Zola']);
    expect(await names('mull')).toEqual(['Zoë Müller']);
    expect(await names('ann lee')).toEqual(['Ann Lee', 'Ann Leeds']);
    expect(await names('nobody')).toEqual([]);
  });

  it('leaves out the viewer and deactivated members, and answers at most 10', async () => {
    expect(await names('z')).not.toContain('Zack Viewer');
    expect(await names('zed')).toEqual([]);
    expect(await names()).toHaveLength(5);
    for (let i = 0; i < 8; i += 1)
      await buildUser(mentionCtx, { firstname: `Many${i}`, lastname: 'M' });
    expect(await names('')).toHaveLength(commentLimits.mentionableMax);
  });
});
