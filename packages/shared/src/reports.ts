import { z } from 'zod';
import {
  dayField,
  idField,
  optionalLineText,
  optionalText,
  personRefSchema,
  requiredText,
} from './common.js';
import { uploadSchema } from './uploads.js';

/**
 * Photo reports (issue 16): a project's photos in an order, with captions, made into a PDF on
 * the server. Every photo in the PDF carries who took it, when, where, and the SHA-256 of the
 * stored original, so a report can be checked against the archive later.
 */
export const reportLimits = {
  titleMax: 120,
  introMax: 4000,
  captionMax: 500,
  teamNameMax: 120,
  /** Photos in one report. */
  photosMax: 500,
  /** Reports per page of `GET /api/report/latest`. */
  pageDefault: 30,
  pageMax: 100,
  /** Days a public link works unless the request says otherwise, and the most it may ask. */
  linkDaysDefault: 30,
  linkDaysMax: 365,
} as const;

export const reportTypes = ['daily', 'safety', 'defects', 'custom'] as const;
export type ReportType = (typeof reportTypes)[number];
/** What each type is called, on the web and on the PDF's cover. */
export const reportTypeLabels: Record<ReportType, string> = {
  daily: 'Daily site report',
  safety: 'Safety walk',
  defects: 'Defect list',
  custom: 'Custom report',
};

/** Photos per page. */
export const reportLayouts = [1, 2, 4] as const;
export type ReportLayout = (typeof reportLayouts)[number];

/**
 * Where a report's PDF is: waiting for the queue, being drawn (`progress`), done, or failed (with
 * `error`). A re-generation goes back to `queued` while the PDF made before stays downloadable.
 */
export const reportStatuses = ['queued', 'generating', 'ready', 'failed'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

const typeField = z.enum(reportTypes, {
  error: `type must be one of ${reportTypes.join(', ')}.`,
});

const layoutField = z.union([z.literal(1), z.literal(2), z.literal(4)], {
  error: 'layout must be 1, 2 or 4 photos per page.',
});

/** An IANA time zone the server knows ("Europe/Berlin"); the PDF's times are written in it. */
export const timeZoneField = z
  .string({ error: 'timeZone must be a time zone name such as Europe/Berlin.' })
  .max(64, { error: 'timeZone must be a time zone name such as Europe/Berlin.' })
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { error: 'timeZone must be a time zone name such as Europe/Berlin.' },
  );

export const reportPhotoInputSchema = z.object(
  {
    uploadId: idField('A photo', 'uploadId must be a photo id.'),
    caption: optionalText('A caption', reportLimits.captionMax).default(''),
  },
  { error: 'Each photo must be { "uploadId": …, "caption": "…" }.' },
);

/**
 * `POST /api/report`: a report of the project's photos, in the order given (each photo once,
 * every one in the project). Answers 202 with the report, `queued`; the PDF is made off the
 * request path. `from`/`to` are the inclusive days the report covers (printed on the cover; the
 * photos may come from outside them). `timeZone` (default UTC) is the zone capture and upload
 * times are written in; `teamName` (default the workspace's) is the company on the cover.
 */
export const createReportRequestSchema = z
  .object(
    {
      projectId: idField('The project', 'projectId must be a project id.'),
      type: typeField,
      title: requiredText('The title', reportLimits.titleMax),
      intro: optionalText('The intro', reportLimits.introMax).default(''),
      from: dayField('from'),
      to: dayField('to'),
      layout: layoutField,
      photos: z
        .array(reportPhotoInputSchema, { error: 'photos must be a list of photos.' })
        .min(1, { error: 'Pick at least one photo for the report.' })
        .max(reportLimits.photosMax, {
          error: `A report can hold at most ${reportLimits.photosMax} photos.`,
        }),
      timeZone: timeZoneField.optional(),
      teamName: optionalLineText('The company or team name', reportLimits.teamNameMax).optional(),
    },
    { error: 'The request must be a report object.' },
  )
  .refine((v) => v.from <= v.to, { error: 'from must not be after to.', path: ['from'] })
  .refine((v) => new Set(v.photos.map((p) => p.uploadId)).size === v.photos.length, {
    error: 'Each photo can be in the report only once.',
    path: ['photos'],
  });
export type CreateReportRequest = z.input<typeof createReportRequestSchema>;

/** The first photo's preview, for a report's card. */
const reportThumbSchema = z.object({ uploadId: z.number().int(), previewLink: z.string() });

/** A report as lists show it. `pdfLink` is a signed link bound to the viewer's session. */
export const reportSchema = z.object({
  id: z.number().int(),
  project: z.object({ id: z.number().int(), name: z.string(), archived: z.boolean() }),
  author: personRefSchema,
  type: z.enum(reportTypes),
  title: z.string(),
  from: z.string(),
  to: z.string(),
  layout: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  photoCount: z.number().int(),
  status: z.enum(reportStatuses),
  /** Photos drawn by the running generation, out of `photoCount`. */
  progress: z.number().int(),
  /** Why the last generation failed, while `status` is `failed`. */
  error: z.string().nullable(),
  /** The stored PDF (also while a re-generation runs), or null when none was made yet. */
  pdf: z
    .object({
      link: z.string(),
      bytes: z.number().int(),
      pages: z.number().int(),
      generatedAt: z.string(),
    })
    .nullable(),
  thumb: reportThumbSchema.nullable(),
  createdAt: z.string(),
  /** The author or an admin may re-generate, share and delete. */
  canManage: z.boolean(),
});
export type Report = z.infer<typeof reportSchema>;

