import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Full-text search over projects, uploads and people. One row per searchable thing in
// `search_documents` (kind + ref_id), with a `title` (the name: ranked higher) and a `body` (the
// rest: a project's location and description; an upload's description, its project's name and
// its author's name; nothing for a person). The database keeps the rows in step itself, with
// triggers on projects, uploads and users, inside the transaction that changes them: renaming a
// project rewrites its uploads' documents, renaming a member those of their uploads.
//
// SQLite: an FTS5 external-content table per kind over search_documents (unicode61 tokenizer
// with diacritics removed, prefix indexes of 2 and 3 characters), kept in step by the documented
// triggers on search_documents.
// PostgreSQL: a `document` tsvector column (the title weighted A, the body B) computed by a
// trigger from the text folded by `search_fold` (unaccent, lower case, punctuation to spaces so
// the `simple` parser sees the same words as SQLite's tokenizer), with a GIN index per kind.

const UPLOAD_BODY_SQLITE = (u: string) => `${u}.description
  || ' ' || coalesce((select p.name from projects p where p.id = ${u}.project_id), '')
  || ' ' || coalesce((select c.firstname || ' ' || c.lastname from users c where c.id = ${u}.creator_id), '')`;

const sqliteStatements = [
  `create table search_documents (
     id integer primary key,
     kind varchar(16) not null,
     ref_id integer not null,
     title text not null,
     body text not null,
     unique (kind, ref_id)
   )`,
  ...(['project', 'upload', 'person'] as const).flatMap((kind) => [
    // One FTS5 table per kind, so a section reads only its own kind's matches (the people
    // section of "riser" need not walk 16,000 photos). External content: the text lives in
    // search_documents; these triggers are the only writers (never run 'rebuild', which would
    // index every kind's rows into each table).
    `create virtual table search_fts_${kind} using fts5(
       title, body,
       content = 'search_documents', content_rowid = 'id',
       tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
     )`,
    `create trigger search_documents_${kind}_ai after insert on search_documents
     when new.kind = '${kind}' begin
       insert into search_fts_${kind} (rowid, title, body) values (new.id, new.title, new.body);
     end`,
    `create trigger search_documents_${kind}_ad after delete on search_documents
     when old.kind = '${kind}' begin
       insert into search_fts_${kind} (search_fts_${kind}, rowid, title, body)
         values ('delete', old.id, old.title, old.body);
     end`,
    `create trigger search_documents_${kind}_au after update on search_documents
     when new.kind = '${kind}' begin
       insert into search_fts_${kind} (search_fts_${kind}, rowid, title, body)
         values ('delete', old.id, old.title, old.body);
       insert into search_fts_${kind} (rowid, title, body) values (new.id, new.title, new.body);
     end`,
  ]),
  `create trigger projects_search_ai after insert on projects begin
     insert into search_documents (kind, ref_id, title, body)
       values ('project', new.id, new.name, new.location || ' ' || new.description);
   end`,
  `create trigger projects_search_au after update of name, location, description on projects
   begin
     update search_documents set title = new.name, body = new.location || ' ' || new.description
       where kind = 'project' and ref_id = new.id;
   end`,
  `create trigger projects_search_au_name after update of name on projects
   when old.name is not new.name begin
     update search_documents
       set body = (select ${UPLOAD_BODY_SQLITE('u')} from uploads u
                   where u.id = search_documents.ref_id)
       where kind = 'upload' and ref_id in (select id from uploads where project_id = new.id);
   end`,
  `create trigger projects_search_ad after delete on projects begin
     delete from search_documents where kind = 'project' and ref_id = old.id;
   end`,
  `create trigger uploads_search_ai after insert on uploads begin
     insert into search_documents (kind, ref_id, title, body)
       values ('upload', new.id, new.name, ${UPLOAD_BODY_SQLITE('new')});
   end`,
  `create trigger uploads_search_au after update of name, description, project_id on uploads
   begin
     update search_documents set title = new.name, body = ${UPLOAD_BODY_SQLITE('new')}
       where kind = 'upload' and ref_id = new.id;
   end`,
  `create trigger uploads_search_ad after delete on uploads begin
     delete from search_documents where kind = 'upload' and ref_id = old.id;
   end`,
  `create trigger users_search_ai after insert on users begin
     insert into search_documents (kind, ref_id, title, body)
       values ('person', new.id, new.firstname || ' ' || new.lastname, '');
   end`,
  `create trigger users_search_au after update of firstname, lastname on users
   when old.firstname is not new.firstname or old.lastname is not new.lastname begin
     update search_documents set title = new.firstname || ' ' || new.lastname
       where kind = 'person' and ref_id = new.id;
     update search_documents
       set body = (select ${UPLOAD_BODY_SQLITE('u')} from uploads u
                   where u.id = search_documents.ref_id)
       where kind = 'upload' and ref_id in (select id from uploads where creator_id = new.id);
   end`,
  `create trigger users_search_ad after delete on users begin
     delete from search_documents where kind = 'person' and ref_id = old.id;
   end`,
];

