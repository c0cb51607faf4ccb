import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Working together (issue 15): comments on uploads with their mentions, tags on uploads, the
// events that record what happened in a project, each member's notifications drawn from them,
// notification settings and muted projects, and invitations to set one's own password.
//
// - `uploads.tags` is the upload's normalised tags as a JSON array, read with the row (feeds need
//   no join); `upload_tags` holds the same pairs for filtering and the most-used suggestions.
//   Both are written together, by one writer (the uploads module's tags).
// - `uploads.comments_count` is kept by the comments module, in the comment's transaction.
// - An event outlives what it names: a deleted upload or comment leaves its events with a null
//   reference (and the text they held in `data`).
// - A notification is one member's view of one event, or of a group of uploads (`count`), keyed
//   by the newest event it holds (`event_id`), which orders the list.

function idType(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const idColumn = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', id, (c) =>
        id === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey(),
      );

  await db.schema
    .alterTable('uploads')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('uploads')
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('upload_tags')
    .addColumn('upload_id', 'integer', (c) =>
      c.notNull().references('uploads.id').onDelete('cascade'),
    )
    .addColumn('tag', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_tags_pk', ['upload_id', 'tag'])
    .execute();
  await db.schema
    .createIndex('upload_tags_tag_idx')
    .on('upload_tags')
    .columns(['tag', 'upload_id'])
    .execute();

  await idColumn('comments')
    .addColumn('upload_id', 'integer', (c) =>
      c.notNull().references('uploads.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('comments_upload_idx')
    .on('comments')
    .columns(['upload_id', 'id'])
    .execute();

  await db.schema
    .createTable('comment_mentions')
    .addColumn('comment_id', 'integer', (c) =>
      c.notNull().references('comments.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'user_id'])
    .execute();

  await idColumn('events')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('upload_id', 'integer', (c) => c.references('uploads.id').onDelete('set null'))
    .addColumn('comment_id', 'integer', (c) => c.references('comments.id').onDelete('set null'))
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_project_idx')
    .on('events')
    .columns(['project_id', 'id'])
    .execute();
  await db.schema
    .createIndex('events_actor_idx')
    .on('events')
    .columns(['actor_id', 'id'])
    .execute();
  await db.schema.createIndex('events_upload_idx').on('events').column('upload_id').execute();
  await db.schema.createIndex('events_comment_idx').on('events').column('comment_id').execute();

  await idColumn('notifications')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) =>
      c.notNull().references('events.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('upload_id', 'integer', (c) => c.references('uploads.id').onDelete('set null'))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('notifications_user_event_idx')
    .on('notifications')
    .columns(['user_id', 'event_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['user_id', 'project_id', 'actor_id', 'kind'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('notifications_event_idx')
    .on('notifications')
    .column('event_id')
    .execute();
  await db.schema
    .createIndex('notifications_upload_idx')
    .on('notifications')
    .column('upload_id')
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('uploads', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('mentions', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('projects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reports', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('project_mutes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_mutes_pk', ['user_id', 'project_id'])
    .execute();
  await db.schema
    .createIndex('project_mutes_project_idx')
    .on('project_mutes')
    .column('project_id')
    .execute();

  await idColumn('invitations')
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('invitations_user_idx').on('invitations').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'invitations',
    'project_mutes',
    'notification_settings',
    'notifications',
    'events',
    'comment_mentions',
    'comments',
    'upload_tags',
  ])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('uploads').dropColumn('comments_count').execute();
  await db.schema.alterTable('uploads').dropColumn('tags').execute();
}
