// Reports once more with STORAGE=s3, against a real S3-protocol server (s3rver) on 127.0.0.1:
// the PDF is made from the bucket's photos, stored in the bucket, handed out as a presigned
// download, served by a public link, and deleted with its report.
import { createHash } from 'node:crypto';
import type { CreatedReportLink, ReportDetail } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { waitForReport } from '../../../test/reports.js';
import { startS3Server, type TestS3Server } from '../../../test/s3.js';

let s3: TestS3Server;
let ctx: TestContext;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext(s3.env);
});
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
});

async function reportKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of ctx.storage.list('reports/')) keys.push(object.key);
  return keys;
}

describe('reports with S3 storage', () => {
  it('makes the PDF from the bucket, stores it there, and serves it by presigned and public links', async () => {
    expect(ctx.storage.kind).toBe('s3');
    const author = await signedInUser(ctx);
    const projectId = (await buildProject(ctx, { creatorId: author.id })).id;
    const uploadId = await buildUpload(ctx, { projectId, creatorId: author.id });
    const today = new Date().toISOString().slice(0, 10);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/report',
      token: author.token,
      payload: {
        projectId,
        type: 'safety',
        title: 'Bucket walk',
        from: today,
        to: today,
        layout: 1,
        photos: [{ uploadId }],
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const report = await waitForReport(ctx, author.token, created.json<ReportDetail>().id);
    expect(report.status, report.error ?? '').toBe('ready');

    const [key] = await reportKeys();
    expect(key).toMatch(/^reports\/[0-9a-f]{2}\/[0-9a-f-]{36}\/report\.pdf$/);
    const stored = (await ctx.storage.get(key!))!;
    expect(stored.length).toBe(report.pdf!.bytes);
    const upload = await ctx.db
      .selectFrom('uploads')
      .select('original_key')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    const original = (await ctx.storage.get(upload.original_key))!;
    expect(report.photos[0]?.sha256).toBe(createHash('sha256').update(original).digest('hex'));

    // The member's link is the bucket's presigned download, typed and named.
    expect(report.pdf!.link.startsWith(`${s3.endpoint}/${s3.bucket}/reports/`)).toBe(true);
    const download = await fetch(report.pdf!.link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain(
      `filename="Bucket walk (report ${report.id}).pdf"`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(stored)).toBe(true);

    // A public link streams it from the bucket through the server.
    const link = await api(ctx, {
      method: 'POST',
      url: `/api/report/${report.id}/links`,
      token: author.token,
      payload: {},
    });
    expect(link.statusCode, link.body).toBe(201);
    const shared = await ctx.app.inject({
      method: 'GET',
      url: link.json<CreatedReportLink>().path,
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.headers['content-type']).toBe('application/pdf');
    expect(shared.rawPayload.equals(stored)).toBe(true);

    // Deleting the report deletes the object.
    const removed = await api(ctx, {
      method: 'DELETE',
      url: `/api/report/${report.id}`,
      token: author.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await reportKeys()).toEqual([]);
  });
});
