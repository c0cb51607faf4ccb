import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// An upload may carry its client's idempotency key (`clientId` of the autoupload form). Keys are
// per uploader: unique on (creator_id, client_id). Rows without a key hold NULL, and NULLs are
// distinct in a unique index on both SQLite and PostgreSQL, so they never collide.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('client_id', 'varchar(64)').execute();
  await db.schema
    .createIndex('uploads_creator_client_id_idx')
    .unique()
    .on('uploads')
    .columns(['creator_id', 'client_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('uploads_creator_client_id_idx').execute();
  await db.schema.alterTable('uploads').dropColumn('client_id').execute();
}
