import { z } from 'zod';

export const loginRequestSchema = z.object({
  login: z.object(
    {
      email: z
        .string({ error: 'Email must be text.' })
        .trim()
        .min(1, { error: 'Email is required.' })
        .max(254, { error: 'Email is too long.' }),
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

/** What the login page may show before sign-in: the sample account while it is untouched. */
export const loginHintsSchema = z.object({
  sample: z.object({ email: z.string(), password: z.string() }).nullable(),
  placesProvider: z.enum(['offline', 'google']),
  googleMapsKey: z.string().nullable(),
});
export type LoginHints = z.infer<typeof loginHintsSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
