// Photo reports (issue 16), the calls: who may create, read, re-generate and delete a report,
// the messages of bad input, the report as the API maps it (its PDF link served as a PDF, its
// thumbnail, its photos as they are now), its event, and what a delete takes with it.
import { createHash } from 'node:crypto';
import type { ErrorResponse, ReportDetail, ReportPage } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { archiveProject, buildProject, buildReport, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { waitForReport } from '../../../test/reports.js';
import { markProject } from '../projects/projects.service.js';
import { setTeamName } from '../workspace/workspace.service.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let author: Member;
let member: Member;
let admin: Member;
let projectId: number;
let photos: number[];

beforeAll(async () => {
  ctx = await createTestContext();
  author = await signedInUser(ctx, { firstname: 'Rita', lastname: 'Reporter' });
  member = await signedInUser(ctx, { firstname: 'Max', lastname: 'Member' });
  admin = await signedInUser(ctx, { firstname: 'Ada', lastname: 'Admin', isAdmin: true });
  projectId = (await buildProject(ctx, { creatorId: author.id, name: 'Harbour Bridge' })).id;
  photos = [];
  for (const name of ['North pier', 'Deck joint', 'Scaffold'])
    photos.push(await buildUpload(ctx, { projectId, creatorId: author.id, name }));
});
afterAll(async () => ctx?.close());

const today = new Date().toISOString().slice(0, 10);

function request(overrides: Record<string, unknown> = {}) {
  return {
    projectId,
    type: 'daily',
    title: 'Daily report',
    from: today,
    to: today,
    layout: 2,
    photos: photos.map((uploadId, i) => ({ uploadId, caption: `Caption ${i + 1}` })),
    ...overrides,
  };
}

const create = (body: unknown, token?: string) =>
  api(ctx, { method: 'POST', url: '/api/report', token, payload: body as Record<string, unknown> });
const get = (id: number | string, token?: string) =>
  api(ctx, { method: 'GET', url: `/api/report/${id}`, token });
const latest = (query: string, token?: string) =>
  api(ctx, { method: 'GET', url: `/api/report/latest${query}`, token });
const regenerate = (id: number | string, token?: string) =>
  api(ctx, { method: 'POST', url: `/api/report/${id}/regenerate`, token });
const remove = (id: number | string, token?: string) =>
  api(ctx, { method: 'DELETE', url: `/api/report/${id}`, token });

/** A report of the author's, made through the API and waited for until its PDF is ready. */
async function readyReport(overrides: Record<string, unknown> = {}): Promise<ReportDetail> {
  const res = await create(request(overrides), author.token);
  expect(res.statusCode, res.body).toBe(202);
  const report = await waitForReport(ctx, author.token, res.json<ReportDetail>().id);
  expect(report.status, report.error ?? '').toBe('ready');
  return report;
}

const pdfKey = async (id: number) =>
  (
    await ctx.db
      .selectFrom('reports')
      .select('pdf_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).pdf_key;

const status = async (id: number) =>
  (
    await ctx.db
      .selectFrom('reports')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

/** Three new photos of the author's in the project (each test deletes or moves its own). */
async function threePhotos(): Promise<[number, number, number]> {
  return [
    await buildUpload(ctx, { projectId, creatorId: author.id, name: 'First' }),
    await buildUpload(ctx, { projectId, creatorId: author.id, name: 'Second' }),
    await buildUpload(ctx, { projectId, creatorId: author.id, name: 'Third' }),
  ];
}

const deletePhoto = (id: number) =>
  api(ctx, { method: 'DELETE', url: `/api/upload/delete/${id}`, token: author.token });
const movePhoto = (id: number, toProject: number) =>
  api(ctx, {
    method: 'PATCH',
    url: `/api/upload/update/no-image/${id}`,
    token: author.token,
    payload: { upload: { projectId: toProject } },
  });

/** A report of the author's whose first generation failed: no PDF. */
async function failedFirst(uploadIds: number[]): Promise<number> {
  const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds });
  const result = await ctx.db
    .updateTable('reports')
    .set({ status: 'failed', error: 'The PDF could not be made.' })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  expect(result.numUpdatedRows).toBe(1n);
  return id;
}

/** The day a report's PDF was made, as the refusals write it (its time zone: UTC here). */
const madeOn = (report: ReportDetail) =>
  new Date(report.pdf!.generatedAt).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

const reportEvents = (id: number) =>
  ctx.db
    .selectFrom('events')
    .select(['id', 'kind', 'actor_id'])
    .where('report_id', '=', id)
    .execute();

describe('POST /api/report', () => {
  it('asks a signed-out caller to sign in', async () => {
    expect((await create(request())).statusCode).toBe(401);
  });

  it('queues the report and answers it at once (202), with its photos in order', async () => {
    const res = await create(
      request({ title: 'Pier inspection', intro: 'Morning walk.' }),
      author.token,
    );
    expect(res.statusCode, res.body).toBe(202);
    const report = res.json<ReportDetail>();
    expect(report).toMatchObject({
      project: { id: projectId, name: 'Harbour Bridge', archived: false },
      author: { id: author.id, firstname: 'Rita', lastname: 'Reporter' },
      type: 'daily',
      title: 'Pier inspection',
      intro: 'Morning walk.',
      from: today,
      to: today,
      layout: 2,
      photoCount: 3,
      timeZone: 'UTC',
      teamName: '',
      canManage: true,
      goneCount: 0,
      error: null,
    });
    expect(['queued', 'generating', 'ready']).toContain(report.status);
    expect(report.photos.map((p) => [p.position, p.uploadId, p.name, p.caption])).toEqual([
      [1, photos[0], 'North pier', 'Caption 1'],
      [2, photos[1], 'Deck joint', 'Caption 2'],
      [3, photos[2], 'Scaffold', 'Caption 3'],
    ]);
    expect(report.photos[0]?.upload?.id).toBe(photos[0]);
    expect(report.thumb?.uploadId).toBe(photos[0]);
  });

  it('makes the PDF off the request path: ready with its size, pages and the SHA-256 of each original', async () => {
    const report = await readyReport();
    expect(report.progress).toBe(3);
    expect(report.pdf).toMatchObject({ bytes: expect.any(Number), pages: expect.any(Number) });
    expect(report.pdf!.bytes).toBeGreaterThan(1000);
    for (const photo of report.photos) {
      const key = (
        await ctx.db
          .selectFrom('uploads')
          .select('original_key')
          .where('id', '=', photo.uploadId!)
          .executeTakeFirstOrThrow()
      ).original_key;
      const original = (await ctx.storage.get(key))!;
      expect(photo.sha256).toBe(createHash('sha256').update(original).digest('hex'));
    }
  });

  it('names the workspace’s team on the cover unless the author names another', async () => {
    await setTeamName(ctx.db, 'Whitfield & Rossi');
    try {
      const res = await create(request(), author.token);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json<ReportDetail>().teamName).toBe('Whitfield & Rossi');
      const own = await create(request({ teamName: 'Subcontractor Ltd' }), author.token);
      expect(own.json<ReportDetail>().teamName).toBe('Subcontractor Ltd');
    } finally {
      await setTeamName(ctx.db, '');
    }
  });

  it('takes the time zone and the team name the author gives', async () => {
    const res = await create(
      request({ timeZone: 'Europe/Berlin', teamName: 'Acme Build GmbH' }),
      author.token,
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json<ReportDetail>()).toMatchObject({
      timeZone: 'Europe/Berlin',
      teamName: 'Acme Build GmbH',
    });
  });

  it('refuses bad input with a message saying what is wrong (400)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title'],
      [{ layout: 3 }, 'layout must be 1, 2 or 4 photos per page.'],
      [{ photos: [] }, 'Pick at least one photo for the report.'],
      [{ from: '2026-02-02', to: '2026-02-01' }, 'from must not be after to.'],
      [
        { photos: [{ uploadId: photos[0] }, { uploadId: photos[0] }] },
        'Each photo can be in the report only once.',
      ],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone must be a time zone name'],
    ];
    for (const [overrides, message] of cases) {
      const res = await create(request(overrides), author.token);
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json<ErrorResponse>().message).toContain(message);
    }
  });

  it('refuses photos of another project, naming them (400)', async () => {
    const other = await buildProject(ctx, { creatorId: member.id, name: 'Tunnel' });
    const stray = await buildUpload(ctx, { projectId: other.id, name: 'Tunnel mouth' });
    const res = await create(
      request({ photos: [{ uploadId: photos[0] }, { uploadId: stray }] }),
      author.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'photo_not_in_project',
      message: expect.stringContaining(`not in Harbour Bridge: “Tunnel mouth” (photo ${stray})`),
    });
  });

  it('refuses a photo that does not exist (400)', async () => {
    const res = await create(
      request({ photos: [{ uploadId: photos[0] }, { uploadId: 999_999 }] }),
      author.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'photo_not_found',
      message: 'Photo 999999 does not exist (it may have been deleted). Remove it from the report.',
    });
  });

  it('answers 404 for a project that does not exist, 409 for an archived one', async () => {
    expect(
      (
        await create(
          request({ projectId: 999_999, photos: [{ uploadId: photos[0] }] }),
          author.token,
        )
      ).statusCode,
    ).toBe(404);
    const archived = await buildProject(ctx, { creatorId: author.id });
    const photo = await buildUpload(ctx, { projectId: archived.id });
    await archiveProject(ctx, archived.id);
    const res = await create(
      request({ projectId: archived.id, photos: [{ uploadId: photo }] }),
      author.token,
    );
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorResponse>().message).toContain('This project is archived');
    expect(
      await ctx.db
        .selectFrom('reports')
        .select('id')
        .where('project_id', '=', archived.id)
        .execute(),
    ).toEqual([]);
  });

  it('answers 503 with Retry-After when too many reports wait, and writes nothing', async () => {
    const { REPORT_QUEUE_MAX } = await import('./reports.service.js');
    const now = new Date().toISOString();
    // Waiting reports of another process (far in the future, so no queue here takes them up).
    const filler = Array.from({ length: REPORT_QUEUE_MAX }, () => ({
      project_id: projectId,
      author_id: author.id,
      type: 'daily',
      title: 'Filler',
      intro: '',
      team_name: '',
      time_zone: 'UTC',
      date_from: today,
      date_to: today,
      layout: 1,
      photo_count: 0,
      status: 'generating',
      created_at: now,
      updated_at: '9999-01-01T00:00:00.000Z',
    }));
    const ids = (await ctx.db.insertInto('reports').values(filler).returning('id').execute()).map(
      (r) => r.id,
    );
    try {
      const before = await ctx.db.selectFrom('reports').select('id').execute();
      const res = await create(request(), author.token);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.json<ErrorResponse>().message).toContain('Try again in a minute.');
      expect(await ctx.db.selectFrom('reports').select('id').execute()).toHaveLength(before.length);
    } finally {
      await ctx.db.deleteFrom('reports').where('id', 'in', ids).execute();
    }
  });
});

