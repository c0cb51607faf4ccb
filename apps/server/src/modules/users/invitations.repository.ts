import type { Database } from '../../db/database.js';

export async function insertInvitation(
  db: Database,
  values: { tokenHash: string; userId: number; createdBy: number; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('invitations')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      created_by: values.createdBy,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

/** An invitation by its token's hash, with the state of the account it is for. */
export function findInvitationByHash(db: Database, tokenHash: string) {
  return db
    .selectFrom('invitations')
    .innerJoin('users', 'users.id', 'invitations.user_id')
    .select([
      'invitations.id',
      'invitations.user_id',
      'invitations.expires_at',
      'invitations.used_at',
      'users.email',
      'users.firstname',
      'users.lastname',
      'users.is_admin',
      'users.is_active',
    ])
    .where('invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Whether the account was ever invited, and whether one of its links was used. */
export async function invitationHistory(
  db: Database,
  userId: number,
): Promise<{ invited: boolean; accepted: boolean }> {
  const rows = await db
    .selectFrom('invitations')
    .select('used_at')
    .where('user_id', '=', userId)
    .execute();
  return { invited: rows.length > 0, accepted: rows.some((row) => row.used_at !== null) };
}

/**
 * Ends every link of the account that still works (a new link replaces them; deactivation voids
 * them): they expire now, so they answer as expired, and stay expired after a reactivation.
 */
export async function expireOpenInvitations(
  db: Database,
  userId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/**
 * Marks a link used, only if it is still unused and unexpired: of two acceptances racing, one
 * wins (the row lock on PostgreSQL, the write lock on SQLite). Answers whether this call did it.
 */
export async function markInvitationUsed(db: Database, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
