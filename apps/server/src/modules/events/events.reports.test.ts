// Report events (issue 16): `report.created` notifies the project's followers and creator as a
// project event does (never the author, a deactivated member, one who muted the project or
// switched reports off), the timeline and the notifications show the report, and deleting the
// report takes its event and notifications along. Report rows are written directly here: these
// tests are about the events module, not the reports service.
import type { AppEvent, EventPage, NotificationPage } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso, writeTransaction } from '../../db/database.js';
import { buildProject, buildUser } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { markProject } from '../projects/projects.service.js';
import { recordEvent, recordReportCreated } from './events.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

/** A report row as the reports module would leave it once its PDF is ready. */
async function insertReport(projectId: number, authorId: number, title: string): Promise<number> {
  const now = nowIso();
  const row = await ctx.db
    .insertInto('reports')
    .values({
      project_id: projectId,
      author_id: authorId,
      type: 'daily',
      title,
      intro: '',
      team_name: '',
      time_zone: 'UTC',
      date_from: now.slice(0, 10),
      date_to: now.slice(0, 10),
      layout: 2,
      photo_count: 0,
      status: 'ready',
      error: null,
      pdf_key: null,
      pdf_bytes: null,
      pdf_pages: null,
      created_at: now,
      updated_at: now,
      generated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts a report and records its event, as the reports module does when the PDF is ready. */
async function makeReport(projectId: number, authorId: number, title: string) {
  const id = await insertReport(projectId, authorId, title);
  const eventId = await writeTransaction(ctx.db, (trx) =>
    recordReportCreated(trx, { id, projectId, authorId, title }),
  );
  return { id, eventId };
}

/** A member's notifications of report events, as the table holds them. */
function reportNotificationsOf(userId: number) {
  return ctx.db
    .selectFrom('notifications')
    .select(['kind', 'reason', 'actor_id', 'project_id', 'upload_id', 'event_id', 'count'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'report.created')
    .orderBy('id')
    .execute();
}

const follow = (userId: number, projectId: number) =>
  markProject(ctx.db, { userId, projectId, mark: 'follow' });

async function get<T>(url: string, token: string): Promise<T> {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

describe('who is notified of a new report', () => {
  it('notifies followers and the creator, never the author, a stranger, a deactivated, muting or reports-off member', async () => {
    const creator = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    const [follower, stranger, author, deactivated, muting, reportsOff, uploadsOff] =
      await Promise.all([0, 1, 2, 3, 4, 5, 6].map(() => buildUser(ctx)));
    for (const u of [follower, author, deactivated, muting, reportsOff, uploadsOff])
      await follow(u!.id, project.id);
    await ctx.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', deactivated!.id)
      .execute();
    await ctx.db
      .insertInto('project_mutes')
      .values({ user_id: muting!.id, project_id: project.id, created_at: nowIso() })
      .execute();
    const settings = (userId: number, off: 'reports' | 'uploads') => ({
      user_id: userId,
      uploads: 1,
      comments: 1,
      mentions: 1,
      projects: 1,
      reports: 1,
      [off]: 0,
      updated_at: nowIso(),
    });
    await ctx.db
      .insertInto('notification_settings')
      .values([settings(reportsOff!.id, 'reports'), settings(uploadsOff!.id, 'uploads')])
      .execute();

    const { eventId } = await makeReport(project.id, author!.id, 'Daily site report');
    const expected = {
      kind: 'report.created',
      actor_id: author!.id,
      project_id: project.id,
      upload_id: null,
      event_id: eventId,
      count: 1,
    };
    expect(await reportNotificationsOf(creator.id)).toEqual([{ ...expected, reason: 'creator' }]);
    expect(await reportNotificationsOf(follower!.id)).toEqual([
      { ...expected, reason: 'follower' },
    ]);
    // Another setting switched off does not silence reports.
    expect(await reportNotificationsOf(uploadsOff!.id)).toEqual([
      { ...expected, reason: 'follower' },
    ]);
    for (const u of [stranger, author, deactivated, muting, reportsOff])
      expect(await reportNotificationsOf(u!.id)).toEqual([]);

    const event = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      kind: 'report.created',
      actor_id: author!.id,
      project_id: project.id,
      upload_id: null,
      comment_id: null,
    });
    expect(event.report_id).not.toBeNull();
    expect(JSON.parse(event.data)).toEqual({ title: 'Daily site report' });
  });

  it('writes nothing when the caller’s transaction rolls back', async () => {
    const creator = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: creator.id });
    const author = await buildUser(ctx);
    const reportId = await insertReport(project.id, author.id, 'Rolled back');
    await expect(
      writeTransaction(ctx.db, async (trx) => {
        await recordReportCreated(trx, {
          id: reportId,
          projectId: project.id,
          authorId: author.id,
          title: 'Rolled back',
        });
        throw new Error('the PDF could not be stored');
      }),
    ).rejects.toThrow('the PDF could not be stored');
    const events = await ctx.db
      .selectFrom('events')
      .select('id')
      .where('report_id', '=', reportId)
      .execute();
    expect(events).toEqual([]);
    expect(await reportNotificationsOf(creator.id)).toEqual([]);
  });
});

describe('report events in the API', () => {
  it('shows the report (its current title) in /api/events and /api/notifications; other events have report null', async () => {
    const owner = await signedInUser(ctx);
    const author = await buildUser(ctx, { firstname: 'Aisha', lastname: 'Khan' });
    const project = await buildProject(ctx, { creatorId: owner.id, name: 'Riverside Block C' });
    await writeTransaction(ctx.db, (trx) =>
      recordEvent(trx, { kind: 'project.edited', actorId: author.id, projectId: project.id }),
    );
    const { id } = await makeReport(project.id, author.id, 'Defect list, level 2');
    // The title is read from the report as it is now.
    await ctx.db
      .updateTable('reports')
      .set({ title: 'Defect list, level 2 (final)' })
      .where('id', '=', id)
      .execute();

    const expected = {
      kind: 'report.created',
      actor: { id: author.id, firstname: 'Aisha', lastname: 'Khan', active: true },
      project: { id: project.id, name: 'Riverside Block C' },
      upload: null,
      excerpt: null,
      mentioned: null,
      count: 1,
      report: { id, title: 'Defect list, level 2 (final)' },
    };
    const timeline = await get<EventPage>(`/api/events?project=${project.id}`, owner.token);
    expect(timeline.events[0]).toMatchObject(expected);
    // Any other event has no report.
    expect(timeline.events[1]).toMatchObject({ kind: 'project.edited', report: null });

    const page = await get<NotificationPage>('/api/notifications', owner.token);
    expect(page.notifications).toHaveLength(2);
    expect(page.notifications[0]).toMatchObject({ ...expected, reason: 'creator', read: false });
    expect(page.notifications[1]).toMatchObject({ kind: 'project.edited', report: null });
  });

  it('deleting the report removes its event and its notifications', async () => {
    const owner = await signedInUser(ctx);
    const follower = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: owner.id });
    await follow(follower.id, project.id);
    const author = await buildUser(ctx);
    const kept = await makeReport(project.id, author.id, 'Safety walk');
    const gone = await makeReport(project.id, author.id, 'Daily site report');
    expect(await reportNotificationsOf(follower.id)).toHaveLength(2);

    await ctx.db.deleteFrom('reports').where('id', '=', gone.id).execute();

    const events = await ctx.db
      .selectFrom('events')
      .select('id')
      .where('kind', '=', 'report.created')
      .where('project_id', '=', project.id)
      .execute();
    expect(events.map((e) => e.id)).toEqual([kept.eventId]);
    expect((await reportNotificationsOf(follower.id)).map((n) => n.event_id)).toEqual([
      kept.eventId,
    ]);
    const timeline = await get<EventPage>(`/api/events?project=${project.id}`, owner.token);
    const reports = timeline.events.filter((e: AppEvent) => e.kind === 'report.created');
    expect(reports.map((e) => e.report)).toEqual([{ id: kept.id, title: 'Safety walk' }]);
    const page = await get<NotificationPage>('/api/notifications', owner.token);
    expect(page.notifications.map((n) => n.report)).toEqual([
      { id: kept.id, title: 'Safety walk' },
    ]);
  });
});
