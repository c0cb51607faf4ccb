import {
  commentLimits,
  foldName,
  type Comment,
  type CommentPage,
  type CommentPerson,
} from '@sitelog/shared';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { AuthUser } from '../auth/auth.service.js';
import {
  forgetComment,
  recordComment,
  recordMentions,
  reviseComment,
} from '../events/events.service.js';
import { lockOpenProjects, projectArchived } from '../projects/projects.service.js';
import * as repo from './comments.repository.js';
import { findMentionedMembers } from './mentions.js';

export interface CommentsDeps {
  db: Database;
}

const uploadNotFound = () => notFound('Upload');
const commentNotFound = () => notFound('Comment');
const READ_ONLY =
  'This project is archived, so its comments are read-only; its creator or an admin can restore it.';
const uploadMoved = () =>
  conflict('This photo was just moved to another project; try again.', 'upload_moved');

// ---- mapping ---------------------------------------------------------------------------------

const person = (id: number, firstname: string, lastname: string, active: number) =>
  ({ id, firstname, lastname, active: active === 1 }) satisfies CommentPerson;

/** Comments as the viewer sees them, with the members each names (one query for all). */
async function toComments(
  db: Database,
  rows: repo.CommentRow[],
  viewer: AuthUser,
  archived: boolean,
): Promise<Comment[]> {
  const mentions = new Map<number, CommentPerson[]>();
  for (const m of await repo.listMentions(
    db,
    rows.map((r) => r.id),
  )) {
    const list = mentions.get(m.comment_id) ?? [];
    list.push(person(m.id, m.firstname, m.lastname, m.is_active));
    mentions.set(m.comment_id, list);
  }
  return rows.map((row) => {
    const isAuthor = row.author_id === viewer.id;
    return {
      id: row.id,
      uploadId: row.upload_id,
      author: person(
        row.author_id,
        row.author_firstname,
        row.author_lastname,
        row.author_is_active,
      ),
      body: row.body,
      createdAt: row.created_at,
      editedAt: row.edited_at,
      mentions: mentions.get(row.id) ?? [],
      // Nothing in an archived project changes until it is restored.
      canEdit: isAuthor && !archived,
      canDelete: (isAuthor || viewer.isAdmin) && !archived,
    };
  });
}

/** One comment as the viewer sees it; 404 when it is gone. */
async function getComment(deps: CommentsDeps, id: number, viewer: AuthUser): Promise<Comment> {
  const row = await repo.findCommentById(deps.db, id);
  if (!row) throw commentNotFound();
  const upload = await repo.findUploadForComment(deps.db, row.upload_id);
  const [comment] = await toComments(deps.db, [row], viewer, upload?.project_archived_at != null);
  if (!comment) throw commentNotFound();
  return comment;
}

// ---- reads -----------------------------------------------------------------------------------

/**
 * GET /api/upload/{id}/comments: a page of the upload's thread, oldest first, after the comment
 * `after` when given; `count` is the thread's stored total. 404 when there is no such upload.
 */
