import type { Database } from '../../db/database.js';

/** The `settings` key the workspace's team name is stored under. */
const TEAM_NAME_KEY = 'team_name';

/** The stored team name, or undefined when none was ever set. */
export async function findTeamName(db: Database): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', TEAM_NAME_KEY)
    .executeTakeFirst();
  return row?.value;
}

/** Stores the team name (an empty one too: it stands for "not set"). */
export async function saveTeamName(db: Database, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: TEAM_NAME_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** The `settings` key of the media-signing secret's fingerprint (the last instance to start). */
const SECRET_FINGERPRINT_KEY = 'secret_fingerprint';

/** The fingerprint the last instance to start recorded, or undefined before any did. */
export async function findSecretFingerprint(db: Database): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SECRET_FINGERPRINT_KEY)
    .executeTakeFirst();
  return row?.value;
}

export async function saveSecretFingerprint(db: Database, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: SECRET_FINGERPRINT_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
