import { z } from 'zod';
import { newUserSchema, userSchema } from './users.js';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

/**
 * `POST /api/user/invite` (admins): makes the account (no password anyone knows) and answers a
 * one-time link where the member sets their own password. `POST /api/user/{id}/invite` makes a new
 * link for an account that has not accepted yet; the older link stops working.
 */
const INVITE_SHAPE = 'The request must hold a user object with email, firstname and lastname.';
export const inviteRequestSchema = z.object(
  {
    user: z.object(
      {
        email: newUserSchema.shape.email,
        firstname: newUserSchema.shape.firstname,
        lastname: newUserSchema.shape.lastname,
      },
      { error: INVITE_SHAPE },
    ),
  },
  { error: INVITE_SHAPE },
);
export type InviteRequest = z.input<typeof inviteRequestSchema>;

export const invitationLinkSchema = z.object({
  user: userSchema,
  /** The page to open, `/invite/<token>` (the web app prefixes its origin). Shown once. */
  path: z.string(),
  expiresAt: z.string(),
});
export type InvitationLink = z.infer<typeof invitationLinkSchema>;

/** `GET /api/invitation/{token}` (public): who the link is for, while it works. */
export const invitationSchema = z.object({
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationTokenParamsSchema = z.object({
  token: z
    .string({ error: 'The invitation link is incomplete.' })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'The invitation link is incomplete.' }),
});

/**
 * `POST /api/invitation/{token}/accept` (public): sets the password (the same policy as
 * everywhere) and signs in; answers as `POST /api/auth/login` does. The link then stops working.
 */
export const acceptInvitationRequestSchema = z.object(
  { password: newUserSchema.shape.password },
  { error: 'The request must hold the new password as { "password": "…" }.' },
);
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;