export async function listUploadComments(
  deps: CommentsDeps,
  uploadId: number,
  query: { after?: number | undefined; limit: number },
  viewer: AuthUser,
): Promise<CommentPage> {
  const upload = await repo.findUploadForComment(deps.db, uploadId);
  if (!upload) throw uploadNotFound();
  // One more than asked tells whether there is a next page.
  const rows = await repo.listComments(deps.db, uploadId, {
    after: query.after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const comments = await toComments(deps.db, page, viewer, upload.project_archived_at !== null);
  return {
    comments,
    count: upload.comments_count,
    next: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/**
 * GET /api/user/mentionable: the active members (not the viewer) whose first name, last name or
 * full name starts with `q`, ignoring accents and case; at most `commentLimits.mentionableMax`,
 * by name. Read from the whole list of active members: a team is small, and the folding is the
 * mention rule's own (`foldName`), the same on both databases.
 */
export async function listMentionable(
  deps: CommentsDeps,
  q: string,
  viewer: AuthUser,
): Promise<{ id: number; firstname: string; lastname: string }[]> {
  const prefix = foldName(q);
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  return (await repo.listActiveMembers(deps.db))
    .filter(
      (m) =>
        m.id !== viewer.id &&
        [m.firstname, m.lastname, `${m.firstname} ${m.lastname}`].some((name) =>
          foldName(name).startsWith(prefix),
        ),
    )
    .sort(
      (a, b) =>
        collator.compare(a.firstname, b.firstname) ||
        collator.compare(a.lastname, b.lastname) ||
        a.id - b.id,
    )
    .slice(0, commentLimits.mentionableMax);
}

// ---- writes ----------------------------------------------------------------------------------

export interface NewComment {
  uploadId: number;
  authorId: number;
  /** Validated text (`commentBodySchema`). */
  body: string;
  /** Ids the writer picked in the `@` list, newest first (settle names two members share). */
  picked?: readonly number[];
  /** When it was written; now unless given. */
  at?: string;
}

/**
 * Adds a comment, in one transaction with the upload's comment count, the members it names, and
 * its events and notifications (`recordComment`): all commit or none does. The project's row is
 * held (PostgreSQL) so an archive cannot slip in between. 404 without the upload, 409 when its
 * project is archived. Answers the new id.
 */
export async function createComment(db: Database, input: NewComment): Promise<number> {
  const first = await repo.findUploadForComment(db, input.uploadId);
  if (!first) throw uploadNotFound();
  if (first.project_archived_at !== null) throw projectArchived(READ_ONLY);
  return writeTransaction(db, async (trx) => {
    await lockOpenProjects(trx, [first.project_id], () => READ_ONLY);
    if (!(await repo.addToCommentsCount(trx, input.uploadId, first.project_id, 1)))
      throw (await repo.findUploadForComment(trx, input.uploadId))
        ? uploadMoved()
        : uploadNotFound();
    const at = input.at ?? nowIso();
    const commentId = await repo.insertComment(trx, {
      upload_id: input.uploadId,
      author_id: input.authorId,
      body: input.body,
      created_at: at,
    });
    const mentionedIds = await findMentionedMembers(trx, input.body, input.picked);
    await repo.insertMentions(trx, commentId, mentionedIds);
    await recordComment(trx, {
      actorId: input.authorId,
      projectId: first.project_id,
      uploadId: input.uploadId,
      commentId,
      uploadCreatorId: first.creator_id,
      excerpt: input.body,
      mentionedIds,
      at,
    });
    return commentId;
  });
}

/** What a comment request holds once validated (`commentRequestSchema`). */
export interface CommentText {
  body: string;
  /** Ids picked in the `@` list (see `commentRequestSchema`). */
  mentions?: readonly number[] | undefined;
}

/** POST /api/upload/{id}/comments: the viewer comments on the upload; answers the comment. */
export async function addComment(
  deps: CommentsDeps,
  uploadId: number,
  request: CommentText,
  viewer: AuthUser,
): Promise<Comment> {
  const id = await createComment(deps.db, {
    uploadId,
    authorId: viewer.id,
    body: request.body,
    picked: request.mentions ?? [],
  });
  return getComment(deps, id, viewer);
}

/**
 * Inside a comment's write transaction: the comment as it is once its project's row is held
 * open (404 when gone, 409 when archived, or moved meanwhile), after `authorize` has passed.
 */
async function lockComment(
  trx: Database,
  id: number,
  authorize: (comment: repo.CommentRow) => void,
): Promise<repo.CommentRow & { project_id: number }> {
  const comment = await repo.findCommentById(trx, id);
  if (!comment) throw commentNotFound();
  authorize(comment);
  const upload = await repo.findUploadForComment(trx, comment.upload_id);
  if (!upload) throw commentNotFound();
  await lockOpenProjects(trx, [upload.project_id], () => READ_ONLY);
  // Held: no move, delete or other comment write on this project can commit before ours.
  const now = await repo.findUploadForComment(trx, comment.upload_id);
  if (!now || !(await repo.findCommentById(trx, id))) throw commentNotFound();
  if (now.project_id !== upload.project_id) throw uploadMoved();
  return { ...comment, project_id: upload.project_id };
}

/**
 * PATCH /api/comment/{id}: the author changes the text (403 for anyone else), which marks it
 * edited. Its mentions are read again (the members it named count as picked, after the request's
 * picks): members it newly names are notified (`recordMentions`), those it no longer names are
 * dropped with their mention's event and notification, and its events keep the new text
 * (`reviseComment`). The same text again changes nothing.
 */
export async function updateComment(
  deps: CommentsDeps,
  id: number,
  request: CommentText,
  viewer: AuthUser,
): Promise<Comment> {
  const { body } = request;
  await writeTransaction(deps.db, async (trx) => {
    const current = await lockComment(trx, id, (comment) => {
      if (comment.author_id !== viewer.id)
        throw forbidden('Only the author of this comment can edit it.');
    });
    if (current.body === body) return;
    const at = nowIso();
    await repo.updateCommentBody(trx, id, body, at);
    const named = await repo.findMentionedIds(trx, id);
    const before = new Set(named);
    const after = await findMentionedMembers(trx, body, [...(request.mentions ?? []), ...named]);
    const added = after.filter((userId) => !before.has(userId));
    const removed = [...before].filter((userId) => !after.includes(userId));
    await repo.deleteMentions(trx, id, removed);
    await repo.insertMentions(trx, id, added);
    await reviseComment(trx, { commentId: id, text: body, unmentionedIds: removed });
    if (added.length > 0)
      await recordMentions(trx, {
        actorId: viewer.id,
        projectId: current.project_id,
        uploadId: current.upload_id,
        commentId: id,
        excerpt: body,
        mentionedIds: added,
        at,
      });
  });
  return getComment(deps, id, viewer);
}

/**
 * DELETE /api/comment/{id}: the author or an admin removes the comment (403 for anyone else), with
 * its mentions, its events and their notifications (`forgetComment`: its text stays nowhere),
 * taking one from the upload's count in the same transaction.
 */
export async function deleteComment(
  deps: CommentsDeps,
  id: number,
  viewer: AuthUser,
): Promise<void> {
  await writeTransaction(deps.db, async (trx) => {
    const current = await lockComment(trx, id, (comment) => {
      if (comment.author_id !== viewer.id && !viewer.isAdmin)
        throw forbidden('Only the author of this comment or an admin can delete it.');
    });
    await forgetComment(trx, id);
    if (!(await repo.deleteComment(trx, id))) throw commentNotFound();
    await repo.addToCommentsCount(trx, current.upload_id, current.project_id, -1);
  });
}
