import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** What a comment call needs of its upload: its project (open or not) and who took it. */
export function findUploadForComment(db: Database, uploadId: number) {
  return db
    .selectFrom('uploads')
    .innerJoin('projects', 'projects.id', 'uploads.project_id')
    .select([
      'uploads.id',
      'uploads.name',
      'uploads.project_id',
      'uploads.creator_id',
      'uploads.comments_count',
      'projects.archived_at as project_archived_at',
    ])
    .where('uploads.id', '=', uploadId)
    .executeTakeFirst();
}

export type UploadForComment = NonNullable<Awaited<ReturnType<typeof findUploadForComment>>>;

/** Comments with their author, oldest first (`comments_upload_idx`). */
function selectComments(db: Database) {
  return db
    .selectFrom('comments')
    .innerJoin('users as author', 'author.id', 'comments.author_id')
    .select([
      'comments.id',
      'comments.upload_id',
      'comments.body',
      'comments.created_at',
      'comments.edited_at',
      'comments.author_id',
      'author.firstname as author_firstname',
      'author.lastname as author_lastname',
      'author.is_active as author_is_active',
    ]);
}

export type CommentRow = Awaited<ReturnType<typeof listComments>>[number];

/** At most `limit` comments of an upload with ids above `after`, oldest first. */
export function listComments(
  db: Database,
  uploadId: number,
  page: { after: number | undefined; limit: number },
) {
  let query = selectComments(db).where('comments.upload_id', '=', uploadId);
  if (page.after !== undefined) query = query.where('comments.id', '>', page.after);
  return query.orderBy('comments.id').limit(page.limit).execute();
}

export function findCommentById(db: Database, id: number) {
  return selectComments(db).where('comments.id', '=', id).executeTakeFirst();
}

/** Who the comments name (any order), with whether each account is still active. */
export function listMentions(db: Database, commentIds: number[]) {
  if (commentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('comment_mentions')
    .innerJoin('users', 'users.id', 'comment_mentions.user_id')
    .select([
      'comment_mentions.comment_id',
      'users.id',
      'users.firstname',
      'users.lastname',
      'users.is_active',
    ])
    .where('comment_mentions.comment_id', 'in', commentIds)
    .execute();
}

/** The ids of the members one comment names. */
export async function findMentionedIds(db: Database, commentId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('comment_mentions')
    .select('user_id')
    .where('comment_id', '=', commentId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Every active member's name, in no order (the mention parser's candidates; a team is small). */
export function listActiveMembers(db: Database) {
  return db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname'])
    .where('is_active', '=', 1)
    .execute();
}

export async function insertComment(
  db: Database,
  row: { upload_id: number; author_id: number; body: string; created_at: string },
): Promise<number> {
  const inserted = await db
    .insertInto('comments')
    .values({ ...row, edited_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The new text, dated `editedAt`; false when the comment is gone. */
export async function updateCommentBody(
  db: Database,
  id: number,
  body: string,
  editedAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('comments')
    .set({ body, edited_at: editedAt })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a comment (its mentions go with it); false when it was already gone. */
export async function deleteComment(db: Database, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertMentions(
  db: Database,
  commentId: number,
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('comment_mentions')
    .values(userIds.map((user_id) => ({ comment_id: commentId, user_id })))
    .execute();
}

export async function deleteMentions(
  db: Database,
  commentId: number,
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .deleteFrom('comment_mentions')
    .where('comment_id', '=', commentId)
    .where('user_id', 'in', userIds)
    .execute();
}

/**
 * Moves an upload's stored comment count by `delta`, while the upload is still in `projectId`
 * (the project the caller locked open). Also takes the upload's row lock on PostgreSQL, so a
 * delete of the upload waits for the comment's transaction. False when the upload is gone or
 * has moved to another project.
 */
export async function addToCommentsCount(
  db: Database,
  uploadId: number,
  projectId: number,
  delta: number,
): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ comments_count: sql<number>`comments_count + ${delta}` })
    .where('id', '=', uploadId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