/**
 * One photo of a report, in order. `upload` is the photo as it is now, or null once it has been
 * deleted (the PDF made before keeps it; `name` and `sha256` say which it was).
 */
export const reportPhotoSchema = z.object({
  position: z.number().int(),
  uploadId: z.number().int().nullable(),
  name: z.string(),
  caption: z.string(),
  /** The SHA-256 of the original the PDF printed; null until the PDF is first made. */
  sha256: z.string().nullable(),
  upload: uploadSchema.nullable(),
});
export type ReportPhoto = z.infer<typeof reportPhotoSchema>;

/** `GET /api/report/{id}`: the report with what the author wrote and its photo list. */
export const reportDetailSchema = reportSchema.extend({
  intro: z.string(),
  teamName: z.string(),
  timeZone: z.string(),
  photos: z.array(reportPhotoSchema),
  /** Photos deleted since the report was made. */
  goneCount: z.number().int(),
});
export type ReportDetail = z.infer<typeof reportDetailSchema>;

/**
 * `GET /api/report/latest?project=&type=&author=&before=&limit=`: newest first, across projects
 * (archived ones included); `before` is the `next` of the page before (a report id).
 */
export const reportsQuerySchema = z.object({
  project: idField('project', 'project must be a project id.').optional(),
  author: idField('author', 'author must be a member id.').optional(),
  type: typeField.optional(),
  before: idField('before', 'before must be a report id.').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(reportLimits.pageMax, { error: `limit must be at most ${reportLimits.pageMax}.` })
    .default(reportLimits.pageDefault),
});
export type ReportsQuery = z.input<typeof reportsQuerySchema>;
export const reportPageSchema = z.object({
  reports: z.array(reportSchema),
  next: z.number().int().nullable(),
});
export type ReportPage = z.infer<typeof reportPageSchema>;

/**
 * A public link to one report's PDF, for people outside the team. `active` is false once it
 * expired or was revoked. `downloads` counts every time the PDF was served through it.
 */
export const reportLinkSchema = z.object({
  id: z.number().int(),
  reportId: z.number().int(),
  createdBy: personRefSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  active: z.boolean(),
  downloads: z.number().int(),
  lastDownloadAt: z.string().nullable(),
});
export type ReportLink = z.infer<typeof reportLinkSchema>;
export const reportLinkListSchema = z.array(reportLinkSchema);

/**
 * The answer of `POST /api/report/{id}/links`: the link with its address, shown once (only the
 * token's hash is stored). `path` is `/api/report/shared/<token>`; the web prefixes its origin.
 */
export const createdReportLinkSchema = reportLinkSchema.extend({ path: z.string() });
export type CreatedReportLink = z.infer<typeof createdReportLinkSchema>;

/** `POST /api/report/{id}/links` (the author or an admin, once the PDF exists). */
export const createReportLinkRequestSchema = z.object(
  {
    expiresInDays: z
      .number({ error: 'expiresInDays must be a number of days.' })
      .int({ error: 'expiresInDays must be a whole number of days.' })
      .min(1, { error: 'A link must work for at least 1 day.' })
      .max(reportLimits.linkDaysMax, {
        error: `A link can work for at most ${reportLimits.linkDaysMax} days.`,
      })
      .default(reportLimits.linkDaysDefault),
  },
  { error: 'The request must be an object such as { "expiresInDays": 30 }.' },
);
export type CreateReportLinkRequest = z.input<typeof createReportLinkRequestSchema>;
/**
 * The body of `POST /api/report/{id}/links` as the server reads it: `createReportLinkRequestSchema`,
 * or no body at all, read as `{}` (a link for `reportLimits.linkDaysDefault` days). Fastify hands
 * a missing body to the validator as null.
 */
export const createReportLinkBodySchema = z.preprocess(
  (body) => body ?? {},
  createReportLinkRequestSchema,
);

export const reportLinkTokenParamsSchema = z.object({
  token: z
    .string({ error: 'The report link is incomplete.' })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'The report link is incomplete.' }),
});

/** `GET /api/workspace`: the team as the reports' covers name it. */
export const workspaceSchema = z.object({ teamName: z.string() });
export type Workspace = z.infer<typeof workspaceSchema>;
/** `PATCH /api/workspace` (admins). */
export const workspacePatchSchema = z.object(
  {
    teamName: optionalLineText('The company or team name', reportLimits.teamNameMax),
  },
  { error: 'The request must be { "teamName": "…" }.' },
);
export type WorkspacePatch = z.input<typeof workspacePatchSchema>;
