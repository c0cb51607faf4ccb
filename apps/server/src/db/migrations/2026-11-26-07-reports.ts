import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Photo reports (issue 16): a report is a project's photos in an order, with captions, made
// into a PDF off the request path.
//
// - `reports` holds what the author asked for (type, title, intro, the date range, the layout,
//   the time zone the times are written in, the team name on the cover) and the state of its PDF:
//   `status` is queued, generating, ready or failed; `progress` counts the photos drawn so far;
//   `pdf_key` names the stored PDF (kept while a re-generation runs, swapped when it is done).
//   `claim_token` is the running generation's claim (null unless `generating`): each of its writes
//   is guarded by it, so a run whose report was taken over (stale) writes nothing; `attempts`
//   counts the claims since the report was last queued by a person, so a report that keeps
//   stopping its process fails after a few instead of looping.
// - `report_photos` is the ordered photo list. `upload_id` becomes null when the photo is deleted;
//   `name` keeps what the photo was called and `sha256` the fingerprint the PDF printed, so the
//   report page can say which photo is gone.
// - `report_links` are the public links for people outside the team: the token is stored as its
//   SHA-256 only, with an expiry, a revocation and a download count.
// - `uploads.original_sha256` is the SHA-256 of the stored original, written when the photo is
//   uploaded (older photos get it when a report first needs it).
// - `events.report_id` ties a `report.created` event to its report; deleting the report deletes
//   the event and, through it, its notifications.

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

  await db.schema.alterTable('uploads').addColumn('original_sha256', 'varchar(64)').execute();

  await idColumn('reports')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('intro', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('team_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('date_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('date_to', 'varchar(10)', (c) => c.notNull())
    .addColumn('layout', 'integer', (c) => c.notNull())
    .addColumn('photo_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claim_token', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('pdf_key', 'text')
    .addColumn('pdf_bytes', 'integer')
    .addColumn('pdf_pages', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('generated_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('reports_project_idx')
    .on('reports')
    .columns(['project_id', 'id'])
    .execute();
  await db.schema
    .createIndex('reports_author_idx')
    .on('reports')
    .columns(['author_id', 'id'])
    .execute();
  // The queue's reads: the oldest queued report (`status = 'queued' order by id`), the waiting
  // count, the stalled ones. Not a partial index: SQLite uses one only when the query's WHERE
  // repeats the index's, and `status = 'queued'` does not repeat `status in (…)`.
  await db.schema
    .createIndex('reports_status_idx')
    .on('reports')
    .columns(['status', 'id'])
    .execute();
  // The sweeper asks which stored PDFs a report still names (`pdf_key in (…)`).
  await db.schema.createIndex('reports_pdf_key_idx').on('reports').column('pdf_key').execute();

  await db.schema
    .createTable('report_photos')
    .addColumn('report_id', 'integer', (c) =>
      c.notNull().references('reports.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('upload_id', 'integer', (c) => c.references('uploads.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sha256', 'varchar(64)')
    .addPrimaryKeyConstraint('report_photos_pk', ['report_id', 'position'])
    .execute();
  await db.schema
    .createIndex('report_photos_upload_idx')
    .on('report_photos')
    .column('upload_id')
    .execute();

  await idColumn('report_links')
    .addColumn('report_id', 'integer', (c) =>
      c.notNull().references('reports.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_download_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('report_links_report_idx')
    .on('report_links')
    .columns(['report_id', 'id'])
    .execute();

  await db.schema
    .alterTable('events')
    .addColumn('report_id', 'integer', (c) => c.references('reports.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('events_report_idx').on('events').column('report_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_report_idx').execute();
  await db.schema.alterTable('events').dropColumn('report_id').execute();
  for (const table of ['report_links', 'report_photos', 'reports'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('uploads').dropColumn('original_sha256').execute();
}
