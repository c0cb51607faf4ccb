import type { Database } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';

const sessionUserColumns = [
  'sessions.id as session_id',
  'sessions.last_seen_at',
  'sessions.expires_at',
  'sessions.revoked_at',
  'users.id',
  'users.email',
  'users.firstname',
  'users.lastname',
  'users.is_admin',
  'users.is_active',
] as const;

export function findUserByEmail(db: Database, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertSession(
  db: Database,
  values: { tokenHash: string; userId: number; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      created_at: values.now,
      last_seen_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

// Run on every signed-in request: compiled once.
const sessionWithUser = compiledQuery(
  (db: Database, tokenHash: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(sessionUserColumns)
      .where('sessions.token_hash', '=', tokenHash),
  1,
);

export async function findSessionWithUser(db: Database, tokenHash: string) {
  const [row] = await sessionWithUser(db, tokenHash);
  return row;
}

export function findSessionState(db: Database, sessionId: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.revoked_at',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.is_active',
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
}

export async function touchSession(db: Database, sessionId: number, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}

export async function revokeSession(db: Database, sessionId: number, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user (deactivation). */
export async function revokeUserSessions(db: Database, userId: number, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user except `keepSessionId` (a password change). */
export async function revokeOtherUserSessions(
  db: Database,
  userId: number,
  keepSessionId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findPasswordHash(db: Database, userId: number) {
  return db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
}

/**
 * Replaces a user's password hash only if it is still `expectedHash`, so two changes racing
 * each other cannot both win. Answers whether the row was updated.
 */
export async function replacePasswordHash(
  db: Database,
  userId: number,
  expectedHash: string,
  newHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: newHash, updated_at: now })
    .where('id', '=', userId)
    .where('password_hash', '=', expectedHash)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes sessions that can never be used again. */
export async function deleteDeadSessions(db: Database, olderThan: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', olderThan), eb('revoked_at', '<', olderThan)]))
    .execute();
}

/**
 * Counts one password attempt for `key` in a fixed window starting at its first attempt, and
 * answers the count and window start after this attempt (one atomic upsert, so parallel
 * attempts each see their own count).
 */
export async function countLoginAttempt(
  db: Database,
  key: string,
  now: string,
  windowStartedBefore: string,
): Promise<{ count: number; window_start: string }> {
  return db
    .insertInto('login_failures')
    .values({ key, window_start: now, count: 1, last_attempt_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        last_attempt_at: now,
        count: eb
          .case()
          .when('login_failures.window_start', '<', windowStartedBefore)
          .then(1)
          .else(eb('login_failures.count', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('login_failures.window_start', '<', windowStartedBefore)
          .then(now)
          .else(eb.ref('login_failures.window_start'))
          .end(),
      })),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
}

/** The current rate-limit rows of `keys` (read before counting, so a refusal writes nothing). */
export function findLoginCounters(db: Database, keys: string[]) {
  return db
    .selectFrom('login_failures')
    .select(['key', 'window_start', 'count', 'last_attempt_at'])
    .where('key', 'in', keys)
    .execute();
}

/**
 * Counts one attempt of `key` only if its row is still the one read (same window, same last
 * attempt), so of several parallel attempts waiting on the same delay exactly one gets through.
 */
export async function claimLoginAttempt(
  db: Database,
  key: string,
  seen: { window_start: string; last_attempt_at: string | null },
  now: string,
): Promise<boolean> {
  const lastAttempt = seen.last_attempt_at;
  const result = await db
    .updateTable('login_failures')
    .set((eb) => ({ count: eb('count', '+', 1), last_attempt_at: now }))
    .where('key', '=', key)
    .where('window_start', '=', seen.window_start)
    .where((eb) =>
      lastAttempt === null
        ? eb('last_attempt_at', 'is', null)
        : eb('last_attempt_at', '=', lastAttempt),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether `key` (email|ip) signed in successfully at or after `since`. */
export async function isKnownLoginSource(
  db: Database,
  key: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('login_known_sources')
    .select('key')
    .where('key', '=', key)
    .where('last_success_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

export async function rememberLoginSource(db: Database, key: string, now: string): Promise<void> {
  await db
    .insertInto('login_known_sources')
    .values({ key, last_success_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ last_success_at: now }))
    .execute();
}

export async function deleteOldLoginSources(db: Database, before: string): Promise<void> {
  await db.deleteFrom('login_known_sources').where('last_success_at', '<', before).execute();
}

/** Gives back one attempt of `key` (a check that succeeded does not count against the IP). */
export async function uncountLoginAttempt(db: Database, key: string): Promise<void> {
  await db
    .updateTable('login_failures')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}

/** Deletes rate-limit windows that ended before `before`. */
export async function deleteOldLoginFailures(db: Database, before: string): Promise<void> {
  await db.deleteFrom('login_failures').where('window_start', '<', before).execute();
}

export async function clearLoginFailures(db: Database, key: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}

export async function getSetting(db: Database, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

export async function putSetting(db: Database, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function deleteSetting(db: Database, key: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', key).execute();
}

/** Ids of the accounts whose password hash is `passwordHash` (a shared, seeded password). */
export async function findUserIdsByPasswordHash(
  db: Database,
  passwordHash: string,
): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('password_hash', '=', passwordHash)
    .execute();
  return rows.map((row) => row.id);
}

/** Gives `userIds` a new password hash and ends their sessions. */
export async function replacePasswordHashes(
  db: Database,
  userIds: number[],
  newHash: string,
  now: string,
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('users')
    .set({ password_hash: newHash, updated_at: now })
    .where('id', 'in', userIds)
    .execute();
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', 'in', userIds)
    .where('revoked_at', 'is', null)
    .execute();
}
