import type { NewUser, Profile, ProfilesResponse, User } from '@sitelog/shared';
import { newUserSchema } from '@sitelog/shared';
import { isUniqueViolation, nowIso, writeTransaction, type Database } from '../../db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import {
  normalizeEmail,
  revokeAllSessions,
  type AuthDeps,
  type AuthUser,
} from '../auth/auth.service.js';
import { hashPassword, passwordProblem } from '../auth/passwords.js';
import * as repo from './users.repository.js';

export type UsersDeps = AuthDeps;

const EMAIL_TAKEN = 'A user with this email already exists.';

function toUser(row: NonNullable<repo.AccountRow>): User {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    isAdmin: row.is_admin === 1,
    isActive: row.is_active === 1,
  };
}

function toProfile(row: repo.ProfileDbRow): Profile {
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

/** The admin's user list: every non-admin account, active or not (admin accounts stay hidden). */
export async function listUsers(deps: Pick<UsersDeps, 'db'>): Promise<User[]> {
  return (await repo.listNonAdminAccounts(deps.db)).map(toUser);
}

/**
 * Creates a member account (never an admin). The email is stored trimmed and lower-cased, so
 * uniqueness holds in any letter case; the database's unique index settles a race between two
 * admins. The password policy is OWASP's: length, no common passwords, no composition rules.
 */
export async function createUser(deps: Pick<UsersDeps, 'db'>, input: NewUser): Promise<User> {
  const parsed = newUserSchema.parse(input);
  const email = normalizeEmail(parsed.email);
  // Names shorter than 4 letters match inside too many ordinary words to be refused.
  const context = [email.split('@')[0] ?? '', parsed.firstname, parsed.lastname].filter(
    (word) => word.length >= 4,
  );
  const problem = passwordProblem(parsed.password, context);
  if (problem) throw badRequest(problem, 'weak_password');
  if (await repo.emailExists(deps.db, email)) throw conflict(EMAIL_TAKEN, 'email_taken');

  const passwordHash = await hashPassword(parsed.password);
  const now = nowIso();
  let id: number;
  try {
    id = await repo.insertUser(deps.db, {
      email,
      firstname: parsed.firstname,
      lastname: parsed.lastname,
      password_hash: passwordHash,
      is_admin: 0,
      is_active: 1,
      created_at: now,
      updated_at: now,
      deactivated_at: null,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, 'email_taken');
    throw err;
  }
  const created = await repo.findAccountById(deps.db, id);
  if (!created) throw memberNotFound();
  return toUser(created);
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
    if (await repo.setAccountActive(trx, id, false, nowIso()))
      await revokeAllSessions({ ...deps, db: trx }, id);
    const updated = await repo.findAccountById(trx, id);
    if (!updated) throw memberNotFound();
    return toUser(updated);
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
    const updated = await repo.findAccountById(trx, id);
    if (!updated) throw memberNotFound();
    return toUser(updated);
  });
}

/** One member's profile with the stored project and upload counts; 404 when unknown. */
export async function getProfile(deps: Pick<UsersDeps, 'db'>, id: number): Promise<Profile> {
  const row = await repo.findProfileById(deps.db, id);
  if (!row) throw memberNotFound();
  return toProfile(row);
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

/**
 * For the uploads module, inside its write transaction: keeps the member's stored upload count
 * in step (delta +1 when they add an upload, -1 when it is deleted).
 */
export async function recordUploadCountChange(
  trx: Database,
  userId: number,
  delta: number,
): Promise<void> {
  await repo.addToUploadsCount(trx, userId, delta);
}
