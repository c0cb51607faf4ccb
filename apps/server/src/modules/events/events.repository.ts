import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The notification settings column that switches a kind of event off. */
export type SettingColumn = 'uploads' | 'comments' | 'mentions' | 'projects' | 'reports';

export interface NewEvent {
  kind: string;
  actorId: number;
  projectId: number;
  uploadId: number | null;
  commentId: number | null;
  /** The report of a `report.created` event; none unless given. */
  reportId?: number | null;
  data: Record<string, unknown>;
  at: string;
}

export async function insertEvent(trx: Database, event: NewEvent): Promise<number> {
  const row = await trx
    .insertInto('events')
    .values({
      kind: event.kind,
      actor_id: event.actorId,
      project_id: event.projectId,
      upload_id: event.uploadId,
      comment_id: event.commentId,
      report_id: event.reportId ?? null,
      data: JSON.stringify(event.data),
      created_at: event.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The upload's name, kept in its events so they still say what it was once it is deleted. */
export async function findUploadName(trx: Database, uploadId: number): Promise<string | null> {
  const row = await trx
    .selectFrom('uploads')
    .select('name')
    .where('id', '=', uploadId)
    .executeTakeFirst();
  return row?.name ?? null;
}

/** Who a notification of an event reaches, as candidates before the filters. */
export type Audience =
  /**
   * The project's followers and its creator (reason `creator` wins for a creator who follows),
   * but not the members in `except` (told of the event otherwise, or not at all).
   */
  | { kind: 'project'; except?: readonly number[] }
  /** One member, for a stated reason (the mentioned, the upload's author). */
  | { kind: 'member'; userId: number; reason: 'mentioned' | 'uploader' };

export interface Fanout {
  eventId: number;
  kind: string;
  actorId: number;
  projectId: number;
  uploadId: number | null;
  setting: SettingColumn;
  at: string;
}

// Parameters in a select list are cast: PostgreSQL would otherwise read them as text.
const int = (value: number | null) => sql`cast(${value} as integer)`;
const text = (value: string) => sql`cast(${value} as varchar(32))`;

/**
 * The members an event notifies (`user_id`, `reason`): the audience minus the actor, deactivated
 * members, those who muted the project and those who switched the kind off (no settings row: all
 * on), and for a project audience its `except`. One select, however many followers.
 */
function recipients(audience: Audience, f: Fanout) {
  const candidates =
    audience.kind === 'project'
      ? sql`select c.user_id,
              case when c.user_id = p.creator_id then 'creator' else 'follower' end as reason
            from (select user_id from project_follows where project_id = ${f.projectId}
                  union
                  select creator_id from projects where id = ${f.projectId}) c
            join projects p on p.id = ${f.projectId}`
      : sql`select ${int(audience.userId)} as user_id, ${text(audience.reason)} as reason`;
  const except = audience.kind === 'project' ? [...new Set(audience.except ?? [])] : [];
  return sql`select r.user_id, r.reason
    from (${candidates}) r
    join users u on u.id = r.user_id
    where u.is_active = 1
      and r.user_id <> ${f.actorId}
      ${except.length > 0 ? sql`and r.user_id not in (${sql.join(except)})` : sql``}
      and not exists (select 1 from project_mutes m
                      where m.user_id = r.user_id and m.project_id = ${f.projectId})
      and not exists (select 1 from notification_settings s
                      where s.user_id = r.user_id and ${sql.ref(`s.${f.setting}`)} = 0)`;
}

/**
 * Notifies the audience of one event, set-based: one `insert … select` (and, for uploads, one
 * `update` before it), whatever the number of recipients. With `group`, an `upload.added` folds
 * into the recipient's unread notification of uploads by the same actor to the same project
 * touched since `group.since` (count + 1, the newest event and upload); the insert then skips
 * whoever already holds the event. The update takes one row per member (the newest): two bumped
 * to one event would break the (user, event) key. Its outer `where` repeats the unread and window
 * tests: on PostgreSQL a row marked read by a transaction that commits while the update waits for
 * its lock is re-checked against those alone (the subquery keeps its older snapshot), so it is
 * left read, and the insert then gives that member a notification of their own.
 */
export async function notify(
  trx: Database,
  audience: Audience,
  f: Fanout,
  group?: { since: string },
): Promise<void> {
  if (group)
    await sql`update notifications
      set count = count + 1, event_id = ${f.eventId}, upload_id = ${f.uploadId},
          updated_at = ${f.at}
      where id in (
        select max(n.id) from notifications n
        where n.user_id in (select g.user_id from (${recipients(audience, f)}) g)
          and n.project_id = ${f.projectId}
          and n.actor_id = ${f.actorId}
          and n.kind = ${f.kind}
          and n.read_at is null
          and n.updated_at >= ${group.since}
        group by n.user_id)
        and read_at is null
        and updated_at >= ${group.since}`.execute(trx);
  await sql`insert into notifications
      (user_id, event_id, kind, reason, actor_id, project_id, upload_id, count,
       created_at, updated_at)
    select r.user_id, ${int(f.eventId)}, ${text(f.kind)}, r.reason, ${int(f.actorId)},
           ${int(f.projectId)}, ${int(f.uploadId)}, 1, ${text(f.at)}, ${text(f.at)}
    from (${recipients(audience, f)}) r
    where not exists (select 1 from notifications held
                      where held.user_id = r.user_id and held.event_id = ${f.eventId})`.execute(
    trx,
  );
}

/** A comment's events (`comment.added` and its mentions), with what they keep. */
export function findCommentEvents(trx: Database, commentId: number) {
  return trx
    .selectFrom('events')
    .select(['id', 'kind', 'data'])
    .where('comment_id', '=', commentId)
    .orderBy('id')
    .execute();
}

export async function setEventData(
  trx: Database,
  id: number,
  data: Record<string, unknown>,
): Promise<void> {
  await trx
    .updateTable('events')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', id)
    .execute();
}

/** Deletes events; their notifications go with them (`on delete cascade`). */
export async function deleteEvents(trx: Database, ids: number[]): Promise<void> {
  if (ids.length > 0) await trx.deleteFrom('events').where('id', 'in', ids).execute();
}

// ---- reading ---------------------------------------------------------------------------------

/**
 * An event with what it names, as it is now: the upload columns are null once it is deleted, the
 * report columns for any event but `report.created` (a deleted report takes its events along).
 */
function eventViews(db: Database) {
  return db
    .selectFrom('events as e')
    .innerJoin('users as a', 'a.id', 'e.actor_id')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .leftJoin('uploads as u', 'u.id', 'e.upload_id')
    .leftJoin('reports as r', 'r.id', 'e.report_id')
    .select([
      'e.id',
      'e.kind',
      'e.actor_id',
      'a.firstname as actor_firstname',
      'a.lastname as actor_lastname',
      'a.is_active as actor_active',
      'e.project_id',
      'p.name as project_name',
      'u.id as upload_id',
      'u.name as upload_name',
      'u.preview_key',
      'r.id as report_id',
      'r.title as report_title',
      'e.data',
      'e.created_at',
    ]);
}

export type EventViewRow = Awaited<ReturnType<typeof findEventsByIds>>[number];

/** These events (any order; unknown ids left out). */
export function findEventsByIds(db: Database, ids: number[]) {
  return ids.length === 0 ? Promise.resolve([]) : eventViews(db).where('e.id', 'in', ids).execute();
}

export interface EventFilter {
  projectId?: number;
  actorId?: number;
  /** Only events with a smaller id (the page before ended there). */
  before?: number;
}

/** Events newest first (by id), filtered; `(project_id, id)` or `(actor_id, id)` walks them. */
export function findEvents(db: Database, filter: EventFilter, limit: number) {
  let query = eventViews(db);
  if (filter.projectId !== undefined) query = query.where('e.project_id', '=', filter.projectId);
  if (filter.actorId !== undefined) query = query.where('e.actor_id', '=', filter.actorId);
  if (filter.before !== undefined) query = query.where('e.id', '<', filter.before);
  return query.orderBy('e.id', 'desc').limit(limit).execute();
}

/** Members by id (the mentioned), deactivated ones too. */
export function findPeople(db: Database, ids: number[]) {
  return ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'is_active'])
        .where('id', 'in', ids)
        .execute();
}

export async function projectExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function memberExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
