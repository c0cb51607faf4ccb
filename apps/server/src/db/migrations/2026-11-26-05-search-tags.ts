import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Tags are searchable (issue 15): an upload's search document's body ends with its tags, so
// "electrical" finds the photos tagged so. The triggers of the search-index migration that write
// an upload's body are redefined with the tags in it, the update trigger also fires when the
// tags change, and the uploads that already have tags get their documents rewritten.
//
// `uploads.tags` is a JSON array of normalised tags; each database reads it with its own JSON
// functions (SQLite's json_each, PostgreSQL's json_array_elements_text), joined by spaces.

const SQLITE_TAGS = (u: string) =>
  `coalesce((select group_concat(t.value, ' ') from json_each(${u}.tags) t), '')`;
const PG_TAGS = (u: string) =>
  `coalesce((select string_agg(t, ' ') from json_array_elements_text(${u}.tags::json) t), '')`;

/** An upload's body: description, project name, author's name and, with `tags`, its tags. */
const uploadBody = (u: string, tags: ((u: string) => string) | null) => `${u}.description
  || ' ' || coalesce((select p.name from projects p where p.id = ${u}.project_id), '')
  || ' ' || coalesce((select c.firstname || ' ' || c.lastname from users c where c.id = ${u}.creator_id), '')${
    tags ? `\n  || ' ' || ${tags(u)}` : ''
  }`;

/** The SQLite triggers that write an upload's body, reading tags or not (`down`). */
function sqliteTriggers(withTags: boolean): string[] {
  const body = (u: string) => uploadBody(u, withTags ? SQLITE_TAGS : null);
  const columns = withTags
    ? 'name, description, project_id, tags'
    : 'name, description, project_id';
  return [
    ...['uploads_search_ai', 'uploads_search_au', 'projects_search_au_name', 'users_search_au'].map(
      (name) => `drop trigger if exists ${name}`,
    ),
    `create trigger projects_search_au_name after update of name on projects
     when old.name is not new.name begin
       update search_documents
         set body = (select ${body('u')} from uploads u where u.id = search_documents.ref_id)
         where kind = 'upload' and ref_id in (select id from uploads where project_id = new.id);
     end`,
    `create trigger uploads_search_ai after insert on uploads begin
       insert into search_documents (kind, ref_id, title, body)
         values ('upload', new.id, new.name, ${body('new')});
     end`,
    `create trigger uploads_search_au after update of ${columns} on uploads
     begin
       update search_documents set title = new.name, body = ${body('new')}
         where kind = 'upload' and ref_id = new.id;
     end`,
    `create trigger users_search_au after update of firstname, lastname on users
     when old.firstname is not new.firstname or old.lastname is not new.lastname begin
       update search_documents set title = new.firstname || ' ' || new.lastname
         where kind = 'person' and ref_id = new.id;
       update search_documents
         set body = (select ${body('u')} from uploads u where u.id = search_documents.ref_id)
         where kind = 'upload' and ref_id in (select id from uploads where creator_id = new.id);
     end`,
  ];
}

/** The PostgreSQL functions and trigger that write an upload's body, reading tags or not. */
function postgresStatements(withTags: boolean): string[] {
  const body = (u: string) => uploadBody(u, withTags ? PG_TAGS : null);
  const changed = withTags
    ? `(new.name, new.description, new.project_id, new.tags)
          is distinct from (old.name, old.description, old.project_id, old.tags)`
    : `(new.name, new.description, new.project_id)
          is distinct from (old.name, old.description, old.project_id)`;
  const columns = withTags
    ? 'name, description, project_id, tags'
    : 'name, description, project_id';
  return [
    `create or replace function projects_search() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into search_documents (kind, ref_id, title, body)
           values ('project', new.id, new.name, new.location || ' ' || new.description);
       elsif tg_op = 'UPDATE' then
         if (new.name, new.location, new.description)
            is distinct from (old.name, old.location, old.description) then
           update search_documents set title = new.name, body = new.location || ' ' || new.description
             where kind = 'project' and ref_id = new.id;
         end if;
         if new.name is distinct from old.name then
           update search_documents d set body = ${body('u')}
             from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.project_id = new.id;
         end if;
       else
         delete from search_documents where kind = 'project' and ref_id = old.id;
       end if;
       return null;
     end $$`,
    `create or replace function uploads_search() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into search_documents (kind, ref_id, title, body)
           values ('upload', new.id, new.name, ${body('new')});
       elsif tg_op = 'UPDATE' then
         if ${changed} then
           update search_documents set title = new.name, body = ${body('new')}
             where kind = 'upload' and ref_id = new.id;
         end if;
       else
         delete from search_documents where kind = 'upload' and ref_id = old.id;
       end if;
       return null;
     end $$`,
    // Only the columns a document reads: a comment count's change does not call the function.
    `drop trigger if exists uploads_search on uploads`,
    `create trigger uploads_search
       after insert or update of ${columns} or delete
       on uploads for each row execute function uploads_search()`,
    `create or replace function users_search() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into search_documents (kind, ref_id, title, body)
           values ('person', new.id, new.firstname || ' ' || new.lastname, '');
       elsif tg_op = 'UPDATE' then
         if (new.firstname, new.lastname) is distinct from (old.firstname, old.lastname) then
           update search_documents set title = new.firstname || ' ' || new.lastname
             where kind = 'person' and ref_id = new.id;
           update search_documents d set body = ${body('u')}
             from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.creator_id = new.id;
         end if;
       else
         delete from search_documents where kind = 'person' and ref_id = old.id;
       end if;
       return null;
     end $$`,
  ];
}

/**
 * The uploads tagged before this migration get their tags into their documents (the rewritten
 * body; the document ids, which order the newest matches, stay).
 */
const backfill = (sqlite: boolean) =>
  sqlite
    ? `update search_documents
         set body = (select ${uploadBody('u', SQLITE_TAGS)} from uploads u
                     where u.id = search_documents.ref_id)
         where kind = 'upload' and ref_id in (select id from uploads where tags <> '[]')`
    : `update search_documents d set body = ${uploadBody('u', PG_TAGS)}
         from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.tags <> '[]'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const statements = sqlite ? sqliteTriggers(true) : postgresStatements(true);
  for (const statement of [...statements, backfill(sqlite)]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const statements = sqlite ? sqliteTriggers(false) : postgresStatements(false);
  for (const statement of statements) await sql.raw(statement).execute(db);
  // The documents of tagged uploads lose their tags.
  const rewrite = sqlite
    ? `update search_documents
         set body = (select ${uploadBody('u', null)} from uploads u
                     where u.id = search_documents.ref_id)
         where kind = 'upload' and ref_id in (select id from uploads where tags <> '[]')`
    : `update search_documents d set body = ${uploadBody('u', null)}
         from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.tags <> '[]'`;
  await sql.raw(rewrite).execute(db);
}
