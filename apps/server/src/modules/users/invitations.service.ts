import { randomBytes } from 'node:crypto';
import {
  INVITATION_DAYS,
  type Invitation,
  type InvitationLink,
  type LoginResponse,
  type NewUser,
} from '@sitelog/shared';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import {
  checkLinkGuesses,
  countLinkGuess,
  openSession,
  type AuthUser,
} from '../auth/auth.service.js';
import { setPasswordFromLink } from '../auth/password.service.js';
import { hashPassword, passwordProblem } from '../auth/passwords.js';
import { hashToken, newSessionToken } from '../auth/tokens.js';
import * as repo from './invitations.repository.js';
import { findAccountForWrite } from './users.repository.js';
import { createAccount, getUser, type UsersDeps } from './users.service.js';

/*
 * Invitations: an admin makes a member's account without choosing its password and hands the
 * member a one-time link (`/invite/<token>`, valid INVITATION_DAYS) where they set their own.
 *
 * - The token is 32 random bytes (base64url); the database keeps only its SHA-256, as it does
 *   for session tokens, so a copy of the database opens no account.
 * - Until it is accepted the account holds the argon2 hash of a random secret nobody keeps:
 *   nobody can sign in to it, not even the admin who made it.
 * - An account is "pending" while it has unused links and none was ever used. A new link ends
 *   the older ones; accepting ends the others; deactivating ends them all, for good (after a
 *   reactivation the admin makes a new one). Ended links answer as expired.
 * - Accepting runs in one transaction that locks the account row first (deactivation and a new
 *   link take the same lock): the link is marked used only if it is still unused and unexpired,
 *   the password is set, every earlier session of the account ends and a new one opens.
 */

const DAY_MS = 24 * 3600_000;

const LINK_UNKNOWN =
  'This invitation link is not valid. Check that you opened the whole link, or ask your admin for a new one.';
const LINK_EXPIRED = 'This invitation link has expired. Ask your admin for a new one.';
const LINK_USED =
  'This invitation link has already been used. Sign in with the password you chose, or ask your admin for a new link.';
const LINK_DEACTIVATED =
  'This invitation link no longer works: the account has been deactivated. Ask your admin.';

const linkGone = (code: string, message: string) => new AppError(410, code, message);

interface NewLink {
  path: string;
  expiresAt: string;
}

/** Stores a new link for the account in `trx` and answers its path (shown once) and expiry. */
async function addLink(trx: Database, userId: number, createdBy: number): Promise<NewLink> {
  const { token, tokenHash } = newSessionToken();
  const now = Date.now();
  const expiresAt = new Date(now + INVITATION_DAYS * DAY_MS).toISOString();
  await repo.insertInvitation(trx, {
    tokenHash,
    userId,
    createdBy,
    now: new Date(now).toISOString(),
    expiresAt,
  });
  return { path: `/invite/${token}`, expiresAt };
}

/**
 * `POST /api/user/invite`: makes a member account (through the one account writer, so the
 * email rules and the 409 for a taken email are the create call's) with a password nobody
 * knows, and its first link.
 */
export async function inviteUser(
  deps: UsersDeps,
  input: Omit<NewUser, 'password'>,
  actor: AuthUser,
): Promise<InvitationLink> {
  const unknowable = await hashPassword(randomBytes(32).toString('base64url'));
  return writeTransaction(deps.db, async (trx) => {
    const id = await createAccount(
      trx,
      { email: input.email, firstname: input.firstname, lastname: input.lastname, isAdmin: false },
      { passwordHash: unknowable },
    );
    const link = await addLink(trx, id, actor.id);
    return { user: await getUser({ db: trx }, id), ...link };
  });
}

/**
 * `POST /api/user/{id}/invite`: a new link for a member who has not accepted yet; their older
 * links stop working. 409 for a member who set a password (through a link, or was created with
 * one) and for a deactivated one (reactivate first).
 */
