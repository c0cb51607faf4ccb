import { z } from 'zod';
import { requiredText, singleLine } from './common.js';
import { limits } from './limits.js';

export const userSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  isActive: z.boolean(),
  /**
   * Added (optional, present only when true): invited and has not set a password through a link
   * yet. Accounts created with a password, or whose member accepted, leave it out.
   */
  invitePending: z.boolean().optional(),
  /** Added (optional, with `invitePending`): when the account's newest link stops working. */
  inviteExpiresAt: z.string().optional(),
});
export type User = z.infer<typeof userSchema>;
export const userListSchema = z.array(userSchema);

export const newUserSchema = z.object(
  {
    email: z
      .string({
        error: (iss) => (iss.input === undefined ? 'Email is required.' : 'Email must be text.'),
      })
      .overwrite(singleLine)
      .trim()
      .min(1, { error: 'Email is required.' })
      .max(limits.emailMax, { error: `Email must be at most ${limits.emailMax} characters.` })
      .pipe(z.email({ error: 'Email is not a valid address.' })),
    firstname: requiredText('First name', limits.personNameMax),
    lastname: requiredText('Last name', limits.personNameMax),
    password: z
      .string({
        error: (iss) =>
          iss.input === undefined ? 'Password is required.' : 'Password must be text.',
      })
      .min(limits.passwordMin, {
        error: `Password must be at least ${limits.passwordMin} characters.`,
      })
      .max(limits.passwordMax, {
        error: `Password must be at most ${limits.passwordMax} characters.`,
      }),
  },
  { error: 'The request must hold a user object with email, firstname, lastname and password.' },
);
export type NewUser = z.input<typeof newUserSchema>;
export const createUserRequestSchema = z.object({ user: newUserSchema });
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

/** Profile (spec §3). */
export const profileSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  isActive: z.boolean(),
  projectsCount: z.number().int(),
  uploadsCount: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profilesResponseSchema = z.object({
  count: z.number().int(),
  profiles: z.array(profileSchema),
});
export type ProfilesResponse = z.infer<typeof profilesResponseSchema>;
