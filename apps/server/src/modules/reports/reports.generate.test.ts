// Making report PDFs (issue 16): the PDF read back with poppler (pages per layout, the cover,
// each photo's caption, author, time and hash, each hash that of the stored original), the queue
// (its concurrency cap, one generation per report across instances, reports left by an earlier
// process taken up, a shutdown), and failures: a readable message, nothing half-written.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { ReportDetail } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { isSqlite, nowIso } from '../../db/database.js';
import { StorageError, type Storage } from '../../media/storage/index.js';
import { sweepOnce } from '../../media/sweeper.js';
import { buildProject, buildReport, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import { pdfPageCount, pdfPages } from '../../../test/reports.js';
import {
  createReportQueue,
  generateReport,
  REPORT_MAX_ATTEMPTS,
  TOO_MANY_ATTEMPTS,
  type ReportGeneratorDeps,
  type ReportLogger,
} from './report-generator.js';
import { claimReport, requeueStaleReports, type ReportClaim } from './reports.repository.js';
import { findReferencedReportKeys } from './reports.service.js';
import { formatCaptured, renderReportPdf } from './report-pdf.js';

// The app's own queue makes no PDFs here (REPORT_CONCURRENCY=0): each test runs the queue or the
// generation it is about, with what it injects.
let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let author: Member;
let projectId: number;
let photos: number[];
const logged: { obj: object; msg: string }[] = [];
const log: ReportLogger = {
  info: () => undefined,
  warn: (obj, msg) => logged.push({ obj, msg }),
  error: (obj, msg) => logged.push({ obj, msg }),
};

beforeAll(async () => {
  ctx = await createTestContext({ REPORT_CONCURRENCY: '0' });
  author = await signedInUser(ctx, { firstname: 'Rita', lastname: 'Reporter' });
  const project = await buildProject(ctx, {
    creatorId: author.id,
    name: 'Quay Wall',
    location: 'Hamburg, Germany',
  });
  projectId = project.id;
  photos = [];
  const noZone = await jpegWithExif(null);
  for (let i = 1; i <= 5; i++) {
    const uploader = await signedInUser(ctx, { firstname: `Ulla${i}`, lastname: `Uploader${i}` });
    photos.push(
      await buildUpload(ctx, {
        projectId,
        creatorId: uploader.id,
        name: `Photo ${i}`,
        // One camera wrote no time zone: its wall time is printed as camera time.
        ...(i === 3 ? { file: noZone } : {}),
      }),
    );
  }
});
afterAll(async () => ctx?.close());

const deps = (overrides: Partial<ReportGeneratorDeps> = {}): ReportGeneratorDeps => ({
  db: ctx.db,
  storage: ctx.storage,
  config: ctx.config,
  log,
  placeName: async () => 'Sydney, Australia',
  ...overrides,
});

/** Claims a queued report as the queue would. */
async function claim(id: number): Promise<ReportClaim> {
  const claimed = await claimReport(ctx.db, id, nowIso());
  if (!claimed) throw new Error(`report ${id} is not queued`);
  return claimed;
}

/** Claims a queued report as the queue would, then makes its PDF. */
async function generate(id: number, overrides: Partial<ReportGeneratorDeps> = {}) {
  return generateReport(deps(overrides), await claim(id));
}

const reportRow = (id: number) =>
  ctx.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function reportKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of ctx.storage.list('reports/')) keys.push(object.key);
  return keys.sort();
}

const tempFiles = () => {
  const dir = ctx.config.uploads.tempDir;
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.report.pdf')) : [];
};

const detail = async (id: number) =>
  (
    await api(ctx, { method: 'GET', url: `/api/report/${id}`, token: author.token })
  ).json<ReportDetail>();

