import { z } from 'zod';

/** Standard error body of every failed API call. */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  requestId: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

const INT32_MAX = 2_147_483_647;
/** The one spelling of an id: no sign, no leading zero, no exponent, hex, dot or blank. */
const ID_DIGITS = /^[1-9][0-9]*$/;

/**
 * A positive int32 id, as a path segment, a query value or a JSON number. Strings must be plain
 * digits: `0x1`, `1e0`, `+8`, `08` and `" 1"` all coerce to a number, but accepting them would
 * make one row reachable under many URLs (and caches, logs and rate limits see them as distinct).
 * `notANumber` is the message for text that is no number at all.
 */
export function idField(label: string, notANumber = `${label} must be a number.`) {
  const message = (value: string | number): string => {
    const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
    if (Number.isNaN(n)) return notANumber;
    if (!Number.isInteger(n)) return `${label} must be a whole number.`;
    if (n <= 0) return `${label} must be a positive number.`;
    if (n > INT32_MAX) return `${label} is too large.`;
    return `${label} must be written in plain digits (no sign, leading zero, space or exponent).`;
  };
  return z.union([z.number(), z.string()], { error: notANumber }).transform((value, ctx) => {
    const digits = typeof value === 'number' ? String(value) : value;
    const id = Number(digits);
    if (!ID_DIGITS.test(digits) || id > INT32_MAX) {
      ctx.addIssue({ code: 'custom', message: message(value) });
      return z.NEVER;
    }
    return id;
  });
}

/** A positive integer id taken from a path segment such as `/api/project/id/{id}`. */
export const idParam = idField('The id');

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

/**
 * A UTF-16 surrogate without its partner (the `u` flag reads a pair as one character, so only a
 * lone one matches). JSON's `\ud800` escape can carry one; it is no character, so UTF-8 cannot
 * store it (PostgreSQL's JSON refuses it, SQLite keeps bytes that are not UTF-8).
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `text` is well-formed UTF-16: no lone surrogate (`String#isWellFormed`, ES2024). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Bidi embeddings, overrides and isolates: invisible, and they reorder the text after them. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** A run of line breaks of any kind (CR, LF, CRLF, NEL, line and paragraph separators). */
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029]+/g;

/**
 * What a single-line field stores: bidi controls dropped (a name like "evil‮gpj.exe" would show
 * reversed in every list) and line breaks turned into one space (a pasted two-line address keeps
 * its words apart). Stripped rather than refused: they are invisible, so a message would name
 * something the user cannot see.
 */
export function singleLine(text: string): string {
  return text.replace(BIDI_CONTROLS, '').replace(LINE_BREAKS, ' ');
}

/** Trimmed, non-empty, single-line, well-formed text with a maximum length and a readable message. */
export function requiredText(label: string, max: number) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined ? `${label} is required.` : `${label} must be text.`,
    })
    .overwrite(singleLine)
    .trim()
    .min(1, { error: `${label} is required.` })
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .regex(SINGLE_LINE_TEXT, { error: `${label} must not contain control characters.` })
    .refine(isWellFormedText, { error: `${label} must be valid text.` });
}

/** Trimmed optional single-line text (a name that may be left empty); empty means none. */
export function optionalLineText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text.` })
    .overwrite(singleLine)
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .regex(SINGLE_LINE_TEXT, { error: `${label} must not contain control characters.` })
    .refine(isWellFormedText, { error: `${label} must be valid text.` });
}

/** Trimmed optional text (line breaks allowed); empty means none. */
export function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .regex(MULTI_LINE_TEXT, { error: `${label} must not contain control characters.` })
    .refine(isWellFormedText, { error: `${label} must be valid text.` });
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, `YYYY-MM-DD`, that exists (no 2024-02-30). */
export function dayField(label: string) {
  return z
    .string({ error: `${label} must be a date (YYYY-MM-DD).` })
    .regex(DAY, { error: `${label} must be a date (YYYY-MM-DD).` })
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
        new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      {
        error: `${label} is not a real date.`,
      },
    );
}
