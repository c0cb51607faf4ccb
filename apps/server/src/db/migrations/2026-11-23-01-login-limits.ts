import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// The per-account limit across all IPs slows attempts down by the time of the last one, and lets
// an address the account signed in from before skip that delay.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('last_attempt_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('login_known_sources')
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('last_success_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_known_sources').execute();
  await db.schema.alterTable('login_failures').dropColumn('last_attempt_at').execute();
}