const uploadRow = (id: number) =>
  ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A gate a renderer waits at: `open()` lets every waiting and later render through. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the PDF, read back', () => {
  it.each([
    [1, 7],
    [2, 5],
    [4, 4],
  ] as const)(
    'layout %i: %i pages (cover, the photos, the index), with the cover and every photo’s caption, author, time and hash',
    async (layout, pages) => {
      const id = await buildReport(ctx, {
        projectId,
        authorId: author.id,
        uploadIds: photos,
        captions: photos.map((_, i) => `Crack ${i + 1} at the quay`),
        layout,
        title: `Quay inspection L${layout}`,
        type: 'defects',
        intro: 'Walked the quay at low tide.',
        timeZone: 'Europe/Berlin',
        teamName: 'Hafenbau Nord',
        from: '2026-03-01',
        to: '2026-03-02',
      });
      expect(await generate(id)).toBe('ready');
      const row = await reportRow(id);
      const pdf = (await ctx.storage.get(row.pdf_key!))!;
      expect(row).toMatchObject({ status: 'ready', pdf_bytes: pdf.length, pdf_pages: pages });
      expect(await pdfPageCount(pdf)).toBe(pages);

      const text = await pdfPages(pdf);
      const flat = (page: string) => page.replace(/\s+/g, ' ');
      const cover = flat(text[0]!);
      for (const expected of [
        'Hafenbau Nord',
        'Defect list',
        `Quay inspection L${layout}`,
        'Quay Wall',
        'Hamburg, Germany',
        'Rita Reporter',
        '5 photos',
        `#${id}`,
        'Walked the quay at low tide.',
      ])
        expect(cover).toContain(expected);
      const body = flat(text.slice(1).join(' '));
      // pdftotext breaks a hash across lines where the cell is narrow.
      const joined = text.slice(1).join('').replace(/\s+/g, '');
      for (const [i, uploadId] of photos.entries()) {
        const upload = await uploadRow(uploadId);
        const original = (await ctx.storage.get(upload.original_key))!;
        const sha256 = createHash('sha256').update(original).digest('hex');
        expect(upload.original_sha256).toBe(sha256);
        expect(body).toContain(`Crack ${i + 1} at the quay`);
        expect(body).toContain(`Ulla${i + 1} Uploader${i + 1}`);
        const time = formatCaptured(upload.captured_at, 'Europe/Berlin').text.replace(/\s+/g, '');
        expect(joined).toContain(time);
        expect(joined).toContain(sha256);
      }
      expect(body).toContain('camera time');
      expect(body).toContain('Sydney, Australia');
      // The report keeps the hash each photo printed.
      const printed = await ctx.db
        .selectFrom('report_photos')
        .select(['position', 'sha256'])
        .where('report_id', '=', id)
        .orderBy('position')
        .execute();
      for (const [i, uploadId] of photos.entries())
        expect(printed[i]?.sha256).toBe((await uploadRow(uploadId)).original_sha256);
    },
  );

  it('computes and keeps the hash of an original stored before uploads recorded it', async () => {
    const uploadId = await buildUpload(ctx, { projectId, creatorId: author.id });
    await ctx.db
      .updateTable('uploads')
      .set({ original_sha256: null })
      .where('id', '=', uploadId)
      .execute();
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [uploadId] });
    expect(await generate(id)).toBe('ready');
    const upload = await uploadRow(uploadId);
    const original = (await ctx.storage.get(upload.original_key))!;
    expect(upload.original_sha256).toBe(createHash('sha256').update(original).digest('hex'));
    expect((await detail(id)).photos[0]?.sha256).toBe(upload.original_sha256);
  });

  it('is never swept as an upload; the sweeper removes only report PDFs no report names', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    expect(await generate(id)).toBe('ready');
    const key = (await reportRow(id)).pdf_key!;
    // Left by a crash between storing a PDF and marking its report ready.
    const orphan = 'reports/ab/abcdef01-2345-4678-9abc-def012345678/report.pdf';
    await ctx.storage.put(orphan, Buffer.from('%PDF-1.3 orphan'), 'application/pdf');
    const sweep = (withReports: boolean) =>
      sweepOnce(
        {
          storage: ctx.storage,
          config: ctx.config,
          // Every upload object counts as referenced here: only reports are the subject.
          findReferencedKeys: async (keys) => new Set(keys),
          ...(withReports
            ? { findReferencedReportKeys: (keys) => findReferencedReportKeys(ctx.db, keys) }
            : {}),
        },
        { orphanMinAgeMs: 0, tempMaxAgeMs: 60_000, now: Date.now() + 1000 },
      );
    await sweep(false);
    expect(await ctx.storage.get(orphan)).not.toBeNull();
    await sweep(true);
    expect(await ctx.storage.get(orphan)).toBeNull();
    expect(await ctx.storage.get(key)).not.toBeNull();
  });
});

