// Backup and restore (issue 10, suite 7): `npm run backup` runs as its own process while members
// keep uploading and deleting, `npm run restore` brings the backup into a fresh data dir (and a
// fresh PostgreSQL database), and the restored install must be consistent: every row has its
// files with the live bytes, every count equals its rows, nothing acknowledged before the backup
// is lost, and the restored app serves the photos. Report PDFs (issue 16) are evidence: every
// ready report comes back with the very bytes of its PDF.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportDetail, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { createStorage } from '../media/storage/index.js';
import { listReportPdfs } from '../modules/reports/reports.service.js';
import { listUploadMedia } from '../modules/uploads/uploads.service.js';
import { buildProject, buildUser, type TestProject } from '../../test/factories.js';
import {
  api,
  createTestContext,
  createTestTarget,
  login,
  openTestContext,
  targetEnv,
  testDialect,
  type TestContext,
  type TestTarget,
} from '../../test/helpers.js';
import { photoJpeg } from '../../test/images.js';
import { waitForReport } from '../../test/reports.js';
import { startS3Server } from '../../test/s3.js';
import { dtoPart, filePart, postUpload } from '../../test/uploads.js';
import { readManifest, type BackupManifest } from './backup-archive.js';
import { backupCli, runBackup } from './backup-command.js';
import { formatBytes, type CliOutput } from './cli-support.js';
import { pgToolMajor } from './database-dump.js';
import { restoreCli } from './restore-command.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let ctx: TestContext;
let members: { id: number; email: string; password: string; token: string }[];
let projects: TestProject[];
let photo: Buffer;
let work: string;

beforeAll(async () => {
  ctx = await createTestContext();
  members = [];
  for (let i = 0; i < 3; i++) {
    const user = await buildUser(ctx);
    members.push({ ...user, token: await login(ctx, user) });
  }
  projects = [];
  for (let i = 0; i < 3; i++) projects.push(await buildProject(ctx, { creatorId: members[i]!.id }));
  photo = await photoJpeg(64, 48);
  work = mkdtempSync(path.join(tmpdir(), 'sitelog-backup-test-'));
});

