// Public links to a report's PDF (issue 16): who may make, list and revoke them, what a link
// serves (that one PDF, as a download, never cached, sandboxed) and to whom (anyone, from any site),
// expiry, revocation, the download count, guessing, and the token kept out of the log.
import type { CreatedReportLink, ErrorResponse, ReportDetail, ReportLink } from '@sitelog/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MEDIA_CSP } from '../../http/security-headers.js';
import type { Storage } from '../../media/storage/index.js';
import { buildProject, buildReport, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { waitForReport } from '../../../test/reports.js';
import { openSharedReport } from './reports.links.js';
import { sharedLinkErrorPage } from './reports.routes.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let author: Member;
let member: Member;
let admin: Member;
let projectId: number;
let photos: number[];
/** Two reports of the author's with their PDFs made. */
let reportA: ReportDetail;
let reportB: ReportDetail;
let lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  ctx = await createTestContext(
    { LOG_LEVEL: 'info' },
    {
      logDestination: {
        write(line: string) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    },
  );
  author = await signedInUser(ctx, { firstname: 'Rita', lastname: 'Reporter' });
  member = await signedInUser(ctx);
  admin = await signedInUser(ctx, { isAdmin: true });
  projectId = (await buildProject(ctx, { creatorId: author.id })).id;
  photos = [
    await buildUpload(ctx, { projectId, creatorId: author.id }),
    await buildUpload(ctx, { projectId, creatorId: author.id }),
  ];
  reportA = await readyReport('Report A — Ölhafen', [photos[0]!]);
  reportB = await readyReport('Report B', [photos[1]!]);
});
afterAll(async () => ctx?.close());
beforeEach(() => {
  lines = [];
});

async function readyReport(title: string, uploadIds: number[]): Promise<ReportDetail> {
  const today = new Date().toISOString().slice(0, 10);
  const res = await api(ctx, {
    method: 'POST',
    url: '/api/report',
    token: author.token,
    payload: {
      projectId,
      type: 'custom',
      title,
      from: today,
      to: today,
      layout: 1,
      photos: uploadIds.map((uploadId) => ({ uploadId })),
    },
  });
  expect(res.statusCode, res.body).toBe(202);
  const report = await waitForReport(ctx, author.token, res.json<ReportDetail>().id);
  expect(report.status).toBe('ready');
  return report;
}

const makeLink = (reportId: number | string, token?: string, body: unknown = {}) =>
  api(ctx, {
    method: 'POST',
    url: `/api/report/${reportId}/links`,
    token,
    payload: body as Record<string, unknown>,
  });
const listLinks = (reportId: number | string, token?: string) =>
  api(ctx, { method: 'GET', url: `/api/report/${reportId}/links`, token });
const revoke = (linkId: number | string, token?: string) =>
  api(ctx, { method: 'DELETE', url: `/api/report/link/${linkId}`, token });
const open = (
  path: string,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) => ctx.app.inject({ method: 'GET', url: path, ...options });

/** What Chromium sends when a link is opened (a navigation). */
const BROWSER = {
  accept:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
};
const ASK_FOR_NEW = 'Ask the person who sent you the link for a new one.';