describe('the queue', () => {
  it(`never runs more than its concurrency at once, and makes every queued report`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[i]!] }));
    const door = gate();
    let active = 0;
    let peak = 0;
    const render: typeof renderReportPdf = async (options) => {
      active++;
      peak = Math.max(peak, active);
      try {
        await door.opened;
        return await renderReportPdf(options);
      } finally {
        active--;
      }
    };
    const queue = createReportQueue(deps({ render }), { concurrency: 2, pollMs: 50 });
    try {
      queue.start();
      await until(() => active === 2);
      // Held for a while: the other three wait in the database, none starts.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(active).toBe(2);
      expect(queue.active).toBe(2);
      const statuses = await ctx.db
        .selectFrom('reports')
        .select('status')
        .where('id', 'in', ids)
        .execute();
      expect(statuses.filter((s) => s.status === 'generating')).toHaveLength(2);
      expect(statuses.filter((s) => s.status === 'queued')).toHaveLength(3);
      door.open();
      await until(async () => {
        const rows = await ctx.db
          .selectFrom('reports')
          .select('status')
          .where('id', 'in', ids)
          .execute();
        return rows.every((r) => r.status === 'ready');
      });
      expect(peak).toBe(2);
    } finally {
      door.open();
      await queue.close();
    }
  });

  it('makes each report once, however many instances take from the queue', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[i % 5]!] }),
      );
    const made = new Map<number, number>();
    const render: typeof renderReportPdf = async (options) => {
      made.set(options.cover.reportId, (made.get(options.cover.reportId) ?? 0) + 1);
      return renderReportPdf(options);
    };
    const queues = [1, 2, 3].map(() =>
      createReportQueue(deps({ render }), { concurrency: 2, pollMs: 20 }),
    );
    try {
      for (const queue of queues) queue.start();
      for (const queue of queues) queue.wake();
      await until(async () => {
        const rows = await ctx.db
          .selectFrom('reports')
          .select('status')
          .where('id', 'in', ids)
          .execute();
        return rows.every((r) => r.status === 'ready');
      });
      for (const id of ids) expect(made.get(id), `report ${id}`).toBe(1);
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  });

  it('takes up reports an earlier process left queued or stalled, not those another instance is making', async () => {
    const queued = await buildReport(ctx, {
      projectId,
      authorId: author.id,
      uploadIds: [photos[0]!],
    });
    const stalled = await buildReport(ctx, {
      projectId,
      authorId: author.id,
      uploadIds: [photos[1]!],
    });
    const busy = await buildReport(ctx, {
      projectId,
      authorId: author.id,
      uploadIds: [photos[2]!],
    });
    await ctx.db
      .updateTable('reports')
      .set({ status: 'generating', progress: 1, updated_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', stalled)
      .execute();
    // Another instance's: its heartbeat is recent.
    await ctx.db
      .updateTable('reports')
      .set({ status: 'generating', updated_at: '9999-01-01T00:00:00.000Z' })
      .where('id', '=', busy)
      .execute();
    const queue = createReportQueue(deps(), { concurrency: 1, pollMs: 50, staleMs: 60_000 });
    try {
      queue.start();
      await until(
        async () =>
          (await reportRow(queued)).status === 'ready' &&
          (await reportRow(stalled)).status === 'ready',
      );
      expect((await reportRow(busy)).status).toBe('generating');
    } finally {
      await queue.close();
      await ctx.db.deleteFrom('reports').where('id', '=', busy).execute();
    }
  });

  it('puts a generation back in the queue when the server shuts down, leaving nothing behind', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: photos });
    const door = gate();
    let started = false;
    const render: typeof renderReportPdf = async (options) =>
      renderReportPdf({
        ...options,
        onPhoto: async (done) => {
          started = true;
          await door.opened;
          await options.onPhoto?.(done);
        },
      });
    const before = await reportKeys();
    const queue = createReportQueue(deps({ render }), { concurrency: 1, pollMs: 50 });
    queue.start();
    await until(() => started);
    const closing = queue.close();
    door.open();
    await closing;
    expect(await reportRow(id)).toMatchObject({ status: 'queued', pdf_key: null, progress: 0 });
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
    // The next start makes it.
    expect(await generate(id)).toBe('ready');
  });
});

