import { z } from 'zod';

/** Standard error body of every failed API call. */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  requestId: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A positive integer id taken from a path segment such as `/api/project/id/{id}`. */
export const idParam = z.coerce
  .number({ error: 'The id must be a number.' })
  .int({ error: 'The id must be a whole number.' })
  .positive({ error: 'The id must be a positive number.' })
  .max(2_147_483_647, { error: 'The id is too large.' });

export const idParamsSchema = z.object({ id: idParam });

/** Who made something, as embedded in projects and uploads. */
export const personRefSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
});

/* eslint-disable no-control-regex -- these patterns exist to refuse control characters */
/** No control characters at all (single-line fields such as names). */
export const SINGLE_LINE_TEXT = /^[^\u0000-\u001f\u007f]*$/;
/** No control characters but tab and line breaks (multi-line fields such as descriptions). */
export const MULTI_LINE_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
/* eslint-enable no-control-regex */

/** Trimmed, non-empty, single-line text with a maximum length and a readable message. */
export function requiredText(label: string, max: number) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined ? `${label} is required.` : `${label} must be text.`,
    })
    .trim()
    .min(1, { error: `${label} is required.` })
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .regex(SINGLE_LINE_TEXT, { error: `${label} must not contain control characters.` });
}

/** Trimmed optional text (line breaks allowed); empty means none. */
export function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .regex(MULTI_LINE_TEXT, { error: `${label} must not contain control characters.` });
}
