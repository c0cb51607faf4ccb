import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.

function idType(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  await db.schema
    .createTable('projects')
    .addColumn('id', id, (c) =>
      id === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('location', 'varchar(200)', (c) => c.notNull())
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('uploads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('projects_updated_idx')
    .on('projects')
    .columns(['updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('projects_creator_updated_idx')
    .on('projects')
    .columns(['creator_id', 'updated_at'])
    .execute();

  for (const table of ['project_bookmarks', 'project_follows']) {
    await db.schema
      .createTable(table)
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('project_id', 'integer', (c) =>
        c.notNull().references('projects.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['user_id', 'project_id'])
      .execute();
    await db.schema.createIndex(`${table}_project_idx`).on(table).column('project_id').execute();
  }

  await db.schema
    .createTable('uploads')
    .addColumn('id', id, (c) =>
      id === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('preview_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('formatted_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('original_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('original_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('original_bytes', 'integer', (c) => c.notNull())
    .addColumn('formatted_width', 'integer', (c) => c.notNull())
    .addColumn('formatted_height', 'integer', (c) => c.notNull())
    .addColumn('preview_width', 'integer', (c) => c.notNull())
    .addColumn('preview_height', 'integer', (c) => c.notNull())
    .addColumn('captured_at', 'varchar(32)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('camera', 'varchar(200)')
    .execute();
  await db.schema
    .createIndex('uploads_created_idx')
    .on('uploads')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('uploads_project_created_idx')
    .on('uploads')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('uploads_creator_created_idx')
    .on('uploads')
    .columns(['creator_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
  await db.schema.dropTable('project_follows').execute();
  await db.schema.dropTable('project_bookmarks').execute();
  await db.schema.dropTable('projects').execute();
}
