// Events and their notifications (issue 15), at the service level: who is notified of what (the
// notify matrix), how uploads close together fold into one notification, and that an event and
// its notifications commit with the change they record or not at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { archiveProject, buildProject, buildUpload, buildUser } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import { dtoPart, filePart, postUpload, uploadRowCount } from '../../../test/uploads.js';
import { markProject } from '../projects/projects.service.js';
import {
  EXCERPT_MAX,
  excerptOf,
  recordComment,
  recordEvent,
  recordMentions,
} from './events.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const MINUTE = 60_000;
const at = (base: number, minutes: number) => new Date(base + minutes * MINUTE).toISOString();

/** A member's notifications, oldest first, as the table holds them. */
function notificationsOf(userId: number) {
  return ctx.db
    .selectFrom('notifications')
    .select(['id', 'kind', 'reason', 'count', 'actor_id', 'project_id', 'upload_id', 'event_id'])
    .select((eb) => eb('read_at', 'is not', null).as('read'))
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

const follow = (userId: number, projectId: number) =>
  markProject(ctx.db, { userId, projectId, mark: 'follow' });

const mute = (userId: number, projectId: number) =>
  ctx.db
    .insertInto('project_mutes')
    .values({ user_id: userId, project_id: projectId, created_at: nowIso() })
    .execute();

const switchOff = (userId: number, kind: 'uploads' | 'comments' | 'mentions' | 'projects') =>
  ctx.db
    .insertInto('notification_settings')
    .values({
      user_id: userId,
      uploads: 1,
      comments: 1,
      mentions: 1,
      projects: 1,
      reports: 1,
      [kind]: 0,
      updated_at: nowIso(),
    })
    .execute();

async function countRows(table: 'events' | 'notifications'): Promise<number> {
  const row = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('who is notified of a project event', () => {
  it('notifies followers and the creator, never the actor, a non-follower, a deactivated, muting or switched-off member', async () => {
    const creator = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    const [follower, stranger, actor, deactivated, muting, noUploads] = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(() => buildUser(ctx)),
    );
    for (const u of [follower, actor, deactivated, muting, noUploads])
      await follow(u!.id, project.id);
    await ctx.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', deactivated!.id)
      .execute();
    await mute(muting!.id, project.id);
    await switchOff(noUploads!.id, 'uploads');

    const uploadId = await buildUpload(ctx, { projectId: project.id, creatorId: actor!.id });
    const expected = {
      kind: 'upload.added',
      count: 1,
      actor_id: actor!.id,
      project_id: project.id,
      upload_id: uploadId,
    };
    expect(await notificationsOf(creator.id)).toMatchObject([{ ...expected, reason: 'creator' }]);
    expect(await notificationsOf(follower!.id)).toMatchObject([
      { ...expected, reason: 'follower' },
    ]);
    for (const u of [stranger, actor, deactivated, muting, noUploads])
      expect(await notificationsOf(u!.id)).toEqual([]);

    // Uploads switched off is not projects switched off: an edit reaches that member.
    await writeTransaction(ctx.db, (trx) =>
      recordEvent(trx, { kind: 'project.edited', actorId: actor!.id, projectId: project.id }),
    );
    expect((await notificationsOf(noUploads!.id)).map((n) => n.kind)).toEqual(['project.edited']);
    expect((await notificationsOf(follower!.id)).map((n) => n.kind)).toEqual([
      'upload.added',
      'project.edited',
    ]);
    for (const u of [stranger, actor, deactivated, muting])
      expect(await notificationsOf(u!.id)).toEqual([]);
  });

  it('gives a creator who also follows one notification, as creator; none for their own upload', async () => {
    const creator = await buildUser(ctx);
    const follower = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    await follow(creator.id, project.id);
    await follow(follower.id, project.id);
    await buildUpload(ctx, { projectId: project.id, creatorId: follower.id });
    expect(await notificationsOf(creator.id)).toMatchObject([{ reason: 'creator', count: 1 }]);
    await buildUpload(ctx, { projectId: project.id, creatorId: creator.id });
    expect(await notificationsOf(creator.id)).toHaveLength(1);
    expect(await notificationsOf(follower.id)).toMatchObject([
      { reason: 'follower', actor_id: creator.id },
    ]);
  });

  it('a project switched off stops project events but not uploads', async () => {
    const creator = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    await switchOff(creator.id, 'projects');
    const actor = await buildUser(ctx);
    await writeTransaction(ctx.db, (trx) =>
      recordEvent(trx, { kind: 'project.archived', actorId: actor.id, projectId: project.id }),
    );
    expect(await notificationsOf(creator.id)).toEqual([]);
    await buildUpload(ctx, { projectId: project.id, creatorId: actor.id });
    expect((await notificationsOf(creator.id)).map((n) => n.kind)).toEqual(['upload.added']);
  });
});

describe('project events through the API', () => {
  it('records created, edited, archived and restored, each once, notifying followers and the creator', async () => {
    const creator = await signedInUser(ctx);
    const admin = await signedInUser(ctx, { isAdmin: true });
    const follower = await buildUser(ctx);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: creator.token,
      payload: { project: { name: 'Riverside Block C', location: 'Leeds' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const projectId = created.json<{ id: number }>().id;
    await follow(follower.id, projectId);
    const edit = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${projectId}`,
      token: creator.token,
      payload: { project: { name: 'Riverside Block C', location: 'Leeds', description: 'new' } },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    for (const action of ['archive', 'archive', 'restore', 'restore']) {
      const res = await api(ctx, {
        method: 'POST',
        url: `/api/project/${projectId}/${action}`,
        token: admin.token,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const events = await ctx.db
      .selectFrom('events')
      .select(['kind', 'actor_id'])
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { kind: 'project.created', actor_id: creator.id },
      { kind: 'project.edited', actor_id: creator.id },
      { kind: 'project.archived', actor_id: admin.id },
      { kind: 'project.restored', actor_id: admin.id },
    ]);
    // The creator hears of the admin's archive and restore, not of their own create and edit.
    expect((await notificationsOf(creator.id)).map((n) => [n.kind, n.reason])).toEqual([
      ['project.archived', 'creator'],
      ['project.restored', 'creator'],
    ]);
    expect((await notificationsOf(follower.id)).map((n) => n.kind)).toEqual([
      'project.edited',
      'project.archived',
      'project.restored',
    ]);
  });
});

describe('grouping uploads', () => {
  it('folds 12 uploads by one member into one notification with count 12, keyed by the newest', async () => {
    const follower = await buildUser(ctx);
    const actor = await buildUser(ctx);
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await buildUpload(ctx, { projectId: project.id, creatorId: actor.id }));
    const [only, ...rest] = await notificationsOf(follower.id);
    expect(rest).toEqual([]);
    const newest = await ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(only).toMatchObject({ count: 12, upload_id: ids.at(-1), event_id: newest.id });
    expect(
      await ctx.db
        .selectFrom('events')
        .select('id')
        .where('project_id', '=', project.id)
        .where('kind', '=', 'upload.added')
        .execute(),
    ).toHaveLength(12);
  });

  it('does not fold into a read notification, nor across actors or projects', async () => {
    const follower = await buildUser(ctx);
    const [a, b] = [await buildUser(ctx), await buildUser(ctx)];
    const p = await buildProject(ctx);
    const q = await buildProject(ctx);
    await follow(follower.id, p.id);
    await follow(follower.id, q.id);
    await buildUpload(ctx, { projectId: p.id, creatorId: a.id });
    await buildUpload(ctx, { projectId: p.id, creatorId: a.id });
    await ctx.db
      .updateTable('notifications')
      .set({ read_at: nowIso() })
      .where('user_id', '=', follower.id)
      .execute();
    await buildUpload(ctx, { projectId: p.id, creatorId: a.id });
    await buildUpload(ctx, { projectId: p.id, creatorId: b.id });
    await buildUpload(ctx, { projectId: q.id, creatorId: a.id });
    await buildUpload(ctx, { projectId: p.id, creatorId: a.id });
    expect(
      (await notificationsOf(follower.id)).map((n) => [n.actor_id, n.project_id, n.count, n.read]),
    ).toEqual([
      [a.id, p.id, 2, expect.anything()],
      [a.id, p.id, 2, expect.anything()],
      [b.id, p.id, 1, expect.anything()],
      [a.id, q.id, 1, expect.anything()],
    ]);
    const rows = await notificationsOf(follower.id);
    expect(rows.map((n) => Boolean(n.read))).toEqual([true, false, false, false]);
  });

  it('does not fold into a notification marked read while the upload waits for it', async () => {
    const follower = await buildUser(ctx);
    const actor = await buildUser(ctx);
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    await buildUpload(ctx, { projectId: project.id, creatorId: actor.id });
    // Mark all read, held uncommitted while the next upload's fan-out reaches the row (on
    // PostgreSQL it waits for the row's lock; SQLite runs one writer after the other).
    let marked!: () => void;
    let release!: () => void;
    const isMarked = new Promise<void>((resolve) => (marked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const reading = writeTransaction(ctx.db, async (trx) => {
      await trx
        .updateTable('notifications')
        .set({ read_at: nowIso() })
        .where('user_id', '=', follower.id)
        .where('read_at', 'is', null)
        .execute();
      marked();
      await released;
    });
    await isMarked;
    const uploading = buildUpload(ctx, { projectId: project.id, creatorId: actor.id });
    if (ctx.config.database.kind === 'postgres') {
      const waiting = async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
        return rows[0]?.n ?? 0;
      };
      const deadline = Date.now() + 10_000;
      while ((await waiting()) === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(await waiting()).toBeGreaterThan(0);
    }
    release();
    await reading;
    await uploading;
    expect((await notificationsOf(follower.id)).map((n) => [n.count, Boolean(n.read)])).toEqual([
      [1, true],
      [1, false],
    ]);
  });

  it('folds uploads made at once into one group per member, none lost or doubled', async () => {
    const follower = await buildUser(ctx);
    const [a, b] = [await buildUser(ctx), await buildUser(ctx)];
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    // The upload transactions hold the project's row, so concurrent ones fold one after another.
    await Promise.all(
      [a, a, a, a, a, a, b, b, b].map((u) =>
        buildUpload(ctx, { projectId: project.id, creatorId: u.id }),
      ),
    );
    const rows = await notificationsOf(follower.id);
    expect(
      rows.map((n) => [n.actor_id, n.count]).sort((x, y) => Number(x[1]) - Number(y[1])),
    ).toEqual([
      [b.id, 3],
      [a.id, 6],
    ]);
  });

  it('folds uploads each within 30 minutes of the last, and starts anew after a longer pause', async () => {
    const follower = await buildUser(ctx);
    const actor = await buildUser(ctx);
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    const base = Date.now() - 24 * 60 * MINUTE;
    for (const minutes of [0, 29, 58, 89, 90])
      await buildUpload(ctx, {
        projectId: project.id,
        creatorId: actor.id,
        createdAt: at(base, minutes),
      });
    expect((await notificationsOf(follower.id)).map((n) => n.count)).toEqual([3, 2]);
  });
});

describe('comments and mentions', () => {
  // The recorder is given a real comment row (its id is a foreign key); the comments module's
  // own tests write them through its service.
  async function comment(db: Database, uploadId: number, authorId: number): Promise<number> {
    const row = await db
      .insertInto('comments')
      .values({ upload_id: uploadId, author_id: authorId, body: 'x', created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function setting() {
    const creator = await buildUser(ctx);
    const uploader = await buildUser(ctx);
    const follower = await buildUser(ctx);
    const actor = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    await follow(follower.id, project.id);
    const uploadId = await buildUpload(ctx, { projectId: project.id, creatorId: uploader.id });
    // The upload's own notifications (the creator's, the follower's) are not what these are about.
    await ctx.db
      .deleteFrom('notifications')
      .where('user_id', 'in', [creator.id, follower.id])
      .execute();
    const write = (
      authorId: number,
      mentionedIds: number[],
      excerpt = 'Who fixes the crack at left?',
    ) =>
      writeTransaction(ctx.db, async (trx) =>
        recordComment(trx, {
          actorId: authorId,
          projectId: project.id,
          uploadId,
          commentId: await comment(trx, uploadId, authorId),
          uploadCreatorId: uploader.id,
          excerpt,
          mentionedIds,
        }),
      );
    return { creator, uploader, follower, actor, project, uploadId, write };
  }

  it("notifies the upload's author, the project's followers and its creator of a comment; the writer nothing", async () => {
    const s = await setting();
    await s.write(s.actor.id, []);
    const expected = {
      kind: 'comment.added',
      actor_id: s.actor.id,
      upload_id: s.uploadId,
      count: 1,
    };
    expect(await notificationsOf(s.uploader.id)).toMatchObject([
      { ...expected, reason: 'uploader' },
    ]);
    expect(await notificationsOf(s.creator.id)).toMatchObject([{ ...expected, reason: 'creator' }]);
    expect(await notificationsOf(s.follower.id)).toMatchObject([
      { ...expected, reason: 'follower' },
    ]);
    expect(await notificationsOf(s.actor.id)).toEqual([]);
    const [event] = await ctx.db
      .selectFrom('events')
      .select(['kind', 'data'])
      .where('upload_id', '=', s.uploadId)
      .where('kind', '=', 'comment.added')
      .execute();
    expect(JSON.parse(event!.data)).toEqual({
      uploadName: expect.any(String),
      excerpt: 'Who fixes the crack at left?',
    });
  });

  it('gives the mentioned the mention and not the comment; the author of their own comment nothing', async () => {
    const s = await setting();
    const other = await buildUser(ctx);
    await s.write(s.actor.id, [s.uploader.id, other.id, s.actor.id, other.id]);
    expect((await notificationsOf(s.uploader.id)).map((n) => [n.kind, n.reason])).toEqual([
      ['mention', 'mentioned'],
    ]);
    expect((await notificationsOf(other.id)).map((n) => [n.kind, n.reason])).toEqual([
      ['mention', 'mentioned'],
    ]);
    expect(await notificationsOf(s.actor.id)).toEqual([]);
    // One mention event per member named (the actor and the repeat left out).
    const mentions = await ctx.db
      .selectFrom('events')
      .select('data')
      .where('upload_id', '=', s.uploadId)
      .where('kind', '=', 'mention')
      .execute();
    expect(
      mentions.map((m) => (JSON.parse(m.data) as { mentionedId: number }).mentionedId),
    ).toEqual([s.uploader.id, other.id]);

    // The uploader's own comment: the follower it mentions gets the mention only, the creator the
    // comment, the uploader nothing.
    await ctx.db
      .deleteFrom('notifications')
      .where('user_id', 'in', [s.uploader.id, s.follower.id, s.creator.id])
      .execute();
    await s.write(s.uploader.id, [s.follower.id]);
    expect(await notificationsOf(s.uploader.id)).toEqual([]);
    expect((await notificationsOf(s.follower.id)).map((n) => n.kind)).toEqual(['mention']);
    expect((await notificationsOf(s.creator.id)).map((n) => [n.kind, n.reason])).toEqual([
      ['comment.added', 'creator'],
    ]);
  });

  it('tells each member once: the author as uploader even when following, the mentioned only of the mention', async () => {
    const s = await setting();
    await follow(s.uploader.id, s.project.id);
    await s.write(s.actor.id, [s.follower.id, s.creator.id]);
    expect((await notificationsOf(s.uploader.id)).map((n) => [n.kind, n.reason])).toEqual([
      ['comment.added', 'uploader'],
    ]);
    for (const u of [s.follower, s.creator])
      expect((await notificationsOf(u.id)).map((n) => [n.kind, n.reason])).toEqual([
        ['mention', 'mentioned'],
      ]);
    // A follower who wrote the comment hears nothing of it; the creator who took the photo is
    // told as its uploader.
    const own = await buildProject(ctx);
    const photo = await buildUpload(ctx, { projectId: own.id, creatorId: own.creatorId });
    await follow(s.follower.id, own.id);
    await writeTransaction(ctx.db, async (trx) =>
      recordComment(trx, {
        actorId: s.follower.id,
        projectId: own.id,
        uploadId: photo,
        commentId: await comment(trx, photo, s.follower.id),
        uploadCreatorId: own.creatorId,
        excerpt: 'Looks right',
        mentionedIds: [],
      }),
    );
    expect(
      (await notificationsOf(own.creatorId)).filter((n) => n.kind === 'comment.added'),
    ).toMatchObject([{ reason: 'uploader', upload_id: photo }]);
    expect((await notificationsOf(s.follower.id)).filter((n) => n.upload_id === photo)).toEqual([]);
  });

  it('leaves out followers who muted the project or switched comments off', async () => {
    const s = await setting();
    const [muting, noComments, gone] = [
      await buildUser(ctx),
      await buildUser(ctx),
      await buildUser(ctx),
    ];
    for (const u of [muting, noComments, gone]) await follow(u.id, s.project.id);
    await mute(muting.id, s.project.id);
    await switchOff(noComments.id, 'comments');
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', gone.id).execute();
    await switchOff(s.creator.id, 'comments');
    await s.write(s.actor.id, []);
    for (const u of [muting, noComments, gone, s.creator])
      expect(await notificationsOf(u.id)).toEqual([]);
    expect((await notificationsOf(s.follower.id)).map((n) => n.reason)).toEqual(['follower']);
  });

  it('leaves out deactivated, muting and switched-off members', async () => {
    const s = await setting();
    const [gone, muting, noMentions] = [
      await buildUser(ctx, { isActive: false }),
      await buildUser(ctx),
      await buildUser(ctx),
    ];
    await mute(muting.id, s.project.id);
    await switchOff(noMentions.id, 'mentions');
    await switchOff(s.uploader.id, 'comments');
    await s.write(s.actor.id, [gone.id, muting.id, noMentions.id]);
    for (const u of [gone, muting, noMentions, s.uploader])
      expect(await notificationsOf(u.id)).toEqual([]);
    // The events are the team's record all the same.
    expect(
      await ctx.db
        .selectFrom('events')
        .select('id')
        .where('upload_id', '=', s.uploadId)
        .where('kind', '=', 'mention')
        .execute(),
    ).toHaveLength(3);
  });

  it('records a mention per newly named member on an edit', async () => {
    const s = await setting();
    const commentId = await comment(ctx.db, s.uploadId, s.actor.id);
    const named = await buildUser(ctx);
    await writeTransaction(ctx.db, (trx) =>
      recordMentions(trx, {
        actorId: s.actor.id,
        projectId: s.project.id,
        uploadId: s.uploadId,
        commentId,
        excerpt: 'Edited: see this',
        mentionedIds: [named.id],
      }),
    );
    expect(await notificationsOf(named.id)).toMatchObject([
      { kind: 'mention', reason: 'mentioned', upload_id: s.uploadId },
    ]);
    expect(await notificationsOf(s.uploader.id)).toEqual([]);
  });

  it('keeps at most 140 characters of the comment, on one line', () => {
    expect(excerptOf('  line one\n\nline   two ')).toBe('line one line two');
    const long = 'é'.repeat(300);
    const cut = excerptOf(long);
    expect(Array.from(cut)).toHaveLength(EXCERPT_MAX);
    expect(cut.endsWith('…')).toBe(true);
    expect(excerptOf('a'.repeat(EXCERPT_MAX))).toBe('a'.repeat(EXCERPT_MAX));
  });
});

describe('atomicity', () => {
  it('a photo the pipeline refuses leaves no event and no notification', async () => {
    const member = await signedInUser(ctx);
    const follower = await buildUser(ctx);
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    const before = { events: await countRows('events'), notes: await countRows('notifications') };
    const corrupt = readFileSync(
      path.join(
        process.env.PHOTO_CORPUS_DIR ?? '/work/shared/fixtures/photos',
        'corrupted-truncated.jpg',
      ),
    );
    const truncated = (await jpegWithExif()).subarray(0, 400);
    for (const file of [corrupt, truncated]) {
      const res = await postUpload(ctx, member.token, [
        filePart(file),
        dtoPart({ name: '', description: '', projectId: project.id }),
      ]);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await countRows('events')).toBe(before.events);
    expect(await countRows('notifications')).toBe(before.notes);
    expect(await notificationsOf(follower.id)).toEqual([]);
  });

  it('an upload into an archived project leaves no event and no notification', async () => {
    const member = await signedInUser(ctx);
    const project = await buildProject(ctx);
    await follow(member.id, project.id);
    await archiveProject(ctx, project.id);
    const before = {
      events: await countRows('events'),
      notes: await countRows('notifications'),
      uploads: await uploadRowCount(ctx),
    };
    const res = await postUpload(ctx, member.token, [
      filePart(await jpegWithExif()),
      dtoPart({ name: '', description: '', projectId: project.id }),
    ]);
    expect(res.statusCode, res.body).toBe(409);
    expect(await countRows('events')).toBe(before.events);
    expect(await countRows('notifications')).toBe(before.notes);
    expect(await uploadRowCount(ctx)).toBe(before.uploads);
  });

  it('an error after recordEvent inside the transaction rolls the event and its notifications back', async () => {
    const follower = await buildUser(ctx);
    const actor = await buildUser(ctx);
    const project = await buildProject(ctx);
    await follow(follower.id, project.id);
    const uploadId = await buildUpload(ctx, { projectId: project.id, creatorId: actor.id });
    const before = { events: await countRows('events'), notes: await notificationsOf(follower.id) };
    await expect(
      writeTransaction(ctx.db, async (trx) => {
        await recordEvent(trx, {
          kind: 'upload.added',
          actorId: actor.id,
          projectId: project.id,
          uploadId,
        });
        await recordEvent(trx, {
          kind: 'project.edited',
          actorId: actor.id,
          projectId: project.id,
        });
        throw new Error('the change failed after its events');
      }),
    ).rejects.toThrow('the change failed after its events');
    expect(await countRows('events')).toBe(before.events);
    // Neither a new row nor the group's count moved.
    expect(await notificationsOf(follower.id)).toEqual(before.notes);
    expect(before.notes).toMatchObject([{ count: 1 }]);
  });
});
