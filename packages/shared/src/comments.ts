import { z } from 'zod';
import { idField, isWellFormedText, MULTI_LINE_TEXT, personRefSchema } from './common.js';

export const commentLimits = {
  /** Characters in one comment (the web shows a counter). */
  bodyMax: 2000,
  /** Comments per page of a thread. */
  pageDefault: 50,
  pageMax: 100,
  /** Members `GET /api/user/mentionable` answers at most. */
  mentionableMax: 10,
  /** Picked members' ids a comment request may carry (`mentions`). */
  pickedMax: 50,
} as const;

/** Someone named in a comment: `active` is false once the account is deactivated. */
export const commentPersonSchema = personRefSchema.extend({ active: z.boolean() });
export type CommentPerson = z.infer<typeof commentPersonSchema>;

/**
 * A comment on an upload. `body` is plain text (line breaks kept; the web autolinks URLs and never
 * reads it as HTML). `mentions` are the active members the text names as `@Firstname Lastname`,
 * recognised when the comment was written or last edited; `editedAt` is null until the author
 * changes the text. `canEdit`/`canDelete` say what the viewer may do (the author edits; the author
 * or an admin deletes).
 */
export const commentSchema = z.object({
  id: z.number().int(),
  uploadId: z.number().int(),
  author: commentPersonSchema,
  body: z.string(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  mentions: z.array(commentPersonSchema),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;

/**
 * A comment's text: trimmed, 1–2000 characters, line breaks allowed, no control characters, no
 * lone surrogate.
 */
export const commentBodySchema = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'The comment text is required.' : 'The comment must be text.',
  })
  .trim()
  .min(1, { error: 'Write something before sending.' })
  .max(commentLimits.bodyMax, {
    error: `A comment must be at most ${commentLimits.bodyMax} characters.`,
  })
  .regex(MULTI_LINE_TEXT, { error: 'The comment must not contain control characters.' })
  .refine(isWellFormedText, { error: 'The comment must be valid text.' });

/**
 * `POST /api/upload/{id}/comments` and `PATCH /api/comment/{id}`. `mentions` (optional, at most
 * `commentLimits.pickedMax`) are the ids of the members the writer picked in the `@` list, newest
 * first. They only settle a name two active members share: such a name mentions the picked one of
 * them, and nobody when neither was picked (on an edit, the members the comment named before count
 * as picked after these). Ids of members the text does not name are ignored; a name only one
 * member has mentions them whatever is picked.
 */
export const commentRequestSchema = z.object(
  {
    body: commentBodySchema,
    mentions: z
      .array(idField('A picked member', 'mentions must hold member ids.'), {
        error: 'mentions must be a list of member ids.',
      })
      .max(commentLimits.pickedMax, {
        error: `A comment can pick at most ${commentLimits.pickedMax} members to mention.`,
      })
      .optional(),
  },
  { error: 'The request must hold the comment as { "body": "…" }.' },
);
export type CommentRequest = z.input<typeof commentRequestSchema>;

/**
 * `GET /api/upload/{id}/comments?after=&limit=`: a thread, oldest first; `after` is the last
 * comment id of the page before (the answer's `next`), null when there are no more.
 */
export const commentsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(commentLimits.pageMax, { error: `limit must be at most ${commentLimits.pageMax}.` })
    .default(commentLimits.pageDefault),
  after: idField('after', 'after must be a comment id.').optional(),
});
export const commentPageSchema = z.object({
  comments: z.array(commentSchema),
  /** The total in the thread (the tile's count). */
  count: z.number().int(),
  next: z.number().int().nullable(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

/**
 * `GET /api/user/mentionable?q=`: active members (not the viewer) whose first, last or full name
 * starts with `q`, accents and case ignored, by name, at most `commentLimits.mentionableMax`; for
 * `@` completion.
 */
export const mentionQuerySchema = z.object({
  q: z
    .string({ error: 'q must be text.' })
    .trim()
    .max(80, { error: 'q must be at most 80 characters.' })
    .optional()
    .default(''),
});
export const mentionCandidatesSchema = z.array(personRefSchema);