/** A refusal answered as a page: self-contained, never cached or indexed, its style by hash. */
function expectPage(res: Awaited<ReturnType<typeof open>>, status: number, message: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers).toMatchObject({
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'x-content-type-options': 'nosniff',
    vary: 'accept',
    // A page under /api: its address holds the link's token, which no referrer may carry away.
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  });
  const csp = res.headers['content-security-policy'] as string;
  expect(csp.split('; ')[0]).toBe("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  const style = /<style>([^<]*)<\/style>/.exec(res.body)?.[1];
  expect(style).toBeDefined();
  expect(csp).toContain(
    `style-src 'sha256-${createHash('sha256').update(style!).digest('base64')}'`,
  );
  expect(res.body).toMatch(/^<!doctype html>/);
  expect(res.body).toContain('<title>Sitelog report link</title>');
  expect(res.body).toContain(`<p>${message}</p>`);
  // Nothing the page loads: no script, no other request.
  expect(res.body).not.toMatch(/<script|<link|src=|href=|url\(/i);
}

async function link(reportId: number, body: unknown = {}): Promise<CreatedReportLink> {
  const res = await makeLink(reportId, author.token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedReportLink>();
}

const storedPdf = async (reportId: number) => {
  const { pdf_key } = await ctx.db
    .selectFrom('reports')
    .select('pdf_key')
    .where('id', '=', reportId)
    .executeTakeFirstOrThrow();
  return (await ctx.storage.get(pdf_key!))!;
};

const linkRow = (id: number) =>
  ctx.db.selectFrom('report_links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /api/report/{id}/links', () => {
  it('asks a signed-out caller to sign in; 404 unknown; 403 for a member who is not the author', async () => {
    expect((await makeLink(reportA.id)).statusCode).toBe(401);
    expect((await makeLink(999_999, author.token)).statusCode).toBe(404);
    const res = await makeLink(reportA.id, member.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toBe(
      'Only the author of this report or an admin can share it.',
    );
  });

  it('refuses a bad expiry with a message (400)', async () => {
    for (const [body, message] of [
      [{ expiresInDays: 0 }, 'A link must work for at least 1 day.'],
      [{ expiresInDays: 366 }, 'A link can work for at most 365 days.'],
      [{ expiresInDays: 1.5 }, 'expiresInDays must be a whole number of days.'],
    ] as const) {
      const res = await makeLink(reportA.id, author.token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorResponse>().message).toBe(message);
    }
  });

  it('answers 409 while the report has no PDF yet', async () => {
    const id = await buildReport(ctx, { projectId, authorId: author.id, uploadIds: [photos[0]!] });
    await ctx.db
      .updateTable('reports')
      .set({ status: 'failed', error: 'x' })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .execute();
    const res = await makeLink(id, author.token);
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'report_not_ready',
      message: 'This report has no PDF yet. Wait until it is ready, then make the link.',
    });
  });

  it('takes no body at all, or an empty one, as the 30 days default', async () => {
    const withNone = await api(ctx, {
      method: 'POST',
      url: `/api/report/${reportA.id}/links`,
      token: author.token,
    });
    const withEmpty = await api(ctx, {
      method: 'POST',
      url: `/api/report/${reportA.id}/links`,
      token: author.token,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    for (const res of [withNone, withEmpty]) {
      expect(res.statusCode, res.body).toBe(201);
      const days = (Date.parse(res.json<ReportLink>().expiresAt) - Date.now()) / 86_400_000;
      expect(Math.round(days)).toBe(30);
    }
    // A body that is there is still read as JSON.
    const bad = await api(ctx, {
      method: 'POST',
      url: `/api/report/${reportA.id}/links`,
      token: author.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"expiresInDays":',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('makes an unguessable link, valid 30 days unless asked, storing only its hash', async () => {
    const before = Date.now();
    const made = await link(reportA.id);
    expect(made).toMatchObject({
      reportId: reportA.id,
      createdBy: { id: author.id, firstname: 'Rita', lastname: 'Reporter' },
      active: true,
      revokedAt: null,
      downloads: 0,
      lastDownloadAt: null,
      path: expect.stringMatching(/^\/api\/report\/shared\/[A-Za-z0-9_-]{43}$/),
    });
    const days = (Date.parse(made.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30 - 1 / 1440);
    expect(days).toBeLessThan(30 + 1 / 1440);
    const token = made.path.split('/').pop()!;
    const row = await linkRow(made.id);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    // An admin may share any report, for as long as asked.
    const res = await makeLink(reportA.id, admin.token, { expiresInDays: 7 });
    expect(res.statusCode).toBe(201);
    const days7 = (Date.parse(res.json<ReportLink>().expiresAt) - Date.now()) / 86_400_000;
    expect(Math.round(days7)).toBe(7);
  });
});

describe('GET /api/report/{id}/links', () => {
  it('asks a signed-out caller to sign in; 404 unknown; 403 for a member who is not the author', async () => {
    expect((await listLinks(reportB.id)).statusCode).toBe(401);
    expect((await listLinks(999_999, author.token)).statusCode).toBe(404);
    expect((await listLinks(reportB.id, member.token)).statusCode).toBe(403);
    expect((await listLinks('x', author.token)).statusCode).toBe(400);
  });

  it('lists the report’s links newest first, without their tokens', async () => {
    const first = await link(reportB.id);
    const second = await link(reportB.id);
    const res = await listLinks(reportB.id, admin.token);
    expect(res.statusCode).toBe(200);
    const links = res.json<ReportLink[]>();
    expect(links.map((l) => l.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(res.body).not.toContain(first.path.split('/').pop());
    expect(links[0]).not.toHaveProperty('path');
  });
});

describe('DELETE /api/report/link/{id}', () => {
  it('asks a signed-out caller to sign in; 404 unknown; 403 for a member who is not the author', async () => {
    const made = await link(reportA.id);
    expect((await revoke(made.id)).statusCode).toBe(401);
    expect((await revoke(999_999, author.token)).statusCode).toBe(404);
    const res = await revoke(made.id, member.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toBe(
      'Only the author of this report or an admin can switch off its public links.',
    );
    expect((await open(made.path)).statusCode).toBe(200);
  });

  it('switches the link off at once (410 with a clear message); the list says so', async () => {
    const made = await link(reportA.id);
    expect((await open(made.path)).statusCode).toBe(200);
    const res = await revoke(made.id, admin.token);
    expect(res.statusCode).toBe(204);
    const refused = await open(made.path);
    expect(refused.statusCode).toBe(410);
    expect(refused.json<ErrorResponse>()).toMatchObject({
      code: 'report_link_revoked',
      // An admin switched it off here: the message names nobody.
      message:
        'This report link has been switched off. Ask the person who shared it for a new one.',
    });
    const listed = (await listLinks(reportA.id, author.token))
      .json<ReportLink[]>()
      .find((l) => l.id === made.id);
    expect(listed).toMatchObject({ active: false, revokedAt: expect.any(String), downloads: 1 });
    // Revoking again changes nothing.
    expect((await revoke(made.id, author.token)).statusCode).toBe(204);
    expect((await linkRow(made.id)).revoked_at).toBe(listed!.revokedAt);
  });
});

describe('GET /api/report/shared/{token} (public)', () => {
  it('serves exactly that report’s PDF to anyone, as a download, never cached, sandboxed', async () => {
    const a = await link(reportA.id);
    const b = await link(reportB.id);
    const pdfA = await storedPdf(reportA.id);
    const pdfB = await storedPdf(reportB.id);
    expect(pdfA.equals(pdfB)).toBe(false);

    // No bearer token: the link is the credential. Opened from a mail on another site.
    const res = await open(a.path, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pdfA)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdfA.length),
      // Named after the title and the report's id, as the session's link names it.
      'content-disposition': `attachment; filename="Report A _ _lhafen (report ${reportA.id}).pdf"; filename*=UTF-8''Report%20A%20%E2%80%94%20%C3%96lhafen%20%28report%20${reportA.id}%29.pdf`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': MEDIA_CSP,
      'referrer-policy': 'no-referrer',
    });
    const other = await open(b.path);
    expect(other.rawPayload.equals(pdfB)).toBe(true);
    // Nothing else of the API opens with it.
    const me = await api(ctx, {
      method: 'GET',
      url: `/api/report/${reportA.id}`,
      headers: { authorization: `Bearer ${a.path.split('/').pop()}` },
    });
    expect(me.statusCode).toBe(401);
    // The rest of the API still refuses cross-site requests.
    const cross = await api(ctx, {
      method: 'GET',
      url: `/api/report/${reportA.id}`,
      token: author.token,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
  });

  it('counts every download, also those served at the same time', async () => {
    const made = await link(reportB.id);
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => open(made.path)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const row = await linkRow(made.id);
    expect(row.downloads).toBe(5);
    expect(Date.parse(row.last_download_at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('stops at expiry (410), without counting', async () => {
    const made = await link(reportA.id, { expiresInDays: 1 });
    await ctx.db
      .updateTable('report_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.id)
      .execute();
    const res = await open(made.path);
    expect(res.statusCode).toBe(410);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'report_link_expired',
      message: 'This report link has expired. Ask the person who shared it for a new one.',
    });
    expect((await linkRow(made.id)).downloads).toBe(0);
    const listed = (await listLinks(reportA.id, author.token))
      .json<ReportLink[]>()
      .find((l) => l.id === made.id);
    expect(listed?.active).toBe(false);
  });

  it('serves the report’s newest PDF after a re-generation, and the old one while it runs', async () => {
    const report = await readyReport('Re-made', [photos[0]!]);
    const made = await link(report.id);
    const first = await storedPdf(report.id);
    expect((await open(made.path)).rawPayload.equals(first)).toBe(true);
    // The new PDF is held on its way to storage, so the re-generation is still running.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let storing = false;
    const put = ctx.storage.put.bind(ctx.storage);
    ctx.storage.put = async (key, source, type) => {
      if (key.startsWith('reports/')) {
        storing = true;
        await held;
      }
      return put(key, source, type);
    };
    try {
      const again = await api(ctx, {
        method: 'POST',
        url: `/api/report/${report.id}/regenerate`,
        token: author.token,
      });
      expect(again.statusCode).toBe(202);
      const end = Date.now() + 15_000;
      while (!storing && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      expect(storing).toBe(true);
      const during = await open(made.path);
      expect(during.statusCode).toBe(200);
      expect(during.rawPayload.equals(first)).toBe(true);
    } finally {
      release();
      ctx.storage.put = put;
    }
    expect((await waitForReport(ctx, author.token, report.id)).status).toBe('ready');
    const second = await storedPdf(report.id);
    expect(second.equals(first)).toBe(false);
    expect((await open(made.path)).rawPayload.equals(second)).toBe(true);
  });

  it('stops working once the member who made it is deactivated (410), and again once reactivated', async () => {
    const maker = await signedInUser(ctx, { firstname: 'Lena', lastname: 'Leaving' });
    const project = (await buildProject(ctx, { creatorId: maker.id })).id;
    const photo = await buildUpload(ctx, { projectId: project, creatorId: maker.id });
    const today = new Date().toISOString().slice(0, 10);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/report',
      token: maker.token,
      payload: {
        projectId: project,
        type: 'daily',
        title: 'Handover',
        from: today,
        to: today,
        layout: 1,
        photos: [{ uploadId: photo }],
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const report = await waitForReport(ctx, maker.token, created.json<ReportDetail>().id);
    expect(report.status).toBe('ready');
    const res = await makeLink(report.id, maker.token);
    expect(res.statusCode).toBe(201);
    const made = res.json<CreatedReportLink>();
    expect((await open(made.path)).statusCode).toBe(200);

    const off = await api(ctx, {
      method: 'DELETE',
      url: `/api/user/${maker.id}`,
      token: admin.token,
    });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await open(made.path);
    expect(refused.statusCode).toBe(410);
    expect(refused.json<ErrorResponse>()).toMatchObject({
      code: 'report_link_maker_deactivated',
      message:
        'This link was switched off: the account of the person who shared it has been deactivated. Ask the team for a new link.',
    });
    const page = await open(made.path, { headers: BROWSER });
    expectPage(
      page,
      410,
      'This link was switched off: the account of the person who shared it has been deactivated. Ask the team for a new link.',
    );
    expect(page.body).toContain(ASK_FOR_NEW);
    expect((await linkRow(made.id)).downloads).toBe(1);
    const listed = (await listLinks(report.id, admin.token))
      .json<ReportLink[]>()
      .find((l) => l.id === made.id);
    expect(listed).toMatchObject({ active: false, revokedAt: null });

    const on = await api(ctx, {
      method: 'GET',
      url: `/api/user/${maker.id}/activate`,
      token: admin.token,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect((await open(made.path)).statusCode).toBe(200);
    expect((await linkRow(made.id)).downloads).toBe(2);
  });

  it('closes the PDF’s stream when counting the download fails', async () => {
    const made = await link(reportB.id);
    const token = made.path.split('/').pop()!;
    let body: Readable | undefined;
    const storage: Storage = {
      ...ctx.storage,
      stream: async (key) => {
        const object = await ctx.storage.stream(key);
        body = object?.body;
        return object;
      },
    };
    // The database refuses the count's write (a lost connection, a full disk).
    const failingWrites: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (node.kind === 'UpdateQueryNode') throw new Error('the database went away');
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await expect(
      openSharedReport(
        { db: ctx.db.withPlugin(failingWrites), config: ctx.config, storage },
        token,
        '203.0.113.7',
      ),
    ).rejects.toThrow('the database went away');
    expect(body).toBeDefined();
    expect(body!.destroyed).toBe(true);
    expect((await linkRow(made.id)).downloads).toBe(0);
  });

  it('answers an unknown token 404 and a malformed one 400, with clear messages', async () => {
    const res = await open(`/api/report/shared/${'A'.repeat(43)}`);
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorResponse>().message).toBe(
      'This report link is not valid. Check that you opened the whole link, or ask the person who shared it for a new one.',
    );
    const bad = await open('/api/report/shared/short');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorResponse>().message).toBe('The report link is incomplete.');
  });

  it('limits how many unknown tokens an address may try, with the sign-in limit per IP', async () => {
    const remoteAddress = '203.0.113.91';
    const made = await link(reportA.id);
    for (let i = 0; i < ctx.config.loginLimits.perIp; i += 1) {
      const res = await open(`/api/report/shared/${'G'.repeat(40)}${String(i).padStart(3, '0')}`, {
        remoteAddress,
      });
      expect(res.statusCode).toBe(404);
    }
    const blocked = await open(made.path, { remoteAddress });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.json<ErrorResponse>().code).toBe('too_many_attempts');
    // A browser is told the same as a page, with when to try again (a new link would not help).
    const page = await open(made.path, { remoteAddress, headers: BROWSER });
    expectPage(page, 429, blocked.json<ErrorResponse>().message);
    expect(page.headers['retry-after']).toMatch(/^\d+$/);
    expect(page.body).not.toContain(ASK_FOR_NEW);
    // Another address is not held back, and a real link is no guess.
    expect((await open(made.path)).statusCode).toBe(200);
    expect((await open(made.path)).statusCode).toBe(200);
  });

  it('keeps the token out of the request log', async () => {
    const made = await link(reportB.id);
    const token = made.path.split('/').pop()!;
    lines = [];
    expect((await open(made.path)).statusCode).toBe(200);
    expect((await open(`/api/report/shared/${token.slice(0, 40)}xyz`)).statusCode).toBe(404);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(token.slice(0, 20));
    expect(lines.map((l) => (l.req as { url?: string } | undefined)?.url)).toContain(
      '/api/report/shared/[redacted]',
    );
  });
});

describe('GET /api/report/shared/{token} opened in a browser', () => {
  const UNKNOWN =
    'This report link is not valid. Check that you opened the whole link, or ask the person who shared it for a new one.';

  it('answers a link that does not work with a page, the same status and message', async () => {
    const unknown = await open(`/api/report/shared/${'A'.repeat(43)}`, { headers: BROWSER });
    expectPage(unknown, 404, UNKNOWN);
    expect(unknown.body).toContain(`<p>${ASK_FOR_NEW}</p>`);
    expectPage(
      await open('/api/report/shared/short', { headers: BROWSER }),
      400,
      'The report link is incomplete.',
    );

    const revoked = await link(reportA.id);
    expect((await revoke(revoked.id, author.token)).statusCode).toBe(204);
    const off = await open(revoked.path, { headers: BROWSER });
    expectPage(
      off,
      410,
      'This report link has been switched off. Ask the person who shared it for a new one.',
    );
    expect(off.body).toContain(ASK_FOR_NEW);

    const expired = await link(reportA.id, { expiresInDays: 1 });
    await ctx.db
      .updateTable('report_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    expectPage(
      await open(expired.path, { headers: { accept: 'text/html' } }),
      410,
      'This report link has expired. Ask the person who shared it for a new one.',
    );

    // A link that works is the PDF, whoever asks.
    const working = await link(reportB.id);
    const pdf = await open(working.path, { headers: BROWSER });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('keeps the JSON error for API clients: JSON asked for, any type, no Accept, or a tie', async () => {
    const revoked = await link(reportB.id);
    expect((await revoke(revoked.id, author.token)).statusCode).toBe(204);
    for (const accept of [
      'application/json',
      '*/*',
      undefined,
      'application/json, text/html',
      'text/html;q=0.5, application/json',
    ]) {
      const res = await open(revoked.path, { headers: accept ? { accept } : {} });
      expect(res.statusCode, accept).toBe(410);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(res.headers.vary).toBe('accept');
      expect(res.json<ErrorResponse>().code).toBe('report_link_revoked');
    }
    const unknown = await open(`/api/report/shared/${'B'.repeat(43)}`, {
      headers: { accept: 'application/json' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorResponse>().message).toBe(UNKNOWN);
  });

  it('escapes the message in the page', () => {
    const page = sharedLinkErrorPage(`<script>alert("x")</script> & 'quoted'`, false);
    expect(page).toContain(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>',
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain(ASK_FOR_NEW);
  });
});
