import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Reports are searchable (issue 16): a report gets a `search_documents` row of kind `report`,
// with its title as the `title` and as the `body` its type's label (Daily site report, Safety
// walk, Defect list, Custom report), its intro, its project's name and its author's name. As for
// the other kinds, the database keeps the rows in step itself, with triggers on reports (insert,
// update, delete: a project's delete cascades to its reports, whose delete trigger then runs),
// and renaming a project or a member rewrites their reports' documents, the way it rewrites
// their uploads'. The existing project and user triggers are left as they are; these are
// triggers of their own beside them.
//
// SQLite: an FTS5 external-content table `search_fts_report` over search_documents (unicode61
// with diacritics removed, prefix indexes of 2 and 3 characters), kept in step by the documented
// triggers on search_documents, as for the other kinds (search-index migration).
// PostgreSQL: the `document` tsvector the search-index migration's trigger computes (folded by
// `search_fold`), with a partial GIN index for the new kind.
//
// The type labels are written here, not read from the contract: a migration never imports app
// code, and a label renamed later is a new migration rewriting the documents.

/** A report's body, for the report row `r` (the same SQL on both databases). */
const REPORT_BODY = (r: string) => `(case ${r}.type
     when 'daily' then 'Daily site report'
     when 'safety' then 'Safety walk'
     when 'defects' then 'Defect list'
     else 'Custom report' end)
  || ' ' || ${r}.intro
  || ' ' || coalesce((select p.name from projects p where p.id = ${r}.project_id), '')
  || ' ' || coalesce((select a.firstname || ' ' || a.lastname from users a where a.id = ${r}.author_id), '')`;

/** The columns a report's document reads: a status or progress change does not rewrite it. */
const REPORT_COLUMNS = 'title, type, intro, project_id, author_id';

const sqliteStatements = [
  // External content: the text lives in search_documents; these triggers are the only writers
  // (never run 'rebuild', which would index every kind's rows into this table).
  `create virtual table search_fts_report using fts5(
     title, body,
     content = 'search_documents', content_rowid = 'id',
     tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
   )`,
  `create trigger search_documents_report_ai after insert on search_documents
   when new.kind = 'report' begin
     insert into search_fts_report (rowid, title, body) values (new.id, new.title, new.body);
   end`,
  `create trigger search_documents_report_ad after delete on search_documents
   when old.kind = 'report' begin
     insert into search_fts_report (search_fts_report, rowid, title, body)
       values ('delete', old.id, old.title, old.body);
   end`,
  `create trigger search_documents_report_au after update on search_documents
   when new.kind = 'report' begin
     insert into search_fts_report (search_fts_report, rowid, title, body)
       values ('delete', old.id, old.title, old.body);
     insert into search_fts_report (rowid, title, body) values (new.id, new.title, new.body);
   end`,
  `create trigger reports_search_ai after insert on reports begin
     insert into search_documents (kind, ref_id, title, body)
       values ('report', new.id, new.title, ${REPORT_BODY('new')});
   end`,
  `create trigger reports_search_au after update of ${REPORT_COLUMNS} on reports
   begin
     update search_documents set title = new.title, body = ${REPORT_BODY('new')}
       where kind = 'report' and ref_id = new.id;
   end`,
  `create trigger reports_search_ad after delete on reports begin
     delete from search_documents where kind = 'report' and ref_id = old.id;
   end`,
  `create trigger projects_search_au_reports after update of name on projects
   when old.name is not new.name begin
     update search_documents
       set body = (select ${REPORT_BODY('r')} from reports r where r.id = search_documents.ref_id)
       where kind = 'report' and ref_id in (select id from reports where project_id = new.id);
   end`,
  `create trigger users_search_au_reports after update of firstname, lastname on users
   when old.firstname is not new.firstname or old.lastname is not new.lastname begin
     update search_documents
       set body = (select ${REPORT_BODY('r')} from reports r where r.id = search_documents.ref_id)
       where kind = 'report' and ref_id in (select id from reports where author_id = new.id);
   end`,
];

const postgresStatements = [
  // Only this kind's rows, so the reports section reads only its own matches.
  `create index search_documents_report_idx on search_documents using gin (document)
     where kind = 'report'`,
  `create function reports_search() returns trigger language plpgsql as $$
   begin
     if tg_op = 'INSERT' then
       insert into search_documents (kind, ref_id, title, body)
         values ('report', new.id, new.title, ${REPORT_BODY('new')});
     elsif tg_op = 'UPDATE' then
       if (new.title, new.type, new.intro, new.project_id, new.author_id)
          is distinct from (old.title, old.type, old.intro, old.project_id, old.author_id) then
         update search_documents set title = new.title, body = ${REPORT_BODY('new')}
           where kind = 'report' and ref_id = new.id;
       end if;
     else
       delete from search_documents where kind = 'report' and ref_id = old.id;
     end if;
     return null;
   end $$`,
  // Only the columns a document reads: the generation's status and progress writes do not call
  // the function.
  `create trigger reports_search after insert or update of ${REPORT_COLUMNS} or delete
     on reports for each row execute function reports_search()`,
  `create function projects_search_reports() returns trigger language plpgsql as $$
   begin
     if new.name is distinct from old.name then
       update search_documents d set body = ${REPORT_BODY('r')}
         from reports r where d.kind = 'report' and d.ref_id = r.id and r.project_id = new.id;
     end if;
     return null;
   end $$`,
  `create trigger projects_search_reports after update of name on projects
     for each row execute function projects_search_reports()`,
  `create function users_search_reports() returns trigger language plpgsql as $$
   begin
     if (new.firstname, new.lastname) is distinct from (old.firstname, old.lastname) then
       update search_documents d set body = ${REPORT_BODY('r')}
         from reports r where d.kind = 'report' and d.ref_id = r.id and r.author_id = new.id;
     end if;
     return null;
   end $$`,
  `create trigger users_search_reports after update of firstname, lastname on users
     for each row execute function users_search_reports()`,
];

/**
 * The reports that exist before the migration get their documents (the triggers take it from
 * here), oldest first: a document's id is its place in the "newest matches" a search ranks.
 */
const backfill = `insert into search_documents (kind, ref_id, title, body)
  select 'report', r.id, r.title, ${REPORT_BODY('r')} from reports r order by r.created_at, r.id`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const statements = sqlite ? sqliteStatements : postgresStatements;
  for (const statement of [...statements, backfill]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const drops = sqlite
    ? [
        ...['ai', 'au', 'ad'].map((e) => `drop trigger if exists reports_search_${e}`),
        'drop trigger if exists projects_search_au_reports',
        'drop trigger if exists users_search_au_reports',
        ...['ai', 'ad', 'au'].map((e) => `drop trigger if exists search_documents_report_${e}`),
        'drop table if exists search_fts_report',
        `delete from search_documents where kind = 'report'`,
      ]
    : [
        'drop trigger if exists reports_search on reports',
        'drop function if exists reports_search()',
        'drop trigger if exists projects_search_reports on projects',
        'drop function if exists projects_search_reports()',
        'drop trigger if exists users_search_reports on users',
        'drop function if exists users_search_reports()',
        `delete from search_documents where kind = 'report'`,
        'drop index if exists search_documents_report_idx',
      ];
  for (const statement of drops) await sql.raw(statement).execute(db);
}
