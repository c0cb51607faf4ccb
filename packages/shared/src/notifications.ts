import { z } from 'zod';
import { idField } from './common.js';
import { commentPersonSchema } from './comments.js';

/**
 * What an event records. `upload.added`: photos added to a project (grouped when one member adds
 * several close together); `project.*`: a project created, edited, archived or restored;
 * `comment.added`: a comment on a photo; `mention`: a member named in a comment; `report.created`:
 * a report's PDF was first made.
 */
export const eventKinds = [
  'upload.added',
  'project.created',
  'project.edited',
  'project.archived',
  'project.restored',
  'comment.added',
  'mention',
  'report.created',
] as const;
export type EventKind = (typeof eventKinds)[number];

/** Why a member was notified: follows the project, created it, was mentioned, took the photo. */
export const notificationReasons = ['follower', 'creator', 'mentioned', 'uploader'] as const;
export type NotificationReason = (typeof notificationReasons)[number];

const projectRef = z.object({ id: z.number().int(), name: z.string() });
/** The photo an event is about, or null once it has been deleted (`name` is kept in the event). */
const uploadRef = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  previewLink: z.string().nullable(),
});

/** One entry of the team's timeline (`/events`). Adjacent uploads by one member are grouped. */
export const eventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(eventKinds),
  actor: commentPersonSchema,
  project: projectRef,
  upload: uploadRef.nullable(),
  /**
   * For comments and mentions: the start of the comment's text, as it reads now (an edit rewrites
   * it; a deleted comment's events and notifications are gone).
   */
  excerpt: z.string().nullable(),
  /** For `mention`: who was mentioned. */
  mentioned: commentPersonSchema.nullable(),
  /** Photos in a grouped `upload.added` (1 otherwise). */
  count: z.number().int(),
  /** Added (issue 16): for `report.created`, the report (null once it was deleted). */
  report: z.object({ id: z.number().int(), title: z.string() }).nullable().optional(),
  createdAt: z.string(),
});
export type AppEvent = z.infer<typeof eventSchema>;

const pageLimit = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(max, { error: `limit must be at most ${max}.` })
    .default(fallback);

/** `GET /api/events?project=&actor=&before=&limit=`: newest first; `before` is the `next` id. */
export const eventsQuerySchema = z.object({
  project: idField('project', 'project must be a project id.').optional(),
  actor: idField('actor', 'actor must be a member id.').optional(),
  before: idField('before', 'before must be an event id.').optional(),
  limit: pageLimit(100, 30),
});
export const eventPageSchema = z.object({
  events: z.array(eventSchema),
  next: z.number().int().nullable(),
});
export type EventPage = z.infer<typeof eventPageSchema>;

/** One notification: an event (or a group of uploads) as the member it is for sees it. */
export const notificationSchema = eventSchema.extend({
  reason: z.enum(notificationReasons),
  read: z.boolean(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

/**
 * `GET /api/notifications?before=&limit=`: newest first (by the newest event each holds);
 * `before` is the answer's `next`, an event id (not a notification id).
 */
export const notificationsQuerySchema = z.object({
  before: idField(
    'before',
    'before must be the next value of a previous page (an event id).',
  ).optional(),
  limit: pageLimit(100, 30),
});
export const notificationPageSchema = z.object({
  notifications: z.array(notificationSchema),
  next: z.number().int().nullable(),
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/**
 * `GET /api/notifications/unread`: the bell's count. Answered with an `ETag`; a poll sending it
 * back in `If-None-Match` gets 304 with no body while nothing changed. Also the answer of
 * `POST /api/notifications/{id}/read` and `POST /api/notifications/read-all`: the count left.
 */
export const unreadCountSchema = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** Which kinds of notification a member gets, and the projects they muted. */
export const notificationSettingsSchema = z.object({
  /** New photos in projects you follow or created. */
  uploads: z.boolean(),
  /**
   * Comments on your photos (reason `uploader`) and on photos in projects you follow or created
   * (`follower`, `creator`). A comment that mentions you is a mention instead.
   */
  comments: z.boolean(),
  /** Someone mentions you. */
  mentions: z.boolean(),
  /** Projects you follow or created are edited, archived or restored. */
  projects: z.boolean(),
  /** New reports in projects you follow or created. */
  reports: z.boolean(),
  /** Projects you get nothing from, whatever the rest says (most recently muted first). */
  mutedProjects: z.array(projectRef),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** `PATCH /api/notifications/settings`: the kinds to change; the others keep their value. */
export const notificationSettingsPatchSchema = z
  .object(
    {
      uploads: z.boolean({ error: 'uploads must be true or false.' }).optional(),
      comments: z.boolean({ error: 'comments must be true or false.' }).optional(),
      mentions: z.boolean({ error: 'mentions must be true or false.' }).optional(),
      projects: z.boolean({ error: 'projects must be true or false.' }).optional(),
      reports: z.boolean({ error: 'reports must be true or false.' }).optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `Unknown setting: ${iss.keys.join(', ')}. The settings are uploads, comments, mentions, projects and reports.`
          : 'The request must be an object of kinds set to true or false.',
    },
  )
  .strict();
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

/** `GET /api/project/{id}/mute`, and the answer of `POST /api/project/{id}/mute|unmute`. */
export const projectMuteSchema = z.object({ muted: z.boolean() });
export type ProjectMute = z.infer<typeof projectMuteSchema>;