/** ASCII and common Unicode punctuation, symbols and spaces: what separates words. */
const SEPARATORS =
  '[[:space:]\\u0021-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007e\\u00a0-\\u00bf\\u00d7\\u00f7\\u2000-\\u206f\\u2190-\\u2bff\\u2e00-\\u2e7f\\u3000-\\u303f\\uff01-\\uff0f]+';

const UPLOAD_BODY_PG = (u: string) => `${u}.description
  || ' ' || coalesce((select p.name from projects p where p.id = ${u}.project_id), '')
  || ' ' || coalesce((select c.firstname || ' ' || c.lastname from users c where c.id = ${u}.creator_id), '')`;

const postgresStatements = [
  `create extension if not exists unaccent`,
  `create function search_fold(text) returns text language sql immutable parallel safe as $$
     select regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, $1)),
                           '${SEPARATORS}', ' ', 'g')
   $$`,
  // A search's words as a tsquery of prefixes, ANDed, folded as the documents are (unaccent can
  // turn a letter into punctuation: "⑻" into "(8)", which then splits as in a document), each
  // quoted so nothing in them is syntax; a prefix, except a single character before the last word
  // (as on SQLite: "c 4" would walk every word starting with c). Immutable, so the planner evaluates it once and sees the
  // query: its statistics then choose between the GIN index and a newest-first walk.
  `create function search_query(text) returns tsquery language sql immutable parallel safe as $$
     select to_tsquery('simple', coalesce(string_agg(
              '''' || w || '''' || case when length(w) > 1 or n = last then ':*' else '' end,
              ' & ' order by n), ''))
     from (select w, n, max(n) over () as last
           from regexp_split_to_table(trim(search_fold($1)), ' +') with ordinality as t (w, n)
           where w <> '') words
   $$`,
  `create table search_documents (
     id serial primary key,
     kind varchar(16) not null,
     ref_id integer not null,
     title text not null,
     body text not null,
     document tsvector not null,
     unique (kind, ref_id)
   )`,
  // One partial GIN index per kind, so a section reads only its own kind's matches.
  ...['project', 'upload', 'person'].map(
    (kind) =>
      `create index search_documents_${kind}_idx on search_documents using gin (document)
         where kind = '${kind}'`,
  ),
  `create function search_documents_vector() returns trigger language plpgsql as $$
   begin
     new.document := setweight(to_tsvector('simple', search_fold(new.title)), 'A')
                  || setweight(to_tsvector('simple', search_fold(new.body)), 'B');
     return new;
   end $$`,
  `create trigger search_documents_vector before insert or update of title, body
     on search_documents for each row execute function search_documents_vector()`,
  `create function projects_search() returns trigger language plpgsql as $$
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
         update search_documents d set body = ${UPLOAD_BODY_PG('u')}
           from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.project_id = new.id;
       end if;
     else
       delete from search_documents where kind = 'project' and ref_id = old.id;
     end if;
     return null;
   end $$`,
  // Only the columns a document reads: an upload's count bump on its project or author does not
  // call the function.
  `create trigger projects_search after insert or update of name, location, description or delete
     on projects for each row execute function projects_search()`,
  `create function uploads_search() returns trigger language plpgsql as $$
   begin
     if tg_op = 'INSERT' then
       insert into search_documents (kind, ref_id, title, body)
         values ('upload', new.id, new.name, ${UPLOAD_BODY_PG('new')});
     elsif tg_op = 'UPDATE' then
       if (new.name, new.description, new.project_id)
          is distinct from (old.name, old.description, old.project_id) then
         update search_documents set title = new.name, body = ${UPLOAD_BODY_PG('new')}
           where kind = 'upload' and ref_id = new.id;
       end if;
     else
       delete from search_documents where kind = 'upload' and ref_id = old.id;
     end if;
     return null;
   end $$`,
  `create trigger uploads_search
     after insert or update of name, description, project_id or delete
     on uploads for each row execute function uploads_search()`,
  `create function users_search() returns trigger language plpgsql as $$
   begin
     if tg_op = 'INSERT' then
       insert into search_documents (kind, ref_id, title, body)
         values ('person', new.id, new.firstname || ' ' || new.lastname, '');
     elsif tg_op = 'UPDATE' then
       if (new.firstname, new.lastname) is distinct from (old.firstname, old.lastname) then
         update search_documents set title = new.firstname || ' ' || new.lastname
           where kind = 'person' and ref_id = new.id;
         update search_documents d set body = ${UPLOAD_BODY_PG('u')}
           from uploads u where d.kind = 'upload' and d.ref_id = u.id and u.creator_id = new.id;
       end if;
     else
       delete from search_documents where kind = 'person' and ref_id = old.id;
     end if;
     return null;
   end $$`,
  `create trigger users_search after insert or update of firstname, lastname or delete
     on users for each row execute function users_search()`,
];

