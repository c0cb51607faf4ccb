import type { AppEvent, EventKind, EventPage, eventsQuerySchema } from '@sitelog/shared';
import { eventKinds } from '@sitelog/shared';
import type { z } from 'zod';
import { nowIso, type Database } from '../../db/database.js';
import { notFound } from '../../errors.js';
import type { MediaLinks } from '../../media/links.js';
import type { AuthUser } from '../auth/auth.service.js';
import * as repo from './events.repository.js';

export interface EventsDeps {
  db: Database;
  links: MediaLinks;
}

/** Uploads by one member to one project this close together fold into one notification. */
export const UPLOAD_GROUP_WINDOW_MS = 30 * 60 * 1000;

/** Characters of a comment an event keeps (the timeline's and the notification's excerpt). */
export const EXCERPT_MAX = 140;

export type ProjectEventKind =
  'project.created' | 'project.edited' | 'project.archived' | 'project.restored';

/** Something that happened to a project or in it, recorded by the module that made it happen. */
export type RecordedEvent =
  | { kind: 'upload.added'; actorId: number; projectId: number; uploadId: number; at?: string }
  | { kind: ProjectEventKind; actorId: number; projectId: number; at?: string };

/**
 * Records an event and notifies the project's followers and creator (not the actor, deactivated
 * members, those who muted the project or switched the kind off). Call it inside the transaction
 * that makes the change, so both commit or neither does. An upload folds into the recipient's
 * unread notification of the same member's uploads to the project within the last 30 minutes.
 * Answers the event's id.
 */
export async function recordEvent(trx: Database, event: RecordedEvent): Promise<number> {
  const at = event.at ?? nowIso();
  const uploadId = event.kind === 'upload.added' ? event.uploadId : null;
  const data: Record<string, unknown> = {};
  if (uploadId !== null) data.uploadName = (await repo.findUploadName(trx, uploadId)) ?? '';
  const eventId = await repo.insertEvent(trx, {
    kind: event.kind,
    actorId: event.actorId,
    projectId: event.projectId,
    uploadId,
    commentId: null,
    data,
    at,
  });
  await repo.notify(
    trx,
    { kind: 'project' },
    {
      eventId,
      kind: event.kind,
      actorId: event.actorId,
      projectId: event.projectId,
      uploadId,
      setting: event.kind === 'upload.added' ? 'uploads' : 'projects',
      at,
    },
    event.kind === 'upload.added'
      ? { since: new Date(Date.parse(at) - UPLOAD_GROUP_WINDOW_MS).toISOString() }
      : undefined,
  );
  return eventId;
}

/** A report whose PDF was first made: its id, project, author (the actor) and title. */
export interface ReportActivity {
  id: number;
  projectId: number;
  authorId: number;
  title: string;
}

/**
 * Records `report.created` for a report whose PDF was first made, in the caller's transaction,
 * and notifies the project's followers and creator as a project event does (not the author,
 * deactivated members, those who muted the project or switched reports off). The event keeps the
 * title (`data.title`); deleting the report deletes the event and its notifications. Answers the
 * event's id.
 */
export async function recordReportCreated(
  trx: Database,
  report: ReportActivity,
  at: string = nowIso(),
): Promise<number> {
  const eventId = await repo.insertEvent(trx, {
    kind: 'report.created',
    actorId: report.authorId,
    projectId: report.projectId,
    uploadId: null,
    commentId: null,
    reportId: report.id,
    data: { title: report.title },
    at,
  });
  await repo.notify(
    trx,
    { kind: 'project' },
    {
      eventId,
      kind: 'report.created',
      actorId: report.authorId,
      projectId: report.projectId,
      uploadId: null,
      setting: 'reports',
      at,
    },
  );
  return eventId;
}

