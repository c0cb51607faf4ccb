import type {
  AppNotification,
  NotificationPage,
  NotificationReason,
  NotificationSettings,
  NotificationSettingsPatch,
  notificationsQuerySchema,
} from '@sitelog/shared';
import { notificationReasons } from '@sitelog/shared';
import type { z } from 'zod';
import { nowIso } from '../../db/database.js';
import { notFound } from '../../errors.js';
import type { AuthUser } from '../auth/auth.service.js';
import { describeEvents, type EventsDeps } from '../events/events.service.js';
import * as repo from './notifications.repository.js';

export type NotificationsDeps = EventsDeps;

const isReason = (reason: string): reason is NotificationReason =>
  (notificationReasons as readonly string[]).includes(reason);

/**
 * The viewer's notifications, newest event first (a group of uploads sits at its newest upload,
 * so one that grew moves to the top), with the unread count. `next` is the last one's event id:
 * keyset paging, no repeats (a group that grows meanwhile moves above the pages already read).
 */
export async function listNotifications(
  deps: NotificationsDeps,
  query: z.output<typeof notificationsQuerySchema>,
  viewer: AuthUser,
): Promise<NotificationPage> {
  const rows = await repo.findNotifications(deps.db, viewer.id, {
    ...(query.before !== undefined ? { before: query.before } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const [events, unread] = await Promise.all([
    describeEvents(
      deps,
      page.map((n) => n.event_id),
      viewer,
    ),
    repo.countUnread(deps.db, viewer.id),
  ]);
  const notifications = page.flatMap((n): AppNotification[] => {
    const event = events.get(n.event_id);
    if (!event || !isReason(n.reason)) return [];
    return [{ ...event, id: n.id, count: n.count, reason: n.reason, read: n.read_at !== null }];
  });
  const last = page.at(-1);
  return {
    notifications,
    next: rows.length > query.limit && last ? last.event_id : null,
    unread,
  };
}

/** The bell's count of unread notifications. */
export async function unreadCount(
  deps: Pick<NotificationsDeps, 'db'>,
  viewer: AuthUser,
): Promise<{ count: number }> {
  return { count: await repo.countUnread(deps.db, viewer.id) };
}

/** Marks one of the viewer's notifications read (again: no change); 404 for anyone else's. */
export async function markRead(
  deps: Pick<NotificationsDeps, 'db'>,
  id: number,
  viewer: AuthUser,
): Promise<{ count: number }> {
  if (!(await repo.markRead(deps.db, viewer.id, id, nowIso()))) throw notFound('Notification');
  return unreadCount(deps, viewer);
}

export async function markAllRead(
  deps: Pick<NotificationsDeps, 'db'>,
  viewer: AuthUser,
): Promise<{ count: number }> {
  await repo.markAllRead(deps.db, viewer.id, nowIso());
  return unreadCount(deps, viewer);
}

const allOn: repo.SettingValues = { uploads: 1, comments: 1, mentions: 1, projects: 1, reports: 1 };

async function storedSettings(
  deps: Pick<NotificationsDeps, 'db'>,
  userId: number,
): Promise<repo.SettingValues> {
  const row = await repo.findSettings(deps.db, userId);
  if (!row) return allOn;
  const on = (v: number) => (v === 0 ? 0 : 1);
  return {
    uploads: on(row.uploads),
    comments: on(row.comments),
    mentions: on(row.mentions),
    projects: on(row.projects),
    reports: on(row.reports),
  };
}

/** Which kinds notify the viewer (all until they change one) and the projects they muted. */
export async function getSettings(
  deps: Pick<NotificationsDeps, 'db'>,
  viewer: AuthUser,
): Promise<NotificationSettings> {
  const [values, muted] = await Promise.all([
    storedSettings(deps, viewer.id),
    repo.findMutedProjects(deps.db, viewer.id),
  ]);
  return {
    uploads: values.uploads === 1,
    comments: values.comments === 1,
    mentions: values.mentions === 1,
    projects: values.projects === 1,
    reports: values.reports === 1,
    mutedProjects: muted.map((p) => ({ id: p.id, name: p.name })),
  };
}

/** Changes the kinds the patch names; the others keep their value. Answers the settings. */
export async function updateSettings(
  deps: Pick<NotificationsDeps, 'db'>,
  patch: NotificationSettingsPatch,
  viewer: AuthUser,
): Promise<NotificationSettings> {
  const changes: Partial<repo.SettingValues> = {};
  for (const kind of Object.keys(allOn) as (keyof repo.SettingValues)[]) {
    const value = patch[kind];
    if (value !== undefined) changes[kind] = value ? 1 : 0;
  }
  await repo.saveSettings(deps.db, viewer.id, changes, nowIso());
  return getSettings(deps, viewer);
}

async function assertProject(deps: Pick<NotificationsDeps, 'db'>, id: number): Promise<void> {
  if (!(await repo.projectExists(deps.db, id))) throw notFound('Project');
}

/** Whether the viewer muted the project (open or archived); 404 when there is no such project. */
export async function getMute(
  deps: Pick<NotificationsDeps, 'db'>,
  projectId: number,
  viewer: AuthUser,
): Promise<{ muted: boolean }> {
  await assertProject(deps, projectId);
  return { muted: await repo.isMuted(deps.db, viewer.id, projectId) };
}

/**
 * Mutes or unmutes a project for the viewer (idempotent): a muted project notifies them of
 * nothing, whatever their settings. Open or archived; 404 when there is no such project.
 */
export async function setMute(
  deps: Pick<NotificationsDeps, 'db'>,
  projectId: number,
  muted: boolean,
  viewer: AuthUser,
): Promise<{ muted: boolean }> {
  await assertProject(deps, projectId);
  if (muted) await repo.mute(deps.db, viewer.id, projectId, nowIso());
  else await repo.unmute(deps.db, viewer.id, projectId);
  return { muted };
}