/**
 * The rows that exist before the migration get their documents (the triggers take it from here),
 * oldest first: a document's id is its place in the "newest matches" a search ranks.
 */
const backfill = (uploadBody: string) => [
  `insert into search_documents (kind, ref_id, title, body)
     select 'project', id, name, location || ' ' || description from projects
     order by updated_at, id`,
  `insert into search_documents (kind, ref_id, title, body)
     select 'person', id, firstname || ' ' || lastname, '' from users order by id`,
  `insert into search_documents (kind, ref_id, title, body)
     select 'upload', u.id, u.name, ${uploadBody} from uploads u order by u.created_at, u.id`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const statements = sqlite
    ? [...sqliteStatements, ...backfill(UPLOAD_BODY_SQLITE('u'))]
    : [...postgresStatements, ...backfill(UPLOAD_BODY_PG('u'))];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const drops = sqlite
    ? [
        ...['projects', 'uploads', 'users'].flatMap((t) =>
          ['ai', 'au', 'ad'].map((e) => `drop trigger if exists ${t}_search_${e}`),
        ),
        'drop trigger if exists projects_search_au_name',
        ...['project', 'upload', 'person'].flatMap((kind) => [
          ...['ai', 'ad', 'au'].map((e) => `drop trigger if exists search_documents_${kind}_${e}`),
          `drop table search_fts_${kind}`,
        ]),
        'drop table search_documents',
      ]
    : [
        ...['projects', 'uploads', 'users'].flatMap((t) => [
          `drop trigger if exists ${t}_search on ${t}`,
          `drop function if exists ${t}_search()`,
        ]),
        'drop table search_documents',
        'drop function if exists search_documents_vector()',
        'drop function if exists search_query(text)',
        'drop function if exists search_fold(text)',
      ];
  for (const statement of drops) await sql.raw(statement).execute(db);
}