describe('a failed generation', () => {
  it('says which photo could not be read; no PDF, no temp file; a re-generation keeps the PDF made before', async () => {
    const uploadId = await buildUpload(ctx, { projectId, creatorId: author.id, name: 'Lost one' });
    const id = await buildReport(ctx, {
      projectId,
      authorId: author.id,
      uploadIds: [photos[0]!, uploadId],
    });
    expect(await generate(id)).toBe('ready');
    const first = await reportRow(id);
    const firstPdf = await ctx.storage.get(first.pdf_key!);
    const before = await reportKeys();

    // The photo's display image is lost from storage; the re-generation fails on it.
    await ctx.storage.delete((await uploadRow(uploadId)).formatted_key);
    const res = await api(ctx, {
      method: 'POST',
      url: `/api/report/${id}/regenerate`,
      token: author.token,
    });
    expect(res.statusCode).toBe(202);
    logged.length = 0;
    expect(await generate(id)).toBe('failed');
    const failed = await detail(id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'Photo #2 (“Lost one”) could not be read from storage. Try again.',
    });
    expect(failed.pdf?.bytes).toBe(first.pdf_bytes);
    const row = await reportRow(id);
    expect(row.pdf_key).toBe(first.pdf_key);
    expect(row.generated_at).toBe(first.generated_at);
    expect(await ctx.storage.get(first.pdf_key!)).toEqual(firstPdf);
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
    expect(logged.map((l) => l.msg)).toContain('report PDF failed');
  });

  it('gives a generic message for an error of the renderer and logs the real one', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const before = await reportKeys();
    logged.length = 0;
    const render: typeof renderReportPdf = async (options) => {
      options.out.write('%PDF-1.3 half');
      throw new Error('renderer exploded at byte 14');
    };
    expect(await generate(id, { render })).toBe('failed');
    expect(await reportRow(id)).toMatchObject({
      status: 'failed',
      pdf_key: null,
      error:
        'The PDF could not be made because of an error on the server. Try again; if it fails again, tell your admin.',
    });
    expect(
      logged.map((l) => ((l.obj as { err?: Error }).err?.message ?? '') + ' ' + l.msg),
    ).toContain('renderer exploded at byte 14 report PDF failed');
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
    expect(
      await ctx.db.selectFrom('events').select('id').where('report_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('says the disk is full when the PDF cannot be written for lack of space', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const render: typeof renderReportPdf = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    expect(await generate(id, { render })).toBe('failed');
    expect((await reportRow(id)).error).toBe(
      'The PDF could not be made: the server has run out of disk space. Ask an administrator to free space, then try again.',
    );
    expect(tempFiles()).toEqual([]);
  });

  it('removes what a failed store left, and says storage could not be reached', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const before = await reportKeys();
    // A put that wrote the object, then failed (a lost answer, a timeout after the upload).
    const storage: Storage = {
      ...ctx.storage,
      put: async (key, source, type) => {
        await ctx.storage.put(key, source, type);
        throw new StorageError('unavailable', 'bucket timed out');
      },
    };
    expect(await generate(id, { storage })).toBe('failed');
    expect((await reportRow(id)).error).toBe(
      'The PDF could not be stored: file storage cannot be reached right now. Try again in a minute.',
    );
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
  });

  it('deletes what it made when the report is deleted meanwhile', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: photos });
    const before = await reportKeys();
    const render: typeof renderReportPdf = async (options) => {
      const result = await renderReportPdf(options);
      const res = await api(ctx, {
        method: 'DELETE',
        url: `/api/report/${id}`,
        token: author.token,
      });
      expect(res.statusCode).toBe(204);
      return result;
    };
    expect(await generate(id, { render })).toBe('gone');
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
  });
});

