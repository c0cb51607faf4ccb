import type { NewUser, Profile, ProfilesResponse, User } from '@sitelog/shared';
import { isUniqueViolation, nowIso, writeTransaction, type Database } from '../../db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import {
  normalizeEmail,
  revokeAllSessions,
  type AuthDeps,
  type AuthUser,
} from '../auth/auth.service.js';
import { hashPassword, passwordProblem } from '../auth/passwords.js';
import * as invitations from './invitations.repository.js';
import * as repo from './users.repository.js';

export type UsersDeps = AuthDeps;

const EMAIL_TAKEN = 'A user with this email already exists.';

function toUser(row: repo.UserRow): User {
  // Invited and not accepted: an unused link exists (working or not) and none was ever used.
  const pending = row.invite_expires_at !== null && Number(row.invites_used) === 0;
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    isAdmin: row.is_admin === 1,
    isActive: row.is_active === 1,
    ...(pending && row.invite_expires_at !== null
      ? { invitePending: true, inviteExpiresAt: row.invite_expires_at }
      : {}),
  };
}

function toProfile(row: repo.ProfileRow): Profile {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    isActive: row.is_active === 1,
    projectsCount: row.projects_count,
    uploadsCount: row.uploads_count,
  };
}

const memberNotFound = () => notFound('Member');

/** A member as the admin's list shows them (with their invitation state); 404 when unknown. */
export async function getUser(deps: Pick<UsersDeps, 'db'>, id: number): Promise<User> {
  const row = await repo.findUserById(deps.db, id);
  if (!row) throw memberNotFound();
  return toUser(row);
}

/** The admin's user list: every non-admin account, active or not (admin accounts stay hidden). */
export async function listUsers(deps: Pick<UsersDeps, 'db'>): Promise<User[]> {
  return (await repo.listNonAdminAccounts(deps.db)).map(toUser);
}

interface NewAccount {
  email: string;
  firstname: string;
  lastname: string;
  isAdmin: boolean;
  /** A deactivated account from the start (tests of deactivated members); active by default. */
  isActive?: boolean;
}

/**
 * How the account's password is given: in clear (checked against the password policy, then
 * hashed), or already hashed by a caller whose password no person chose (the sample workspace's
 * generated one, shared by its members).
 */
type NewAccountPassword = { password: string } | { passwordHash: string };

/**
 * The one writer of user rows (the users API, the create-admin CLI, the sample workspace and the
 * test factories all create accounts here). The email is stored trimmed and lower-cased, so
 * uniqueness holds in any letter case; the database's unique index settles a race (409). A
 * password in clear must pass the password policy (400 weak_password). Answers the new id.
 */
export async function createAccount(
  db: Database,
  account: NewAccount,
  secret: NewAccountPassword,
): Promise<number> {
  const email = normalizeEmail(account.email);
  let passwordHash: string;
  if ('password' in secret) {
    const problem = await passwordProblem(secret.password, { ...account, email });
    if (problem) throw badRequest(problem, 'weak_password');
    if (await repo.emailExists(db, email)) throw conflict(EMAIL_TAKEN, 'email_taken');
    passwordHash = await hashPassword(secret.password);
  } else {
    passwordHash = secret.passwordHash;
  }
  const now = nowIso();
  const active = account.isActive ?? true;
  try {
    return await repo.insertUser(db, {
      email,
      firstname: account.firstname,
      lastname: account.lastname,
      password_hash: passwordHash,
      is_admin: account.isAdmin ? 1 : 0,
      is_active: active ? 1 : 0,
      created_at: now,
      updated_at: now,
      deactivated_at: active ? null : now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, 'email_taken');
    throw err;
  }
}

/** Whether any account exists (the sample workspace is only made on an empty database). */
export async function hasAccounts(db: Database): Promise<boolean> {
  return (await repo.countUsers(db)) > 0;
}

/**
 * Creates a member account (never an admin) from the admin's form, which the route's schema has
 * already validated.
 */
export async function createUser(deps: Pick<UsersDeps, 'db'>, input: NewUser): Promise<User> {
  const id = await createAccount(
    deps.db,
    { email: input.email, firstname: input.firstname, lastname: input.lastname, isAdmin: false },
    { password: input.password },
  );
  return getUser(deps, id);
}

/**
 * Deactivates a member: the account stays (with its projects and uploads, still attributed to
 * it) but cannot sign in, and every session it holds ends in the same transaction, which also
 * voids the media URLs bound to those sessions. Admin accounts cannot be deactivated here (the
 * admin's list hides them), which also means the last active admin can never be locked out.
 * Deactivating a deactivated member answers it unchanged.
 */
export async function deactivateUser(deps: UsersDeps, id: number, actor: AuthUser): Promise<User> {
  if (id === actor.id)
    throw conflict('You cannot deactivate your own account.', 'self_deactivation');
  return writeTransaction(deps.db, async (trx) => {
    const account = await repo.findAccountById(trx, id);
    if (!account) throw memberNotFound();
    if (account.is_admin === 1)
      throw new AppError(403, 'admin_protected', 'Admin accounts cannot be deactivated.');
    const now = nowIso();
    if (await repo.setAccountActive(trx, id, false, now)) {
      await revokeAllSessions({ ...deps, db: trx }, id);
      // Its invitation links end too, for good: a reactivated member who never accepted needs
      // a new link (POST /api/user/{id}/invite), so an old message cannot open the account.
      await invitations.expireOpenInvitations(trx, id, now);
    }
    return getUser({ db: trx }, id);
  });
}

/**
 * Reactivates an account so it can sign in again. Sessions from before stay dead: they were
 * revoked at deactivation, and are revoked again here in case the account was switched off
 * outside this API. Activating an active account answers it unchanged.
 */
export async function activateUser(deps: UsersDeps, id: number): Promise<User> {
  return writeTransaction(deps.db, async (trx) => {
    const account = await repo.findAccountById(trx, id);
    if (!account) throw memberNotFound();
    if (await repo.setAccountActive(trx, id, true, nowIso()))
      await revokeAllSessions({ ...deps, db: trx }, id);
    return getUser({ db: trx }, id);
  });
}

/** One member's profile with the stored project and upload counts; 404 when unknown. */
export async function getProfile(deps: Pick<UsersDeps, 'db'>, id: number): Promise<Profile> {
  const row = await repo.findProfileById(deps.db, id);
  if (!row) throw memberNotFound();
  return toProfile(row);
}

/** For search: the profiles of these members, in any order (unknown ids are left out). */
export async function getProfiles(deps: Pick<UsersDeps, 'db'>, ids: number[]): Promise<Profile[]> {
  return (await repo.findProfilesByIds(deps.db, ids)).map(toProfile);
}

/**
 * The team page: every member, active and deactivated, admins included (they are part of the
 * team too; only the admin's user-management list hides them). `count` is the number of profiles.
 */
export async function listProfiles(deps: Pick<UsersDeps, 'db'>): Promise<ProfilesResponse> {
  const profiles = (await repo.listProfiles(deps.db)).map(toProfile);
  return { count: profiles.length, profiles };
}

/** For other modules: 404 "Member was not found." unless a user with this id exists. */
export async function assertMemberExists(deps: Pick<UsersDeps, 'db'>, id: number): Promise<void> {
  if (!(await repo.findAccountById(deps.db, id))) throw memberNotFound();
}
