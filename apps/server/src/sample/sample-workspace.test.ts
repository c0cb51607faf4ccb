// The sample workspace's photos and comments: generated, pushed through the upload pipeline and
// the comments service, with counts, events and the admin's notifications right.
import { createHash } from 'node:crypto';
import {
  normalizeTag,
  type CommentPage,
  type LoginHints,
  type NotificationPage,
  type Project,
  type ReportDetail,
  type UnreadCount,
  type Upload,
  type Workspace,
} from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, login, type TestContext } from '../../test/helpers.js';
import { SAMPLE_COMPANY, seedSampleWorkspace } from './sample-workspace.js';
import { pdfPageCount, pdfPages, waitForReport } from '../../test/reports.js';
import { storedKeys, tempFiles } from '../../test/uploads.js';

let ctx: TestContext;
let seeded: Awaited<ReturnType<typeof seedSampleWorkspace>>;

/** The sample admin's token. */
let adminToken: string;
/** The sample reports once their PDFs are made (the app's report queue takes them up). */
let reports: ReportDetail[];

beforeAll(async () => {
  ctx = await createTestContext();
  seeded = await seedSampleWorkspace(ctx);
  const hints = (await api(ctx, { method: 'GET', url: '/api/auth/hints' })).json<LoginHints>();
  if (!hints.sample) throw new Error('the sample account was not remembered');
  adminToken = await login(ctx, hints.sample);
  // The app was ready before the seed queued them: its queue's poll finds them within seconds.
  const rows = await ctx.db.selectFrom('reports').select('id').orderBy('id').execute();
  reports = await Promise.all(rows.map((r) => waitForReport(ctx, adminToken, r.id, 60_000)));
}, 90_000);
afterAll(async () => ctx?.close());

