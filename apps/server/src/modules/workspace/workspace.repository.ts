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
