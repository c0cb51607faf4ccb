// GET /api/search's reports section (issue 16) on a small workspace whose every word is known:
// a report is found by its title (word prefixes), its type's label, its intro, its project's and
// its author's names, accents and case aside; the project, author and day filters; archived
// projects; keyset pages; the index kept in step with every write to reports, projects and
// members (the search-reports migration's triggers) and the migration's backfill. Reports are
// written as rows: the triggers are what is tested, whichever code path writes them. Runs on
// SQLite and PostgreSQL.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportType, SearchResponse } from '@sitelog/shared';
import { isSqlite } from '../../db/database.js';
import * as searchReportsMigration from '../../db/migrations/2026-11-26-08-search-reports.js';
import {
  archiveProject,
  buildProject,
  buildUpload,
  buildUser,
  type TestProject,
  type TestUser,
} from '../../../test/factories.js';
import { api, createTestContext, login, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
let token: string;

const at = (day: number) => new Date(Date.UTC(2026, 2, day, 12)).toISOString();

let aisha: TestUser;
let marek: TestUser;
let zoe: TestUser;
let riverside: TestProject;
let cafe: TestProject;
const r: Record<string, number> = {};

interface ReportOverrides {
  projectId: number;
  authorId: number;
  type?: ReportType;
  title: string;
  intro?: string;
  createdAt?: string;
}

/** A report row as the reports service writes it (queued, no PDF yet). */
async function addReport(o: ReportOverrides): Promise<number> {
  const created = o.createdAt ?? new Date().toISOString();
  const row = await ctx.db
    .insertInto('reports')
    .values({
      project_id: o.projectId,
      author_id: o.authorId,
      type: o.type ?? 'custom',
      title: o.title,
      intro: o.intro ?? '',
      team_name: 'Sitelog Builders',
      time_zone: 'UTC',
      date_from: created.slice(0, 10),
      date_to: created.slice(0, 10),
      layout: 2,
      photo_count: 0,
      status: 'queued',
      created_at: created,
      updated_at: created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  aisha = await buildUser(ctx, { firstname: 'Aisha', lastname: 'Müller' });
  marek = await buildUser(ctx, { firstname: 'Marek', lastname: 'Nowak' });
  zoe = await buildUser(ctx, { firstname: 'Zoë', lastname: 'Castañeda' });
  token = await login(ctx, aisha);
  riverside = await buildProject(ctx, {
    creatorId: aisha.id,
    name: 'Riverside Block C',
    location: 'Zürich, Switzerland',
    createdAt: at(1),
  });
  cafe = await buildProject(ctx, {
    creatorId: aisha.id,
    name: 'Harbour Café Renovation',
    location: 'Genève',
    createdAt: at(2),
  });
  // Every intro has "checked", so one word finds them all for the filters.
  r.pour = await addReport({
    projectId: riverside.id,
    authorId: aisha.id,
    type: 'daily',
    title: 'Pour of slab C4',
    intro: 'Concrete pour on level 3 checked',
    createdAt: at(4),
  });
  r.scaffold = await addReport({
    projectId: cafe.id,
    authorId: marek.id,
    type: 'safety',
    title: 'Scaffold inspection',
    intro: 'Edge protection checked',
    createdAt: at(5),
  });
  r.snags = await addReport({
    projectId: cafe.id,
    authorId: zoe.id,
    type: 'defects',
    title: 'Snagging ground floor',
    intro: 'Béton ciré cracks checked',
    createdAt: at(6),
  });
  r.handover = await addReport({
    projectId: riverside.id,
    authorId: marek.id,
    type: 'custom',
    title: 'Handover',
    intro: 'Keys checked, scaffold struck',
    createdAt: at(7),
  });
});
afterAll(async () => ctx.close());

async function search(params: Record<string, string>, as = token) {
  const res = await api(ctx, {
    method: 'GET',
    url: `/api/search?${new URLSearchParams(params).toString()}`,
    token: as,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SearchResponse>();
}

/**
 * Counts the writes to a report's search document from now on: on SQLite a temporary trigger
 * (this connection only) records each update into a temporary table; on PostgreSQL the row's
 * `xmin` (the transaction that wrote its current version) changes with every update, the same
 * text or not. `count()` answers the writes so far (PostgreSQL: 0 or 1, whether any).
 */
async function countDocumentWrites(reportId: number) {
  if (isSqlite(ctx.db)) {
    await sql`create temp table report_document_writes (id integer)`.execute(ctx.db);
    await sql`create temp trigger report_document_written after update on main.search_documents
      when new.kind = 'report' and new.ref_id = ${sql.lit(reportId)} begin
        insert into report_document_writes (id) values (new.id);
      end`.execute(ctx.db);
    return {
      count: async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from report_document_writes`.execute(
              ctx.db,
            )
          ).rows[0]!.n,
        ),
      stop: async () => {
        await sql`drop trigger temp.report_document_written`.execute(ctx.db);
        await sql`drop table temp.report_document_writes`.execute(ctx.db);
      },
    };
  }
  const version = async () =>
    (
      await sql<{ v: string }>`select xmin::text as v from search_documents
        where kind = 'report' and ref_id = ${reportId}`.execute(ctx.db)
    ).rows[0]!.v;
  const first = await version();
  return {
    count: async () => ((await version()) === first ? 0 : 1),
    stop: async () => undefined,
  };
}

const ids = (section?: { items: { id: number }[] }) => section?.items.map((i) => i.id);
const reportIds = async (q: string, params: Record<string, string> = {}) =>
  ids((await search({ q, type: 'reports', ...params })).reports);
const sorted = (list: (number | undefined)[] | undefined) =>
  [...(list ?? [])].sort((a, b) => a! - b!);

describe('the reports table', () => {
  // [query, expected ids in order] — a function, since ids exist only after beforeAll.
  const table: [string, () => number[]][] = [
    // the title: words, prefixes, case
    ['slab', () => [r.pour!]],
    ['sla', () => [r.pour!]],
    ['SLAB C4', () => [r.pour!]],
    ['snagg', () => [r.snags!]],
    ['handover', () => [r.handover!]],
    // the type's label
    ['safety walk', () => [r.scaffold!]],
    ['defect list', () => [r.snags!]],
    ['daily site', () => [r.pour!]],
    ['custom rep', () => [r.handover!]],
    // the intro, accents aside
    ['beton cire', () => [r.snags!]],
    ['BÉTON', () => [r.snags!]],
    ['edge protection', () => [r.scaffold!]],
    // the project's name and the author's name, with other words
    ['harbour scaffold', () => [r.scaffold!]],
    ['cafe snagging', () => [r.snags!]],
    ['castaneda', () => [r.snags!]],
    ['ZOË', () => [r.snags!]],
    ['muller pour', () => [r.pour!]],
    ['nobody-knows-this', () => []],
    // operators are words, never syntax
    ['"slab', () => [r.pour!]],
    ['slab OR handover', () => []],
  ];

  it.each(table)('%j', async (q, expected) => {
    expect(await reportIds(q)).toEqual(expected());
  });

  it('finds every report of a project or an author by the name', async () => {
    expect(sorted(await reportIds('riverside'))).toEqual(sorted([r.pour, r.handover]));
    expect(sorted(await reportIds('nowak'))).toEqual(sorted([r.scaffold, r.handover]));
  });

  it('ranks a title match above a match in the rest', async () => {
    // "scaffold" is the title of one and in the intro of the other.
    expect(await reportIds('scaffold')).toEqual([r.scaffold, r.handover]);
  });

  it('answers the reports section with type=all, as the reports service reads them', async () => {
    const body = await search({ q: 'slab' });
    expect(ids(body.reports)).toEqual([r.pour]);
    expect(body.reports?.next).toBeNull();
    expect(body.reports?.items[0]).toMatchObject({
      id: r.pour,
      title: 'Pour of slab C4',
      type: 'daily',
      project: { id: riverside.id, name: 'Riverside Block C', archived: false },
      author: { id: aisha.id, firstname: 'Aisha', lastname: 'Müller' },
      status: 'queued',
      photoCount: 0,
      createdAt: at(4),
    });
    // The other sections are there too.
    expect(body.projects).toBeDefined();
    expect(body.uploads).toBeDefined();
    expect(body.people).toBeDefined();
    // A single section answers only itself.
    const one = await search({ q: 'slab', type: 'reports' });
    expect(Object.keys(one)).toEqual(['reports']);
    expect(Object.keys(await search({ q: 'slab', type: 'projects' }))).toEqual(['projects']);
  });
});

describe('report filters', () => {
  it('narrow reports by project, author and the day they were made', async () => {
    const q = 'checked';
    expect(sorted(await reportIds(q))).toEqual(sorted([r.pour, r.scaffold, r.snags, r.handover]));
    expect(sorted(await reportIds(q, { project: String(cafe.id) }))).toEqual(
      sorted([r.scaffold, r.snags]),
    );
    expect(sorted(await reportIds(q, { author: String(marek.id) }))).toEqual(
      sorted([r.scaffold, r.handover]),
    );
    expect(await reportIds(q, { author: String(marek.id), project: String(riverside.id) })).toEqual(
      [r.handover],
    );
    // Made on days 4 (pour), 5 (scaffold), 6 (snags), 7 (handover); the ends are inclusive.
    expect(sorted(await reportIds(q, { from: '2026-03-05', to: '2026-03-06' }))).toEqual(
      sorted([r.scaffold, r.snags]),
    );
    expect(await reportIds(q, { to: '2026-03-04' })).toEqual([r.pour]);
    expect(await reportIds(q, { from: '2026-03-07' })).toEqual([r.handover]);
    expect(await reportIds(q, { from: '2026-03-08' })).toEqual([]);
    // `by` is the photos' own: a report's day is the day it was made either way.
    expect(await reportIds(q, { from: '2026-03-07', by: 'captured' })).toEqual([r.handover]);
  });

  it('apply to photos and reports alike in type=all', async () => {
    const photo = await buildUpload(ctx, {
      projectId: cafe.id,
      creatorId: marek.id,
      name: 'Tarpaulin checked',
      createdAt: at(5),
    });
    const body = await search({ q: 'checked', author: String(marek.id), to: '2026-03-05' });
    expect(ids(body.uploads)).toEqual([photo]);
    expect(ids(body.reports)).toEqual([r.scaffold]);
  });
});

describe('archived projects', () => {
  it('have their reports left out unless asked for', async () => {
    const project = await buildProject(ctx, { creatorId: aisha.id, name: 'Mothballed Depot' });
    const report = await addReport({
      projectId: project.id,
      authorId: aisha.id,
      title: 'Padlock survey',
    });
    expect(await reportIds('padlock')).toEqual([report]);
    await archiveProject(ctx, project.id);
    expect(ids((await search({ q: 'padlock' })).reports)).toEqual([]);
    expect(await reportIds('mothballed')).toEqual([]);
    const shown = await search({ q: 'padlock', archived: 'true' });
    expect(ids(shown.reports)).toEqual([report]);
    expect(shown.reports?.items[0]?.project).toMatchObject({ id: project.id, archived: true });
  });
});

describe('the index follows every write', () => {
  it('finds a report made through the API, with its first photo, and forgets it once deleted', async () => {
    const photo = await buildUpload(ctx, {
      projectId: riverside.id,
      creatorId: aisha.id,
      name: 'Sill plate',
    });
    const made = await api(ctx, {
      method: 'POST',
      url: '/api/report',
      token,
      payload: {
        projectId: riverside.id,
        type: 'defects',
        title: 'Timber sill snags',
        intro: 'Rot at the north door',
        from: '2026-03-01',
        to: '2026-03-02',
        layout: 1,
        photos: [{ uploadId: photo, caption: 'Sill' }],
      },
    });
    expect(made.statusCode, made.body).toBe(202);
    const id = made.json<{ id: number }>().id;
    const body = await search({ q: 'timber sill riverside' });
    expect(ids(body.reports)).toEqual([id]);
    expect(body.reports?.items[0]).toMatchObject({
      id,
      type: 'defects',
      photoCount: 1,
      author: { id: aisha.id },
      thumb: { uploadId: photo, previewLink: expect.stringMatching(/^\/media\//) as unknown },
    });
    expect(await reportIds('defect list rot north')).toEqual([id]);

    const deleted = await api(ctx, { method: 'DELETE', url: `/api/report/${id}`, token });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await reportIds('timber sill')).toEqual([]);
  });

  it('follows a report’s title, type and intro, and forgets a deleted report', async () => {
    const report = await addReport({
      projectId: riverside.id,
      authorId: aisha.id,
      type: 'daily',
      title: 'Formwork striking',
      intro: 'Props left in bay 2',
    });
    expect(await reportIds('formwork strik')).toEqual([report]);
    await ctx.db
      .updateTable('reports')
      .set({ title: 'Glulam delivery', type: 'defects', intro: 'Moisture readings' })
      .where('id', '=', report)
      .execute();
    expect(await reportIds('formwork')).toEqual([]);
    expect(await reportIds('props')).toEqual([]);
    expect(await reportIds('daily site formwork')).toEqual([]);
    expect(await reportIds('glulam defect list moisture')).toEqual([report]);

    // The generation's writes (status, progress, the PDF) leave the document alone: not even
    // rewritten with the same text (each rewrite re-indexes it). Rewrites are counted: on SQLite
    // by a temporary trigger of this connection, on PostgreSQL by the row version (`xmin`).
    const writes = await countDocumentWrites(report);
    try {
      const generation = [
        { status: 'generating', progress: 0, claim_token: 'run-1', attempts: 1 },
        { progress: 2, updated_at: new Date().toISOString() },
        { status: 'ready', progress: 3, pdf_key: 'reports/x.pdf', pdf_bytes: 10, pdf_pages: 1 },
        { status: 'failed', error: 'Photo #2 could not be read.', claim_token: null },
      ];
      for (const set of generation)
        await ctx.db.updateTable('reports').set(set).where('id', '=', report).execute();
      expect(await writes.count()).toBe(0);
      // The count sees a rewrite, even one with the same text.
      await ctx.db
        .updateTable('search_documents')
        .set((eb) => ({ title: eb.ref('title') }))
        .where('kind', '=', 'report')
        .where('ref_id', '=', report)
        .execute();
      expect(await writes.count()).toBe(1);
    } finally {
      await writes.stop();
    }
    expect(await reportIds('glulam')).toEqual([report]);

    await ctx.db.deleteFrom('reports').where('id', '=', report).execute();
    expect(await reportIds('glulam')).toEqual([]);
    const left = await ctx.db
      .selectFrom('search_documents')
      .select('id')
      .where('kind', '=', 'report')
      .where('ref_id', '=', report)
      .execute();
    expect(left).toEqual([]);
  });

  it('follows a project’s new name to its reports, and forgets them with the project', async () => {
    const owner = await buildUser(ctx, { firstname: 'Ingrid', lastname: 'Halvorsen' });
    const ownerToken = await login(ctx, owner);
    const project = await buildProject(ctx, { creatorId: owner.id, name: 'Quayside Pavilion' });
    const report = await addReport({
      projectId: project.id,
      authorId: owner.id,
      title: 'Roof membrane',
    });
    expect(await reportIds('quayside membrane')).toEqual([report]);
    const edited = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${project.id}`,
      token: ownerToken,
      payload: { project: { name: 'Fjord Pavilion', location: 'Bergen', description: '' } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await reportIds('quayside')).toEqual([]);
    expect(await reportIds('fjord membrane')).toEqual([report]);

    // No call deletes a project (they are archived); the triggers cover a removal all the
    // same (a restore, an operator): its reports go with it, and their documents.
    await ctx.db.deleteFrom('projects').where('id', '=', project.id).execute();
    expect(await reportIds('membrane')).toEqual([]);
    const left = await ctx.db
      .selectFrom('search_documents')
      .select('id')
      .where('kind', '=', 'report')
      .where('ref_id', '=', report)
      .execute();
    expect(left).toEqual([]);
  });

  it('follows a member’s new name to their reports', async () => {
    const author = await buildUser(ctx, { firstname: 'Olúṣẹgun', lastname: 'Adébáyọ̀' });
    const report = await addReport({
      projectId: riverside.id,
      authorId: author.id,
      title: 'Waterproofing',
    });
    expect(await reportIds('olusegun adebayo')).toEqual([report]);
    // No call edits a member's name yet; the database keeps the index in step all the same.
    await ctx.db
      .updateTable('users')
      .set({ lastname: 'Okafor' })
      .where('id', '=', author.id)
      .execute();
    expect(await reportIds('adebayo')).toEqual([]);
    expect(await reportIds('okafor waterproof')).toEqual([report]);
  });

  it("the migration's backfill gives reports made before it their documents", async () => {
    const db = ctx.db as unknown as Kysely<unknown>;
    await searchReportsMigration.down(db);
    const report = await addReport({
      projectId: cafe.id,
      authorId: zoe.id,
      type: 'safety',
      title: 'Lifting plan',
    });
    expect(
      await ctx.db
        .selectFrom('search_documents')
        .select('id')
        .where('kind', '=', 'report')
        .execute(),
    ).toEqual([]);
    await searchReportsMigration.up(db);
    expect(await reportIds('lifting plan safety castaneda')).toEqual([report]);
    // The reports made before keep being found, in their order of making.
    expect(await reportIds('slab')).toEqual([r.pour]);
  });
});

describe('pages', () => {
  it('walks the reports by keyset cursors: every hit once, in order, then next is null', async () => {
    const project = await buildProject(ctx, { creatorId: aisha.id, name: 'Pagoda' });
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        await addReport({
          projectId: project.id,
          authorId: aisha.id,
          title: `Lintel ${i}`,
          createdAt: at(10 + i),
        }),
      );
    const whole = await search({ q: 'lintel', type: 'reports' });
    expect(whole.reports?.next).toBeNull();
    // Equal relevance: newest first.
    expect(ids(whole.reports)).toEqual([...made].reverse());

    const seen: number[] = [];
    let before: string | null | undefined;
    let pages = 0;
    do {
      const params: Record<string, string> = { q: 'lintel', type: 'reports', limit: '3' };
      if (before) params.before = before;
      const page = await search(params);
      seen.push(...(ids(page.reports) ?? []));
      before = page.reports?.next;
      pages++;
    } while (before && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids(whole.reports));

    // A reports cursor pages only reports, and another section's only its own.
    const first = await search({ q: 'lintel', type: 'reports', limit: '1' });
    const cursor = first.reports?.next ?? '';
    expect(cursor).not.toBe('');
    for (const type of ['uploads', 'projects', 'people']) {
      const res = await api(ctx, {
        method: 'GET',
        url: `/api/search?q=lintel&type=${type}&before=${cursor}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(
        'before is not a cursor from a previous page of this search.',
      );
    }
  });
});

describe('requests', () => {
  it('answers 401 signed out and 400 with the same messages as before', async () => {
    const signedOut = await api(ctx, { method: 'GET', url: '/api/search?q=slab&type=reports' });
    expect(signedOut.statusCode).toBe(401);
    const bad = async (query: string, message: string) => {
      const res = await api(ctx, { method: 'GET', url: `/api/search?${query}`, token });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    };
    await bad('q=s&type=reports', 'Type at least 2 characters to search.');
    await bad('q=slab&type=files', 'type must be one of all, projects, uploads, people, reports.');
    await bad(
      'q=slab&before=abc',
      'before pages one section: give type (projects, uploads, people or reports) with it.',
    );
    await bad(
      'q=slab&type=reports&before=abc',
      'before is not a cursor from a previous page of this search.',
    );
    await bad('q=slab&type=reports&author=abc', 'author must be a member id.');
    await bad('q=slab&type=reports&from=2026-03-02&to=2026-03-01', 'from must not be after to.');
    await bad('q=slab&type=reports&limit=51', 'limit must be at most 50.');
  });
});
