import { z } from 'zod';

/** How many pins the map calls answer at most (the newest, when there are more). */
export const mapLimits = {
  /** A project's geotagged photos: the newest uploads that have GPS. */
  photoPinsMax: 5000,
  /** Projects with coordinates on the all-projects map: the most recently active. */
  projectPinsMax: 10000,
} as const;

/**
 * GET /api/upload/project/{id}/locations: one pin per geotagged photo of a project, newest upload
 * first. Only what a pin needs; the viewer loads the photo itself.
 */
export const photoLocationSchema = z.object({
  id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  name: z.string(),
  /** As in Upload: an instant ending in `Z`, or the camera's wall clock with no zone; or null. */
  capturedAt: z.string().nullable(),
});
export type PhotoLocation = z.infer<typeof photoLocationSchema>;
export const photoLocationListSchema = z.array(photoLocationSchema);

/** GET /api/project/locations: every open project with coordinates, most recently active first. */
export const projectLocationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  uploadsCount: z.number().int(),
});
export type ProjectLocation = z.infer<typeof projectLocationSchema>;
export const projectLocationListSchema = z.array(projectLocationSchema);
