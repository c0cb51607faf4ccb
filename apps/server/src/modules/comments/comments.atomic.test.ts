// A comment, its count, its mentions, its events and its notifications commit together or not
// at all: a failure in the events service (injected after it has written its rows) rolls the
// whole comment back. And comments written and deleted at once keep the count equal to the rows.
import type { Comment } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProject, buildUpload } from '../../../test/factories.js';
import type * as events from '../events/events.service.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';

const inject = vi.hoisted(() => ({ failComment: false, failMentions: false }));
vi.mock('../events/events.service.js', async (importOriginal) => {
  const actual = await importOriginal<typeof events>();
  return {
    ...actual,
    recordComment: async (...args: Parameters<typeof actual.recordComment>) => {
      const id = await actual.recordComment(...args);
      if (inject.failComment) throw new Error('injected failure after the comment events');
      return id;
    },
    recordMentions: async (...args: Parameters<typeof actual.recordMentions>) => {
      await actual.recordMentions(...args);
      if (inject.failMentions) throw new Error('injected failure after the mention events');
    },
  };
});

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let uploader: Member;
let alice: Member;
let bob: Member;
let projectId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  uploader = await signedInUser(ctx, { firstname: 'Uma', lastname: 'Uploader' });
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Archer' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Builder' });
  projectId = (await buildProject(ctx, { creatorId: uploader.id })).id;
});
afterAll(async () => ctx?.close());

const post = (uploadId: number, body: string, token: string) =>
  api(ctx, { method: 'POST', url: `/api/upload/${uploadId}/comments`, token, payload: { body } });

/** Everything a photo's comments wrote. */
async function traces(uploadId: number) {
  const comments = await ctx.db
    .selectFrom('comments')
    .select(['id', 'body', 'edited_at'])
    .where('upload_id', '=', uploadId)
    .execute();
  const ids = comments.map((c) => c.id);
  const mentions = ids.length
    ? await ctx.db
        .selectFrom('comment_mentions')
        .select('user_id')
        .where('comment_id', 'in', ids)
        .execute()
    : [];
  const events = await ctx.db
    .selectFrom('events')
    .select('kind')
    .where('upload_id', '=', uploadId)
    .where('kind', 'in', ['comment.added', 'mention'])
    .execute();
  const notifications = await ctx.db
    .selectFrom('notifications')
    .select(['user_id', 'kind'])
    .where('upload_id', '=', uploadId)
    .where('kind', 'in', ['comment.added', 'mention'])
    .execute();
  const { comments_count: count } = await ctx.db
    .selectFrom('uploads')
    .select('comments_count')
    .where('id', '=', uploadId)
    .executeTakeFirstOrThrow();
  return { comments, mentions, events, notifications, count };
}

describe('a comment whose events fail', () => {
  it('leaves no comment, count, mention, event or notification', async () => {
    const id = await buildUpload(ctx, { projectId, creatorId: uploader.id });
    inject.failComment = true;
    try {
      const res = await post(id, 'ask @Alice Archer', bob.token);
      expect(res.statusCode).toBe(500);
    } finally {
      inject.failComment = false;
    }
    expect(await traces(id)).toEqual({
      comments: [],
      mentions: [],
      events: [],
      notifications: [],
      count: 0,
    });
    // The same comment goes through once nothing fails.
    expect((await post(id, 'ask @Alice Archer', bob.token)).statusCode).toBe(201);
    const after = await traces(id);
    expect(after.count).toBe(1);
    expect(after.events).toHaveLength(2);
    expect(after.notifications).toHaveLength(2);
  });

  it('rolls an edit back with its new mentions', async () => {
    const id = await buildUpload(ctx, { projectId, creatorId: uploader.id });
    const res = await post(id, 'plain', bob.token);
    const created = res.json<Comment>();
    const before = await traces(id);
    inject.failMentions = true;
    try {
      const edit = await api(ctx, {
        method: 'PATCH',
        url: `/api/comment/${created.id}`,
        token: bob.token,
        payload: { body: 'now @Alice Archer' },
      });
      expect(edit.statusCode).toBe(500);
    } finally {
      inject.failMentions = false;
    }
    expect(await traces(id)).toEqual(before);
  });
});

describe('comments written and deleted at once', () => {
  it('keep the stored count equal to the rows', async () => {
    const id = await buildUpload(ctx, { projectId, creatorId: uploader.id });
    const authors = [alice, bob, uploader];
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(id, `note ${i} @Uma Uploader`, authors[i % 3]!.token),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(created.map(() => 201));
    const comments = created.map((r) => r.json<Comment>());
    const removed = await Promise.all(
      comments
        .filter((_, i) => i % 2 === 0)
        .map((c) => {
          const author = authors.find((a) => a.id === c.author.id)!;
          return api(ctx, { method: 'DELETE', url: `/api/comment/${c.id}`, token: author.token });
        }),
    );
    expect(removed.map((r) => r.statusCode)).toEqual(removed.map(() => 204));
    const { comments: rows, count } = await traces(id);
    expect(rows).toHaveLength(12);
    expect(count).toBe(12);
  });
});
