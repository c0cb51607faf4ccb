import { z } from 'zod';
import {
  idField,
  idParam,
  isWellFormedText,
  optionalLineText,
  optionalText,
  personRefSchema,
  SINGLE_LINE_TEXT,
  singleLine,
} from './common.js';
import { limits } from './limits.js';

/** Upload as every upload call answers it (spec §3), plus what the photo itself tells. */
export const uploadSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  previewLink: z.string(),
  formatedLink: z.string(),
  formatedWidth: z.number().int(),
  formatedHeight: z.number().int(),
  originalLink: z.string(),
  creator: personRefSchema,
  /** `archived` (optional, added to the spec's shape): the project is archived, the photo read-only. */
  project: z.object({ id: z.number().int(), name: z.string(), archived: z.boolean().optional() }),
  /**
   * When the photo was taken (EXIF), ISO 8601, or null when the photo does not say. If the camera
   * recorded its UTC offset, an instant in UTC ending in `Z` ("2024-05-05T21:08:09.000Z"): show it
   * in the viewer's time zone. If not, the camera's wall-clock time as a local date-time with no
   * zone designator ("2024-05-06T07:08:09"): show it as-is, unshifted. `new Date()` parses both
   * shapes accordingly (the second as local time).
   */
  capturedAt: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  camera: z.string().nullable(),
  /** Added (optional): the upload's tags, normalised (see `tagSchema`), in the order added. */
  tags: z.array(z.string()).optional(),
  /** Added (optional): how many comments the upload has. */
  commentsCount: z.number().int().optional(),
});
export type Upload = z.infer<typeof uploadSchema>;
export const uploadListSchema = z.array(uploadSchema);

export const tagLimits = {
  /** Characters in one tag, after normalising. */
  tagMax: 40,
  /** Tags on one upload. */
  perUpload: 20,
  /** Suggestions answered by `GET /api/upload/tags`. */
  suggestions: 20,
} as const;

/**
 * A tag as stored: NFC, trimmed, inner runs of white space as one space, lower case ("Level  3 "
 * is "level 3"). Tags are compared in this form, so duplicates that differ in case or spacing
 * merge.
 */
export function normalizeTag(text: string): string {
  // Lower case before NFC: lower-casing can make a pair NFC composes ('Ϊ' + acute lowers to
  // 'ϊ' + acute, which is 'ΐ'), so with NFC last a normalised tag stays as it is.
  return singleLine(text).toLowerCase().normalize('NFC').trim().replace(/\s+/g, ' ');
}

/** One tag: text, 1–40 characters once normalised, no control characters, no lone surrogate. */
export const tagSchema = z
  .string({ error: 'A tag must be text.' })
  .transform(normalizeTag)
  .pipe(
    z
      .string()
      .min(1, { error: 'A tag cannot be empty.' })
      .max(tagLimits.tagMax, { error: `A tag must be at most ${tagLimits.tagMax} characters.` })
      .regex(SINGLE_LINE_TEXT, { error: 'A tag must not contain control characters.' })
      .refine(isWellFormedText, { error: 'A tag must be valid text.' }),
  );

/** An upload's tags: at most 20 once duplicates merge; the first spelling's place is kept. */
export const tagListSchema = z
  .array(tagSchema, { error: 'tags must be a list of texts.' })
  .transform((tags) => [...new Set(tags)])
  .pipe(
    z.array(z.string()).max(tagLimits.perUpload, {
      error: `A photo can have at most ${tagLimits.perUpload} tags.`,
    }),
  );

/** `GET /api/upload/tags?q=&project=`: existing tags, most used first, starting with `q`. */
export const tagSuggestionsQuerySchema = z.object({
  q: z
    .string({ error: 'q must be text.' })
    .max(tagLimits.tagMax, { error: `q must be at most ${tagLimits.tagMax} characters.` })
    .transform(normalizeTag)
    .pipe(z.string().regex(SINGLE_LINE_TEXT, { error: 'q must not contain control characters.' }))
    .optional()
    .default(''),
  project: idField('project', 'project must be a project id.').optional(),
});
export const tagSuggestionSchema = z.object({ tag: z.string(), count: z.number().int() });
export type TagSuggestion = z.infer<typeof tagSuggestionSchema>;
export const tagSuggestionsSchema = z.array(tagSuggestionSchema);

/** How an upload's idempotency key is spelled: 8–64 letters, digits, `-` or `_` (a UUID fits). */
export const UPLOAD_CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
const CLIENT_ID_HELP =
  'clientId must be 8 to 64 letters, digits, "-" or "_" (e.g. a UUID), or left out.';

/**
 * The JSON text part `createUploadDto` of the multipart autoupload call. `clientId` is the
 * optional idempotency key of one photo, chosen by the client and unique per uploader: a repeat
 * with a key the same member already used answers that upload instead of storing another.
 */
export const createUploadDtoSchema = z.object({
  name: optionalLineText('Name', limits.uploadNameMax).optional().default(''),
  description: optionalText('Description', limits.descriptionMax).optional().default(''),
  projectId: idParam,
  clientId: z
    .string({ error: CLIENT_ID_HELP })
    .regex(UPLOAD_CLIENT_ID, { error: CLIENT_ID_HELP })
    .optional(),
  /** Added (optional): the photo's tags. */
  tags: tagListSchema.optional(),
});
export type CreateUploadDto = z.input<typeof createUploadDtoSchema>;

export const updateUploadRequestSchema = z.object({
  upload: z.object({
    name: optionalLineText('Name', limits.uploadNameMax).optional(),
    description: optionalText('Description', limits.descriptionMax).optional(),
    projectId: idParam.optional(),
    /** Added (optional): the whole new list of tags (an empty list removes them all). */
    tags: tagListSchema.optional(),
  }),
});
export type UpdateUploadRequest = z.input<typeof updateUploadRequestSchema>;

export const latestCountParamsSchema = z.object({
  count: z.coerce
    .number({ error: 'count must be a number.' })
    .int({ error: 'count must be a whole number.' })
    .min(1, { error: 'count must be at least 1.' })
    .max(limits.latestUploadsMax, { error: `count must be at most ${limits.latestUploadsMax}.` }),
});

/**
 * Paging of a project's or a member's feed (`?limit=&before=`): at most `limit` uploads, newest
 * first, older than the upload `before` in the (createdAt desc, id desc) order when given.
 */
export const feedQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(limits.latestUploadsMax, { error: `limit must be at most ${limits.latestUploadsMax}.` })
    .default(limits.latestUploadsMax),
  before: idField('before', 'before must be an upload id.').optional(),
  /** Added (optional): only uploads with this tag (compared normalised). */
  tag: tagSchema.optional(),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;