describe('sample workspace photos', () => {
  it('gives every project photos, spread over weeks and several members', async () => {
    expect(seeded?.photos).toBe(21);
    const rows = await ctx.db.selectFrom('uploads').selectAll().execute();
    expect(rows).toHaveLength(21);
    const projects = await ctx.db.selectFrom('projects').selectAll().execute();
    for (const project of projects) {
      const own = rows.filter((r) => r.project_id === project.id);
      expect(own.length).toBeGreaterThanOrEqual(3);
      expect(project.uploads_count).toBe(own.length);
      expect(project.updated_at).toBe(
        own
          .map((r) => r.created_at)
          .sort()
          .at(-1),
      );
      for (const r of own) expect(r.created_at > project.created_at).toBe(true);
    }
    const times = rows.map((r) => Date.parse(r.created_at));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(21 * 24 * 3600_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
    expect(new Set(rows.map((r) => r.creator_id)).size).toBeGreaterThanOrEqual(4);
  });

  it("keeps members' upload counts right", async () => {
    const users = await ctx.db.selectFrom('users').select(['id', 'uploads_count']).execute();
    const rows = await ctx.db.selectFrom('uploads').select('creator_id').execute();
    for (const user of users)
      expect(user.uploads_count).toBe(rows.filter((r) => r.creator_id === user.id).length);
  });

  it('stores preview, formatted image and original of each, the reports’ PDFs, and nothing else', async () => {
    const rows = await ctx.db.selectFrom('uploads').selectAll().execute();
    const expected = rows.flatMap((r) => [r.preview_key, r.formatted_key, r.original_key]).sort();
    expect(await storedKeys(ctx)).toEqual(expected);
    const pdfs = await ctx.db.selectFrom('reports').select('pdf_key').execute();
    const stored: string[] = [];
    for await (const object of ctx.storage.list('reports/')) stored.push(object.key);
    expect(stored.sort()).toEqual(pdfs.map((r) => r.pdf_key ?? 'no PDF').sort());
    expect(tempFiles(ctx)).toEqual([]);
  });

  it('serves the photos with what a camera would record', async () => {
    const hints = (await api(ctx, { method: 'GET', url: '/api/auth/hints' })).json<LoginHints>();
    if (!hints.sample) throw new Error('the sample account was not remembered');
    const token = await login(ctx, hints.sample);
    const latest = (await api(ctx, { method: 'GET', url: '/api/upload/latest/18', token })).json<
      Upload[]
    >();
    expect(latest).toHaveLength(18);
    for (const upload of latest) {
      expect(upload.capturedAt).not.toBeNull();
      expect(upload.latitude).not.toBeNull();
      expect(upload.camera).toBe('Sitelog Sample photo');
      expect([upload.formatedWidth, upload.formatedHeight]).toEqual([1600, 1200]);
    }
    const preview = await api(ctx, { method: 'GET', url: latest[0]?.previewLink ?? '' });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/webp');
  });

  it('tags most photos as a crew would, normalised, in both stored copies', async () => {
    const rows = await ctx.db.selectFrom('uploads').select(['id', 'tags']).execute();
    const pairs = await ctx.db.selectFrom('upload_tags').select(['upload_id', 'tag']).execute();
    const tagged = rows.filter((r) => r.tags !== '[]');
    expect(tagged.length).toBeGreaterThanOrEqual(rows.length / 2);
    for (const row of rows) {
      const tags = JSON.parse(row.tags) as string[];
      expect(tags.every((tag) => tag === normalizeTag(tag))).toBe(true);
      const own = pairs.filter((p) => p.upload_id === row.id).map((p) => p.tag);
      expect(own.sort()).toEqual([...tags].sort());
    }
    const used = new Set(pairs.map((p) => p.tag));
    for (const tag of ['electrical', 'level 3', 'defect', 'concrete', 'safety'])
      expect(used, tag).toContain(tag);
  });

  it('archives one finished project, by the admin, after its photos', async () => {
    const hints = (await api(ctx, { method: 'GET', url: '/api/auth/hints' })).json<LoginHints>();
    if (!hints.sample) throw new Error('the sample account was not remembered');
    const token = await login(ctx, hints.sample);
    const archived = (await api(ctx, { method: 'GET', url: '/api/project/archived', token })).json<
      Project[]
    >();
    expect(archived).toHaveLength(1);
    const [project] = archived;
    expect(project).toMatchObject({
      name: 'Old Town Car Park Resurfacing',
      uploadsCount: 3,
      archivedBy: { firstname: 'Dana', lastname: 'Whitfield' },
    });
    expect(Date.parse(project?.archivedAt ?? '')).toBeGreaterThan(
      Date.parse(project?.updatedAt ?? ''),
    );
    const rows = (await api(ctx, { method: 'GET', url: '/api/project/all/list', token })).json<
      [number, ...unknown[]][]
    >();
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => row[0])).not.toContain(project?.id);
  });

  it('writes comment threads after their photos, by several members, with counts right', async () => {
    expect(seeded?.comments).toBe(10);
    const comments = await ctx.db.selectFrom('comments').selectAll().execute();
    expect(comments).toHaveLength(10);
    expect(new Set(comments.map((c) => c.author_id)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(comments.map((c) => c.upload_id)).size).toBeGreaterThanOrEqual(5);
    expect(comments.some((c) => c.body.includes('\n'))).toBe(true);
    const uploads = await ctx.db
      .selectFrom('uploads')
      .select(['id', 'created_at', 'comments_count'])
      .execute();
    for (const upload of uploads)
      expect(upload.comments_count, `upload ${upload.id}`).toBe(
        comments.filter((c) => c.upload_id === upload.id).length,
      );
    for (const comment of comments) {
      const upload = uploads.find((u) => u.id === comment.upload_id);
      expect(comment.created_at > (upload?.created_at ?? '')).toBe(true);
      expect(Date.parse(comment.created_at)).toBeLessThanOrEqual(Date.now());
      expect(comment.edited_at).toBeNull();
    }
  });

  it('records each comment and mention as an event in the order of its time', async () => {
    const comments = await ctx.db.selectFrom('comments').select('id').execute();
    const events = await ctx.db
      .selectFrom('events')
      .select(['id', 'kind', 'comment_id', 'created_at'])
      .orderBy('id')
      .execute();
    const added = events.filter((e) => e.kind === 'comment.added');
    expect(added.map((e) => e.comment_id).sort()).toEqual(comments.map((c) => c.id).sort());
    // The timelines list by id: a comment's event sits between the older and the newer uploads.
    events.forEach((event, i) => {
      if (event.kind !== 'comment.added' && event.kind !== 'mention') return;
      for (const before of events.slice(0, i))
        expect(before.created_at <= event.created_at, `event ${before.id}`).toBe(true);
      for (const after of events.slice(i + 1))
        expect(after.created_at >= event.created_at, `event ${after.id}`).toBe(true);
    });
  });

  it('greets the admin with unread notifications, their mentions among them', async () => {
    const hints = (await api(ctx, { method: 'GET', url: '/api/auth/hints' })).json<LoginHints>();
    if (!hints.sample) throw new Error('the sample account was not remembered');
    const token = await login(ctx, hints.sample);
    const unread = await api(ctx, { method: 'GET', url: '/api/notifications/unread', token });
    const { count } = unread.json<UnreadCount>();
    expect(count).toBeGreaterThanOrEqual(5);
    const page = (
      await api(ctx, { method: 'GET', url: '/api/notifications?limit=100', token })
    ).json<NotificationPage>();
    expect(page.unread).toBe(count);
    expect(page.notifications.every((n) => !n.read)).toBe(true);
    const mentions = page.notifications.filter((n) => n.kind === 'mention');
    expect(mentions.map((n) => n.actor.firstname).sort()).toEqual(['Aisha', 'Marco']);
    for (const n of mentions) {
      expect(n.reason).toBe('mentioned');
      expect(n.mentioned).toMatchObject({ firstname: 'Dana', lastname: 'Whitfield' });
    }
    // A member's report on the admin's project is among them (made after the seed, so newest).
    const made = page.notifications.filter((n) => n.kind === 'report.created');
    expect(made).toMatchObject([
      {
        reason: 'creator',
        actor: { firstname: 'Aisha' },
        project: { name: 'Bridge Deck Waterproofing' },
        report: { title: 'Site diary, B4 overpass deck' },
      },
    ]);
    // Newest activity first: the unanswered question about the rebar is on top.
    expect(page.notifications.filter((n) => n.kind !== 'report.created')[0]).toMatchObject({
      kind: 'mention',
      upload: { name: 'Expansion joint, east abutment' },
    });
    expect(page.notifications.some((n) => n.kind === 'comment.added')).toBe(true);
    expect(page.notifications.some((n) => n.kind === 'upload.added')).toBe(true);
    expect(page.notifications.some((n) => n.actor.firstname === 'Dana')).toBe(false);

    const inspection = await ctx.db
      .selectFrom('uploads')
      .select('id')
      .where('name', '=', 'MEP first fix ready for inspection')
      .executeTakeFirstOrThrow();
    const thread = (
      await api(ctx, { method: 'GET', url: `/api/upload/${inspection.id}/comments`, token })
    ).json<CommentPage>();
    expect(thread.count).toBe(3);
    expect(thread.comments.map((c) => c.author.firstname)).toEqual(['Marco', 'Dana', 'Tomasz']);
    expect(thread.comments[0]?.mentions).toMatchObject([{ firstname: 'Dana' }]);
    expect(thread.comments[1]?.body).toMatch(/^Approved, go ahead\./);
  });

  it("names the sample company as the workspace's team", async () => {
    const hints = (await api(ctx, { method: 'GET', url: '/api/auth/hints' })).json<LoginHints>();
    if (!hints.sample) throw new Error('the sample account was not remembered');
    const token = await login(ctx, hints.sample);
    const res = await api(ctx, { method: 'GET', url: '/api/workspace', token });
    expect(res.json<Workspace>()).toEqual({ teamName: SAMPLE_COMPANY });
    expect(SAMPLE_COMPANY).toBe('Whitfield & Rossi Construction');
  });

  it('stores the SHA-256 of every original, the hash of the stored bytes', async () => {
    const rows = await ctx.db
      .selectFrom('uploads')
      .select(['original_key', 'original_sha256'])
      .execute();
    for (const row of rows) {
      const bytes = await ctx.storage.get(row.original_key);
      expect(row.original_sha256).toBe(createHash('sha256').update(bytes!).digest('hex'));
    }
  });

  it('makes a daily report and a defect list, each a PDF of its photos, through the reports service', async () => {
    expect(seeded?.reports).toBe(2);
    expect(reports.map((r) => r.status)).toEqual(['ready', 'ready']);
    expect(reports).toMatchObject([
      {
        type: 'daily',
        title: 'Site diary, B4 overpass deck',
        project: { name: 'Bridge Deck Waterproofing' },
        author: { firstname: 'Aisha' },
        layout: 2,
        teamName: SAMPLE_COMPANY,
        timeZone: 'Europe/Zurich',
        photoCount: 3,
      },
      {
        type: 'defects',
        title: 'Roof defects, bay 3',
        project: { name: 'Warehouse Roof Repair' },
        author: { firstname: 'Lena' },
        layout: 1,
        teamName: SAMPLE_COMPANY,
        photoCount: 3,
      },
    ]);
    for (const report of reports) {
      expect(report.from <= report.to).toBe(true);
      // Each photo is in the PDF with its caption (the photo's description) and fingerprint.
      const rows = await ctx.db
        .selectFrom('reports')
        .select(['pdf_key', 'pdf_pages'])
        .where('id', '=', report.id)
        .executeTakeFirstOrThrow();
      const pdf = await ctx.storage.get(rows.pdf_key ?? '');
      if (!pdf) throw new Error(`report ${report.id} has no stored PDF`);
      expect(await pdfPageCount(pdf)).toBe(rows.pdf_pages);
      const text = (await pdfPages(pdf)).join('\n');
      expect(text).toContain(SAMPLE_COMPANY);
      for (const photo of report.photos) {
        expect(photo.upload).not.toBeNull();
        expect(photo.sha256).toBe(
          (
            await ctx.db
              .selectFrom('uploads')
              .select('original_sha256')
              .where('id', '=', photo.uploadId!)
              .executeTakeFirstOrThrow()
          ).original_sha256,
        );
        expect(text).toContain(photo.sha256);
      }
    }
    expect(reports[0]?.photos.map((p) => p.name)).toEqual([
      'Old asphalt milled off',
      'Membrane primer applied',
      'Expansion joint, east abutment',
    ]);
    expect(reports[1]?.photos[0]?.caption).toBe('Six corroded sheets and two purlins to replace.');
  });

  it('does nothing on a database that already has users', async () => {
    expect(await seedSampleWorkspace(ctx)).toBeNull();
    const count = await ctx.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(21);
  });
});
