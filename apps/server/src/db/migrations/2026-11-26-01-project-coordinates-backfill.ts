import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Projects store coordinates since issue 13, and the projects that already exist get theirs from
// the gazetteer where their location text names a place. The gazetteer is app code, which a
// migration never imports, so this migration only marks which projects those are: the ones
// created before now. The app fills them once after start and then deletes the mark; projects
// made later are placed by their creators (a place picked from the suggestions), never guessed.

const KEY = 'projects.coordinates_backfill_before';

export async function up(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ settings: { key: string; value: string } }>)
    .insertInto('settings')
    .values({ key: KEY, value: new Date().toISOString() })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ settings: { key: string; value: string } }>)
    .deleteFrom('settings')
    .where('key', '=', KEY)
    .execute();
}
