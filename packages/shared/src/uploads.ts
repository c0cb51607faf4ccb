import { z } from 'zod';
import { idField, idParam, optionalLineText, optionalText, personRefSchema } from './common.js';
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
});
export type Upload = z.infer<typeof uploadSchema>;
export const uploadListSchema = z.array(uploadSchema);

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
});
export type CreateUploadDto = z.input<typeof createUploadDtoSchema>;

export const updateUploadRequestSchema = z.object({
  upload: z.object({
    name: optionalLineText('Name', limits.uploadNameMax).optional(),
    description: optionalText('Description', limits.descriptionMax).optional(),
    projectId: idParam.optional(),
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
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;
