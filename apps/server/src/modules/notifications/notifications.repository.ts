import { compiledQuery } from '../../db/compiled-query.js';
import type { Database } from '../../db/database.js';

// The bell's poll, every few seconds from every open tab: compiled once, and answered from the
// partial index of unread notifications (`user_id` first).
const unreadCount = compiledQuery(
  (db: Database, userId: number) =>
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null),
  1,
);

export async function countUnread(db: Database, userId: number): Promise<number> {
  const [row] = await unreadCount(db, userId);
  return Number(row?.count ?? 0);
}

/** A member's notifications, newest event first, from before `before` (an event id). */
export function findNotifications(
  db: Database,
  userId: number,
  page: { before?: number; limit: number },
) {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'event_id', 'reason', 'count', 'read_at'])
    .where('user_id', '=', userId);
  if (page.before !== undefined) query = query.where('event_id', '<', page.before);
  return query.orderBy('event_id', 'desc').limit(page.limit).execute();
}

/** Marks one of the member's notifications read; false when the member has no such one. */
export async function markRead(
  db: Database,
  userId: number,
  id: number,
  at: string,
): Promise<boolean> {
  const found = await db
    .selectFrom('notifications')
    .select(['id', 'read_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!found) return false;
  if (found.read_at === null)
    await db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute();
  return true;
}

export async function markAllRead(db: Database, userId: number, at: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute();
}

export function findSettings(db: Database, userId: number) {
  return db
    .selectFrom('notification_settings')
    .select(['uploads', 'comments', 'mentions', 'projects', 'reports'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export type SettingValues = Record<
  'uploads' | 'comments' | 'mentions' | 'projects' | 'reports',
  0 | 1
>;

/**
 * Sets the kinds `changes` names for a member; the others keep their value (on, for a member
 * with no row yet). One statement, so two changes at once both land.
 */
export async function saveSettings(
  db: Database,
  userId: number,
  changes: Partial<SettingValues>,
  at: string,
): Promise<void> {
  const allOn: SettingValues = { uploads: 1, comments: 1, mentions: 1, projects: 1, reports: 1 };
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, ...allOn, ...changes, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changes, updated_at: at }))
    .execute();
}

/** The projects a member muted, most recently muted first. */
export function findMutedProjects(db: Database, userId: number) {
  return db
    .selectFrom('project_mutes as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select(['p.id', 'p.name'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.project_id', 'desc')
    .execute();
}

export async function isMuted(db: Database, userId: number, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('project_mutes')
    .select('project_id')
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function mute(
  db: Database,
  userId: number,
  projectId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('project_mutes')
    .values({ user_id: userId, project_id: projectId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
    .execute();
}

export async function unmute(db: Database, userId: number, projectId: number): Promise<void> {
  await db
    .deleteFrom('project_mutes')
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .execute();
}

export async function projectExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