export async function reinviteUser(
  deps: UsersDeps,
  id: number,
  actor: AuthUser,
): Promise<InvitationLink> {
  return writeTransaction(deps.db, async (trx) => {
    const account = await findAccountForWrite(trx, id);
    if (!account) throw notFound('Member');
    const name = `${account.firstname} ${account.lastname}`;
    const history = await repo.invitationHistory(trx, id);
    if (history.accepted)
      throw conflict(
        `${name} already set their password through an invitation link.`,
        'invitation_accepted',
      );
    if (!history.invited)
      throw conflict(
        `${name} was created with a password, so there is no invitation to renew.`,
        'not_invited',
      );
    if (account.is_active !== 1)
      throw conflict(
        `${name} is deactivated. Activate the account before making a new link.`,
        'account_deactivated',
      );
    await repo.expireOpenInvitations(trx, id, nowIso());
    const link = await addLink(trx, id, actor.id);
    return { user: await getUser({ db: trx }, id), ...link };
  });
}

type InvitationRow = NonNullable<Awaited<ReturnType<typeof repo.findInvitationByHash>>>;

/** Why a link that exists cannot be used, or null while it works. */
function linkRefusal(row: InvitationRow, now: number): AppError | null {
  if (row.used_at !== null) return linkGone('invitation_used', LINK_USED);
  if (row.is_active !== 1) return linkGone('invitation_deactivated', LINK_DEACTIVATED);
  if (now >= Date.parse(row.expires_at)) return linkGone('invitation_expired', LINK_EXPIRED);
  return null;
}

/**
 * The link's row while it works: 404 for a token no link has (counted against the address's
 * limit, with sign-in failures), 410 with the reason for a used, expired or deactivated one.
 */
async function workingLink(deps: UsersDeps, token: string, ip: string): Promise<InvitationRow> {
  await checkLinkGuesses(deps, ip);
  const row = await repo.findInvitationByHash(deps.db, hashToken(token));
  if (!row) {
    await countLinkGuess(deps, ip);
    throw new AppError(404, 'invitation_not_found', LINK_UNKNOWN);
  }
  const refusal = linkRefusal(row, Date.now());
  if (refusal) throw refusal;
  return row;
}

/** `GET /api/invitation/{token}` (public): who the link is for and until when it works. */
export async function getInvitation(
  deps: UsersDeps,
  token: string,
  ip: string,
): Promise<Invitation> {
  const row = await workingLink(deps, token, ip);
  return {
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    expiresAt: row.expires_at,
  };
}

/**
 * `POST /api/invitation/{token}/accept` (public): the member's own password, under the policy
 * every password meets (same messages); then the link is used, every other session of the
 * account ends, and the member is signed in (the answer of `POST /api/auth/login`).
 */
export async function acceptInvitation(
  deps: UsersDeps,
  token: string,
  input: { password: string; ip: string },
): Promise<LoginResponse> {
  const link = await workingLink(deps, token, input.ip);
  const problem = await passwordProblem(input.password, link);
  if (problem) throw badRequest(problem, 'weak_password');
  const passwordHash = await hashPassword(input.password);

  return writeTransaction(deps.db, async (trx) => {
    // The account row first: a deactivation or a new link waits for this, or this for them.
    const account = await findAccountForWrite(trx, link.user_id);
    if (!account || account.is_active !== 1)
      throw linkGone('invitation_deactivated', LINK_DEACTIVATED);
    if (!(await repo.markInvitationUsed(trx, link.id, nowIso()))) {
      // Used or ended since it was read: say which.
      const now = await repo.findInvitationByHash(trx, hashToken(token));
      throw (now && linkRefusal(now, Date.now())) ?? linkGone('invitation_used', LINK_USED);
    }
    await repo.expireOpenInvitations(trx, account.id, nowIso());
    await setPasswordFromLink({ ...deps, db: trx }, account.id, passwordHash);
    return openSession({ ...deps, db: trx }, account);
  });
}
