import { z } from 'zod';
import { placesConfigSchema } from './client-config.js';
import { SINGLE_LINE_TEXT } from './common.js';
import { limits } from './limits.js';

export const loginRequestSchema = z.object({
  login: z.object(
    {
      email: z
        .string({ error: 'Email must be text.' })
        .trim()
        .min(1, { error: 'Email is required.' })
        .max(254, { error: 'Email is too long.' })
        .regex(SINGLE_LINE_TEXT, { error: 'Email must not contain control characters.' }),
      password: z
        .string({ error: 'Password must be text.' })
        .min(1, { error: 'Password is required.' })
        .max(256, { error: 'Password is too long.' }),
    },
    { error: 'The request must hold a login object with email and password.' },
  ),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The signed-in user as the web app keeps it (spec §3 User). */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  isActive: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const loginResponseSchema = sessionUserSchema.extend({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * GET /api/auth/hints: what the login page may show before sign-in (the sample account while it
 * is untouched). It also still carries the place search settings for older web builds; the web app
 * reads its settings from GET /api/config.
 */
export const loginHintsSchema = placesConfigSchema.extend({
  sample: z.object({ email: z.string(), password: z.string() }).nullable(),
});
export type LoginHints = z.infer<typeof loginHintsSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

/** POST /api/auth/password: the signed-in user's current password and the one to replace it. */
export const changePasswordRequestSchema = z.object({
  password: z.object(
    {
      current: z
        .string({ error: 'The current password must be text.' })
        .min(1, { error: 'The current password is required.' })
        .max(limits.passwordMax, { error: 'The current password is too long.' }),
      next: z
        .string({ error: 'The new password must be text.' })
        .min(1, { error: 'The new password is required.' })
        .max(limits.passwordMax, {
          error: `Password must be at most ${limits.passwordMax} characters.`,
        }),
    },
    { error: 'The request must hold a password object with current and next.' },
  ),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
