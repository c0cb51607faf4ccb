import { sql, type RawBuilder } from 'kysely';
import { isSqlite, type Database } from '../../db/database.js';
import { fts5Match } from './search.terms.js';

export type SearchKind = 'project' | 'upload' | 'person' | 'report';

/** Where a page continues: after this hit in (score desc, at desc, id desc) order. */
export interface SearchCursor {
  score: number;
  at: string;
  id: number;
}

export type SearchHit = SearchCursor;

export interface UploadFilters {
  projectId?: number;
  authorId?: number;
  /** Inclusive days (YYYY-MM-DD) of the upload or capture time, as `by` says. */
  from?: string;
  to?: string;
  by: 'uploaded' | 'captured';
}

export interface ReportFilters {
  projectId?: number;
  /** The report's author. */
  authorId?: number;
  /** Inclusive days (YYYY-MM-DD, UTC) on which the report was created. */
  from?: string;
  to?: string;
}

export interface SearchPage {
  terms: string[];
  /** Include archived projects and their uploads and reports. */
  archived: boolean;
  limit: number;
  after?: SearchCursor;
  uploads?: UploadFilters;
  reports?: ReportFilters;
}

/** What each kind joins, which time is its recency, and which filters apply. */
function kindSql(kind: SearchKind, page: SearchPage) {
  const where: RawBuilder<unknown>[] = [];
  if (kind === 'project') {
    if (!page.archived) where.push(sql`p.archived_at is null`);
    return {
      join: sql`join projects p on p.id = d.ref_id`,
      id: sql`p.id`,
      at: sql`p.updated_at`,
      where,
    };
  }
  if (kind === 'person') {
    return {
      join: sql`join users m on m.id = d.ref_id`,
      id: sql`m.id`,
      at: sql`m.updated_at`,
      where,
    };
  }
  if (kind === 'report') {
    const f = page.reports;
    if (!page.archived) where.push(sql`p.archived_at is null`);
    if (f?.projectId !== undefined) where.push(sql`r.project_id = ${f.projectId}`);
    if (f?.authorId !== undefined) where.push(sql`r.author_id = ${f.authorId}`);
    // ISO text in UTC: the first ten characters are the day, as for upload times.
    if (f?.from !== undefined) where.push(sql`substr(r.created_at, 1, 10) >= ${f.from}`);
    if (f?.to !== undefined) where.push(sql`substr(r.created_at, 1, 10) <= ${f.to}`);
    return {
      join: sql`join reports r on r.id = d.ref_id join projects p on p.id = r.project_id`,
      id: sql`r.id`,
      at: sql`r.created_at`,
      where,
    };
  }
  const f = page.uploads;
  if (!page.archived) where.push(sql`p.archived_at is null`);
  if (f?.projectId !== undefined) where.push(sql`u.project_id = ${f.projectId}`);
  if (f?.authorId !== undefined) where.push(sql`u.creator_id = ${f.authorId}`);
  const time = f?.by === 'captured' ? sql`u.captured_at` : sql`u.created_at`;
  if (f?.by === 'captured' && (f.from !== undefined || f.to !== undefined))
    where.push(sql`u.captured_at is not null`);
  // ISO text: the first ten characters are the day (UTC for upload times, the camera's day for
  // capture times).
  if (f?.from !== undefined) where.push(sql`substr(${time}, 1, 10) >= ${f.from}`);
  if (f?.to !== undefined) where.push(sql`substr(${time}, 1, 10) <= ${f.to}`);
  return {
    join: sql`join uploads u on u.id = d.ref_id join projects p on p.id = u.project_id`,
    id: sql`u.id`,
    at: sql`u.created_at`,
    where,
  };
}

const and = (parts: RawBuilder<unknown>[]) =>
  parts.length === 0 ? sql`` : sql` and ${sql.join(parts, sql` and `)}`;

/**
 * How many of a kind's matches are ranked: the newest this many. A common word matches a large
 * share of 100,000 photos, and scoring every match made a search's cost grow with the workspace
 * (bench/search.ts: "riser", 16,537 matches, 94 ms); the newest 1,000 are found by reading the
 * index newest first and stopping. Sections therefore rank the best of the newest 1,000 matches
 * (after the filters), and page through those; more words or a filter narrow an older find.
 */
export const RANKED_MATCHES = 1000;

/**
 * One page of one kind's matches, best first: relevance (FTS5's bm25 with the name weighted 4×
 * the rest on SQLite, `ts_rank` with the name weighted A on PostgreSQL, rounded to 6 places so a
 * cursor can name a score exactly), then recency, then id, among the newest RANKED_MATCHES
 * matches. Answers `limit + 1` hits so the caller knows whether there is a next page.
 */
export async function findMatches(
  db: Database,
  kind: SearchKind,
  page: SearchPage,
): Promise<SearchHit[]> {
  if (page.terms.length === 0) return [];
  const k = kindSql(kind, page);
  let ranked;
  if (isSqlite(db)) {
    // The FTS table is the outer loop, read newest first (its rowid order), so the scan and
    // bm25 stop after RANKED_MATCHES rows that pass the filters.
    const fts = sql.table(`search_fts_${kind}`);
    ranked = sql`select ${k.id} as id, round(-bm25(${fts}, 4.0, 1.0), 6) as score, ${k.at} as at
        from ${fts}
        join search_documents d on d.id = ${fts}.rowid
        ${k.join}
        where ${fts} match ${fts5Match(page.terms)}${and(k.where)}
        order by ${fts}.rowid desc limit ${RANKED_MATCHES}`;
  } else {
    // PostgreSQL picks the kind's GIN index or a newest-first walk of the primary key, whichever
    // its statistics say is cheaper for this query (`search_query` is immutable: the planner
    // sees the tsquery); ts_rank runs on the kept rows only.
    const query = sql`search_query(${page.terms.join(' ')})`;
    ranked = sql`select c.id, round(ts_rank(c.document, ${query})::numeric, 6)::float8 as score, c.at
        from (select ${k.id} as id, d.document, ${k.at} as at
              from search_documents d
              ${k.join}
              where d.kind = ${kind} and d.document @@ ${query}${and(k.where)}
              order by d.id desc limit ${RANKED_MATCHES}) c`;
  }
  const a = page.after;
  const keyset = a
    ? sql`where score < ${a.score} or (score = ${a.score} and (at < ${a.at} or (at = ${a.at} and id < ${a.id})))`
    : sql``;
  const result = await sql<SearchHit>`select id, score, at from (${ranked}) hits ${keyset}
    order by score desc, at desc, id desc limit ${page.limit + 1}`.execute(db);
  return result.rows.map((r) => ({ id: Number(r.id), score: Number(r.score), at: r.at }));
}