afterAll(async () => {
  await ctx?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The env the CLIs read to work on the live context's data. */
const liveEnv = () =>
  targetEnv({
    dataDir: ctx.dataDir,
    ...(ctx.config.database.kind === 'postgres' ? { databaseUrl: ctx.config.database.url } : {}),
  });

/** Runs a CLI as its own process, as `npm run` does; answers its exit code and output. */
function runCli(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', `apps/server/src/cli/${script}.ts`, ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Closes an app opened on a restored target, leaving the target for later tests. */
async function closeKeepingData(restored: TestContext): Promise<void> {
  await restored.app.close();
  await restored.images.close();
  await restored.storage.close();
  await restored.db.destroy();
}

/** A CLI output that keeps what was said. */
function captured(): CliOutput & { text: () => string } {
  const lines: string[] = [];
  return { log: (l) => lines.push(l), error: (l) => lines.push(l), text: () => lines.join('\n') };
}

async function upload(
  member: (typeof members)[number],
  projectId: number,
  tags: string[] = [],
): Promise<Upload> {
  const res = await postUpload(ctx, member.token, [
    filePart(photo),
    dtoPart({ name: '', description: '', projectId, tags }),
  ]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>();
}

async function comment(
  member: (typeof members)[number],
  uploadId: number,
  body: string,
): Promise<void> {
  const res = await api(ctx, {
    method: 'POST',
    url: `/api/upload/${uploadId}/comments`,
    token: member.token,
    payload: { body },
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function remove(member: (typeof members)[number], id: number): Promise<void> {
  const res = await api(ctx, {
    method: 'DELETE',
    url: `/api/upload/delete/${id}`,
    token: member.token,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A report of `uploadIds` (photos of `projectId`) by `token`'s member, waited for until ready. */
async function readyReport(
  c: Pick<TestContext, 'app'>,
  token: string,
  projectId: number,
  uploadIds: number[],
  title: string,
): Promise<ReportDetail> {
  const today = new Date().toISOString().slice(0, 10);
  const created = await api(c, {
    method: 'POST',
    url: '/api/report',
    token,
    payload: {
      projectId,
      type: 'daily',
      title,
      from: today,
      to: today,
      layout: 2,
      photos: uploadIds.map((uploadId) => ({ uploadId, caption: `Photo ${uploadId}` })),
    },
  });
  expect(created.statusCode, created.body).toBe(202);
  const report = await waitForReport(c, token, created.json<ReportDetail>().id);
  expect(report.status, report.error ?? '').toBe('ready');
  return report;
}

async function deleteReport(token: string, id: number): Promise<void> {
  const res = await api(ctx, { method: 'DELETE', url: `/api/report/${id}`, token });
  expect(res.statusCode, res.body).toBe(204);
}

/** The stored PDF a report's row names now. */
async function pdfKeyOf(c: Pick<TestContext, 'db'>, id: number): Promise<string | null> {
  const row = await c.db
    .selectFrom('reports')
    .select('pdf_key')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.pdf_key;
}

/**
 * Every restored report that names a PDF has it in the restored storage, with the live bytes
 * wherever the live install has that PDF. Answers the ids of the reports whose PDF was compared.
 */
async function assertEveryReportHasItsPdf(
  restored: TestContext,
  live: Pick<TestContext, 'storage'> = ctx,
): Promise<number[]> {
  const rows = await restored.db
    .selectFrom('reports')
    .select(['id', 'status', 'pdf_key', 'pdf_bytes'])
    .execute();
  const compared: number[] = [];
  for (const row of rows) {
    if (row.status === 'ready') expect(row.pdf_key, `report ${row.id}`).not.toBeNull();
    if (row.pdf_key === null) continue;
    const bytes = await restored.storage.get(row.pdf_key);
    expect(bytes, `report ${row.id}: ${row.pdf_key}`).not.toBeNull();
    expect(bytes!.length, `report ${row.id}`).toBe(row.pdf_bytes);
    const original = await live.storage.get(row.pdf_key);
    if (original) {
      expect(sha256(bytes!), row.pdf_key).toBe(sha256(original));
      compared.push(row.id);
    }
  }
  return compared;
}

/**
 * Counts that must equal the rows, read from the restored database: a project's and a member's
 * uploads, a member's projects, an upload's comments, and an upload's tags in both copies (the
 * row's JSON list and the `upload_tags` pairs). Answers how many comments and tag pairs there
 * were (a test that seeded none would prove nothing about them).
 */
async function assertCountsMatchRows(
  restored: TestContext,
): Promise<{ comments: number; tagPairs: number }> {
  const db = restored.db;
  const projectRows = await db
    .selectFrom('projects')
    .select(['id', 'uploads_count', 'creator_id'])
    .execute();
  const userRows = await db
    .selectFrom('users')
    .select(['id', 'uploads_count', 'projects_count'])
    .execute();
  const uploads = await db.selectFrom('uploads').select(['project_id', 'creator_id']).execute();
  for (const p of projectRows)
    expect(p.uploads_count, `project ${p.id}`).toBe(
      uploads.filter((u) => u.project_id === p.id).length,
    );
  for (const u of userRows) {
    expect(u.uploads_count, `user ${u.id}`).toBe(
      uploads.filter((r) => r.creator_id === u.id).length,
    );
    expect(u.projects_count, `user ${u.id}`).toBe(
      projectRows.filter((p) => p.creator_id === u.id).length,
    );
  }
  const uploadRows = await db
    .selectFrom('uploads')
    .select(['id', 'comments_count', 'tags'])
    .execute();
  const comments = await db.selectFrom('comments').select('upload_id').execute();
  const pairs = await db.selectFrom('upload_tags').select(['upload_id', 'tag']).execute();
  for (const u of uploadRows) {
    expect(u.comments_count, `upload ${u.id}: comments`).toBe(
      comments.filter((c) => c.upload_id === u.id).length,
    );
    expect((JSON.parse(u.tags) as string[]).sort(), `upload ${u.id}: tags`).toEqual(
      pairs
        .filter((p) => p.upload_id === u.id)
        .map((p) => p.tag)
        .sort(),
    );
  }
  return { comments: comments.length, tagPairs: pairs.length };
}

/** Every restored row's files exist, with the live bytes wherever the live install has them. */
async function assertEveryRowHasItsMedia(restored: TestContext): Promise<number> {
  const rows = await restored.db
    .selectFrom('uploads')
    .select(['id', 'preview_key', 'formatted_key', 'original_key'])
    .execute();
  for (const row of rows) {
    for (const key of [row.preview_key, row.formatted_key, row.original_key]) {
      const bytes = await restored.storage.get(key);
      expect(bytes, `upload ${row.id}: ${key}`).not.toBeNull();
      const live = await ctx.storage.get(key);
      if (live) expect(sha256(bytes!), key).toBe(sha256(live));
    }
  }
  return rows.length;
}

describe('npm run backup / npm run restore', { timeout: 90_000 }, () => {
  let backupDir: string;
  let manifest: BackupManifest;
  let restoredTarget: TestTarget;

  it('backs up while uploads and deletes go on, and restores a consistent copy', async () => {
    const acknowledged = new Map<number, { deleted: boolean }>();
    for (let i = 0; i < 6; i++) {
      const created = await upload(members[i % 3]!, projects[i % 3]!.id, ['before', `set ${i}`]);
      acknowledged.set(created.id, { deleted: false });
      await comment(members[(i + 1) % 3]!, created.id, `Checked ${i}`);
    }
    // A report of member 0's two photos in project 0 (uploads 0 and 3), ready before the backup.
    const firstIds = [...acknowledged.keys()];
    const report = await readyReport(
      ctx,
      members[0]!.token,
      projects[0]!.id,
      [firstIds[0]!, firstIds[3]!],
      'Before the backup',
    );
    const livePdf = (await ctx.storage.get((await pdfKeyOf(ctx, report.id))!))!;
    expect(livePdf.length).toBe(report.pdf!.bytes);

    // Two members keep uploading, and each deletes every third of its own uploads, until the
    // backup is done.
    let running = true;
    const during = { uploads: 0, deletes: 0 };
    let backupRunning = false;
    const client = async (index: number) => {
      const member = members[index]!;
      const mine: number[] = [];
      for (let k = 1; running; k++) {
        const created = await upload(member, projects[k % 3]!.id, k % 2 ? ['during'] : []);
        acknowledged.set(created.id, { deleted: false });
        mine.push(created.id);
        // Comments on uploads that will be deleted too: their rows go with the upload.
        if (k % 2 === 1) await comment(member, created.id, `During ${k}`);
        if (backupRunning) during.uploads += 1;
        if (k % 3 === 0) {
          const id = mine.splice(0, 1)[0]!;
          await remove(member, id);
          acknowledged.get(id)!.deleted = true;
          if (backupRunning) during.deletes += 1;
        }
      }
    };
    const load = [client(0), client(1)];

    const beforeBackup = [...acknowledged].filter(([, a]) => !a.deleted).map(([id]) => id);
    backupDir = path.join(work, 'backup');
    backupRunning = true;
    const backup = await runCli('backup', ['--to', backupDir], liveEnv()).finally(() => {
      backupRunning = false;
      running = false;
    });
    await Promise.all(load);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(
      /^Backed up 3 users, 3 projects, \d+ uploads and 1 reports \(\w+\) with \d+ files/,
    );
    // The load really ran while the backup did; otherwise this test proves nothing.
    expect(during.uploads).toBeGreaterThan(0);
    expect(during.deletes).toBeGreaterThan(0);

    manifest = await readManifest(backupDir);
    expect(manifest.dialect).toBe(testDialect);
    // Three files an upload, and the report's PDF.
    expect(manifest.counts.reports).toBe(1);
    expect(manifest.media.files).toBe(
      (manifest.counts.uploads - manifest.deletedDuringBackup.length) * 3 + 1,
    );
    expect(manifest.missingMedia).toEqual([]);
    expect(manifest.reports).toEqual({
      deletedDuringBackup: [],
      regeneratedDuringBackup: [],
      missingPdf: [],
    });

    restoredTarget = await createTestTarget();
    const restore = await runCli('restore', ['--from', backupDir], targetEnv(restoredTarget));
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored 3 users, 3 projects, \d+ uploads and 1 reports/);
    // Both summaries count the same files and bytes.
    const filesAndBytes = (text: string) => /with \d+ files \([^)]+\)/.exec(text)?.[0];
    expect(filesAndBytes(restore.stdout)).toBe(filesAndBytes(backup.stdout));
    expect(filesAndBytes(backup.stdout)).toBe(
      `with ${manifest.media.files} files (${formatBytes(manifest.media.bytes)})`,
    );

    const restored = await openTestContext(restoredTarget);
    try {
      const rows = await assertEveryRowHasItsMedia(restored);
      expect(rows).toBe(manifest.counts.uploads - manifest.deletedDuringBackup.length);
      const seeded = await assertCountsMatchRows(restored);
      expect(seeded.comments).toBeGreaterThanOrEqual(6);
      expect(seeded.tagPairs).toBeGreaterThanOrEqual(12);
      const ids = new Set(
        (await restored.db.selectFrom('uploads').select('id').execute()).map((r) => r.id),
      );
      for (const id of beforeBackup)
        if (!acknowledged.get(id)!.deleted) expect(ids.has(id), `upload ${id}`).toBe(true);

      // The restored app signs its members in and serves their photos.
      const member = members[0]!;
      const token = await login(restored, member);
      const [someId] = [...ids];
      const shown = await api(restored, {
        method: 'GET',
        url: `/api/upload/full/${someId}`,
        token,
      });
      expect(shown.statusCode, shown.body).toBe(200);
      const preview = await api(restored, { method: 'GET', url: shown.json<Upload>().previewLink });
      expect(preview.statusCode).toBe(200);
      expect(preview.headers['content-type']).toBe('image/webp');

      // The report's PDF comes back byte for byte, and the restored app serves it.
      expect(await assertEveryReportHasItsPdf(restored)).toEqual([report.id]);
      const shownReport = await api(restored, {
        method: 'GET',
        url: `/api/report/${report.id}`,
        token,
      });
      expect(shownReport.statusCode, shownReport.body).toBe(200);
      const restoredReport = shownReport.json<ReportDetail>();
      expect(restoredReport.status).toBe('ready');
      expect(restoredReport.photos.map((p) => p.uploadId)).toEqual(
        report.photos.map((p) => p.uploadId),
      );
      const pdf = await api(restored, { method: 'GET', url: restoredReport.pdf!.link });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(sha256(pdf.rawPayload)).toBe(sha256(livePdf));
    } finally {
      await closeKeepingData(restored);
    }
  });

  it('leaves out an upload deleted after the snapshot, with the counts kept', async () => {
    const member = members[2]!;
    const doomed = await upload(member, projects[2]!.id, ['doomed']);
    await comment(members[0]!, doomed.id, 'Gone with the photo');
    const dir = path.join(work, 'backup-with-delete');
    const config = loadConfig(liveEnv());
    const { manifest: m } = await runBackup(config, dir, {
      afterSnapshot: () => remove(member, doomed.id),
    });
    expect(m.deletedDuringBackup).toEqual([doomed.id]);

    const target = await createTestTarget();
    const out = captured();
    expect(await restoreCli(['--from', dir], targetEnv(target), out), out.text()).toBe(0);
    expect(out.text()).toContain('Left out 1 uploads that were deleted while the backup ran.');
    const restored = await openTestContext(target);
    try {
      expect(
        await restored.db.selectFrom('uploads').select('id').where('id', '=', doomed.id).execute(),
      ).toEqual([]);
      await assertEveryRowHasItsMedia(restored);
      await assertCountsMatchRows(restored);
    } finally {
      await restored.close();
    }
  });

  it('leaves out a report deleted after the snapshot, and queues one re-generated meanwhile', async () => {
    const author = members[2]!;
    const photoId = (await upload(author, projects[2]!.id)).id;
    const doomed = await readyReport(ctx, author.token, projects[2]!.id, [photoId], 'Doomed');
    const redone = await readyReport(ctx, author.token, projects[2]!.id, [photoId], 'Redone');
    const oldKey = (await pdfKeyOf(ctx, redone.id))!;
    const dir = path.join(work, 'backup-with-reports');
    const { manifest: m } = await runBackup(loadConfig(liveEnv()), dir, {
      afterSnapshot: async () => {
        await deleteReport(author.token, doomed.id);
        const res = await api(ctx, {
          method: 'POST',
          url: `/api/report/${redone.id}/regenerate`,
          token: author.token,
        });
        expect(res.statusCode, res.body).toBe(202);
        expect((await waitForReport(ctx, author.token, redone.id)).status).toBe('ready');
        // The generator deletes the old PDF just after the row names the new one.
        for (let i = 0; (await ctx.storage.get(oldKey)) !== null; i++) {
          expect(i, 'the old PDF is deleted').toBeLessThan(100);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
    });
    expect(m.reports).toEqual({
      deletedDuringBackup: [doomed.id],
      regeneratedDuringBackup: [redone.id],
      missingPdf: [],
    });
    expect(m.counts.reports).toBeGreaterThanOrEqual(3);
    // Neither PDF is in the backup: only the other reports' are.
    expect(m.media.files).toBe(
      (m.counts.uploads - m.deletedDuringBackup.length) * 3 + m.counts.reports - 2,
    );

    const target = await createTestTarget();
    const out = captured();
    expect(await restoreCli(['--from', dir], targetEnv(target), out), out.text()).toBe(0);
    expect(out.text()).toContain('Left out 1 reports that were deleted while the backup ran.');
    expect(out.text()).toContain(
      'Queued 1 reports for a new PDF: they were re-generated while the backup ran. The server makes their PDF when it starts.',
    );
    // As the restore left it: the deleted report gone with its event, the re-generated one
    // queued and naming no PDF, and every stored object named by a row.
    const config = loadConfig(targetEnv(target));
    const db = createDatabase(config.database);
    try {
      expect(
        await db.selectFrom('reports').select('id').where('id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom('events').select('id').where('report_id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom('reports')
          .select(['status', 'pdf_key', 'pdf_bytes', 'pdf_pages'])
          .where('id', '=', redone.id)
          .executeTakeFirst(),
      ).toEqual({ status: 'queued', pdf_key: null, pdf_bytes: null, pdf_pages: null });
    } finally {
      await db.destroy();
    }

    const restored = await openTestContext(target);
    try {
      // The restored server makes the re-generated report's PDF again; it was first made before,
      // so no second "report created" event.
      const token = await login(restored, author);
      const again = await waitForReport(restored, token, redone.id);
      expect(again.status, again.error ?? '').toBe('ready');
      const events = await restored.db
        .selectFrom('events')
        .select('id')
        .where('report_id', '=', redone.id)
        .execute();
      expect(events).toHaveLength(1);
      const compared = await assertEveryReportHasItsPdf(restored);
      expect(compared.length).toBe(m.counts.reports - 2);
      expect(compared).not.toContain(redone.id);
      await assertEveryRowHasItsMedia(restored);
      await assertCountsMatchRows(restored);
    } finally {
      await restored.close();
    }
    await deleteReport(author.token, redone.id);
  });

  it('keeps a report whose PDF the live storage lost, and warns about it', async () => {
    const author = members[1]!;
    const photoId = (await upload(author, projects[1]!.id)).id;
    const damaged = await readyReport(ctx, author.token, projects[1]!.id, [photoId], 'Damaged');
    const key = (await pdfKeyOf(ctx, damaged.id))!;
    await ctx.storage.delete(key);
    try {
      const out = captured();
      const dir = path.join(work, 'backup-damaged-report');
      expect(await backupCli(['--to', dir], liveEnv(), out), out.text()).toBe(0);
      expect(out.text()).toContain(
        `Warning: 1 reports have their PDF missing from the live storage (not caused by the backup), e.g. report ${damaged.id}: ${key}.`,
      );
      const m = await readManifest(dir);
      expect(m.reports).toEqual({
        deletedDuringBackup: [],
        regeneratedDuringBackup: [],
        missingPdf: [{ id: damaged.id, key }],
      });
    } finally {
      await deleteReport(author.token, damaged.id);
    }
  });

  it('reads every upload and report PDF of the snapshot, page by page', async () => {
    const ids: number[] = [];
    for await (const media of listUploadMedia(ctx.db, 4)) ids.push(media.id);
    const rows = await ctx.db.selectFrom('uploads').select('id').orderBy('id').execute();
    expect(rows.length).toBeGreaterThan(8);
    expect(ids).toEqual(rows.map((r) => r.id));

    const author = members[0]!;
    const photoId = (await upload(author, projects[0]!.id)).id;
    const extra = [
      await readyReport(ctx, author.token, projects[0]!.id, [photoId], 'Page A'),
      await readyReport(ctx, author.token, projects[0]!.id, [photoId], 'Page B'),
    ];
    try {
      const pdfs: { id: number; key: string }[] = [];
      for await (const pdf of listReportPdfs(ctx.db, 2)) pdfs.push(pdf);
      const named = await ctx.db
        .selectFrom('reports')
        .select(['id', 'pdf_key'])
        .where('pdf_key', 'is not', null)
        .orderBy('id')
        .execute();
      expect(named.length).toBeGreaterThanOrEqual(3);
      expect(pdfs).toEqual(named.map((r) => ({ id: r.id, key: r.pdf_key })));
    } finally {
      for (const r of extra) await deleteReport(author.token, r.id);
    }
  });

  it('keeps an upload whose files the live storage lost, and warns about it', async () => {
    const member = members[1]!;
    const damaged = await upload(member, projects[1]!.id);
    const row = await ctx.db
      .selectFrom('uploads')
      .select(['preview_key'])
      .where('id', '=', damaged.id)
      .executeTakeFirstOrThrow();
    await ctx.storage.delete(row.preview_key);
    try {
      const out = captured();
      const dir = path.join(work, 'backup-damaged');
      expect(await backupCli(['--to', dir], liveEnv(), out), out.text()).toBe(0);
      expect(out.text()).toContain(
        `Warning: 1 uploads have files missing from the live storage (not caused by the backup), e.g. upload ${damaged.id}: ${row.preview_key}.`,
      );
      const m = await readManifest(dir);
      expect(m.missingMedia).toEqual([{ id: damaged.id, keys: [row.preview_key] }]);
      expect(m.deletedDuringBackup).toEqual([]);
    } finally {
      await remove(member, damaged.id);
    }
  });

  it('refuses a missing --to, a folder that is not empty, and says what it wants', async () => {
    let out = captured();
    expect(await backupCli([], liveEnv(), out)).toBe(1);
    expect(out.text()).toContain('backup: Missing --to DIR.');
    expect(out.text()).toContain('Usage: npm run backup -- --to DIR');

    out = captured();
    expect(await backupCli(['--to', backupDir], liveEnv(), out)).toBe(1);
    expect(out.text()).toBe(
      `backup: ${backupDir} is not empty: back up into a new or empty folder.`,
    );
    // The refused folder is left as it was.
    expect((await readManifest(backupDir)).snapshotAt).toBe(manifest.snapshotAt);

    out = captured();
    expect(await backupCli(['--help'], liveEnv(), out)).toBe(0);
    expect(out.text()).toContain('--to DIR');
    out = captured();
    expect(await restoreCli(['--help'], liveEnv(), out)).toBe(0);
    expect(out.text()).toContain('--from DIR');
  });

  it('refuses to restore into a target that holds data, and leaves it alone', async () => {
    const out = captured();
    expect(await restoreCli(['--from', backupDir], targetEnv(restoredTarget), out)).toBe(1);
    expect(out.text()).toMatch(/^restore: The target database .*already (holds data|has tables)/);
    await restoredTarget.remove();
  });

  it('refuses a folder without a manifest, and a backup with a changed file', async () => {
    const target = await createTestTarget();
    try {
      const unfinished = path.join(work, 'unfinished');
      mkdirSync(unfinished);
      let out = captured();
      expect(await restoreCli(['--from', unfinished], targetEnv(target), out)).toBe(1);
      expect(out.text()).toBe(
        `restore: ${unfinished} has no manifest.json: it is not a Sitelog backup, or the backup did not finish.`,
      );

      const tampered = path.join(work, 'tampered');
      cpSync(backupDir, tampered, { recursive: true });
      const sums = readFileSync(path.join(tampered, 'SHA256SUMS'), 'utf8').split('\n');
      const mediaFile = sums.find((l) => l.includes('  media/'))!.slice(66);
      const file = path.join(tampered, mediaFile);
      const bytes = readFileSync(file);
      const middle = bytes.length >> 1;
      bytes[middle] = bytes[middle]! ^ 0xff;
      writeFileSync(file, bytes);
      out = captured();
      expect(await restoreCli(['--from', tampered], targetEnv(target), out)).toBe(1);
      expect(out.text()).toBe(
        `restore: ${file} does not match its checksum: the backup was changed or damaged. Nothing was restored.`,
      );
      const otherKind = path.join(work, 'other-kind');
      cpSync(backupDir, otherKind, { recursive: true });
      const other = testDialect === 'sqlite' ? 'postgres' : 'sqlite';
      const names = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
      const otherFile = other === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
      writeFileSync(
        path.join(otherKind, 'manifest.json'),
        JSON.stringify({
          ...manifest,
          dialect: other,
          database: { ...manifest.database, file: otherFile },
        }),
      );
      out = captured();
      expect(await restoreCli(['--from', otherKind], targetEnv(target), out)).toBe(1);
      expect(out.text()).toBe(
        `restore: This backup holds a ${names[other]} database and the target is ${names[testDialect]}: ` +
          'a backup restores into the same kind of database (DATABASE_URL set to postgres://… for PostgreSQL, unset for SQLite).',
      );

      // A manifest naming a database file outside the backup folder is refused before anything
      // is read from it.
      const escaping = path.join(work, 'escaping');
      cpSync(backupDir, escaping, { recursive: true });
      writeFileSync(
        path.join(escaping, 'manifest.json'),
        JSON.stringify({
          ...manifest,
          database: { ...manifest.database, file: '../../etc/passwd' },
        }),
      );
      out = captured();
      expect(await restoreCli(['--from', escaping], targetEnv(target), out)).toBe(1);
      expect(out.text()).toMatch(/is not a manifest this version understands: database\.file/);

      // Nothing was written: the same target takes the untouched backup.
      out = captured();
      expect(await restoreCli(['--from', backupDir], targetEnv(target), out), out.text()).toBe(0);
    } finally {
      await target.remove();
    }
  });

  it('names a missing pg_dump and says which version it needs', async () => {
    const empty = path.join(work, 'no-tools');
    mkdirSync(empty);
    await expect(pgToolMajor('pg_dump', { PATH: empty })).rejects.toThrow(
      /^pg_dump was not found on PATH\. Install the PostgreSQL client tools of your server's major version or newer/,
    );
    const fake = path.join(work, 'old-tools');
    mkdirSync(fake);
    writeFileSync(path.join(fake, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n', {
      mode: 0o755,
    });
    expect(await pgToolMajor('pg_dump', { PATH: fake })).toBe(9);
  });

  it('backs up media from an S3 bucket and restores them into an empty one', async () => {
    const liveBucket = await startS3Server('sitelog-live');
    const newBucket = await startS3Server('sitelog-restored');
    const s3 = await createTestContext(liveBucket.env);
    const target = await createTestTarget();
    try {
      const user = await buildUser(s3);
      const token = await login(s3, user);
      const project = await buildProject(s3, { creatorId: user.id });
      const res = await postUpload(s3, token, [
        filePart(photo),
        dtoPart({ name: 'Facade', description: '', projectId: project.id }),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const report = await readyReport(
        s3,
        token,
        project.id,
        [res.json<Upload>().id],
        'Bucket report',
      );
      const env = targetEnv(
        {
          dataDir: s3.dataDir,
          ...(s3.config.database.kind === 'postgres'
            ? { databaseUrl: s3.config.database.url }
            : {}),
        },
        liveBucket.env,
      );
      const dir = path.join(work, 'backup-s3');
      let out = captured();
      expect(await backupCli(['--to', dir], env, out), out.text()).toBe(0);
      expect(out.text()).toContain('1 reports (');
      expect(out.text()).toContain('with 4 files');

      // The live bucket still holds the photos: restoring into it is refused.
      out = captured();
      expect(await restoreCli(['--from', dir], targetEnv(target, liveBucket.env), out)).toBe(1);
      expect(out.text()).toMatch(/^restore: The target storage already holds media \(uploads\//);
      // A bucket holding only report PDFs is not empty either.
      const strayKey = 'reports/ab/ab000000-0000-4000-8000-000000000000/report.pdf';
      const newStorage = createStorage(loadConfig(targetEnv(target, newBucket.env)));
      try {
        await newStorage.put(strayKey, Buffer.from('%PDF-1.7 stray'), 'application/pdf');
        out = captured();
        expect(await restoreCli(['--from', dir], targetEnv(target, newBucket.env), out)).toBe(1);
        expect(out.text()).toBe(
          `restore: The target storage already holds media (${strayKey}): restore into an empty ` +
            'media folder or bucket. Two installs sharing one would each sweep away the files of the other.',
        );
        await newStorage.delete(strayKey);
      } finally {
        await newStorage.close();
      }

      out = captured();
      expect(
        await restoreCli(['--from', dir], targetEnv(target, newBucket.env), out),
        out.text(),
      ).toBe(0);
      const restored = await openTestContext(target, newBucket.env);
      try {
        const row = await restored.db.selectFrom('uploads').selectAll().executeTakeFirstOrThrow();
        expect(row.name).toBe('Facade');
        for (const key of [row.preview_key, row.formatted_key, row.original_key])
          expect(sha256((await restored.storage.get(key))!)).toBe(
            sha256((await s3.storage.get(key))!),
          );
        // The report's PDF is in the new bucket with the live bytes.
        expect(await assertEveryReportHasItsPdf(restored, s3)).toEqual([report.id]);
      } finally {
        await closeKeepingData(restored);
      }
    } finally {
      await target.remove();
      await s3.close();
      await liveBucket.close();
      await newBucket.close();
    }
  });
});
