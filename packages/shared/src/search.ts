import { z } from 'zod';
import { dayField, idField } from './common.js';
import { projectSchema } from './projects.js';
import { reportSchema } from './reports.js';
import { uploadSchema } from './uploads.js';
import { profileSchema } from './users.js';

export const searchLimits = {
  /** Shorter queries get a 400 (the page shows a neutral empty state instead of asking). */
  queryMin: 2,
  queryMax: 1000,
  /** Results per section and page. */
  pageDefault: 20,
  pageMax: 50,
  /** The top bar's dropdown: this many per section. */
  typeAhead: 4,
} as const;

export const searchTypes = ['all', 'projects', 'uploads', 'people', 'reports'] as const;
export type SearchType = (typeof searchTypes)[number];

/**
 * `GET /api/search`: the query is plain text (quotes, `*`, `-`, `NEAR`, SQL are words, never
 * syntax); every word must match, the last one as a prefix too ("reba" finds rebar), accents and
 * case ignored. `type` picks one section (paged with `before`, the `next` cursor of the page
 * before) or `all` (the first page of each). The upload filters (`project`, `author`, `from`,
 * `to` inclusive days, `by` which time they apply to) narrow the uploads section; `project`,
 * `author` (the report's author) and `from`/`to` (the UTC day the report was created; `by` is
 * the photos' alone) narrow the reports section too; `archived` includes archived projects (and
 * their photos and reports).
 */
export const searchQuerySchema = z
  .object({
    q: z
      .string({ error: 'q must be text.' })
      .trim()
      .min(searchLimits.queryMin, {
        error: `Type at least ${searchLimits.queryMin} characters to search.`,
      })
      .max(searchLimits.queryMax, {
        error: `The search may be at most ${searchLimits.queryMax} characters.`,
      }),
    type: z
      .enum(searchTypes, { error: `type must be one of ${searchTypes.join(', ')}.` })
      .default('all'),
    project: idField('project', 'project must be a project id.').optional(),
    author: idField('author', 'author must be a member id.').optional(),
    from: dayField('from').optional(),
    to: dayField('to').optional(),
    by: z
      .enum(['uploaded', 'captured'], { error: 'by must be uploaded or captured.' })
      .default('uploaded'),
    archived: z
      .enum(['true', 'false'], { error: 'archived must be true or false.' })
      .default('false')
      .transform((v) => v === 'true'),
    limit: z.coerce
      .number({ error: 'limit must be a number.' })
      .int({ error: 'limit must be a whole number.' })
      .min(1, { error: 'limit must be at least 1.' })
      .max(searchLimits.pageMax, { error: `limit must be at most ${searchLimits.pageMax}.` })
      .default(searchLimits.pageDefault),
    before: z
      .string({ error: 'before must be a cursor from a previous page.' })
      .max(200, { error: 'before must be a cursor from a previous page.' })
      .optional(),
  })
  .refine((v) => v.before === undefined || v.type !== 'all', {
    error: 'before pages one section: give type (projects, uploads, people or reports) with it.',
    path: ['before'],
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, {
    error: 'from must not be after to.',
    path: ['from'],
  });
export type SearchQuery = z.input<typeof searchQuerySchema>;

/** One section's page: the hits in order (relevance, then recency) and the cursor of the next. */
function section<T extends z.ZodType>(hit: T) {
  return z.object({ items: z.array(hit), next: z.string().nullable() });
}

export const searchResponseSchema = z.object({
  projects: section(projectSchema).optional(),
  uploads: section(uploadSchema).optional(),
  people: section(profileSchema).optional(),
  /** Added (issue 16): reports by title, intro, type, project and author. */
  reports: section(reportSchema).optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
