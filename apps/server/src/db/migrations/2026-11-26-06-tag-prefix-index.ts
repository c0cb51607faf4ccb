import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Tag suggestions match a prefix (`GET /api/upload/tags?q=`) as the range [q, q's successor) in
// code point order. SQLite's text order is that order, so `upload_tags_tag_idx` already serves
// the range there. PostgreSQL's follows the database's collation (en_US sorts "Level" between
// "level" and "lever"), where such a range is not exact: the query compares in the "C" collation
// (bytes of UTF-8, which is code point order), and this index is in that collation, so the
// prefix is a range scan whatever the database's collation.

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create index upload_tags_tag_prefix_idx on upload_tags (tag collate "C", upload_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop index if exists upload_tags_tag_prefix_idx`.execute(db);
}
