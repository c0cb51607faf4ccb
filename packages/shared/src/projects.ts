import { z } from 'zod';
import { optionalText, personRefSchema, requiredText } from './common.js';
import { limits } from './limits.js';

export const uploadThumbSchema = z.object({ id: z.number().int(), previewLink: z.string() });

/** Project as every project call answers it (spec §3). */
export const projectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  creator: personRefSchema,
  uploadsCount: z.number().int(),
  lastUploads: z.array(uploadThumbSchema),
  isFavorited: z.boolean(),
  isFollowed: z.boolean(),
  /**
   * Not in the spec's shape (optional, added): when the project was archived and by whom, or null
   * while it is open. An archived project is read-only: no uploads, edits, bookmarks or follows.
   */
  archivedAt: z.string().nullable().optional(),
  archivedBy: personRefSchema.nullable().optional(),
});
export type Project = z.infer<typeof projectSchema>;
export const projectListSchema = z.array(projectSchema);

/** All-projects row, by position: id, name, location, updatedAt, uploads count, creator name. */
export const projectRowSchema = z.tuple([
  z.number().int(),
  z.string(),
  z.string(),
  z.string(),
  z.number().int(),
  z.string(),
]);
export type ProjectRow = z.infer<typeof projectRowSchema>;
export const projectRowsSchema = z.array(projectRowSchema);

const coordinate = (label: string, bound: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(-bound, { error: `${label} is out of range.` })
    .max(bound, { error: `${label} is out of range.` })
    .nullable()
    .optional();

export const projectInputSchema = z.object({
  name: requiredText('Name', limits.nameMax),
  location: requiredText('Location', limits.locationMax),
  description: optionalText('Description', limits.descriptionMax).optional().default(''),
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
});
export type ProjectInput = z.input<typeof projectInputSchema>;

export const createProjectRequestSchema = z.object({
  project: projectInputSchema,
});
export type CreateProjectRequest = z.input<typeof createProjectRequestSchema>;

/** Project edit (not in the spec's table: the spec shows EDIT without an action). */
export const updateProjectRequestSchema = z.object({
  project: projectInputSchema,
});
export type UpdateProjectRequest = z.input<typeof updateProjectRequestSchema>;

export const placeSchema = z.object({
  label: z.string(),
  name: z.string(),
  country: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type Place = z.infer<typeof placeSchema>;
export const placesQuerySchema = z.object({
  query: z
    .string({ error: 'query must be text.' })
    .trim()
    .max(limits.placeQueryMax, {
      error: `query must be at most ${limits.placeQueryMax} characters.`,
    })
    .default(''),
});
export const placesResponseSchema = z.array(placeSchema);