describe('claims', () => {
  /** Voids a running claim as another instance's poll does once the run looks stalled. */
  async function takeOver(id: number): Promise<ReportClaim> {
    await ctx.db
      .updateTable('reports')
      .set({ updated_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    const stale = await requeueStaleReports(ctx.db, nowIso(), {
      maxAttempts: REPORT_MAX_ATTEMPTS,
      failure: TOO_MANY_ATTEMPTS,
      now: nowIso(),
    });
    expect(stale).toEqual({ requeued: 1, failed: 0 });
    return claim(id);
  }

  /** A renderer held at a gate until `door.open()`, then failing or rendering. */
  function heldRender(door: { opened: Promise<void> }, fail = false) {
    let started = false;
    const render: typeof renderReportPdf = async (options) => {
      started = true;
      await door.opened;
      if (fail) throw new Error('renderer exploded');
      return renderReportPdf(options);
    };
    return { render, started: () => started };
  }

  it('writes a fresh token and counts an attempt with each claim', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const first = await claim(id);
    expect(await reportRow(id)).toMatchObject({
      status: 'generating',
      claim_token: first.token,
      attempts: 1,
    });
    // Claimed already: nobody else takes it.
    expect(await claimReport(ctx.db, id, nowIso())).toBeUndefined();
    const second = await takeOver(id);
    expect(second.token).not.toBe(first.token);
    expect(await reportRow(id)).toMatchObject({ claim_token: second.token, attempts: 2 });
    expect(await generateReport(deps(), second)).toBe('ready');
    expect(await reportRow(id)).toMatchObject({ status: 'ready', claim_token: null });
  });

  it('a run whose claim was taken over cannot mark the report ready, and deletes what it made', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const before = await reportKeys();
    const door = gate();
    const held = heldRender(door);
    const lost = await claim(id);
    const running = generateReport(deps({ render: held.render }), lost);
    await until(held.started);
    const now = await takeOver(id);
    door.open();
    expect(await running).toBe('gone');
    expect(await reportRow(id)).toMatchObject({
      status: 'generating',
      claim_token: now.token,
      pdf_key: null,
      generated_at: null,
    });
    expect(await reportKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
    expect(
      await ctx.db.selectFrom('events').select('id').where('report_id', '=', id).execute(),
    ).toEqual([]);
    // The run that holds it now finishes it.
    expect(await generateReport(deps(), now)).toBe('ready');
  });

  it('a run whose claim was taken over cannot mark the report failed', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const door = gate();
    const held = heldRender(door, true);
    const lost = await claim(id);
    const running = generateReport(deps({ render: held.render }), lost);
    await until(held.started);
    const now = await takeOver(id);
    door.open();
    expect(await running).toBe('gone');
    expect(await reportRow(id)).toMatchObject({
      status: 'generating',
      claim_token: now.token,
      error: null,
    });
    expect(await generateReport(deps(), now)).toBe('ready');
  });

  it('a shutdown puts back only its own claim, not a report another instance took over', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const door = gate();
    const held = heldRender(door);
    const stopping = new AbortController();
    const lost = await claim(id);
    const running = generateReport(deps({ render: held.render }), lost, stopping.signal);
    await until(held.started);
    const now = await takeOver(id);
    stopping.abort(new Error('the server is shutting down'));
    door.open();
    expect(await running).toBe('gone');
    expect(await reportRow(id)).toMatchObject({ status: 'generating', claim_token: now.token });

    // Its own claim it puts back, the attempt not counted.
    const door2 = gate();
    const held2 = heldRender(door2);
    const stopping2 = new AbortController();
    const own = await claim(
      await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[1]!] }),
    );
    const running2 = generateReport(deps({ render: held2.render }), own, stopping2.signal);
    await until(held2.started);
    stopping2.abort(new Error('the server is shutting down'));
    door2.open();
    expect(await running2).toBe('stopped');
    expect(await reportRow(own.id)).toMatchObject({
      status: 'queued',
      claim_token: null,
      attempts: 0,
    });
    expect(await generateReport(deps(), now)).toBe('ready');
  });

  it(`fails a report after ${REPORT_MAX_ATTEMPTS} claims that each stalled, instead of looping`, async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const stall = async () => {
      await claim(id);
      // The process making it died: its heartbeat stops.
      await ctx.db
        .updateTable('reports')
        .set({ updated_at: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', id)
        .execute();
    };
    const options = { maxAttempts: REPORT_MAX_ATTEMPTS, failure: TOO_MANY_ATTEMPTS, now: nowIso() };
    for (let attempt = 1; attempt < REPORT_MAX_ATTEMPTS; attempt++) {
      await stall();
      expect(await requeueStaleReports(ctx.db, nowIso(), options)).toEqual({
        requeued: 1,
        failed: 0,
      });
      expect(await reportRow(id)).toMatchObject({ status: 'queued', attempts: attempt });
    }
    await stall();
    expect(await requeueStaleReports(ctx.db, nowIso(), options)).toEqual({
      requeued: 0,
      failed: 1,
    });
    expect(await detail(id)).toMatchObject({
      status: 'failed',
      error:
        'The PDF could not be made after 3 tries: the server stopped while making it each time. Try again later; if it fails again, tell your admin.',
    });
    expect(await reportRow(id)).toMatchObject({ claim_token: null, pdf_key: null });
    // A person asking again starts the count anew.
    const res = await api(ctx, {
      method: 'POST',
      url: `/api/report/${id}/regenerate`,
      token: author.token,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(await reportRow(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await generate(id)).toBe('ready');
  });

  it('the queue’s poll fails a report stalled too often, and writes nothing when nothing is stalled', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    await ctx.db
      .updateTable('reports')
      .set({
        status: 'generating',
        attempts: REPORT_MAX_ATTEMPTS,
        claim_token: 'a-dead-process',
        updated_at: '2000-01-01T00:00:00.000Z',
      })
      .where('id', '=', id)
      .execute();
    const queue = createReportQueue(deps(), { concurrency: 1, pollMs: 50, staleMs: 60_000 });
    try {
      queue.start();
      await until(async () => (await reportRow(id)).status === 'failed');
      expect((await reportRow(id)).error).toBe(TOO_MANY_ATTEMPTS);
    } finally {
      await queue.close();
    }

    // Nothing stalled: one read, no write (on SQLite an UPDATE takes the write lock even when it
    // changes no row).
    const kinds: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node }: { node: RootOperationNode }) => {
        kinds.push(node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const options = { maxAttempts: REPORT_MAX_ATTEMPTS, failure: TOO_MANY_ATTEMPTS, now: nowIso() };
    const watched = ctx.db.withPlugin(recorder);
    expect(await requeueStaleReports(watched, nowIso(), options)).toEqual({
      requeued: 0,
      failed: 0,
    });
    expect(kinds).toEqual(['SelectQueryNode']);
  });
});

describe('indexes', () => {
  /** The plan the database chooses for `query` (on PostgreSQL with sequential scans off: the tables are tiny). */
  async function plan(query: CompiledQuery): Promise<string> {
    if (isSqlite(ctx.db)) {
      const result = await ctx.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return result.rows.map((r) => r.detail).join('\n');
    }
    return ctx.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const result = await conn.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
        );
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }

  it('the queue finds the oldest queued report through reports_status_idx', async () => {
    const next = ctx.db
      .selectFrom('reports')
      .select('id')
      .where('status', '=', 'queued')
      .orderBy('id')
      .limit(1)
      .compile();
    expect(await plan(next)).toContain('reports_status_idx');
    const stalled = ctx.db
      .selectFrom('reports')
      .select(['id', 'attempts'])
      .where('status', '=', 'generating')
      .where('updated_at', '<', nowIso())
      .compile();
    expect(await plan(stalled)).toContain('reports_status_idx');
  });

  it('the sweeper finds the PDF keys a report names through reports_pdf_key_idx', async () => {
    const referenced = ctx.db
      .selectFrom('reports')
      .select('pdf_key')
      .where('pdf_key', 'in', ['reports/a.pdf', 'reports/b.pdf'])
      .compile();
    expect(await plan(referenced)).toContain('reports_pdf_key_idx');
  });
});

