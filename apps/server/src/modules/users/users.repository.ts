import type { ExpressionBuilder } from 'kysely';
import { isSqlite, type Database } from '../../db/database.js';
import type { DB, NewUserRow } from '../../db/schema.js';

export async function insertUser(db: Database, values: NewUserRow): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function countUsers(db: Database): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const accountColumns = [
  'id',
  'email',
  'firstname',
  'lastname',
  'is_admin',
  'is_active',
  'deactivated_at',
] as const;

export type AccountRow = Awaited<ReturnType<typeof findAccountById>>;

export function findAccountById(db: Database, id: number) {
  return db.selectFrom('users').select(accountColumns).where('id', '=', id).executeTakeFirst();
}

/**
 * An account's invitation state, read with it: the newest expiry of its unused links (null when
 * it has none) and how many of its links were used (a member who accepted is no longer invited).
 */
function invitationColumns(eb: ExpressionBuilder<DB, 'users'>) {
  return [
    eb
      .selectFrom('invitations')
      .select((sub) => sub.fn.max('invitations.expires_at').as('at'))
      .whereRef('invitations.user_id', '=', 'users.id')
      .where('invitations.used_at', 'is', null)
      .as('invite_expires_at'),
    eb
      .selectFrom('invitations')
      .select((sub) => sub.fn.countAll<number | string>().as('n'))
      .whereRef('invitations.user_id', '=', 'users.id')
      .where('invitations.used_at', 'is not', null)
      .as('invites_used'),
  ];
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** An account as the admin's list shows it: with its invitation state. */
export function findUserById(db: Database, id: number) {
  return db
    .selectFrom('users')
    .select(accountColumns)
    .select(invitationColumns)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * As `findAccountById`, and on PostgreSQL the row stays locked (FOR UPDATE) until the transaction
 * ends, so a deactivation, a new invitation link and an acceptance of one happen one after the
 * other (SQLite's write transactions already hold the one write lock).
 */
export function findAccountForWrite(trx: Database, id: number) {
  const query = trx.selectFrom('users').select(accountColumns).where('id', '=', id);
  return (isSqlite(trx) ? query : query.forUpdate()).executeTakeFirst();
}

/** Emails are stored normalised (trimmed, lower case), so an exact match is case-insensitive. */
export async function emailExists(db: Database, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every account that is not an admin, oldest first (the admin's user list). */
export function listNonAdminAccounts(db: Database) {
  return db
    .selectFrom('users')
    .select(accountColumns)
    .select(invitationColumns)
    .where('is_admin', '=', 0)
    .orderBy('id')
    .execute();
}

/**
 * Flips an account's state. Only rows actually in the other state are touched, so two admins
 * racing on the same user produce one transition; answers whether this call made it.
 */
export async function setAccountActive(
  db: Database,
  id: number,
  active: boolean,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ is_active: active ? 1 : 0, deactivated_at: active ? null : now, updated_at: now })
    .where('id', '=', id)
    .where('is_active', '=', active ? 0 : 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

const profileColumns = [
  'id',
  'firstname',
  'lastname',
  'is_active',
  'projects_count',
  'uploads_count',
] as const;

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfileById>>>;

export function findProfileById(db: Database, id: number) {
  return db.selectFrom('users').select(profileColumns).where('id', '=', id).executeTakeFirst();
}

/** The profiles of these members (any order; unknown ids are left out). */
export function findProfilesByIds(db: Database, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(profileColumns).where('id', 'in', ids).execute();
}

/** Every member with the stored counts, by name (a team is small; one query, no scan of uploads). */
export function listProfiles(db: Database) {
  return db
    .selectFrom('users')
    .select(profileColumns)
    .orderBy('firstname')
    .orderBy('lastname')
    .orderBy('id')
    .execute();
}
