import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// The media sweeper asks, for batches of stored keys, which ones an upload row still references.

const KEY_COLUMNS = ['preview_key', 'formatted_key', 'original_key'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of KEY_COLUMNS) {
    await db.schema.createIndex(`uploads_${column}_idx`).on('uploads').column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of KEY_COLUMNS) {
    await db.schema.dropIndex(`uploads_${column}_idx`).execute();
  }
}