describe('evidence', () => {
  it('records report.created once: a first generation that fails, then one that succeeds', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    const events = () =>
      ctx.db.selectFrom('events').select('kind').where('report_id', '=', id).execute();
    const render: typeof renderReportPdf = async () => {
      throw new Error('renderer exploded');
    };
    expect(await generate(id, { render })).toBe('failed');
    expect(await events()).toEqual([]);
    const again = () =>
      api(ctx, { method: 'POST', url: `/api/report/${id}/regenerate`, token: author.token });
    expect((await again()).statusCode).toBe(202);
    expect(await generate(id)).toBe('ready');
    expect(await events()).toEqual([{ kind: 'report.created' }]);
    expect((await again()).statusCode).toBe(202);
    expect(await generate(id)).toBe('ready');
    expect(await events()).toEqual([{ kind: 'report.created' }]);
  });

  it('a re-generation fails, keeping the PDF, when a photo it holds is deleted after it was asked for', async () => {
    const doomed = await buildUpload(ctx, { projectId, creatorId: author.id, name: 'Doomed' });
    const id = await buildReport(ctx, {
      projectId,
      authorId: author.id,
      uploadIds: [photos[0]!, doomed],
    });
    expect(await generate(id)).toBe('ready');
    const first = await reportRow(id);
    const res = await api(ctx, {
      method: 'POST',
      url: `/api/report/${id}/regenerate`,
      token: author.token,
    });
    expect(res.statusCode).toBe(202);
    // Deleted between the request and the generation.
    const del = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${doomed}`,
      token: author.token,
    });
    expect(del.statusCode).toBe(200);
    expect(await generate(id)).toBe('failed');
    const row = await reportRow(id);
    expect(row.error).toMatch(
      /^1 photo of this report was deleted since its PDF was made on .+; making it again would leave it out\. The PDF keeps it; make a new report instead\.$/,
    );
    expect(row).toMatchObject({
      pdf_key: first.pdf_key,
      generated_at: first.generated_at,
      photo_count: 2,
    });
    expect(await ctx.storage.get(first.pdf_key!)).not.toBeNull();
  });

  it('a photo deleted while its PDF is made: the message says what to do, with or without a PDF made before', async () => {
    const cases = [
      [
        false,
        'Photo #2 (“Going 0”) was deleted while the PDF was being made. Generate the report again: it will leave the photo out.',
      ],
      [
        true,
        'Photo #2 (“Going 1”) was deleted while the PDF was being made; the PDF made before keeps it. Make a new report to leave it out.',
      ],
    ] as const;
    for (const [i, [hadPdf, message]] of cases.entries()) {
      const going = await buildUpload(ctx, { projectId, creatorId: author.id, name: `Going ${i}` });
      const id = await buildReport(ctx, {
        projectId,
        authorId: author.id,
        uploadIds: [photos[0]!, going],
      });
      if (hadPdf) {
        expect(await generate(id)).toBe('ready');
        await ctx.db
          .updateTable('reports')
          .set({ status: 'queued' })
          .where('id', '=', id)
          .execute();
      }
      const display = (await uploadRow(going)).formatted_key;
      // Deleted once the first photo is drawn, before the second is read.
      const render: typeof renderReportPdf = async (options) =>
        renderReportPdf({
          ...options,
          onPhoto: async (done) => {
            if (done === 1) {
              const del = await api(ctx, {
                method: 'DELETE',
                url: `/api/upload/delete/${going}`,
                token: author.token,
              });
              expect(del.statusCode).toBe(200);
              expect(await ctx.storage.get(display)).toBeNull();
            }
            await options.onPhoto?.(done);
          },
        });
      expect(await generate(id, { render })).toBe('failed');
      expect((await reportRow(id)).error).toBe(message);
      // An answer that holds: with no PDF yet the photos left are made into one; with one,
      // re-generating is refused (its PDF keeps the photo).
      const again = await api(ctx, {
        method: 'POST',
        url: `/api/report/${id}/regenerate`,
        token: author.token,
      });
      expect(again.statusCode, again.body).toBe(hadPdf ? 409 : 202);
      if (!hadPdf) expect(await generate(id)).toBe('ready');
    }
  });
});