/** A comment's mentions: who wrote it, on which photo, what it says, whom it names. */
export interface MentionActivity {
  actorId: number;
  projectId: number;
  uploadId: number;
  commentId: number;
  /** The comment's text (cut to `EXCERPT_MAX` characters here). */
  excerpt: string;
  /** Members named; the actor and repeats are left out. */
  mentionedIds: number[];
  /** Not used for mentions; accepted so one object serves both calls. */
  uploadCreatorId?: number;
  at?: string;
}

/** A new comment: as `MentionActivity`, and the upload's author, who hears of comments on it. */
export interface CommentActivity extends MentionActivity {
  uploadCreatorId: number;
}

/** The start of a comment, on one line, at most `EXCERPT_MAX` characters (an ellipsis if cut). */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= EXCERPT_MAX) return flat;
  return `${chars
    .slice(0, EXCERPT_MAX - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * Records a new comment (`comment.added`) and a `mention` per member it names, in the comment's
 * transaction. The comment notifies the upload's author (reason `uploader`) and the project's
 * followers and creator (`follower`, `creator`), all under the `comments` setting; the mentioned
 * get the mention, not also the comment; the writer nothing; one notification per member. Answers
 * the comment event's id.
 */
export async function recordComment(trx: Database, activity: CommentActivity): Promise<number> {
  const at = activity.at ?? nowIso();
  const uploadName = (await repo.findUploadName(trx, activity.uploadId)) ?? '';
  const excerpt = excerptOf(activity.excerpt);
  const eventId = await repo.insertEvent(trx, {
    kind: 'comment.added',
    actorId: activity.actorId,
    projectId: activity.projectId,
    uploadId: activity.uploadId,
    commentId: activity.commentId,
    data: { uploadName, excerpt },
    at,
  });
  const fanout: repo.Fanout = {
    eventId,
    kind: 'comment.added',
    actorId: activity.actorId,
    projectId: activity.projectId,
    uploadId: activity.uploadId,
    setting: 'comments',
    at,
  };
  const mentioned = activity.mentionedIds;
  if (!mentioned.includes(activity.uploadCreatorId))
    await repo.notify(
      trx,
      { kind: 'member', userId: activity.uploadCreatorId, reason: 'uploader' },
      fanout,
    );
  // The author keeps reason `uploader` (or, mentioned, gets the mention only).
  await repo.notify(
    trx,
    { kind: 'project', except: [activity.uploadCreatorId, ...mentioned] },
    fanout,
  );
  await writeMentions(trx, activity, { uploadName, excerpt, at });
  return eventId;
}

/**
 * Records a `mention` for each member an edited comment newly names (the caller passes only the
 * added ids), each notifying its member, in the edit's transaction.
 */
export async function recordMentions(trx: Database, activity: MentionActivity): Promise<void> {
  const uploadName = (await repo.findUploadName(trx, activity.uploadId)) ?? '';
  await writeMentions(trx, activity, {
    uploadName,
    excerpt: excerptOf(activity.excerpt),
    at: activity.at ?? nowIso(),
  });
}

async function writeMentions(
  trx: Database,
  activity: MentionActivity,
  kept: { uploadName: string; excerpt: string; at: string },
): Promise<void> {
  const mentioned = [...new Set(activity.mentionedIds)].filter((id) => id !== activity.actorId);
  for (const mentionedId of mentioned) {
    const eventId = await repo.insertEvent(trx, {
      kind: 'mention',
      actorId: activity.actorId,
      projectId: activity.projectId,
      uploadId: activity.uploadId,
      commentId: activity.commentId,
      data: { uploadName: kept.uploadName, excerpt: kept.excerpt, mentionedId },
      at: kept.at,
    });
    await repo.notify(
      trx,
      { kind: 'member', userId: mentionedId, reason: 'mentioned' },
      {
        eventId,
        kind: 'mention',
        actorId: activity.actorId,
        projectId: activity.projectId,
        uploadId: activity.uploadId,
        setting: 'mentions',
        at: kept.at,
      },
    );
  }
}

/**
 * A comment is being deleted: its events (`comment.added` and its mentions) go, and with them
 * their notifications, so its text is kept nowhere. Call it in the delete's transaction, before
 * the comment row goes (that sets the events' reference to null).
 */
export async function forgetComment(trx: Database, commentId: number): Promise<void> {
  const events = await repo.findCommentEvents(trx, commentId);
  await repo.deleteEvents(
    trx,
    events.map((e) => e.id),
  );
}

/**
 * A comment's text changed: its events keep the new excerpt (the timeline and every notification
 * of it read it from there), and the mentions of members it no longer names (`unmentionedIds`)
 * go, with their notifications. Call it in the edit's transaction.
 */
export async function reviseComment(
  trx: Database,
  change: { commentId: number; text: string; unmentionedIds: readonly number[] },
): Promise<void> {
  const excerpt = excerptOf(change.text);
  const gone: number[] = [];
  for (const event of await repo.findCommentEvents(trx, change.commentId)) {
    const data = parseData(event.data);
    if (event.kind === 'mention' && change.unmentionedIds.includes(Number(data.mentionedId)))
      gone.push(event.id);
    else if (data.excerpt !== excerpt) await repo.setEventData(trx, event.id, { ...data, excerpt });
  }
  await repo.deleteEvents(trx, gone);
}

// ---- reading ---------------------------------------------------------------------------------

/** What an event keeps in `data` (names as they were then; see the recorders above). */
interface EventData {
  uploadName: string;
  excerpt: string | null;
  mentionedId: number | null;
  /** The report's title when it was made (`report.created`). */
  title: string;
}

/** An event's `data` as an object (`{}` if it is not one). */
function parseData(text: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = {};
  }
  return (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
}

function readData(text: string): EventData {
  const data = parseData(text);
  return {
    uploadName: typeof data.uploadName === 'string' ? data.uploadName : '',
    excerpt: typeof data.excerpt === 'string' ? data.excerpt : null,
    mentionedId: typeof data.mentionedId === 'number' ? data.mentionedId : null,
    title: typeof data.title === 'string' ? data.title : '',
  };
}

const isKind = (kind: string): kind is EventKind =>
  (eventKinds as readonly string[]).includes(kind);

/**
 * Events as the API shows them, in the rows' order, each with `count` (1 unless grouped). The
 * upload's name is its current one, or the one kept in the event once the upload is deleted
 * (then `id` and `previewLink` are null); preview links are signed for the viewer. A report's
 * title is its current one (the one kept in the event if the row cannot be read); `report` is
 * null for every other kind.
 */
async function toEvents(
  deps: EventsDeps,
  rows: { row: repo.EventViewRow; count: number }[],
  viewer: AuthUser,
): Promise<AppEvent[]> {
  const data = rows.map(({ row }) => readData(row.data));
  const mentionedIds = [
    ...new Set(data.map((d) => d.mentionedId).filter((id): id is number => id !== null)),
  ];
  const people = new Map(
    (await repo.findPeople(deps.db, mentionedIds)).map((p) => [
      p.id,
      { id: p.id, firstname: p.firstname, lastname: p.lastname, active: p.is_active === 1 },
    ]),
  );
  const links = await Promise.all(
    rows.map(({ row }) =>
      row.preview_key === null ? Promise.resolve(null) : deps.links.url(row.preview_key, viewer),
    ),
  );
  return rows.flatMap(({ row, count }, i) => {
    if (!isKind(row.kind)) return [];
    const d = data[i] as EventData;
    const hasUpload =
      row.kind === 'upload.added' || row.kind === 'comment.added' || row.kind === 'mention';
    return [
      {
        id: row.id,
        kind: row.kind,
        actor: {
          id: row.actor_id,
          firstname: row.actor_firstname,
          lastname: row.actor_lastname,
          active: row.actor_active === 1,
        },
        project: { id: row.project_id, name: row.project_name },
        upload: hasUpload
          ? {
              id: row.upload_id,
              name: row.upload_name ?? d.uploadName,
              previewLink: links[i] ?? null,
            }
          : null,
        excerpt: d.excerpt,
        mentioned: d.mentionedId === null ? null : (people.get(d.mentionedId) ?? null),
        report:
          row.kind === 'report.created' && row.report_id !== null
            ? { id: row.report_id, title: row.report_title ?? d.title }
            : null,
        count,
        createdAt: row.created_at,
      },
    ];
  });
}

/** For notifications: these events as the viewer sees them, by id (unknown ids left out). */
export async function describeEvents(
  deps: EventsDeps,
  ids: number[],
  viewer: AuthUser,
): Promise<Map<number, AppEvent>> {
  const rows = await repo.findEventsByIds(deps.db, ids);
  const events = await toEvents(
    deps,
    rows.map((row) => ({ row, count: 1 })),
    viewer,
  );
  return new Map(events.map((e) => [e.id, e]));
}

/** Rows read per query while a timeline page fills. */
const TIMELINE_BATCH = 100;
/** Rows one timeline page reads at most; a group still open there continues on the next page. */
const TIMELINE_SCAN_MAX = 2000;

/** Whether `row` (older) continues the upload group whose oldest event so far is `last`. */
function continuesGroup(last: repo.EventViewRow, row: repo.EventViewRow): boolean {
  return (
    last.kind === 'upload.added' &&
    row.kind === 'upload.added' &&
    row.actor_id === last.actor_id &&
    row.project_id === last.project_id &&
    Math.abs(Date.parse(last.created_at) - Date.parse(row.created_at)) <= UPLOAD_GROUP_WINDOW_MS
  );
}

/**
 * The team's timeline (every project, open or archived, as every member sees them all), newest
 * first, filtered by project and by member (404 when either is unknown). Adjacent uploads by one
 * member to one project, each within 30 minutes of the next, are one entry with their `count`,
 * shown by the newest. Groups are made within a page: `next` is the oldest event the page
 * covered, so the next page neither repeats nor skips one (a group cut by the page, or by the
 * scan limit, continues there as an entry of its own).
 */
export async function listEvents(
  deps: EventsDeps,
  query: z.output<typeof eventsQuerySchema>,
  viewer: AuthUser,
): Promise<EventPage> {
  if (query.project !== undefined && !(await repo.projectExists(deps.db, query.project)))
    throw notFound('Project');
  if (query.actor !== undefined && !(await repo.memberExists(deps.db, query.actor)))
    throw notFound('Member');
  const groups: { row: repo.EventViewRow; last: repo.EventViewRow; count: number }[] = [];
  let before = query.before;
  let scanned = 0;
  let more = true;
  fill: while (scanned < TIMELINE_SCAN_MAX) {
    const batch = Math.min(TIMELINE_BATCH, TIMELINE_SCAN_MAX - scanned);
    const rows = await repo.findEvents(
      deps.db,
      {
        ...(query.project !== undefined ? { projectId: query.project } : {}),
        ...(query.actor !== undefined ? { actorId: query.actor } : {}),
        ...(before !== undefined ? { before } : {}),
      },
      batch,
    );
    for (const row of rows) {
      const open = groups.at(-1);
      if (open && continuesGroup(open.last, row)) {
        open.last = row;
        open.count += 1;
      } else if (groups.length === query.limit) {
        break fill;
      } else {
        groups.push({ row, last: row, count: 1 });
      }
      scanned += 1;
    }
    if (rows.length < batch) {
      more = false;
      break;
    }
    before = rows.at(-1)?.id;
  }
  const events = await toEvents(deps, groups, viewer);
  const oldest = groups.at(-1)?.last.id;
  return { events, next: more && oldest !== undefined ? oldest : null };
}
