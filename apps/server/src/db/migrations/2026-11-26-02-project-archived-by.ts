import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Projects can be archived and restored (issue 14). `archived_at` has existed since the first
// schema; this adds who archived the project (null while it is open, and for a project archived
// before this column existed) and an index for the archived list, newest archive first. The index
// is partial (archived rows only): it stays small, and the open-project lists, which filter on
// `archived_at is null`, keep the plans they had.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('archived_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createIndex('projects_archived_idx')
    .on('projects')
    .columns(['archived_at', 'id'])
    .where(sql.ref('archived_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('projects_archived_idx').execute();
  await db.schema.alterTable('projects').dropColumn('archived_by').execute();
}