describe('GET /api/report/{id}', () => {
  it('asks a signed-out caller to sign in, 404 for an unknown report, 400 for a bad id', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    expect((await get(id)).statusCode).toBe(401);
    expect((await get(999_999, member.token)).statusCode).toBe(404);
    const bad = await get('abc', member.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorResponse>().message).toContain('id');
  });

  it('shows every member the report and its PDF link; only the author and admins manage it', async () => {
    const { id } = await readyReport({ title: 'Shared / report: one?' });
    for (const [who, canManage] of [
      [author, true],
      [member, false],
      [admin, true],
    ] as const) {
      const res = await get(id, who.token);
      expect(res.statusCode).toBe(200);
      expect(res.json<ReportDetail>()).toMatchObject({ id, canManage, status: 'ready' });
    }
    // The link is the viewer's signed media link: served as a PDF download, named after the title
    // and the report's id.
    const report = (await get(id, member.token)).json<ReportDetail>();
    const pdf = await ctx.app.inject({ method: 'GET', url: report.pdf!.link });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="Shared report one (report ${id}).pdf"; filename*=UTF-8''Shared%20report%20one%20%28report%20${id}%29.pdf`,
    );
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload).toEqual(await ctx.storage.get((await pdfKey(id))!));
  });

  it('names two reports of the same title apart when their PDFs are downloaded', async () => {
    const first = await readyReport({ title: 'Daily report' });
    const second = await readyReport({ title: 'Daily report' });
    const names = [];
    for (const { id } of [first, second]) {
      const report = (await get(id, member.token)).json<ReportDetail>();
      const pdf = await ctx.app.inject({ method: 'GET', url: report.pdf!.link });
      expect(pdf.statusCode).toBe(200);
      names.push(/filename="([^"]*)"/.exec(pdf.headers['content-disposition'] as string)?.[1]);
    }
    expect(names).toEqual([
      `Daily report (report ${first.id}).pdf`,
      `Daily report (report ${second.id}).pdf`,
    ]);
  });
});

describe('GET /api/report/latest', () => {
  it('asks a signed-out caller to sign in, and refuses a bad filter (400)', async () => {
    expect((await latest('')).statusCode).toBe(401);
    const res = await latest('?limit=0', member.token);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().message).toBe('limit must be at least 1.');
    expect((await latest('?type=weekly', member.token)).statusCode).toBe(400);
  });

  it('lists newest first across projects, filtered by project, author and type, in pages', async () => {
    const other = await buildProject(ctx, { creatorId: member.id });
    const otherPhoto = await buildUpload(ctx, { projectId: other.id, creatorId: member.id });
    const a = await buildReport(ctx, {
      projectId: other.id,
      authorId: member.id,
      uploadIds: [otherPhoto],
      type: 'safety',
    });
    const b = await buildReport(ctx, {
      projectId: other.id,
      authorId: member.id,
      uploadIds: [otherPhoto],
      type: 'defects',
    });
    const c = await buildReport(ctx, {
      projectId: other.id,
      authorId: admin.id,
      uploadIds: [otherPhoto],
      type: 'safety',
    });

    const page = async (query: string) => {
      const res = await latest(query, author.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ReportPage>();
    };
    expect((await page(`?project=${other.id}`)).reports.map((r) => r.id)).toEqual([c, b, a]);
    expect(
      (await page(`?project=${other.id}&author=${member.id}`)).reports.map((r) => r.id),
    ).toEqual([b, a]);
    expect((await page(`?project=${other.id}&type=safety`)).reports.map((r) => r.id)).toEqual([
      c,
      a,
    ]);
    const first = await page(`?project=${other.id}&limit=2`);
    expect(first.reports.map((r) => r.id)).toEqual([c, b]);
    expect(first.next).toBe(b);
    const second = await page(`?project=${other.id}&limit=2&before=${first.next}`);
    expect(second).toMatchObject({ reports: [{ id: a }], next: null });
    expect(second.reports[0]).toMatchObject({
      canManage: false,
      project: { id: other.id },
      thumb: { uploadId: otherPhoto },
    });
    // Across projects: the newest of all first.
    expect((await page('?limit=1')).reports[0]!.id).toBeGreaterThanOrEqual(c);
  });
});

describe('POST /api/report/{id}/regenerate', () => {
  it('asks a signed-out caller to sign in; 404 unknown; 403 for a member who is not the author', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    expect((await regenerate(id)).statusCode).toBe(401);
    expect((await regenerate(999_999, author.token)).statusCode).toBe(404);
    const res = await regenerate(id, member.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toBe(
      'Only the author of this report or an admin can re-generate it.',
    );
  });

  it('makes a new PDF: the old stays until the new one is ready, then is deleted; one event only', async () => {
    const report = await readyReport();
    const firstKey = (await pdfKey(report.id))!;
    expect(await reportEvents(report.id)).toEqual([
      { id: expect.any(Number), kind: 'report.created', actor_id: author.id },
    ]);
    const res = await regenerate(report.id, admin.token);
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json<ReportDetail>();
    expect(['queued', 'generating', 'ready']).toContain(queued.status);
    // Still downloadable while the new one is made.
    expect(queued.pdf).not.toBeNull();
    const again = await waitForReport(ctx, author.token, report.id);
    expect(again.status).toBe('ready');
    const secondKey = (await pdfKey(report.id))!;
    expect(secondKey).not.toBe(firstKey);
    // The old PDF is deleted right after the row says ready (never before: it stays downloadable).
    await vi.waitFor(async () => expect(await ctx.storage.get(firstKey)).toBeNull(), {
      timeout: 10_000,
    });
    expect(await ctx.storage.get(secondKey)).not.toBeNull();
    expect(await reportEvents(report.id)).toHaveLength(1);
  });

  it('answers 409 while the PDF is queued or being made', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    try {
      // Queued: built, not handed to the queue (which looks again only every few seconds).
      const queued = await regenerate(id, author.token);
      expect(await status(id)).toBe('queued');
      expect(queued.statusCode, queued.body).toBe(409);
      expect(queued.json<ErrorResponse>()).toMatchObject({
        code: 'report_generating',
        message: expect.stringContaining('Wait until it is ready'),
      });
      // Being made (by another instance: its heartbeat is recent).
      await ctx.db
        .updateTable('reports')
        .set({ status: 'generating', updated_at: '9999-01-01T00:00:00.000Z' })
        .where('id', '=', id)
        .execute();
      const res = await regenerate(id, author.token);
      expect(res.statusCode).toBe(409);
      expect(res.json<ErrorResponse>()).toMatchObject({
        code: 'report_generating',
        message: expect.stringContaining('Wait until it is ready'),
      });
    } finally {
      await ctx.db.deleteFrom('reports').where('id', '=', id).execute();
    }
  });

  it('never drops a photo from a PDF that holds it: 409 once one is deleted or moved away, the PDF kept', async () => {
    const [a, b, c] = await threePhotos();
    const report = await readyReport({
      photos: [{ uploadId: a }, { uploadId: b }, { uploadId: c }],
    });
    const key = (await pdfKey(report.id))!;
    const bytes = await ctx.storage.get(key);
    const day = madeOn(report);

    expect((await deletePhoto(b)).statusCode).toBe(200);
    const one = await regenerate(report.id, author.token);
    expect(one.statusCode, one.body).toBe(409);
    expect(one.json<ErrorResponse>()).toMatchObject({
      code: 'report_photos_gone',
      message: `1 photo of this report was deleted since its PDF was made on ${day}; making it again would leave it out. The PDF keeps it; make a new report instead.`,
    });

    // A photo moved to another project is gone for the report too.
    const elsewhere = await buildProject(ctx, { creatorId: author.id, name: 'Elsewhere' });
    expect((await movePhoto(c, elsewhere.id)).statusCode).toBe(200);
    const two = await regenerate(report.id, admin.token);
    expect(two.statusCode).toBe(409);
    expect(two.json<ErrorResponse>().message).toBe(
      `2 photos of this report were deleted or moved to another project since its PDF was made on ${day}; making it again would leave them out. The PDF keeps them; make a new report instead.`,
    );

    const after = (await get(report.id, member.token)).json<ReportDetail>();
    expect(after).toMatchObject({ status: 'ready', photoCount: 3, goneCount: 2 });
    expect(after.photos.map((p) => [p.uploadId, p.upload?.id ?? null])).toEqual([
      [a, a],
      [null, null],
      // Moved: shown like a gone photo (the upload lives on in the other project).
      [c, null],
    ]);
    expect(await pdfKey(report.id)).toBe(key);
    expect(await ctx.storage.get(key)).toEqual(bytes);
  });

  it('shows a photo moved to another project as gone, and not as the report’s thumbnail', async () => {
    const [a, b] = await threePhotos();
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [a, b] });
    const elsewhere = await buildProject(ctx, { creatorId: author.id });
    expect((await movePhoto(a, elsewhere.id)).statusCode).toBe(200);
    const report = (await get(id, author.token)).json<ReportDetail>();
    expect(report).toMatchObject({ goneCount: 1, thumb: { uploadId: b } });
    expect(report.photos[0]).toMatchObject({ uploadId: a, upload: null });
    expect(report.photos[1]?.upload?.id).toBe(b);
  });

  it('without a PDF yet (the first generation failed), makes one of the photos that remain; none left: 409', async () => {
    const [a, b, c] = await threePhotos();
    const id = await failedFirst([a, b, c]);
    expect((await deletePhoto(b)).statusCode).toBe(200);
    const elsewhere = await buildProject(ctx, { creatorId: author.id });
    expect((await movePhoto(c, elsewhere.id)).statusCode).toBe(200);
    const res = await regenerate(id, author.token);
    expect(res.statusCode, res.body).toBe(202);
    const made = await waitForReport(ctx, author.token, id);
    expect(made).toMatchObject({ status: 'ready', photoCount: 1, progress: 1, goneCount: 2 });
    // Only what the PDF holds has a hash.
    expect(made.photos.map((p) => p.sha256 !== null)).toEqual([true, false, false]);
    expect(await reportEvents(id)).toHaveLength(1);
    // The PDF never held the photos gone before it: making it again loses nothing.
    const again = await regenerate(id, author.token);
    expect(again.statusCode, again.body).toBe(202);
    expect((await waitForReport(ctx, author.token, id)).status).toBe('ready');

    const only = (await threePhotos())[0];
    const empty = await failedFirst([only]);
    expect((await deletePhoto(only)).statusCode).toBe(200);
    const refused = await regenerate(empty, author.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorResponse>()).toMatchObject({
      code: 'report_empty',
      message: 'Every photo of this report was deleted; there is nothing to make a PDF of.',
    });
    expect(await status(empty)).toBe('failed');
  });
});

describe('a report of an archived project', () => {
  it('is read-only: re-generate and delete answer 409; the report and its PDF stay', async () => {
    const project = await buildProject(ctx, { creatorId: author.id, name: 'Mothballed' });
    const photo = await buildUpload(ctx, { projectId: project.id, creatorId: author.id });
    const report = await readyReport({ projectId: project.id, photos: [{ uploadId: photo }] });
    const key = (await pdfKey(report.id))!;
    await archiveProject(ctx, project.id);
    for (const [call, who] of [
      [regenerate, author],
      [regenerate, admin],
      [remove, author],
      [remove, admin],
    ] as const) {
      const res = await call(report.id, who.token);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json<ErrorResponse>()).toMatchObject({
        code: 'project_archived',
        message:
          'This project is archived, so its reports are read-only; its creator or an admin can restore it.',
      });
    }
    // Who may not manage it is still told so first.
    expect((await remove(report.id, member.token)).statusCode).toBe(403);
    expect(await status(report.id)).toBe('ready');
    expect(await pdfKey(report.id)).toBe(key);
    expect(await ctx.storage.get(key)).not.toBeNull();
    // Read as before.
    expect((await get(report.id, member.token)).json<ReportDetail>()).toMatchObject({
      project: { archived: true },
      status: 'ready',
    });
  });
});

describe('DELETE /api/report/{id}', () => {
  it('asks a signed-out caller to sign in; 404 unknown; 403 for a member who is not the author', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    expect((await remove(id)).statusCode).toBe(401);
    expect((await remove(999_999, author.token)).statusCode).toBe(404);
    const res = await remove(id, member.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toBe(
      'Only the author of this report or an admin can delete it.',
    );
    expect((await get(id, member.token)).statusCode).toBe(200);
  });

  it('deletes the report with its photo list, links, event and notifications, then its PDF', async () => {
    await markProject(ctx.db, { userId: member.id, projectId, mark: 'follow' });
    const report = await readyReport();
    const key = (await pdfKey(report.id))!;
    const link = await api(ctx, {
      method: 'POST',
      url: `/api/report/${report.id}/links`,
      token: author.token,
      payload: {},
    });
    expect(link.statusCode, link.body).toBe(201);
    const [event] = await reportEvents(report.id);
    const notified = await ctx.db
      .selectFrom('notifications')
      .select('user_id')
      .where('event_id', '=', event!.id)
      .execute();
    expect(notified).toEqual([{ user_id: member.id }]);

    const res = await remove(report.id, admin.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(report.id, author.token)).statusCode).toBe(404);
    for (const table of ['report_photos', 'report_links'] as const)
      expect(
        await ctx.db
          .selectFrom(table)
          .select('report_id')
          .where('report_id', '=', report.id)
          .execute(),
      ).toEqual([]);
    expect(await reportEvents(report.id)).toEqual([]);
    expect(
      await ctx.db
        .selectFrom('notifications')
        .select('id')
        .where('event_id', '=', event!.id)
        .execute(),
    ).toEqual([]);
    expect(await ctx.storage.get(key)).toBeNull();
    // The public link went with it.
    const shared = await api(ctx, {
      method: 'GET',
      url: `/api/report/shared/${link.json<{ path: string }>().path.split('/').pop()}`,
    });
    expect(shared.statusCode).toBe(404);
  });
});

describe('a photo deleted after the report was made', () => {
  it('leaves the PDF as it was; the report says the photo is gone', async () => {
    const extra = await buildUpload(ctx, { projectId, creatorId: author.id, name: 'Soon gone' });
    const report = await readyReport({
      photos: [{ uploadId: photos[0] }, { uploadId: extra, caption: 'Crack' }],
    });
    const key = (await pdfKey(report.id))!;
    const bytes = await ctx.storage.get(key);
    const hash = report.photos[1]!.sha256;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);

    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${extra}`,
      token: author.token,
    });
    expect(del.statusCode, del.body).toBe(200);

    const after = (await get(report.id, member.token)).json<ReportDetail>();
    expect(after.goneCount).toBe(1);
    expect(after.photos[1]).toEqual({
      position: 2,
      uploadId: null,
      name: 'Soon gone',
      caption: 'Crack',
      sha256: hash,
      upload: null,
    });
    expect(after.pdf?.bytes).toBe(report.pdf?.bytes);
    expect(await pdfKey(report.id)).toBe(key);
    expect(await ctx.storage.get(key)).toEqual(bytes);
  });

  it('leaves the report without a thumbnail once its every photo is gone', async () => {
    const only = await buildUpload(ctx, { projectId, creatorId: author.id });
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [only] });
    expect((await get(id, author.token)).json<ReportDetail>().thumb?.uploadId).toBe(only);
    await api(ctx, { method: 'DELETE', url: `/api/upload/delete/${only}`, token: author.token });
    expect((await get(id, author.token)).json<ReportDetail>()).toMatchObject({
      thumb: null,
      goneCount: 1,
    });
  });
});
