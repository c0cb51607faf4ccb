import { nowIso, type Database } from '../../db/database.js';
import * as repo from './events.repository.js';

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
 * transaction. The upload's author is notified of the comment (reason `uploader`) unless they
 * wrote it or are mentioned: the mentioned get the mention, not also the comment. Followers and
 * the project's creator are not notified of comments. Answers the comment event's id.
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
  if (!activity.mentionedIds.includes(activity.uploadCreatorId))
    await repo.notify(
      trx,
      { kind: 'member', userId: activity.uploadCreatorId, reason: 'uploader' },
      {
        eventId,
        kind: 'comment.added',
        actorId: activity.actorId,
        projectId: activity.projectId,
        uploadId: activity.uploadId,
        setting: 'comments',
        at,
      },
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
